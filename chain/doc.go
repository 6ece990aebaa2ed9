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
//	models, err := chain.ListModels(ctx, endpoint, logger)
//	pairs, err := chain.ConnectablePairs(ctx, endpoint)
//
// A Catalog caches listings per endpoint for five minutes, at most 32
// endpoints and 100,000 models (least recently used go first).
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
//	res, err := localPass.Run(ctx, eng, vars, true)
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
// # Figures
//
// Measured on a shared 2-core machine under load (other builds running;
// treat as upper bounds), go1.26:
//
//	go test -run XXX -bench . -benchmem ./chain/
//	BenchmarkLocalPassRun        ~0.07–0.18 ms/op (three evaluations, embedded engine, with steps)
//	BenchmarkAssembleDRD         ~7–12 ms/op (the three local-pass files, ~1,900 lines)
//	BenchmarkListModelsCatalog   ~1.1–1.3 s/op wall, ~0.6 s CPU (10,000 models, ~500,000 triples, memstore)
//
// The listing's CPU goes to memstore for the most part: the two variable
// queries (150,000 and 80,000 rows, ~150 and ~105 ms CPU) and the model
// properties query (42,500 rows, ~100 ms); record assembly in Go takes
// ~80 ms. Splitting the variables query (formerly one UNION with BIND and
// DISTINCT over 230,000 rows, ~500 ms CPU) halved its cost. Over HTTP see
// servers/explorer/internal/chainapi.
package chain
