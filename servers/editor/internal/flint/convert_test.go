package flint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
)

// TestWorkedExample checks the mapping against TriG written by hand, and the
// legacy input forms it uses (subTypeId, string comments, a claim-duty's
// actorId, operator "not", a missing interpretation, an empty snippet and
// an empty child construct).
func TestWorkedExample(t *testing.T) {
	task := loadTask(t, "testdata/worked.json")
	got, err := ToDataset(context.Background(), task, Options{Now: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/worked.trig")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := graph.ParseDataset(f, graph.TriG, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !graph.IsomorphicDatasets(want, got) {
		t.Fatalf("got\n%s\nwant\n%s", graph.CanonicalNQuads(got), graph.CanonicalNQuads(want))
	}

	// The normalised JSON is a fixed point of a second round trip.
	_, ds := toTriG(t, task)
	back := fromTriG(t, ds)
	if back.Interpretation != "http://ontology.tno.nl/normengineering/editor#interpretation-t1" {
		t.Errorf("interpretation = %q", back.Interpretation)
	}
	var c1 Frame
	for _, fr := range back.Frames {
		if fr.ID == "c1" {
			c1 = fr
		}
	}
	if c1.ClaimantID != "f1" {
		t.Errorf("claim-duty claimantId = %q, want f1 (from legacy actorId)", c1.ClaimantID)
	}
	data, _ := json.Marshal(c1)
	if !strings.Contains(string(data), `"actorId":"f1"`) {
		t.Errorf("claim-duty JSON lacks the deprecated actorId copy: %s", data)
	}
	_, ds2 := toTriG(t, back)
	if !graph.IsomorphicDatasets(ds, ds2) {
		t.Error("second round trip is not a fixed point")
	}
}

func TestDutyPitfall(t *testing.T) {
	task := loadTask(t, "testdata/worked.json")
	task.Frames[1].SubTypeIDs = []string{"duty"} // f5 becomes a duty fact
	_, ds := toTriG(t, task)
	back := fromTriG(t, ds)
	types := map[string]string{}
	for _, f := range back.Frames {
		types[f.ID] = f.TypeID
	}
	if types["f5"] != TypeFact || types["c1"] != TypeClaimDuty {
		t.Errorf("types = %v, want f5 fact and c1 claim_duty", types)
	}
}

func TestSchemaErrors(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*Task)
		detail string
	}{
		{"dangling reference", func(t *Task) { t.Frames[3].ActorID = "x" }, "frames[3].actorId: unknown frame 'x'"},
		{"unknown type", func(t *Task) { t.Frames[2].TypeID = "rule" }, `frames[2].typeId: unknown type "rule"`},
		{"bad id", func(t *Task) { t.Frames[0].ID = "f 1" }, `frames[0].id: must match [A-Za-z0-9_-]+, got "f 1"`},
		{"duplicate id", func(t *Task) { t.Frames[1].ID = "f1" }, `frames[1].id: duplicate frame id "f1"`},
		{"unknown sentence", func(t *Task) { t.Frames[3].SourceSentences[0].SentenceID = "zz" }, "frames[3].sourceSentences[0].sentenceId: unknown sentence 'zz'"},
		{"unknown subtype", func(t *Task) { t.Frames[1].SubTypeIDs = []string{"person"} }, `frames[1].subTypeIds: unknown subtype "person"`},
		{"bad task id", func(t *Task) { t.ID = "http://example.org/t" }, `id: task IRI must look like`},
		{"remote context", func(t *Task) {
			t.SourceDocs[0].JSONLD = json.RawMessage(`{"@context":"http://example.org/ctx","@id":"x"}`)
		},
			"sourceDocs[0].jsonLd: a remote @context is not loaded"},
		{"bad comment date", func(t *Task) { d := "gisteren"; t.Frames[1].Comments = []Comment{{Content: "x", CreatedAt: &d}} },
			`frames[1].comments[0].createdAt: not an ISO 8601 date-time: "gisteren"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			task := loadTask(t, "testdata/worked.json")
			c.mutate(task)
			_, err := ToDataset(context.Background(), task, Options{Now: fixedClock})
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a SchemaError", err)
			}
			found := false
			for _, d := range se.Details {
				found = found || strings.HasPrefix(d, c.detail)
			}
			if !found {
				t.Errorf("details %q lack %q", se.Details, c.detail)
			}
		})
	}
}

func readTriG(t *testing.T, text string) (*Result, error) {
	t.Helper()
	ds, err := graph.ParseDataset(strings.NewReader(text), graph.TriG, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return FromDataset(context.Background(), ds, Options{})
}

const taskHeader = `@prefix flint: <http://ontology.tno.nl/normengineering/flint#> .
@prefix editor: <http://ontology.tno.nl/normengineering/editor#> .
@prefix calc: <http://ontology.tno.nl/normengineering/calculemus#> .
editor:task-x { editor:task-x a calc:Task ; calc:involves editor:interpretation-x . }
`

func TestReadErrors(t *testing.T) {
	cases := []struct{ name, trig, want string }{
		{"nothing", `<http://a> <http://b> <http://c> .`, "No task or source found."},
		{"cycle", taskHeader + `editor:interpretation-x { editor:a a flint:Act ; flint:hasPrecondition _:p .
			_:p a flint:ComplexFact ; flint:hasFunction flint:and ; flint:hasOperands ( editor:f _:p ) .
			editor:f a flint:Fact . }`, "frame a.precondition.children[1]: cyclic construct"},
		{"not a frame", taskHeader + `editor:interpretation-x { editor:a a flint:Act ; flint:hasActor <http://example.org/x> . }`,
			"frame a.actorId: <http://example.org/x> is not a frame IRI"},
		{"two interpretations", taskHeader + `editor:task-x { editor:task-x calc:involves editor:interpretation-y . }`,
			"exactly one interpretation graph besides its sources, found 2"},
		{"missing source", taskHeader + `editor:task-x { editor:task-x editor:hasSourceDocuments ( [ editor:ofSource <http://s/Doc> ] ) ; calc:involves <http://s/Doc> . }`,
			"Source graph missing: http://s/Doc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readTriG(t, c.trig)
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a SchemaError", err)
			}
			if !strings.Contains(se.Error(), c.want) {
				t.Errorf("error %q lacks %q", se.Error(), c.want)
			}
		})
	}
}

