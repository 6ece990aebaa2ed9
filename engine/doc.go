// Package engine defines regelkit's decision and process engine: the
// Decisions and Engine interfaces (deploy resources, look up decision
// definitions by key, version and tenant, fetch DMN XML, evaluate by key),
// the Processes interface (BPMN process definitions, instances, user and
// external tasks, history; ProcessEngine is both), the repository and
// runtime types in Operaton's JSON shapes, and the variable model Operaton's REST
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
// convert with date(…). The conversion to and from FEEL values is
// engine/local's (local.FEEL, local.FromFEEL), so that this package, and
// every client of it such as engine/operaton, links nothing of the DMN
// engine.
package engine
