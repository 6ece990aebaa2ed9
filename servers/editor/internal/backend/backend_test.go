package backend

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	editorexamples "github.com/regelkit/regelkit/examples/editor"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

const (
	taskP43   = "http://ontology.tno.nl/normengineering/editor#task-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"
	interpP43 = "http://ontology.tno.nl/normengineering/editor#interpretation-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"
	taskAVG   = "http://ontology.tno.nl/normengineering/editor#task-9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"
	srcP43    = "http://choppr.app/decompositions/6f1c2a9e-43aa-4b8e-9a51-0c4a2e7b1d01/Document"
	srcAVG    = "http://choppr.app/decompositions/0b7d5e21-9c3f-4f0a-8d6e-5a1b2c3d4e05/Document"
)

func seeded(t *testing.T) (*memstore.Store, http.Handler) {
	t.Helper()
	st := memstore.NewWithOptions(memstore.Options{UnionDefaultGraph: true})
	s := &EndpointStore{Query: st, Update: st}
	if err := Seed(context.Background(), s, editorexamples.FS, func() time.Time { return time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC) }); err != nil {
		t.Fatal(err)
	}
	return st, New(Options{Stores: map[string]GraphStore{"local/editor": s}, Dataset: "local/editor"})
}

func call(t *testing.T, h http.Handler, method, path, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %s: body is not JSON: %q", method, path, rec.Body.String())
	}
	return rec.Code, out
}

func column(t *testing.T, res any, name string) []string {
	t.Helper()
	var out []string
	for _, b := range res.(map[string]any)["results"].(map[string]any)["bindings"].([]any) {
		v, ok := b.(map[string]any)[name]
		if !ok {
			out = append(out, "")
			continue
		}
		out = append(out, v.(map[string]any)["value"].(string))
	}
	return out
}

func TestWelcome(t *testing.T) {
	_, h := seeded(t)
	code, body := call(t, h, "GET", "/", "")
	if code != 200 || body["message"] != "Editor backend is running!" {
		t.Errorf("%d %v", code, body)
	}
	code, body = call(t, h, "GET", "/api/nothing", "")
	if code != 404 || body["message"] != "Not found!" {
		t.Errorf("%d %v", code, body)
	}
}

func TestGetSources(t *testing.T) {
	st, h := seeded(t)
	// A source without an editor label is not listed.
	st.Add(graph.Quad{S: graph.IRI("http://s/x"), P: graph.IRI(NSRDFType), O: graph.IRI("http://ontology.tno.nl/normengineering/source#Source"), G: graph.IRI("http://s/x")})
	code, body := call(t, h, "GET", "/api/getSources", "")
	if code != 200 || body["message"] != "Sources retrieved!" {
		t.Fatalf("%d %v", code, body)
	}
	if diff := cmp.Diff([]string{srcAVG, srcP43}, column(t, body["sources"], "iri")); diff != "" {
		t.Errorf("sources newest first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2024-05-15T12:30:00Z", "2024-03-01T09:00:00Z"}, column(t, body["sources"], "date")); diff != "" {
		t.Errorf("dates (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Choppr import", "Choppr import"}, column(t, body["sources"], "editor")); diff != "" {
		t.Errorf("editors (-want +got):\n%s", diff)
	}
	vars := body["sources"].(map[string]any)["head"].(map[string]any)["vars"]
	if diff := cmp.Diff([]any{"iri", "title", "date", "editor"}, vars); diff != "" {
		t.Errorf("vars (-want +got):\n%s", diff)
	}
}

const NSRDFType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

