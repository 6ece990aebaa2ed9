// Package apitest drives a server's real handler chain over real HTTP
// (httptest.Server) in tests and decodes the envelope, so handler tests
// assert status, headers and exact JSON fields with little code.
//
//	c := apitest.New(t, router)
//	c.Get("/v1/dmns").ExpectError(t, 400, "INVALID_REQUEST")
package apitest
