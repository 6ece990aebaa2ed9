// Package engine defines regelkit's decision engine: the Decisions and
// Engine interfaces (deploy resources, look up decision definitions by
// key, version and tenant, fetch DMN XML, evaluate by key), the repository
// types in Operaton's JSON shapes, and the variable model Operaton's REST
// API uses — {value, type, valueInfo} with the types Null, Boolean, Short,
// Integer, Long, Double, String, Date, Json and Bytes. Implementations are
// engine/local (embedded, on the dmn package) and engine/operaton (a
// remote Operaton); engine/rest serves any of them under Operaton's paths.
//
// The one call a newcomer needs turns plain values into typed variables:
//
//	v, err := engine.Infer(1500)          // Integer 1500
//	rows, err := eng.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", engine.Variables{"dagVanAanvraag": engine.String("2025-12-24")})
//	values := rows.Values()               // one row: output -> value
//
// Numbers are never float64 inside a Variable: they keep their decimal
// text (json.Number), so a Long or a 34-digit decimal crosses JSON and
// FEEL exactly. Dates travel as String ("2025-12-24"), which DMN models
// convert with date(…).
//
// Figures (go test -bench . ./engine/, 2-core AMD EPYC shared with other
// jobs, so noisy): ParseVariables of a 3-variable request plus its FEEL
// conversion, BenchmarkParseVariables: about 17 µs, 62 allocations.
package engine
