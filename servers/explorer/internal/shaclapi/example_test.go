package shaclapi_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/regelkit/regelkit/servers/explorer/internal/shaclapi"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/shacl/layered"
)

func Example() {
	checker, err := layered.Builtin()
	if err != nil {
		fmt.Println(err)
		return
	}
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	shaclapi.Register(r, shaclapi.Deps{Checker: checker})

	body := `{"content": "@prefix cpsv: <http://purl.org/vocab/cpsv#> . @prefix dct: <http://purl.org/dc/terms/> . <https://example.org/rule> a cpsv:Rule ; dct:title \"Regel\" ."}`
	req := httptest.NewRequest("POST", shaclapi.ValidatePath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)

	var env struct {
		Data layeredResult `json:"data"`
	}
	json.Unmarshal(rec.Body.Bytes(), &env)
	fmt.Println(rec.Code, "valid:", env.Data.Valid, "errors:", env.Data.Summary.Errors)
	for _, is := range env.Data.Layers["cpsv-ap"].Issues {
		fmt.Println(is.Code, is.Location)
	}
	// Unordered output:
	// 200 valid: false errors: 3
	// SHACL-MINCOUNT https://example.org/rule dct:identifier
	// SHACL-DATATYPE https://example.org/rule dct:title
	// SHACL-MINCOUNT https://example.org/rule dct:description
}

type layeredResult struct {
	Valid   bool `json:"valid"`
	Summary struct {
		Errors int `json:"errors"`
	} `json:"summary"`
	Layers map[string]struct {
		Issues []struct {
			Code     string `json:"code"`
			Location string `json:"location"`
		} `json:"issues"`
	} `json:"layers"`
}
