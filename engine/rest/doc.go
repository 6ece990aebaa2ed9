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
// Its latency over loopback HTTP is in the README's performance table.
package rest
