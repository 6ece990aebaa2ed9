// Package chain discovers decision models in a knowledge graph and chains
// them: it lists the models a SPARQL endpoint publishes (CPRMV 0.3.0 and
// 0.4.1 DecisionModel classes, CPSV inputs and outputs, governance and
// vendor services), finds outputs that can feed inputs (by identifier or
// through a shared skos:exactMatch concept), reports circular dependencies,
// executes chains on a decision engine and assembles chains into one DRD.
//
// Discovery works over any sparql.Endpoint and is deterministic: where the
// graph states several values, the Dutch, then untagged, then lexically
// smallest one is chosen:
//
//	models, err := chain.ListModels(ctx, endpoint, chain.ListOptions{Logger: logger})
//	pairs, err := chain.ConnectablePairs(ctx, endpoint)
//
// A Catalog is the one cache of listings: per endpoint, for five minutes,
// each Listing holding the models and their JSON encoded once, at most 32
// endpoints, 100,000 models and 128 MiB of JSON (least recently used go
// first):
//
//	listing, err := catalog.Listing(ctx, endpointURL, endpoint, chain.LookupOptions{})
//
// # Execution
//
// Execute runs models in order on an engine.Decisions: every step is sent
// all accumulated variables and its outputs are merged over them; a
// declared input still absent before a step is taken from the most recent
// earlier step whose output shares its concept (semantic pass-forward,
// SemanticLinks). A result with several rows becomes, per output, the list
// of its values; no rows is a *StepError "<model>: no rule matched
// (<decision>)". ExecuteDRD evaluates a deployed DRD from its entry point.
// FixedChain is a chain of known models with typed request fields; the
// local-pass chain is NewLocalPass over its three DMN files:
//
//	ex, err := chain.Execute(ctx, eng, endpoint, models, inputs)
//	res, err := localPass.Run(ctx, eng, vars, chain.RunOptions{Steps: true})
//
// # DRD export
//
// AssembleDRD prefixes every id of model i with dmn{i}_, makes each
// model's main decision require the previous one's first (Operaton then
// evaluates the whole previous tree before it) and writes one DMN 1.3
// document; ExportDRD reads the models' XML from the engine, assembles and
// deploys it and returns the executable entry key (for three models
// dmn2_<last identifier>), replacing an earlier export of the same name.
// CheckDRDCompatible refuses chains a DRD cannot express, naming the step:
// a model twice, an input fed only through a semantic link or only by a
// later model (a cycle); with ExportOptions.Models, ExportDRD also refuses
// an input that no earlier model and no inputData provides.
//
// # Performance
//
// The listing's CPU goes to memstore for the most part: the two variable
// queries and the model properties query; record assembly in Go is the
// smaller share. The listing's cost over HTTP, first call and cached, is
// in the README's performance table (servers/explorer/internal/chainapi).
package chain
