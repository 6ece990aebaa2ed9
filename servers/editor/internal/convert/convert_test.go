package convert

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	editorexamples "github.com/regelkit/regelkit/examples/editor"
	"github.com/regelkit/regelkit/servers/editor/internal/backend"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

const (
	taskP43 = "http://ontology.tno.nl/normengineering/editor#task-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"
	srcP43  = "http://choppr.app/decompositions/6f1c2a9e-43aa-4b8e-9a51-0c4a2e7b1d01/Document"
)

func store(t *testing.T) backend.GraphStore {
	st := memstore.NewWithOptions(memstore.Options{UnionDefaultGraph: true})
	s := &backend.EndpointStore{Query: st, Update: st}
	if err := backend.Seed(context.Background(), s, editorexamples.FS, time.Now); err != nil {
		t.Fatal(err)
	}
	return s
}

func do(h http.Handler, method, path, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func errorOf(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("not JSON: %q", rec.Body.String())
	}
	return out
}

func TestJSONToRDFToJSON(t *testing.T) {
	data, err := os.ReadFile("../../../../examples/editor/tasks/participatiewet-art43.json")
	if err != nil {
		t.Fatal(err)
	}
	toRDF := JSONToRDF(Options{APIKey: "k1"})
	rec := do(toRDF, "POST", "/process_and_save", string(data), "X-API-KEY", "k1")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/trig; charset=utf-8" {
		t.Fatalf("%d %s %.300s", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
	trig := rec.Body.String()
	if _, err := graph.ParseDataset(strings.NewReader(trig), graph.TriG, graph.ParseOptions{}); err != nil {
		t.Fatalf("TriG does not parse: %v", err)
	}
	rec = do(RDFToJSON(Options{}), "POST", "/process_graph", trig, "Content-Type", "text/turtle")
	if rec.Code != 200 {
		t.Fatalf("%d %.300s", rec.Code, rec.Body.String())
	}
	var task struct {
		ID     string           `json:"id"`
		Frames []map[string]any `json:"frames"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &task); err != nil {
		t.Fatal(err)
	}
	if task.ID != taskP43 || len(task.Frames) != 11 {
		t.Errorf("id %s, %d frames; want %s, 11", task.ID, len(task.Frames), taskP43)
	}
}

func TestConverterErrors(t *testing.T) {
	toRDF := JSONToRDF(Options{APIKey: "k1"})
	toJSON := RDFToJSON(Options{})
	cases := []struct {
		name   string
		h      http.Handler
		path   string
		body   string
		header []string
		status int
		want   map[string]any
	}{
		{"wrong key", toRDF, "/process_and_save", `{}`, []string{"X-API-KEY", "k2"}, 401, map[string]any{"error": "Unauthorized: Invalid key"}},
		{"no key", toRDF, "/process_and_save", `{}`, nil, 401, map[string]any{"error": "Unauthorized: Invalid key"}},
		{"invalid JSON", toRDF, "/process_and_save", `{"frames": [`, []string{"X-API-KEY", "k1"}, 400, map[string]any{"error": "Invalid JSON."}},
		{"dangling", toRDF, "/process_and_save", `{"id":"http://ontology.tno.nl/normengineering/editor#task-a","type":"Task",
			"frames":[{"id":"a1","typeId":"act","actorId":"x"}]}`, []string{"X-API-KEY", "k1"}, 422,
			map[string]any{"error": "Invalid interpretation.", "details": []any{"frames[0].actorId: unknown frame 'x'"}}},
		{"parse error", toJSON, "/process_graph", "<http://a> <http://b> .", nil, 400,
			map[string]any{"error": "Invalid Turtle/TriG: line 1, column 23: expected object (IRI, blank node, collection or literal), found '.'"}},
		{"nothing", toJSON, "/process_graph", "<http://a> <http://b> <http://c> .", nil, 422, map[string]any{"error": "No task or source found."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := do(c.h, "POST", c.path, c.body, c.header...)
			if rec.Code != c.status {
				t.Errorf("status %d, want %d: %s", rec.Code, c.status, rec.Body.String())
			}
			if diff := cmp.Diff(c.want, errorOf(t, rec)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHostileInput(t *testing.T) {
	toJSON := RDFToJSON(Options{MaxBodyBytes: 1 << 20})
	big := strings.Repeat("<http://a> <http://b> \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\" .\n", 10<<20/70)
	rec := do(toJSON, "POST", "/process_graph", big)
	if rec.Code != 413 {
		t.Errorf("10 MB Turtle over a 1 MiB limit: %d", rec.Code)
	}
	deep := strings.Repeat(`{"children":[`, 20000)
	rec = do(JSONToRDF(Options{}), "POST", "/process_and_save", `{"frames":[{"precondition":`+deep+`]}]}`)
	if rec.Code != 400 {
		t.Errorf("deeply nested JSON: %d %.200s", rec.Code, rec.Body.String())
	}
	var b strings.Builder
	b.WriteString(`{"id":"http://ontology.tno.nl/normengineering/editor#task-a","type":"Task","frames":[`)
	for i := range 100000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"f` + strings.Repeat("x", 1) + `","typeId":"fact"}`)
	}
	b.WriteString("]}")
	rec = do(JSONToRDF(Options{}), "POST", "/process_and_save", b.String())
	if body := errorOf(t, rec); rec.Code != 400 || body["code"] != "LIMIT_EXCEEDED" {
		t.Errorf("100,000 frames: %d %v", rec.Code, body)
	}
}

func TestStandalonePages(t *testing.T) {
	h := RDFToJSON(Options{Store: store(t)})
	rec := do(h, "GET", "/get_graph_names", "")
	var names []string
	if err := json.Unmarshal(rec.Body.Bytes(), &names); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	want := []string{
		"http://choppr.app/decompositions/0b7d5e21-9c3f-4f0a-8d6e-5a1b2c3d4e05/Document",
		srcP43,
		"http://ontology.tno.nl/normengineering/editor#interpretation-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f",
		"http://ontology.tno.nl/normengineering/editor#interpretation-9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
		taskP43,
		"http://ontology.tno.nl/normengineering/editor#task-9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("graph names (-want +got):\n%s", diff)
	}
	for _, path := range []string{"/download_graph/" + url.PathEscape(srcP43), "/download_graph/http:/choppr.app/decompositions/6f1c2a9e-43aa-4b8e-9a51-0c4a2e7b1d01/Document"} {
		rec = do(h, "GET", path, "")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/turtle; charset=utf-8" || !strings.Contains(rec.Body.String(), "Participatiewet, artikel 43") {
			t.Errorf("%s: %d %.200s", path, rec.Code, rec.Body.String())
		}
	}
	rec = do(h, "GET", "/download_graph/"+url.PathEscape("http://none.example/g"), "")
	if diff := cmp.Diff(map[string]any{"error": "Graph not found."}, errorOf(t, rec)); rec.Code != 404 || diff != "" {
		t.Errorf("missing graph: %d %s", rec.Code, diff)
	}
	rec = do(h, "GET", "/process_and_download_graph/"+url.PathEscape(taskP43), "")
	// The task graph alone lacks its interpretation and sources: it is a
	// task, and converting it reports the missing source graph.
	if body := errorOf(t, rec); rec.Code != 422 || !strings.HasPrefix(body["error"].(string), "Source graph missing: ") {
		t.Errorf("task graph alone: %d %v", rec.Code, body)
	}
	rec = do(h, "GET", "/process_and_download_graph/"+url.PathEscape(srcP43), "")
	var doc struct {
		Context map[string]any `json:"@context"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &doc)
	if rec.Code != 200 || doc.Context["@base"] != "http://choppr.app/decompositions/6f1c2a9e-43aa-4b8e-9a51-0c4a2e7b1d01/" {
		t.Errorf("source: %d %.300s", rec.Code, rec.Body.String())
	}
	rec = do(h, "GET", "/", "")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "download_graph/http:%2F%2Fchoppr.app") {
		t.Errorf("picker: %d %.600s", rec.Code, rec.Body.String())
	}
}
