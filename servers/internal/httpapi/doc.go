// Package httpapi is the HTTP plumbing shared by the four regelkit servers:
// the response envelope, typed API errors, size-limited JSON decoding, a
// router that documents every route in OpenAPI and mounts deprecated legacy
// aliases, and the middleware every response passes through (request IDs,
// access logs, gzip compression of large text responses (Compress), the
// API-Version header, CORS and panic recovery).
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
// The router also keeps requests and responses bounded: a route that takes a
// JSON body refuses any other Content-Type (415 UNSUPPORTED_MEDIA_TYPE, so a
// cross-site "simple" request cannot reach it), every body is read under a
// limit (413), every response under a ceiling (RouterOptions.MaxResponseBytes,
// ResponseLimit; 400 LIMIT_EXCEEDED), and an engine's limit error anywhere in
// a returned error's chain is 400, or 503 for Timeout, LIMIT_EXCEEDED
// (LimitError). Excerpt quotes caller input in bounded size.
//
// Serve wraps the router in the middleware chain and runs it with timeouts
// and graceful shutdown.
package httpapi
