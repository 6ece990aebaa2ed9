package docmgmt

import (
	"net/http"
	"testing"
)

// FuzzEdocsAnswer feeds arbitrary answers to the readers of eDOCS
// responses: they never panic, and a message is never empty.
func FuzzEdocsAnswer(f *testing.F) {
	seeds := []string{
		``, `null`, `[]`, `{}`, `"x"`, `{"data":null}`, `{"data":[1,"a",{"id":2}]}`,
		`{"data":{"list":[{"id":2993896,"DOCNAME":"1 — A","DOCNUM":7}]}}`,
		`{"data":{"error_list":[{"message":"no"},"plain",3,null,{"x":{}}]}}`,
		`{"error_list":"x","data":{"id":"9"}}`,
		`{"ERROR":{"message":"","rapi_details":[1,{"a":"b"}]}}`, `{"ERROR":"flat"}`, `{"error":{"message":5}}`,
		`{"list":[{"ID":1.5e300,"data":{"DOCNAME":true}}]}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), 500)
	}
	f.Fuzz(func(t *testing.T, body []byte, status int) {
		resp := &response{status: status, header: http.Header{"Content-Type": {"text/plain"}}, body: body}
		if v, err := decodeJSON("op", resp); err == nil {
			for _, item := range listItems(v) {
				_ = itemID(item)
				_ = documentNumber(item)
				_ = field(item, "DOCNAME")
			}
			_ = firstID(v)
			_ = errorList(v)
			_, _ = dataObject(v)
		}
		if msg := edocsMessage(resp); msg == "" {
			t.Fatalf("empty message for status %d body %q", status, body)
		}
	})
}
