// Package httpapi is the HTTP plumbing shared by the four regelkit servers:
// the response envelope, typed API errors, size-limited JSON decoding, a
// router that documents every route in OpenAPI and mounts deprecated legacy
// aliases, and the middleware every response passes through (request IDs,
// access logs, the API-Version header, CORS and panic recovery).
//
// Handlers are functions that return an error; a returned *Error becomes the
// envelope {success:false, error:{code, message}, timestamp} with its status,
// anything else a generic 500 INTERNAL_ERROR:
//
//	r := httpapi.NewRouter(httpapi.RouterOptions{Version: "1.0.0"})
//	r.Handle("GET", "/v1/things/{id}", func(w http.ResponseWriter, req *http.Request) error {
//		return httpapi.WriteData(w, http.StatusOK, thing)
//	}, openapi.Operation{Summary: "One thing"}, httpapi.Legacy("/api/things/{id}"))
//
// Serve wraps the router in the middleware chain and runs it with timeouts
// and graceful shutdown.
package httpapi
