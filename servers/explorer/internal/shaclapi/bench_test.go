package shaclapi_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/explorer/internal/shaclapi"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/shacl/layered"
)

// BenchmarkValidate posts one typical upload through the real router and
// middleware.
func BenchmarkValidate(b *testing.B) {
	c, err := layered.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	shaclapi.Register(r, shaclapi.Deps{Checker: c})
	h := httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "bench"})
	body := `{"content": ` + jsonString(orgFail) + `}`
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", shaclapi.ValidatePath, strings.NewReader(body)))
		if rec.Code != 200 {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