func TestReadSourceOnly(t *testing.T) {
	data, err := os.ReadFile("../../../../examples/editor/sources/participatiewet-art43.jsonld")
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.ParseGraph(bytes.NewReader(data), graph.JSONLD, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTurtle(&buf, g); err != nil {
		t.Fatal(err)
	}
	res, err := readTriG(t, buf.String())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Context map[string]any   `json:"@context"`
		Graph   []map[string]any `json:"@graph"`
	}
	if err := json.Unmarshal(res.Source, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Context["@base"] != "http://choppr.app/decompositions/6f1c2a9e-43aa-4b8e-9a51-0c4a2e7b1d01/" {
		t.Errorf("@base = %v", doc.Context["@base"])
	}
	back, err := graph.ParseGraph(bytes.NewReader(res.Source), graph.JSONLD, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !graph.Isomorphic(g, back) {
		t.Errorf("source document is not the same graph:\n%s", graph.CanonicalNTriples(back))
	}
	var heading map[string]any
	for _, n := range doc.Graph {
		if n["IRI"] == "Document/00PX_Artikel43" {
			heading = n
		}
	}
	want := []any{"Document/00PX_Artikel43/00aA", "Document/00PX_Artikel43/00aB", "Document/00PX_Artikel43/00aC"}
	if heading == nil || len(heading["children"].([]any)) != 3 || heading["children"].([]any)[2] != want[2] || heading["containsAsHeader"] != want[0] {
		t.Errorf("heading = %v", heading)
	}
}

func TestLimits(t *testing.T) {
	task := loadTask(t, "testdata/worked.json")
	var le *LimitError
	if _, err := ToDataset(context.Background(), task, Options{Limits: Limits{MaxRows: 3}}); !errors.As(err, &le) || le.LimitExceeded() != "MaxRows" {
		t.Errorf("5 frames under MaxRows 3: err = %v", err)
	}
	deep := &Construct{Frame: "f5"}
	for range 100 {
		deep = &Construct{Negated: false, Children: []*Construct{deep}}
	}
	task = loadTask(t, "testdata/worked.json")
	task.Frames[3].Precondition = deep
	_, err := ToDataset(context.Background(), task, Options{})
	var se *SchemaError
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "nested deeper than 64") {
		t.Errorf("100 nested constructs: err = %v", err)
	}
}
