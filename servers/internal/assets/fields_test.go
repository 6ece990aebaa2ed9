package assets

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// FuzzUpsertBodies feeds arbitrary bodies to the three upsert parsers: they
// never panic, fail only with a 400 naming fields, and on success hold every
// required field.
func FuzzUpsertBodies(f *testing.F) {
	seeds := []string{
		`{}`, `[]`, `null`, `"x"`, `{"id":null}`, `{bad`,
		`{"id":"p1","name":"P","xml":"<x/>","linkedDmnTemplates":["a"],"createdAt":"2026-01-10T09:00:00Z","updatedAt":"2026-01-10T09:00:00.123Z","processRole":"shell","status":"e2e","organization":""}`,
		`{"id":"f","name":"F","schema":{"a":[1,2.5e300]},"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00+02:00","status":"x"}`,
		`{"id":"d","name":"D","schemaVersion":2147483647,"zones":{},"bindings":[],"assets":[{}],"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`,
		`{"id":"d","schemaVersion":-2147483649,"linkedDmnTemplates":[null],"createdAt":"9999-12-31T23:59:59.999999999Z"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for kind, parse := range map[string]func(*fields) (any, error){
			"bpmn":      func(f *fields) (any, error) { return processFromBody(f) },
			"forms":     func(f *fields) (any, error) { return formFromBody(f) },
			"documents": func(f *fields) (any, error) { return templateFromBody(f) },
		} {
			r := httptest.NewRequest("POST", "/v1/assets/"+kind, bytes.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			fl, err := readFields(r)
			if err != nil {
				var e *httpapi.Error
				if !errors.As(err, &e) || e.Status != 400 && e.Status != 413 {
					t.Fatalf("%s: decode error %v", kind, err)
				}
				continue
			}
			v, err := parse(fl)
			if err != nil {
				var e *httpapi.Error
				if !errors.As(err, &e) || e.Status != 400 || e.Code != httpapi.CodeInvalidRequest {
					t.Fatalf("%s: %v", kind, err)
				}
				for _, part := range strings.Split(e.Message, "; ") {
					if !strings.Contains(part, " ") || strings.HasPrefix(part, " ") {
						t.Fatalf("%s: message part %q names no field", kind, part)
					}
				}
				continue
			}
			switch x := v.(type) {
			case Process:
				if strings.TrimSpace(x.ID) == "" || strings.TrimSpace(x.Name) == "" || x.LinkedDMNTemplates == nil ||
					x.BPMNProcessID == "" || x.CreatedAt.IsZero() && !strings.Contains(string(body), "0001-01-01") {
					t.Fatalf("accepted an incomplete process: %+v", x)
				}
			case Form:
				if strings.TrimSpace(x.ID) == "" || !json.Valid(x.Schema) || x.Schema[0] != '{' {
					t.Fatalf("accepted an incomplete form: %+v", x)
				}
			case DocumentTemplate:
				if !json.Valid(x.Zones) || x.Zones[0] != '{' || x.Bindings[0] != '[' || x.Assets[0] != '[' {
					t.Fatalf("accepted an incomplete template: %+v", x)
				}
			}
		}
	})
}
