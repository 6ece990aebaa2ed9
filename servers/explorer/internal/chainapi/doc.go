// Package chainapi serves the explorer's model and chain endpoints: the
// decision-model listing of a knowledge graph (/v1/dmns, cached per
// endpoint), connectable pairs, semantic equivalences and cycles, the
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
// # Figures
//
// Over real HTTP (httptest, loopback) on a shared 2-core machine under
// load; the lead re-measures on an idle one:
//
//	go test -run XXX -bench BenchmarkLocalPassHTTP -benchtime 2000x ./servers/explorer/internal/chainapi/
//	POST /v1/chains/execute/localpass, embedded engine: p50 0.20 ms, p99 1.2 ms (target: p99 < 20 ms; spec < 1000 ms)
//
//	go test -run XXX -bench BenchmarkListDMNsCatalogue -benchtime 5x ./servers/explorer/internal/chainapi/
//	go test -run TestListDMNsCatalogue -v ./servers/explorer/internal/chainapi/
//	GET /v1/dmns, 10,000 generated models (~500,000 triples, memstore), 10.7 MB of JSON:
//	uncached 0.75 s (benchmark, load ~6) to 1.5–2.0 s (first call, load ~5–10; ~0.77 s CPU),
//	cached 12 ms p50 / 29 ms p99 (benchmark) to 34 ms (targets: < 2 s, < 50 ms)
//
// The cached call reuses the listing's JSON encoding (encoding 10,000
// records again took most of its time); the first call's cost is the
// listing queries in memstore (see the chain package).
package chainapi
