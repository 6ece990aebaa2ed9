// Package rest serves any engine.Engine under Operaton's REST paths — its
// decisions and, when it implements engine.Processes, its processes,
// tasks, external tasks and history — so
// that tools and clients written for Operaton (Camunda 7) — the Modeler's
// deploy button, engine/operaton, scripts against /engine-rest — work
// against regelkit's embedded engine. It is a thin http.Handler: decode
// Operaton's request, call the engine, encode Operaton's JSON shapes and
// status codes.
//
//	mux.Handle("/engine-rest/", rest.NewHandler(local.New(local.Options{}), rest.Options{}))
//
// Limits: deployments up to 50 MB and 100 parts, JSON bodies up to 10 MB,
// fetchAndLock long polling up to 30 minutes, query lists of 1,000 values
// and 100 variable filters (Options and engine's query parsers).
//
// Its latency over loopback HTTP is in the README's performance table.
package rest
