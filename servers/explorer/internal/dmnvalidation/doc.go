// Package dmnvalidation serves POST /v1/dmns/validate, the explorer's
// unauthenticated DMN validation: it decodes {content}, runs the five check
// layers of dmn/validate and answers the report in the envelope.
//
// The explorer mounts it before any /v1/dmns/{identifier} route, which
// would otherwise shadow it:
//
//	dmnvalidation.Register(router)
package dmnvalidation
