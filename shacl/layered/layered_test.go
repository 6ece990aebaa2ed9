package layered_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/regelkit/regelkit/shacl/layered"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

func builtin(t testing.TB) *layered.Checker {
	t.Helper()
	c, err := layered.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fixture(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// codes lists the issue codes of one layer, sorted.
func codes(t *testing.T, r *layered.Result, key string) []string {
	t.Helper()
	l, ok := r.Layer(key)
	if !ok {
		t.Fatalf("no layer %s", key)
	}
	var out []string
	for _, is := range l.Issues {
		if is.Severity != layered.SeverityError {
			t.Errorf("%s: severity %q, want error", is.Code, is.Severity)
		}
		out = append(out, is.Code)
	}
	sort.Strings(out)
	return out
}

func rep(code string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = code
	}
	return out
}

func TestBuiltinShapeSets(t *testing.T) {
	c := builtin(t)
	st := c.State()
	if !st.Complete {
		t.Errorf("built-in state incomplete: %+v", st)
	}
	wantLabels := map[string]string{"cpsv-ap": "CPSV-AP 3.2.0", "cprmv": "CPRMV 0.4.1", "custom": "Custom"}
	for key, label := range wantLabels {
		if l := st.Layers[key]; l.Label != label || !l.Loaded {
			t.Errorf("layer %s = %+v, want label %q loaded", key, l, label)
		}
	}
	// The shape files hold the node shapes the notes list.
	wantShapes := map[string]int{"cpsv-ap": 32, "cprmv": 20, "custom": 2}
	for _, set := range layered.BuiltinSets() {
		g := graph.NewGraph()
		names, _ := fs.Glob(set.Files, "*.ttl")
		for _, n := range names {
			data, err := fs.ReadFile(set.Files, n)
			if err != nil {
				t.Fatal(err)
			}
			part, err := graph.ParseGraph(strings.NewReader(string(data)), graph.Turtle, graph.ParseOptions{})
			if err != nil {
				t.Fatalf("%s/%s: %v", set.Key, n, err)
			}
			g.AddAll(part.Triples())
		}
		n := g.Count(graph.Term{}, graph.IRI(graph.RDFType), graph.IRI("http://www.w3.org/ns/shacl#NodeShape"))
		if n != wantShapes[set.Key] {
			t.Errorf("%s: %d node shapes, want %d", set.Key, n, wantShapes[set.Key])
		}
	}
}

func TestScenarios(t *testing.T) {
	c := builtin(t)
	cases := []struct {
		file                 string
		cpsvap, cprmv, custo []string
		valid                bool
	}{
		{"org-collision-fail.ttl", []string{"SHACL-MINCOUNT"}, nil, []string{"SHACL-MAXCOUNT", "SHACL-UNIQUELANG"}, false},
		{"org-collision-pass.ttl", nil, nil, nil, true},
		{"rule-collision-fail.ttl", []string{"SHACL-MINCOUNT"}, nil, []string{"SHACL-UNIQUELANG", "SHACL-UNIQUELANG"}, false},
		{"rule-collision-pass.ttl", rep("SHACL-MINCOUNT", 3), nil, nil, false},
		{"cpsv-ap-rule-nonconformant.ttl", []string{"SHACL-DATATYPE", "SHACL-MINCOUNT", "SHACL-MINCOUNT"}, nil, nil, false},
		{"cpsv-ap-conformant.ttl", nil, nil, nil, true},
		{"cprmv-conformant.ttl", rep("SHACL-MINCOUNT", 4), nil, nil, false},
		{"cprmv-nonconformant.ttl", nil, append([]string{"SHACL-DATATYPE", "SHACL-MAXCOUNT"}, rep("SHACL-MINCOUNT", 5)...), nil, false},
		{"cprmv-parameters.ttl", rep("SHACL-MINCOUNT", 3),
			[]string{"SHACL-CLASS", "SHACL-DATATYPE", "SHACL-DATATYPE", "SHACL-MAXCOUNT", "SHACL-MAXCOUNT", "SHACL-MINCOUNT"}, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			r, err := c.CheckTurtle(context.Background(), fixture(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if r.ParseError != nil {
				t.Fatalf("parse error %s", *r.ParseError)
			}
			for _, l := range []struct {
				key  string
				want []string
			}{{"cpsv-ap", tc.cpsvap}, {"cprmv", tc.cprmv}, {"custom", tc.custo}} {
				if got := codes(t, r, l.key); !slices.Equal(got, l.want) {
					t.Errorf("%s issues %q, want %q", l.key, got, l.want)
				}
			}
			if r.Valid != tc.valid || !r.Complete {
				t.Errorf("valid %v complete %v, want valid %v", r.Valid, r.Complete, tc.valid)
			}
			total := len(tc.cpsvap) + len(tc.cprmv) + len(tc.custo)
			if r.Summary != (layered.Summary{Errors: total}) {
				t.Errorf("summary %+v, want %d errors", r.Summary, total)
			}
		})
	}
}

func TestIssueMessagesAndLocations(t *testing.T) {
	r, err := builtin(t).CheckTurtle(context.Background(), fixture(t, "org-collision-fail.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	org := "https://organisaties.overheid.nl/14866/Provincie_Flevoland"
	custom, _ := r.Layer("custom")
	byCode := map[string]layered.Issue{}
	for _, is := range custom.Issues {
		byCode[is.Code] = is
	}
	home := byCode["SHACL-MAXCOUNT"]
	if home.Location != org+" foaf:homepage" {
		t.Errorf("location %q", home.Location)
	}
	for _, want := range []string{"A public organisation has one homepage.", " Found 2 values: ",
		"https://flevoland.nl/home", "https://www.flevoland.nl/home"} {
		if !strings.Contains(home.Message, want) {
			t.Errorf("homepage message %q lacks %q", home.Message, want)
		}
	}
	label := byCode["SHACL-UNIQUELANG"]
	if label.Location != org+" skos:prefLabel" {
		t.Errorf("location %q", label.Location)
	}
	// Literals by lexical form, whitespace runs collapsed, never truncated.
	for _, want := range []string{"Found 2 values: ", "Provincie Flevoland (gefuseerd)", "Provincie Flevoland, "} {
		if !strings.Contains(label.Message, want) {
			t.Errorf("label message %q lacks %q", label.Message, want)
		}
	}
	cpsv, _ := r.Layer("cpsv-ap")
	if is := cpsv.Issues[0]; is.Message != "SHACL-MINCOUNT" || is.Location != org+" dct:spatial" {
		t.Errorf("cpsv-ap issue %+v: the message is the code when the shape has none", is)
	}

	// A path outside the location prefixes stays a full IRI.
	r, err = builtin(t).CheckTurtle(context.Background(), fixture(t, "cprmv-nonconformant.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	cprmv, _ := r.Layer("cprmv")
	var locs []string
	for _, is := range cprmv.Issues {
		locs = append(locs, is.Location)
		if is.Code == "SHACL-MAXCOUNT" && !strings.Contains(is.Message, "Found 2 values: first comment, second comment.") &&
			!strings.Contains(is.Message, "Found 2 values: second comment, first comment.") {
			t.Errorf("maxCount message %q", is.Message)
		}
	}
	if !slices.Contains(locs, "http://example.com/ruleset https://standaarden.open-regels.nl/standards/cprmv/0.4.1#validFrom") {
		t.Errorf("locations %q", locs)
	}
}

func TestParseError(t *testing.T) {
	r, err := builtin(t).CheckTurtle(context.Background(), fixture(t, "malformed.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	if r.ParseError == nil || r.Valid {
		t.Fatalf("result %+v, want a parse error", r)
	}
	if !regexp.MustCompile(`^line 6, column \d+: `).MatchString(*r.ParseError) {
		t.Errorf("parse error %q lacks the line and column", *r.ParseError)
	}
	for _, l := range r.Layers {
		if !l.Loaded || l.Issues == nil || len(l.Issues) != 0 {
			t.Errorf("layer %s = %+v, want loaded with an empty issue list", l.Key, l)
		}
	}
	data, _ := json.Marshal(r)
	if !strings.Contains(string(data), `"issues":[]`) {
		t.Errorf("JSON %s", data)
	}
}

func TestResultJSON(t *testing.T) {
	r, err := builtin(t).CheckTurtle(context.Background(), fixture(t, "cpsv-ap-rule-nonconformant.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	// Layers in report order; parseError null; summary and complete present.
	for _, want := range []string{`"valid":false`, `"parseError":null`, `"summary":{"errors":3,"warnings":0,"infos":0}`, `"complete":true`,
		`"code":"SHACL-DATATYPE"`, `"location":"https://regels.overheid.nl/rules/zonder-taal dct:title"`} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON lacks %s: %s", want, s)
		}
	}
	i, j, k := strings.Index(s, `"cpsv-ap":{"label":"CPSV-AP 3.2.0","loaded":true`), strings.Index(s, `"cprmv":{"label":"CPRMV 0.4.1"`), strings.Index(s, `"custom":{"label":"Custom"`)
	if i < 0 || !(i < j && j < k) {
		t.Errorf("layers not in order cpsv-ap, cprmv, custom: %s", s)
	}
}

func TestMissingLayerFailsClosed(t *testing.T) {
	sets := layered.BuiltinSets()
	sets[1].Files = fstest.MapFS{"README.md": {Data: []byte("no shapes here")}}
	c, err := layered.New(sets)
	if err != nil {
		t.Fatal(err)
	}
	st := c.State()
	if st.Complete || st.Layers["cprmv"].Loaded || !st.Layers["cpsv-ap"].Loaded || st.Layers["cprmv"].Label != "CPRMV 0.4.1" {
		t.Fatalf("state %+v", st)
	}
	r, err := c.CheckTurtle(context.Background(), fixture(t, "cprmv-nonconformant.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	l, _ := r.Layer("cprmv")
	if r.Valid || r.Complete || l.Loaded || len(l.Issues) != 0 || r.Summary.Errors != 0 {
		t.Errorf("result %+v: a missing layer reports nothing and makes the result invalid", r)
	}
	clean, _ := c.CheckTurtle(context.Background(), fixture(t, "cpsv-ap-conformant.ttl"))
	if clean.Valid {
		t.Error("clean data with a layer missing must not be valid")
	}
}

func TestBrokenShapeFile(t *testing.T) {
	sets := layered.BuiltinSets()
	sets[2].Files = fstest.MapFS{"bad.ttl": {Data: []byte("@prefix sh: <http://www.w3.org/ns/shacl#> .\n<x> sh:targetNode <y> ; sh:minCount ")}}
	c, err := layered.New(sets)
	if err == nil || !strings.Contains(err.Error(), "custom") || !strings.Contains(err.Error(), "bad.ttl") {
		t.Fatalf("err = %v, want one naming the set and file", err)
	}
	if c == nil || c.State().Layers["custom"].Loaded || c.State().Complete {
		t.Fatalf("the broken layer must be reported as not loaded")
	}
}

// recordingSource passes queries to a real in-memory SPARQL store (or
// fails with err) and records every query.
type recordingSource struct {
	store   *memstore.Store
	mu      sync.Mutex
	queries []string
	err     error
}

func (f *recordingSource) Construct(ctx context.Context, query string) (*graph.Graph, error) {
	f.mu.Lock()
	f.queries = append(f.queries, query)
	f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	return f.store.Construct(ctx, query)
}

func publishedStore(t *testing.T, name string) *memstore.Store {
	t.Helper()
	st := memstore.New()
	if name != "" {
		if err := st.Load(context.Background(), strings.NewReader(fixture(t, name)), graph.Turtle); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestMergedModeCatchesCrossPublicationCollision(t *testing.T) {
	c := builtin(t)
	upload := fixture(t, "org-upload.ttl")
	local, err := c.CheckTurtle(context.Background(), upload)
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(t, local, "custom"); len(got) != 0 || !local.Valid {
		t.Fatalf("file-local: custom %q, valid %v; want a clean file", got, local.Valid)
	}
	store := publishedStore(t, "org-published.ttl")
	before := store.Len()
	ep := &recordingSource{store: store}
	merged, err := c.CheckMerged(context.Background(), upload, ep)
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(t, merged, "custom"); !slices.Equal(got, []string{"SHACL-MAXCOUNT"}) {
		t.Fatalf("merged custom issues %q, want one MAXCOUNT", got)
	}
	custom, _ := merged.Layer("custom")
	msg := custom.Issues[0].Message
	if !strings.Contains(msg, "https://flevoland.nl/home") || !strings.Contains(msg, "https://www.flevoland.nl/home") {
		t.Errorf("message %q lacks both homepages", msg)
	}
	// The published dct:spatial is a blank node typed dct:Location; without
	// the blank-node closure the CPSV-AP layer would report SHACL-CLASS.
	if got := codes(t, merged, "cpsv-ap"); len(got) != 0 {
		t.Errorf("merged cpsv-ap issues %q", got)
	}
	if merged.Valid {
		t.Error("merged result must be invalid")
	}
	if len(ep.queries) != 1 || store.Len() != before {
		t.Fatalf("%d queries, store %d → %d triples; want 1 query and no change", len(ep.queries), before, store.Len())
	}
	q := ep.queries[0]
	if !strings.HasPrefix(q, "CONSTRUCT") || !strings.Contains(q, "<https://organisaties.overheid.nl/14866/Provincie_Flevoland>") {
		t.Errorf("query %q", q)
	}
	for _, forbidden := range []string{"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE"} {
		if strings.Contains(strings.ToUpper(q), forbidden) {
			t.Errorf("query contains %s: %q", forbidden, q)
		}
	}
}

func TestMergedModeBatchesAndErrors(t *testing.T) {
	c := builtin(t)
	var b strings.Builder
	b.WriteString("@prefix cpsv: <http://purl.org/vocab/cpsv#> .\n")
	for i := range 450 {
		b.WriteString("<https://example.org/rule/" + strconv.Itoa(i) + "> a cpsv:Rule .\n")
	}
	b.WriteString("[] a cpsv:Rule .\n")
	ep := &recordingSource{store: publishedStore(t, "")}
	r, err := c.CheckMerged(context.Background(), b.String(), ep)
	if err != nil {
		t.Fatal(err)
	}
	if len(ep.queries) != 3 {
		t.Errorf("%d queries for 450 subjects, want 3", len(ep.queries))
	}
	n := 0
	for _, q := range ep.queries {
		n += strings.Count(q, "<https://example.org/rule/")
	}
	if n != 450 {
		t.Errorf("queries name %d subjects, want 450 (the blank subject is not looked up)", n)
	}
	if got := len(codes(t, r, "cpsv-ap")); got != 451*3 {
		t.Errorf("%d cpsv-ap issues, want %d", got, 451*3)
	}

	// A remote failure is a QueryError, not a parse error.
	_, err = c.CheckMerged(context.Background(), fixture(t, "org-upload.ttl"), &recordingSource{err: errors.New("connection refused")})
	var qe *layered.QueryError
	if !errors.As(err, &qe) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("err = %v, want a QueryError", err)
	}
	// No endpoint: only an error when there is something to look up.
	if _, err := c.CheckMerged(context.Background(), fixture(t, "org-upload.ttl"), nil); !errors.Is(err, layered.ErrNoEndpoint) {
		t.Errorf("err = %v, want ErrNoEndpoint", err)
	}
	if r, err := c.CheckMerged(context.Background(), "[] a <http://purl.org/vocab/cpsv#Rule> .", nil); err != nil || r.Summary.Errors != 3 {
		t.Errorf("blank-only file: %v %+v", err, r)
	}
	if r, err := c.CheckMerged(context.Background(), fixture(t, "malformed.ttl"), nil); err != nil || r.ParseError == nil {
		t.Errorf("malformed file: %v %+v", err, r)
	}
}
