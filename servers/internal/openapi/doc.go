// Package openapi holds the OpenAPI 3.1 description a regelkit server builds
// from its own route registrations, so the document cannot drift from the
// routes: every route is registered together with its Operation.
//
// Schemas are plain JSON Schema objects built with the small constructors
// here (Object, Array, String, …) rather than a reflective generator, which
// keeps the document explicit and reviewable.
//
//	r.Handle("GET", "/v1/dmns", h.listDMNs, openapi.Operation{Summary: "List decision models",
//		Parameters: []openapi.Parameter{openapi.Query("endpoint", "URL of the SPARQL endpoint", true)}})
package openapi
