package flint

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/regelkit/regelkit/sparql/graph"
)

var fixedClock = func() time.Time { return time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC) }

func loadTask(t *testing.T, path string) *Task {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var task Task
	if err := json.Unmarshal(data, &task); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &task
}

func corpus(t *testing.T) []string {
	files, err := filepath.Glob("../../../../examples/editor/tasks/*.json")
	if err != nil || len(files) < 2 {
		t.Fatalf("example tasks: %v %v", files, err)
	}
	return files
}

// toTriG converts and serialises, then parses the TriG back with our parser.
func toTriG(t *testing.T, task *Task) (string, *graph.Dataset) {
	t.Helper()
	ds, err := ToDataset(context.Background(), task, Options{Now: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTriG(&buf, ds, graph.IRI(task.ID)); err != nil {
		t.Fatal(err)
	}
	back, err := graph.ParseDataset(bytes.NewReader(buf.Bytes()), graph.TriG, graph.ParseOptions{})
	if err != nil {
		t.Fatalf("TriG output does not parse: %v\n%s", err, buf.String())
	}
	if !graph.IsomorphicDatasets(ds, back) {
		t.Fatalf("TriG output is not isomorphic to the dataset")
	}
	return buf.String(), back
}

func fromTriG(t *testing.T, ds *graph.Dataset) *Task {
	t.Helper()
	res, err := FromDataset(context.Background(), ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Task == nil {
		t.Fatal("no task read back")
	}
	return res.Task
}

// sourceGraphs splits the JSON-LD documents off a task so that they compare
// as RDF while the rest compares as JSON.
func sourceGraphs(t *testing.T, task *Task) []*graph.Graph {
	t.Helper()
	var out []*graph.Graph
	for i := range task.SourceDocs {
		g, err := graph.ParseGraph(bytes.NewReader(task.SourceDocs[i].JSONLD), graph.JSONLD, graph.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
		task.SourceDocs[i].JSONLD = nil
	}
	return out
}

func canonicalJSON(t *testing.T, task *Task) string {
	t.Helper()
	data, err := json.MarshalIndent(task, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestRoundTripJSONTriGJSON(t *testing.T) {
	for _, file := range corpus(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want := loadTask(t, file)
			_, ds := toTriG(t, loadTask(t, file))
			got := fromTriG(t, ds)
			wantG, gotG := sourceGraphs(t, want), sourceGraphs(t, got)
			if len(wantG) != len(gotG) {
				t.Fatalf("%d source documents back, want %d", len(gotG), len(wantG))
			}
			for i := range wantG {
				if !graph.Isomorphic(wantG[i], gotG[i]) {
					t.Errorf("sourceDocs[%d].jsonLd differs as RDF:\n%s\nwant\n%s", i, graph.CanonicalNTriples(gotG[i]), graph.CanonicalNTriples(wantG[i]))
				}
			}
			if diff := cmp.Diff(canonicalJSON(t, want), canonicalJSON(t, got)); diff != "" {
				t.Errorf("JSON → TriG → JSON differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRoundTripRDFJSONRDF(t *testing.T) {
	for _, file := range corpus(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			task := loadTask(t, file)
			_, first := toTriG(t, task)
			_, second := toTriG(t, fromTriG(t, first))
			if !graph.IsomorphicDatasets(first, second) {
				t.Errorf("RDF → JSON → RDF is not isomorphic:\n%s\nwant\n%s", graph.CanonicalNQuads(second), graph.CanonicalNQuads(first))
			}
		})
	}
}

func TestOutputDeclaresExactlyTheNotesPrefixes(t *testing.T) {
	text, _ := toTriG(t, loadTask(t, corpus(t)[0]))
	var got []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "@prefix") || strings.HasPrefix(line, "PREFIX") {
			got = append(got, strings.Fields(line)[1])
		}
	}
	want := []string{"flint:", "src:", "editor:", "calc:", "choppr:", "co:", "oa:", "prov:", "owl:", "rdf:", "rdfs:", "xsd:"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prefixes (-want +got):\n%s", diff)
	}
}
