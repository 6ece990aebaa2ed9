// Package shaclapi serves the explorer's SHACL publishing check:
// POST /v1/shacl/validate validates uploaded Turtle as written, and
// POST /v1/shacl/validate-merged first adds the triples already published
// for the file's subjects (read with CONSTRUCT, never written) and
// validates the union. Both answer the layered result of shacl/layered in
// the envelope; a Turtle syntax error is data.parseError with HTTP 200.
//
// The explorer mounts it with
//
//	shaclapi.Register(router, shaclapi.Deps{Checker: checker, Default: defaultEndpoint, Resolve: resolve})
//	healthChecker.Extra = shaclapi.HealthExtra(checker)
//
// A benchmark measures one typical upload through the real router and
// middleware: go test -run XXX -bench . ./servers/explorer/internal/shaclapi
package shaclapi
