// Package dmnvalidation serves POST /v1/dmns/validate, the explorer's
// unauthenticated DMN validation: it decodes {content}, runs the five check
// layers of dmn/validate and answers the report in the envelope.
//
// The explorer mounts it with dmnvalidation.Register(router),
// before any /v1/dmns/{identifier} route.
package dmnvalidation
