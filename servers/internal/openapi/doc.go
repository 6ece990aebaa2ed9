// Package openapi holds the OpenAPI 3.1 description a regelkit server builds
// from its own route registrations, so the document cannot drift from the
// routes: every route is registered together with its Operation.
//
// Schemas are plain JSON Schema objects built with the small constructors
// here (Object, Array, String, …) rather than a reflective generator, which
// keeps the document explicit and reviewable.
package openapi
