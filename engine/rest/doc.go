// Package rest serves any engine.Engine under Operaton's REST paths, so
// that tools and clients written for Operaton (Camunda 7) — the Modeler's
// deploy button, engine/operaton, scripts against /engine-rest — work
// against regelkit's embedded engine. It is a thin http.Handler: decode
// Operaton's request, call the engine, encode Operaton's JSON shapes and
// status codes.
//
//	mux.Handle("/engine-rest/", rest.NewHandler(local.New(local.Options{}), rest.Options{}))
//
// Limits: deployments up to 50 MB and 100 parts, JSON bodies up to 10 MB
// (Options).
//
// Figures (go test -bench . ./engine/rest/, 2-core AMD EPYC shared with
// other jobs, so noisy): evaluating a 10-rule table through the facade
// over loopback HTTP with keep-alive, BenchmarkEvaluateREST: p50 59 µs,
// p99 0.9 ms; the handler alone on a recorder, BenchmarkHandlerEvaluate:
// about 26 µs, 117 allocations.
package rest
