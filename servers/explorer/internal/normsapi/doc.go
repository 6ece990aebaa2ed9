// Package normsapi serves GET /v1/norms, the explorer's legal norms under
// the stability contract (explorer spec "GET /v1/norms", §9): it
// validates rulesetid, applicable_date, cprmv_version and endpoint (400
// INVALID_REQUEST naming the field and its pattern), asks a norms.Service and
// answers the rules with their dataset versions in the envelope.
//
// Caching follows the spec's table. A fully versioned response (every
// ruleset has a version record) carries a strong ETag, Last-Modified and
// `Cache-Control: public, max-age=3600`; any other response
// `Cache-Control: no-cache` and no validators. If-None-Match (a list, "*",
// weak comparison) decides when present, otherwise If-Modified-Since; a
// match is a 304 with no body that still carries ETag, Last-Modified,
// Cache-Control and (from the middleware) API-Version. For a single
// rulesetid, an If-None-Match listing the current ETag is answered 304 from
// the cached dataset versions before the rules query runs (same ETag as the
// full path); "*" and If-Modified-Since are left to the full path, which
// alone knows whether the answer is empty. When the full path ends
// uncacheable, the short-circuit's headers are removed.
// A Deprecation option adds Deprecation, Sunset and a successor Link to
// every response once /v2/norms exists; it is off by default.
//
// The explorer mounts it with the embedded knowledge graph as
// the default endpoint:
//
//	normsapi.Register(router, normsapi.Deps{
//		Service:  norms.NewService(norms.Options{Logger: logger}),
//		Endpoint: store,   // the explorer's memstore
//		Resolve:  resolve, // outbound policy; the explorer's own URL in-process
//	})
//
// The latency of a 304 through the real router and middleware is in
// the README's performance table.
package normsapi
