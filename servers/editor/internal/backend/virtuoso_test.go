package backend

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/virtuosotest"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// virtuosoTwin starts a throwaway Virtuoso holding the same graphs as the
// seeded embedded store, loaded by Virtuoso's own Turtle loader (not by the
// backend), and returns the embedded backend and the Virtuoso backend, both
// serving dataset local/editor. The Virtuoso backend saves through SPARQL
// Update on /sparql or, with gsp, through Graph Store Protocol PUTs to
// /sparql-graph-crud.
func virtuosoTwin(t *testing.T, gsp bool) (embedded, virtuoso http.Handler) {
	t.Helper()
	v := virtuosotest.Start(t, virtuosotest.Options{AllowUpdate: true})
	st, embedded := seeded(t)
	byGraph := map[graph.Term]*graph.Graph{}
	for _, q := range st.Quads() {
		if q.G.IsZero() {
			t.Fatalf("seeded store has a default-graph triple: %v", q)
		}
		g := byGraph[q.G]
		if g == nil {
			g = graph.NewGraph()
			byGraph[q.G] = g
		}
		g.Add(graph.Triple{S: q.S, P: q.P, O: q.O})
	}
	if len(byGraph) < 5 {
		t.Fatalf("seeded store has %d graphs; want the example sources, tasks and interpretations", len(byGraph))
	}
	for name, g := range byGraph {
		var buf bytes.Buffer
		if err := graph.WriteGraph(&buf, graph.NTriples, g, graph.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		v.LoadTurtle(t, buf.Bytes(), name.Value)
	}
	c := sparql.NewClient(v.SPARQL(), sparql.ClientOptions{})
	vs := &EndpointStore{Query: c, Update: c}
	if gsp {
		vs = &EndpointStore{Query: c, GraphStoreURL: v.BaseURL() + "/sparql-graph-crud"}
	}
	virtuoso = New(Options{Stores: map[string]GraphStore{"local/editor": vs}, Dataset: "local/editor"})
	return embedded, virtuoso
}

// same calls both backends and requires the same status and, after norm,
// the same body.
func same(t *testing.T, embedded, virtuoso http.Handler, method, path, body string, norm func(*testing.T, map[string]any) any) map[string]any {
	t.Helper()
	wantCode, want := call(t, embedded, method, path, body)
	gotCode, got := call(t, virtuoso, method, path, body)
	if gotCode != wantCode {
		t.Fatalf("%s %s: Virtuoso %d %v, embedded %d %v", path, body, gotCode, got, wantCode, want)
	}
	w, g := any(want), any(got)
	if norm != nil {
		w, g = norm(t, want), norm(t, got)
	}
	if !reflect.DeepEqual(g, w) {
		gj, _ := json.MarshalIndent(got, "", " ")
		wj, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("%s %s differs over Virtuoso:\n got  %s\n want %s", path, body, gj, wj)
	}
	return want
}

// turtle replaces the "source" Turtle by its parsed graph, compared up to
// blank node labels.
func turtle(t *testing.T, body map[string]any) any {
	t.Helper()
	g, err := graph.ParseGraph(strings.NewReader(body["source"].(string)), graph.Turtle, graph.ParseOptions{})
	if err != nil {
		t.Fatalf("source Turtle: %v", err)
	}
	return isoGraph{message: body["message"], g: g}
}

type isoGraph struct {
	message any
	g       *graph.Graph
}

// trig parses the "task" TriG and keeps the message and the graph order
// (the task graph first), so datasets are compared with isomorphic below.
func trig(t *testing.T, body map[string]any) any {
	t.Helper()
	text := body["task"].(string)
	ds, err := graph.ParseDataset(strings.NewReader(text), graph.TriG, graph.ParseOptions{})
	if err != nil {
		t.Fatalf("task TriG: %v", err)
	}
	return isoDataset{message: body["message"], ds: ds}
}

type isoDataset struct {
	message any
	ds      *graph.Dataset
}

// equalIso compares the parsed answers of getSource and getTask.
func equalIso(t *testing.T, embedded, virtuoso http.Handler, path, body string) {
	t.Helper()
	wantCode, want := call(t, embedded, "POST", path, body)
	gotCode, got := call(t, virtuoso, "POST", path, body)
	if gotCode != 200 || wantCode != 200 {
		t.Fatalf("%s %s: Virtuoso %d %v, embedded %d %v", path, body, gotCode, got, wantCode, want)
	}
	if got["message"] != want["message"] {
		t.Errorf("%s message: got %v, want %v", path, got["message"], want["message"])
	}
	switch path {
	case "/api/getSource":
		g, w := turtle(t, got).(isoGraph), turtle(t, want).(isoGraph)
		if w.g.Len() == 0 || !graph.Isomorphic(g.g, w.g) {
			t.Errorf("%s %s: graphs not isomorphic (%d vs %d triples):\n got  %s\n want %s", path, body, g.g.Len(), w.g.Len(), got["source"], want["source"])
		}
	default:
		g, w := trig(t, got).(isoDataset), trig(t, want).(isoDataset)
		if w.ds.Len() == 0 || !graph.IsomorphicDatasets(g.ds, w.ds) {
			t.Errorf("%s %s: datasets not isomorphic (%d vs %d quads):\n got  %s\n want %s", path, body, g.ds.Len(), w.ds.Len(), got["task"], want["task"])
		}
		// The task graph comes first in both.
		first := func(s string) string { return strings.SplitN(strings.SplitN(s, "\n\n", 2)[1], " ", 2)[0] }
		if first(got["task"].(string)) != first(want["task"].(string)) {
			t.Errorf("%s: first graph %q over Virtuoso, %q embedded", path, first(got["task"].(string)), first(want["task"].(string)))
		}
	}
}

// TestVirtuosoSameAnswers runs the backend against a real Virtuoso holding
// the example sources and tasks and against the embedded store, and
// requires the same answers.
func TestVirtuosoSameAnswers(t *testing.T) {
	embedded, virtuoso := virtuosoTwin(t, false)

	sources := same(t, embedded, virtuoso, "GET", "/api/getSources", "", nil)
	if got := column(t, sources["sources"], "iri"); !reflect.DeepEqual(got, []string{srcAVG, srcP43}) {
		t.Errorf("embedded sources %v", got)
	}
	listTasks := func() map[string]any {
		return same(t, embedded, virtuoso, "POST", "/api/getTasksFromGraphStore", `{"endpoint":"local/editor/sparql"}`, nil)
	}
	tasks := listTasks()
	if got := column(t, tasks["tasks"], "iri"); !reflect.DeepEqual(got, []string{taskP43, taskAVG}) {
		t.Errorf("embedded tasks %v", got)
	}
	same(t, embedded, virtuoso, "POST", "/api/getTasksFromTriply", `{"endpoint":"datasets/local/editor/sparql"}`, nil)

	for _, iri := range []string{srcP43, srcAVG} {
		equalIso(t, embedded, virtuoso, "/api/getSource", `{"iri":"`+iri+`"}`)
	}
	for _, iri := range []string{taskP43, taskAVG} {
		equalIso(t, embedded, virtuoso, "/api/getTask", `{"iri":"`+iri+`"}`)
	}
	// Absent graphs: the same 404s.
	same(t, embedded, virtuoso, "POST", "/api/getSource", `{"iri":"http://s/none"}`, nil)
	same(t, embedded, virtuoso, "POST", "/api/getTask", `{"iri":"http://ontology.tno.nl/normengineering/editor#task-none"}`, nil)

	sameSave(t, embedded, virtuoso)
}

// TestVirtuosoSaveGraphStoreProtocol saves through Virtuoso's Graph Store
// Protocol endpoint instead of SPARQL Update: the same answers again.
func TestVirtuosoSaveGraphStoreProtocol(t *testing.T) {
	embedded, virtuoso := virtuosoTwin(t, true)
	sameSave(t, embedded, virtuoso)
}

// sameSave saves a fresh task (as the GUI mints one) into Virtuoso and
// into the embedded store: the same answer, then the same listing, the same
// task read back (its blank nodes and lists intact), and 409 when nothing
// is new.
func sameSave(t *testing.T, embedded, virtuoso http.Handler) {
	t.Helper()
	listTasks := func() map[string]any {
		return same(t, embedded, virtuoso, "POST", "/api/getTasksFromGraphStore", `{"endpoint":"local/editor/sparql"}`, nil)
	}
	_, body := call(t, embedded, "POST", "/api/getTask", `{"iri":"`+taskP43+`"}`)
	fresh := strings.ReplaceAll(body["task"].(string), "3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f", "11111111-2222-4333-8444-555555555555")
	payload, _ := json.Marshal(map[string]string{"task": fresh})
	saved := same(t, embedded, virtuoso, "POST", "/api/saveTaskAtGraphStore", string(payload), nil)
	if saved["message"] != "Task saved!" {
		t.Fatalf("save: %v", saved)
	}
	tasks := listTasks()
	if got := column(t, tasks["tasks"], "iri"); len(got) != 3 {
		t.Errorf("after save: tasks %v, want 3", got)
	}
	newTask := strings.ReplaceAll(taskP43, "3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f", "11111111-2222-4333-8444-555555555555")
	equalIso(t, embedded, virtuoso, "/api/getTask", `{"iri":"`+newTask+`"}`)
	for _, path := range []string{"/api/saveTaskAtGraphStore", "/api/saveTaskAtTriply"} {
		again := same(t, embedded, virtuoso, "POST", path, string(payload), nil)
		if again["message"] != "Error!" {
			t.Errorf("%s second save: %v, want 409 Error!", path, again)
		}
	}
	listTasks()
}
