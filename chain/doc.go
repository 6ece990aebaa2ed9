// Package chain discovers decision models in a knowledge graph and chains
// them: it lists the models a SPARQL endpoint publishes (CPRMV 0.3.0 and
// 0.4.1 DecisionModel classes, CPSV inputs and outputs, governance and
// vendor services), finds outputs that can feed inputs (by identifier or
// through a shared skos:exactMatch concept), reports circular dependencies,
// and executes chains on a decision engine.
//
// Discovery works over any sparql.Endpoint and is deterministic: where the
// graph states several values, the Dutch, then untagged, then lexically
// smallest one is chosen:
//
//	models, err := chain.ListModels(ctx, endpoint, logger)
//	pairs, err := chain.ConnectablePairs(ctx, endpoint)
//
// A Catalog caches listings per endpoint for five minutes.
package chain