func TestGetTasks(t *testing.T) {
	st, h := seeded(t)
	// A task without a date comes last; one without an editor has it unbound.
	calc := "http://ontology.tno.nl/normengineering/calculemus#"
	g := graph.IRI("http://ontology.tno.nl/normengineering/editor#task-undated")
	st.Add(graph.Quad{S: g, P: graph.IRI(NSRDFType), O: graph.IRI(calc + "Task"), G: g},
		graph.Quad{S: g, P: graph.IRI("http://www.w3.org/2000/01/rdf-schema#label"), O: graph.String("zonder datum"), G: g})
	for _, path := range []string{"/api/getTasksFromGraphStore", "/api/getTasksFromTriply"} {
		code, body := call(t, h, "POST", path, `{"endpoint":"local/editor/sparql"}`)
		if code != 200 || body["message"] != "Tasks retrieved!" {
			t.Fatalf("%s: %d %v", path, code, body)
		}
		want := []string{taskP43, taskAVG, g.Value}
		if diff := cmp.Diff(want, column(t, body["tasks"], "iri")); diff != "" {
			t.Errorf("%s tasks (-want +got):\n%s", path, diff)
		}
		if diff := cmp.Diff([]string{"J. Jansen", "A. de Boer", ""}, column(t, body["tasks"], "editor")); diff != "" {
			t.Errorf("%s editors (-want +got):\n%s", path, diff)
		}
	}
	for body, want := range map[string]int{
		`{"endpoint":"datasets/local/editor/sparql"}`:   200,
		`{"endpoint":"http://evil.example/x/y/sparql"}`: 400,
		`{"endpoint":"../x/sparql"}`:                    400,
		`{"endpoint":"TNO/editor/sparql"}`:              403,
		`{"endpoint":3}`:                                400,
		`not json`:                                      400,
	} {
		code, resp := call(t, h, "POST", "/api/getTasksFromGraphStore", body)
		if code != want {
			t.Errorf("%s: %d %v, want %d", body, code, resp, want)
		}
	}
	if code, resp := call(t, h, "POST", "/api/getTasksFromGraphStore", `{"endpoint":"TNO/editor/sparql"}`); resp["message"] != "Endpoint not allowed!" {
		t.Errorf("%d %v", code, resp)
	}
}

