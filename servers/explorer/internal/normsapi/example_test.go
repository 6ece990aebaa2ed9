package normsapi_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/servers/explorer/internal/normsapi"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Register mounts GET /v1/norms; a second request with the ETag of the
// first gets 304 with no body.
func Example() {
	store, err := loadExamples()
	if err != nil {
		fmt.Println(err)
		return
	}
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	normsapi.Register(r, normsapi.Deps{Service: norms.NewService(norms.Options{}), Endpoint: store})
	h := httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "1.0.0"})

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/norms?rulesetid=BWBR0015703", nil))
	fmt.Println(rec.Code, rec.Header().Get("Cache-Control"), rec.Header().Get("Last-Modified"))

	req := httptest.NewRequest("GET", "/v1/norms?rulesetid=BWBR0015703", nil)
	req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Body.Len(), rec.Header().Get("API-Version"))

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/norms", nil)) // includes a ruleset without version records
	fmt.Println(rec.Code, rec.Header().Get("Cache-Control"), rec.Header().Get("ETag") == "")
	// Output:
	// 200 public, max-age=3600 Fri, 15 May 2026 06:57:11 GMT
	// 304 0 1.0.0
	// 200 no-cache true
}
