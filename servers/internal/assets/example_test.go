package assets_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/regelkit/regelkit/servers/internal/assets"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Without a database every asset endpoint answers 503 DB_NOT_CONFIGURED;
// with one, pass the store from assets.Open.
func Example() {
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	assets.Register(r, assets.Deps{Store: nil})

	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/assets/bpmn", nil))
	fmt.Println(rec.Code, rec.Body.String()[:74])
	// Output: 503 {"success":false,"error":{"code":"DB_NOT_CONFIGURED","message":"Asset stor
}