func TestGetSource(t *testing.T) {
	_, h := seeded(t)
	code, body := call(t, h, "POST", "/api/getSource", `{"iri":"`+srcP43+`"}`)
	if code != 200 || body["message"] != "Source retreived!" {
		t.Fatalf("%d %v", code, body)
	}
	text := body["source"].(string)
	if strings.Contains(text, "{") {
		t.Errorf("Turtle has a graph block:\n%s", text)
	}
	g, err := graph.ParseGraph(strings.NewReader(text), graph.Turtle, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Has(graph.Triple{S: graph.IRI(srcP43), P: graph.IRI("http://ontology.tno.nl/normengineering/source#hasTitle"), O: graph.String("Participatiewet, artikel 43")}) {
		t.Errorf("title triple missing:\n%s", text)
	}
	for body, want := range map[string][2]any{
		`{"iri":"http://s/none"}`: {404, "Source not found!"},
		`{"iri":"not an iri"}`:    {400, "Bad request!"},
		`{}`:                      {400, "Bad request!"},
	} {
		code, resp := call(t, h, "POST", "/api/getSource", body)
		if code != want[0] || resp["message"] != want[1] {
			t.Errorf("%s: %d %v, want %v", body, code, resp, want)
		}
	}
}

func TestGetTask(t *testing.T) {
	st, h := seeded(t)
	code, body := call(t, h, "POST", "/api/getTask", `{"iri":"`+taskP43+`"}`)
	if code != 200 || body["message"] != "Task retrieved!" {
		t.Fatalf("%d %v", code, body)
	}
	ds, err := graph.ParseDataset(strings.NewReader(body["task"].(string)), graph.TriG, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range ds.Names() {
		names = append(names, n.Value)
	}
	want := []string{srcP43, interpP43, taskP43}
	if diff := cmp.Diff(want, names, cmpSorted); diff != "" {
		t.Errorf("graphs (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(strings.SplitN(body["task"].(string), "\n\n", 2)[1], "editor:task-3d0c8f6e") {
		t.Errorf("task graph is not first:\n%.400s", body["task"])
	}
	// A task that involves a missing graph still loads, without it.
	orphan := graph.IRI("http://ontology.tno.nl/normengineering/editor#task-orphan")
	st.Add(graph.Quad{S: orphan, P: graph.IRI(NSRDFType), O: graph.IRI("http://ontology.tno.nl/normengineering/calculemus#Task"), G: orphan},
		graph.Quad{S: orphan, P: graph.IRI("http://ontology.tno.nl/normengineering/calculemus#involves"), O: graph.IRI("http://example.org/missing"), G: orphan})
	code, body = call(t, h, "POST", "/api/getTask", `{"iri":"`+orphan.Value+`"}`)
	if code != 200 || !strings.Contains(body["task"].(string), "editor:task-orphan {") || strings.Contains(body["task"].(string), "<http://example.org/missing> {") {
		t.Errorf("task with a missing graph: %d %v", code, body)
	}
	code, body = call(t, h, "POST", "/api/getTask", `{"iri":"http://ontology.tno.nl/normengineering/editor#task-none"}`)
	if code != 404 || body["message"] != "Task not found!" {
		t.Errorf("%d %v", code, body)
	}
}

var cmpSorted = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestSaveTask(t *testing.T) {
	st, h := seeded(t)
	_, body := call(t, h, "POST", "/api/getTask", `{"iri":"`+taskP43+`"}`)
	trig := body["task"].(string)
	// A fresh task and interpretation, as the GUI mints before saving.
	trig = strings.ReplaceAll(trig, "3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f", "11111111-2222-4333-8444-555555555555")
	before := st.Len()
	payload, _ := json.Marshal(map[string]string{"task": trig})
	code, resp := call(t, h, "POST", "/api/saveTaskAtGraphStore", string(payload))
	if code != 200 || resp["message"] != "Task saved!" {
		t.Fatalf("%d %v", code, resp)
	}
	added := st.Len() - before
	if added == 0 {
		t.Fatal("nothing written")
	}
	// The source graph existed and was skipped: only the two new graphs.
	code, resp = call(t, h, "POST", "/api/getTasksFromGraphStore", `{"endpoint":"local/editor/sparql"}`)
	if n := len(column(t, resp["tasks"], "iri")); code != 200 || n != 3 {
		t.Errorf("after save: %d tasks, want 3", n)
	}
	// A second save writes nothing: 409, store unchanged.
	after := st.Len()
	for _, path := range []string{"/api/saveTaskAtGraphStore", "/api/saveTaskAtTriply"} {
		code, resp = call(t, h, "POST", path, string(payload))
		if code != 409 || resp["message"] != "Error!" || st.Len() != after {
			t.Errorf("%s second save: %d %v, store %d → %d", path, code, resp, after, st.Len())
		}
	}
	for body, want := range map[string]int{
		`{"task":"<http://a> <http://b> <http://c> ."}`: 400, // default graph
		`{"task":"GRAPH <http://g> { <http://a> "}`:     400,
		`{"task":""}`: 400,
	} {
		code, resp := call(t, h, "POST", "/api/saveTaskAtGraphStore", body)
		if code != want || resp["message"] != "Issue with the trig file!" {
			t.Errorf("%s: %d %v", body, code, resp)
		}
	}
}

func TestSaveReadOnlyAndTooLarge(t *testing.T) {
	st := memstore.NewWithOptions(memstore.Options{UnionDefaultGraph: true})
	h := New(Options{Stores: map[string]GraphStore{"local/editor": &EndpointStore{Query: st}}, Dataset: "local/editor", MaxBodyBytes: 1000})
	code, resp := call(t, h, "POST", "/api/saveTaskAtGraphStore", `{"task":"<http://g> { <http://a> <http://b> <http://c> . }"}`)
	if code != 503 || resp["message"] != "Graph store is read-only!" {
		t.Errorf("read-only: %d %v", code, resp)
	}
	big := `{"task":"` + strings.Repeat("x", 2000) + `"}`
	code, resp = call(t, h, "POST", "/api/saveTaskAtGraphStore", big)
	if code != 413 || resp["message"] != "Payload too large!" {
		t.Errorf("too large: %d %v", code, resp)
	}
	_ = bytes.MinRead
}
