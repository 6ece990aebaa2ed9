// Package chainapi serves the explorer's model and chain endpoints: the
// decision-model listing of a knowledge graph (/v1/dmns, cached per
// endpoint in Deps.Catalog, which keeps each listing with its encoded
// JSON), connectable pairs, semantic equivalences and cycles, the
// chains discoverable by identifier, chain execution (sequential or from a
// DRD entry point), the fixed local-pass chain, DRD export, the DMN XML of
// a deployed model and the SPARQL query proxy, with the /api aliases the
// explorer specification lists.
//
// The handlers are thin: they decode and validate the request (400
// INVALID_REQUEST naming the field), resolve the caller's SPARQL endpoint
// through Deps.Resolve (a refused endpoint is 400), call the chain
// package and encode the envelope. Failures map to the explorer's codes:
// QUERY_ERROR and DISCOVERY_ERROR (500) for the knowledge graph,
// EXECUTION_ERROR (500) for the decision engine, NOT_FOUND (404) for an
// unknown model:
//
//	chainapi.Register(router, chainapi.Deps{Resolve: kg.Resolve, Catalog: &chain.Catalog{},
//		Engine: eng, LocalPass: localPass, Logger: logger})
//
// The listing's latency, cached and uncached, and the local-pass chain's
// latency over HTTP are in the README's performance table, with the
// benchmark commands that measure them.
package chainapi
