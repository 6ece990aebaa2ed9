package apitest

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// OpenAPIPaths is the paths object of an OpenAPI document: path template →
// lower-case method → operation.
type OpenAPIPaths map[string]map[string]json.RawMessage

// regexPart is a mux path variable with a pattern, {name:regex}; OpenAPI
// writes it {name}.
var regexPart = regexp.MustCompile(`\{([^}:]+):[^}]*\}`)

// CheckOpenAPI decodes doc as an OpenAPI 3.1.0 document and walks the real
// router: every method and path template it serves must be documented. It
// returns the documented paths and the number of routes walked, so a test
// can also assert that the walk saw the routes it expects.
func CheckOpenAPI(t testing.TB, router *mux.Router, doc []byte) (OpenAPIPaths, int) {
	t.Helper()
	var d struct {
		OpenAPI string       `json:"openapi"`
		Paths   OpenAPIPaths `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("OpenAPI document: %v", err)
	}
	if d.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", d.OpenAPI)
	}
	n := 0
	err := router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		if err != nil {
			return nil
		}
		path = regexPart.ReplaceAllString(path, "{$1}")
		methods, _ := route.GetMethods()
		for _, m := range methods {
			n++
			if _, ok := d.Paths[path][strings.ToLower(m)]; !ok {
				t.Errorf("%s %s is served but missing from the OpenAPI document", m, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range d.Paths {
		if strings.Contains(p, ":") {
			t.Errorf("OpenAPI path %s carries a regex", p)
		}
	}
	return d.Paths, n
}
