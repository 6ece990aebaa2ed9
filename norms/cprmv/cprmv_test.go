package cprmv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/suitetest"
)

// march1 is the clock of the notes' examples: today = 2026-03-01.
func march1() time.Time { return time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC) }

func newService(t testing.TB, opts Options) *Service {
	t.Helper()
	if opts.Now == nil {
		opts.Now = march1
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"BWBR0015703":              "BWBR0015703_now_latest",
		"BWBR0015703_0":            "BWBR0015703_na_0",
		"CVDR712517_1":             "CVDR712517_na_1",
		"BWBR0015703_2025-07-01_0": "BWBR0015703_2025-07-01_0",
		"BWBR0015703_latest":       "BWBR0015703_na_latest",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestDetect(t *testing.T) {
	m, err := DefaultMethods()
	if err != nil {
		t.Fatal(err)
	}
	const cellar = "CFMX483e4752e-f2e5-11e8-9982-01aa75ed71a1.0017.02_DOC_2"
	const dmn = "DMN1.3_0b6e2c1a-7f3d-4c59-9a51-2f0d4e6a8b10R5c9d1e2f-3a4b-4c6d-8e7f-9a0b1c2d3e4f_2026-01-01_1"
	for _, c := range []struct {
		id, method, rulesetid string
		exact                 bool
	}{
		{"BWBR0015703_2025-07-01_0", "bwb", "R0015703", true},
		{"BWBR0015703_2025-07-02_latest", "bwb", "R0015703", false},
		{"BWBR0015703", "bwb", "R0015703", false},
		{"BWBR0015703_latest", "bwb", "R0015703", false},
		{"CVDR712517", "cvdr", "R712517", false},
		{"CVDR712517_1", "cvdr", "R712517", true},
		{"CVDR712517_2025-07-02_latest", "cvdr", "R712517", false},
		{cellar, "cellarfmx4", "83e4752e-f2e5-11e8-9982-01aa75ed71a1.0017.02", true},
		{dmn, "dmn13operaton", "", true},
	} {
		got, err := m.Detect(c.id)
		if err != nil {
			t.Errorf("%s: %v", c.id, err)
			continue
		}
		if got.Method != c.method || got.Fields["rulesetid"] != c.rulesetid || got.Exact() != c.exact {
			t.Errorf("%s: got %s %v exact=%v, want %s %s exact=%v", c.id, got.Method, got.Fields, got.Exact(), c.method, c.rulesetid, c.exact)
		}
	}
	got, _ := m.Detect(dmn)
	if got.Fields["deploymentid"] != "0b6e2c1a-7f3d-4c59-9a51-2f0d4e6a8b10" || got.Fields["resourceid"] != "5c9d1e2f-3a4b-4c6d-8e7f-9a0b1c2d3e4f" {
		t.Errorf("dmn split: %v", got.Fields)
	}
	for _, bad := range []string{"UNKNOWN_ID_X", "BWBR0015703_2025-02-30_0", "BWBR0015703_0", "BWBX15703", "BWBR001570",
		"CVDX712517", "DMN1.3_0B6E2C1A-7F3D-4C59-9A51-2F0D4E6A8B10R5c9d1e2f-3a4b-4c6d-8e7f-9a0b1c2d3e4f_2026-01-01_1"} {
		if _, err := m.Detect(bad); !errors.Is(err, ErrUnsupportedID) {
			t.Errorf("%s: err %v, want ErrUnsupportedID", bad, err)
		}
	}
}

func TestLocalLatest(t *testing.T) {
	s := newService(t, Options{})
	for id, want := range map[string]string{
		"BWBR0015703":                   "BWBR0015703_2026-01-01_0", // today picks the newer one
		"BWBR0015703_latest":            "BWBR0015703_2026-01-01_0",
		"BWBR0015703_2025-09-15_latest": "BWBR0015703_2025-07-01_0", // between the versions: the older
		"CVDR712517":                    "CVDR712517_2",
		"CVDR712517_2024-06-01_latest":  "CVDR712517_1",
		"CVDR712517_1":                  "CVDR712517_1",
	} {
		rs, err := s.RuleSet(context.Background(), id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if rs.ID != want {
			t.Errorf("%s resolved to %s, want %s", id, rs.ID, want)
		}
	}
	rs, _ := s.RuleSet(context.Background(), "CVDR712517_1")
	if rs.ValidFrom != "2024-01-01" {
		t.Errorf("CVDR version 1 validFrom %q, want the in-force date 2024-01-01", rs.ValidFrom)
	}
	for _, id := range []string{"BWBR0015703_2020-01-01_latest", "BWBR9999999", "CVDR712517_2020-01-01_latest", "BWBR0015703_2025-07-01_7"} {
		if _, err := s.RuleSet(context.Background(), id); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: err %v, want ErrNotFound", id, err)
		}
	}
}

// get runs one request and fails the test on error.
func get(t *testing.T, s *Service, req Request) []byte {
	t.Helper()
	b, err := s.Rules(context.Background(), req)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	return b
}

// TestWorkedExample checks cprmv-json against the worked example of the format for
// /rules/BWBR0015703_2025-07-01_0,Artikel 20,lid 1, written out by hand. The
// notes elide the headings' titles and the onderdelen's contents ("…"); the
// fixture has them, so they are spelled out here.
func TestWorkedExample(t *testing.T) {
	s := newService(t, Options{})
	got := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0,Artikel 20,lid 1"})
	const ns = "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#"
	want := `{
  "http://www.w3.org/1999/02/22-rdf-syntax-ns#type": "` + ns + `RuleSet",
  "` + ns + `id": "BWBR0015703_2025-07-01_0",
  "` + ns + `validFrom": "2025-07-01",
  "` + ns + `hasMethod": "https://cprmv.open-regels.nl/0.4.1/methods/bwb",
  "http://www.w3.org/ns/prov#wasDerivedFrom": "https://repository.officiele-overheidspublicaties.nl/bwb/BWBR0015703/2025-07-01_0/xml/BWBR0015703_2025-07-01_0.xml",
  "` + ns + `comment": "Participatiewet",
  "` + ns + `hasPart": {"Hoofdstuk 3": {"` + ns + `id": "Hoofdstuk 3", "` + ns + `comment": "Algemene bijstand", "` + ns + `hasPart": {"Paragraaf 3.2": {"` + ns + `id": "Paragraaf 3.2", "` + ns + `comment": "Normen",
    "` + ns + `hasPart": {"Artikel 20": {"` + ns + `id": "Artikel 20", "` + ns + `comment": "Jongerennorm", "` + ns + `hasPart": {"lid 1": {"` + ns + `id": "lid 1",
      "` + ns + `definition": "De norm bedraagt per maand voor:",
      "` + ns + `hasPart": {
        "onderdeel a.": {"` + ns + `id": "onderdeel a.", "` + ns + `definition": "een alleenstaande van 18, 19 of 20 jaar: € 337,98;"},
        "onderdeel b.": {"` + ns + `id": "onderdeel b.", "` + ns + `definition": "gehuwden, beiden van 18, 19 of 20 jaar: € 675,96;"}}}}}}}}}}
}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(want)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(compact.String(), string(got)); diff != "" {
		t.Errorf("cprmv-json (-want +got), key order included:\n%s", diff)
	}
}

func TestTraversal(t *testing.T) {
	s := newService(t, Options{})
	rs, err := s.RuleSet(context.Background(), "BWBR0015703_2025-07-01_0")
	if err != nil {
		t.Fatal(err)
	}
	ids := func(rules []*Rule) string {
		var out []string
		for _, r := range rules {
			out = append(out, r.ID)
		}
		return strings.Join(out, " > ")
	}
	for path, want := range map[string]string{
		"Artikel20,lid 1":                      "Hoofdstuk 3 > Paragraaf 3.2 > Artikel 20 > lid 1",
		"artikel 20,LID 1,onderdeel a":         "Hoofdstuk 3 > Paragraaf 3.2 > Artikel 20 > lid 1 > onderdeel a.",
		"Hoofdstuk 3,Artikel 21,onderdeel b.":  "Hoofdstuk 3 > Paragraaf 3.2 > Artikel 21 > onderdeel b.",
		"Artikel 20,onderdeel b":               "Hoofdstuk 3 > Paragraaf 3.2 > Artikel 20 > lid 1 > onderdeel b.", // first depth-first match
		"Artikel 20,lid 2,onderdeel b":         "Hoofdstuk 3 > Paragraaf 3.2 > Artikel 20 > lid 2 > onderdeel b.",
		"hoofdstuk 3,paragraaf 3.2,artikel 22": "Hoofdstuk 3 > Paragraaf 3.2 > Artikel 22",
	} {
		chain, _ := rs.Find(SplitPath(path, ","))
		if got := ids(chain); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	if _, err := s.Rules(context.Background(), Request{Path: "BWBR0015703_2025-07-01_0,Artikel 99"}); !errors.Is(err, ErrNoRules) {
		t.Errorf("unmatched path: %v", err)
	}
	// Delimiters: "/" splits under the default; a custom delimiter does not.
	a := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0/Artikel 20/lid 1"})
	b := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0|Artikel 20|lid 1", Delimiter: "|"})
	c := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0,Artikel 20,lid 1"})
	if !bytes.Equal(a, c) || !bytes.Equal(b, c) {
		t.Error("the three delimiters must select the same rule")
	}
}

func TestRequestBounds(t *testing.T) {
	s := newService(t, Options{})
	long := "BWBR0015703," + strings.Repeat("x", 500-len("BWBR0015703,"))
	for _, c := range []struct {
		req  Request
		want error
	}{
		{Request{Path: "BWBR00157"}, ErrPathLength}, // 9
		{Request{Path: "CVDR712517"}, nil},          // 10
		{Request{Path: long}, ErrNoRules},           // 500: valid length, no such rule
		{Request{Path: long + "x"}, ErrPathLength},  // 501
		{Request{Path: strings.Repeat("é", 501)}, ErrPathLength},
		{Request{Path: "UNKNOWN_ID_X"}, ErrUnsupportedID},
		{Request{Path: "BWBR0015703", Format: "csv"}, ErrFormat},
		{Request{Path: "BWBR0015703", Language: "en"}, ErrLanguage},
		{Request{Path: "BWBR0015703", Language: "nl"}, nil},
		{Request{Path: "BWBR0015703", Unformat: "{a:d}"}, ErrPattern},
	} {
		_, err := s.Rules(context.Background(), c.req)
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%.40q: err %v, want %v", c.req.Path, err, c.want)
		}
	}
}

func TestUnformat(t *testing.T) {
	p, err := CompilePattern("{situatie:param_value}: € {norm:param_value}")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Match("Huur: € 1.200,—"); got["situatie"] != "Huur" || got["norm"] != "1.200,—" {
		t.Errorf("Huur example: %v", got)
	}
	if got := p.Match("een alleenstaande van 18, 19 of 20\u00a0jaar: € 337,98;"); got["norm"] != "337,98;" ||
		got["situatie"] != "een alleenstaande van 18, 19 of 20 jaar" {
		t.Errorf("trailing punctuation is captured: %v", got)
	}
	semi, _ := CompilePattern("{situatie:param_value}: € {norm:param_value};")
	if got := semi.Match("een alleenstaande: € 337,98;"); got["norm"] != "337,98" {
		t.Errorf("with ';' in the pattern: %v", got)
	}
	lazy, _ := CompilePattern("{a}: {b:param_value}")
	if got := lazy.Match("x: y: z"); got["a"] != "x" || got["b"] != "y: z" {
		t.Errorf("lazy then greedy: %v", got)
	}
	braces, _ := CompilePattern("{{{a}}}")
	if got := braces.Match("see {ref}"); got["a"] != "ref" {
		t.Errorf("literal braces: %v", got)
	}
	for _, bad := range []string{"", "{a}{a}", "{a:d}", "{1a}", "{a", "a}", "{a:w}"} {
		if _, err := CompilePattern(bad); !errors.Is(err, ErrPattern) {
			t.Errorf("%q: %v, want ErrPattern", bad, err)
		}
	}
}

// TestUnformatNormTable extracts (situatie, norm) from every household type
// of Participatiewet Artikel 20–22, version 2025-07-01.
func TestUnformatNormTable(t *testing.T) {
	s := newService(t, Options{})
	const pattern = "{situatie:param_value}: € {norm:param_value};"
	for path, want := range map[string][2]string{
		"Artikel 20,lid 1,onderdeel a": {"een alleenstaande van 18, 19 of 20 jaar", "337,98"},
		"Artikel 20,lid 1,onderdeel b": {"gehuwden, beiden van 18, 19 of 20 jaar", "675,96"},
		"Artikel 20,lid 2,onderdeel a": {"een alleenstaande ouder van 18, 19 of 20 jaar", "337,98"},
		"Artikel 20,lid 2,onderdeel b": {"gehuwden van wie één echtgenoot 18, 19 of 20 jaar is en de ander 21 jaar of ouder", "1.038,64"},
		"Artikel 21,onderdeel a":       {"indien belanghebbende alleenstaande of alleenstaande ouder is", "1.401,25"},
		"Artikel 21,onderdeel b":       {"indien belanghebbende gehuwd is en beide echtgenoten 21 jaar of ouder zijn", "2.001,79"},
		"Artikel 22,onderdeel a":       {"indien belanghebbende alleenstaande of alleenstaande ouder is en de pensioengerechtigde leeftijd heeft bereikt", "1.565,20"},
		"Artikel 22,onderdeel b":       {"indien belanghebbende gehuwd is en beide echtgenoten de pensioengerechtigde leeftijd hebben bereikt", "2.121,50"},
	} {
		// format=turtle is overridden: unformat forces cprmv-json.
		body := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0," + path, Unformat: pattern, Format: "turtle"})
		leaf := leafObject(t, body)
		if leaf[ExtNS+"situatie"] != want[0] || leaf[ExtNS+"norm"] != want[1] || leaf[ExtNS+"rulesetid"] != "BWBR0015703_2025-07-01_0" {
			t.Errorf("%s: %v", path, leaf)
		}
		if !strings.HasPrefix(leaf[ExtNS+"rule_id_path"].(string), "BWBR0015703_2025-07-01_0, Artikel 2") {
			t.Errorf("%s: rule_id_path %v", path, leaf[ExtNS+"rule_id_path"])
		}
	}
	body := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0,Artikel 20,lid 1,onderdeel a", Unformat: pattern})
	if got := leafObject(t, body)[ExtNS+"rule_id_path"]; got != "BWBR0015703_2025-07-01_0, Artikel 20, lid 1, onderdeel a." {
		t.Errorf("rule_id_path %v", got)
	}
	// No match, or a path with only the rule set: unchanged output.
	plain := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0,Artikel 20,lid 1"})
	if got := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0,Artikel 20,lid 1", Unformat: "{x} zzz {y}"}); !bytes.Equal(got, plain) {
		t.Error("a pattern that does not match must leave the output unchanged")
	}
	whole := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0"})
	if got := get(t, s, Request{Path: "BWBR0015703_2025-07-01_0", Unformat: pattern}); !bytes.Equal(got, whole) {
		t.Error("a path with only the rule set must leave the output unchanged")
	}
}

// leafObject follows the single-key hasPart chain of a narrowed answer.
func leafObject(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		t.Fatal(err)
	}
	for {
		parts, ok := obj[NS+"hasPart"].(map[string]any)
		if !ok || len(parts) != 1 {
			return obj
		}
		for _, v := range parts {
			obj = v.(map[string]any)
		}
	}
}

func TestJuriconnect(t *testing.T) {
	s := newService(t, Options{})
	for _, c := range []struct{ method, ref, want string }{
		{"Juriconnect", "jci1.3:c:BWBR0015703&hoofdstuk=3&paragraaf=3.2&artikel=20&z=2025-07-01&g=2025-07-01",
			"/rules/BWBR0015703_2025-07-01_latest%2CHoofdstuk%203%2CParagraaf%203.2%2CArtikel%2020"},
		{"Juriconnect", "jci1.31:c:BWBR0015703&artikel=20&o=a.", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020%2Conderdeel%20a."},
		{"Juriconnect", "jci1.31:c:BWBR0015703&artikel=20&o=a", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020%2Conderdeel%20a"},
		{"juriconnect", "jci1.3:c:BWBR0011825&hoofdstuk=2&artikel=3", "/rules/BWBR0011825_2026-03-01_latest%2CHoofdstuk%202%2CArtikel%203"},
		{"JURICONNECT", "jci1.3:c:bwbr0015703&artikel=20&lid=1&onderdeel=b", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020%2Clid%201%2Conderdeel%20b"},
		{"juriconnect", "jci1.3:c:BWBR0015703&artikel=20&sub=x&lid=2", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020%2Clid%202"},
		{"cprmvapi", "https://cprmv.open-regels.nl/rules/BWBR0015703/Artikel%2020/lid%201", "/rules/BWBR0015703%2CArtikel%2020%2Clid%201"},
		{"", "jci1.3:c:BWBR0015703&artikel=21", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2021"},
		{"", "https://example.org/rules/CVDR712517,Artikel 2", "/rules/CVDR712517%2CArtikel%202"},
	} {
		got, err := s.Resolve(c.method, c.ref)
		if err != nil || got != c.want {
			t.Errorf("%s %s: %q %v, want %q", c.method, c.ref, got, err, c.want)
		}
	}
	for _, c := range [][2]string{{"Juriconnect", "jci1.3:c:BWB123&artikel=1"}, {"Other", "x"}, {"Juriconnect", ""},
		{"Juriconnect", "jci1.3:m:BWBR0015703&artikel=20"}, {"Juriconnect", "jci1.2:c:BWBR0015703"},
		{"Juriconnect", "jci1.3:c:BWBR0015703&g=2025-13-01"}, {"", "nothing"}} {
		if _, err := s.Resolve(c[0], c[1]); !errors.Is(err, ErrReference) {
			t.Errorf("%s %s: %v, want ErrReference", c[0], c[1], err)
		}
	}
}

// TestJuriconnectRoundTrip: each redirect resolves to the intended rule.
func TestJuriconnectRoundTrip(t *testing.T) {
	s := newService(t, Options{})
	for ref, wantID := range map[string]string{
		"jci1.3:c:BWBR0015703&hoofdstuk=3&paragraaf=3.2&artikel=20&g=2025-07-01": "Artikel 20",
		"jci1.31:c:BWBR0015703&artikel=20&o=a.":                                  "onderdeel a.",
		"jci1.3:c:BWBR0015703&artikel=20&lid=2":                                  "lid 2",
		"jci1.3:c:BWBR0011825&hoofdstuk=2&artikel=3":                             "Artikel 3",
	} {
		loc, err := s.Resolve("juriconnect", ref)
		if err != nil {
			t.Fatal(err)
		}
		p := strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(loc, "/rules/"), "%2C", ","), "%20", " ")
		leaf := leafObject(t, get(t, s, Request{Path: p}))
		if leaf[NS+"id"] != wantID {
			t.Errorf("%s → %s → %v, want %s", ref, p, leaf[NS+"id"], wantID)
		}
	}
}

// goldenCases are the golden requests: one per fixture, plus a narrowed one.
var goldenCases = map[string]string{
	"participatiewet-2025":    "BWBR0015703_2025-07-01_0",
	"participatiewet-2026":    "BWBR0015703_2026-01-01_0",
	"participatiewet-art20-1": "BWBR0015703_2025-07-01_0,Artikel 20,lid 1",
	"awb":                     "BWBR0005537_2025-01-01_0",
	"regeling-bwbr0011825":    "BWBR0011825_2024-01-01_0",
	"cvdr-1":                  "CVDR712517_1",
	"cvdr-2":                  "CVDR712517_2",
	"formex":                  "CFMX483e4752e-f2e5-11e8-9982-01aa75ed71a1.0017.02_DOC_2",
	"dmn":                     "DMN1.3_0b6e2c1a-7f3d-4c59-9a51-2f0d4e6a8b10R5c9d1e2f-3a4b-4c6d-8e7f-9a0b1c2d3e4f_2026-01-01_1",
}

var goldenExt = map[string]string{"cprmv-json": "json", "json-ld": "jsonld", "xml": "rdf", "turtle": "ttl", "turtle2": "nt"}

// TestGolden compares every format of every fixture with testdata/golden
// (refresh with -update, then read the diff), and checks that every RDF
// format parses back to graphs isomorphic to one another.
func TestGolden(t *testing.T) {
	s := newService(t, Options{})
	for name, path := range goldenCases {
		var graphs []*graph.Graph
		for format, ext := range goldenExt {
			got := get(t, s, Request{Path: path, Format: format})
			suitetest.Golden(t, filepath.Join("testdata", "golden", name+"."+ext), got)
			if format == "cprmv-json" {
				if !json.Valid(got) {
					t.Errorf("%s: cprmv-json is not JSON", name)
				}
				continue
			}
			f := rdfFormats[format]
			g, err := graph.ParseGraph(bytes.NewReader(got), f, graph.ParseOptions{})
			if err != nil {
				t.Fatalf("%s %s does not parse back: %v", name, format, err)
			}
			graphs = append(graphs, g)
		}
		for i := 1; i < len(graphs); i++ {
			if !graph.Isomorphic(graphs[0], graphs[i]) {
				t.Errorf("%s: the RDF formats are not isomorphic:\n%s\n----\n%s", name,
					graph.CanonicalNTriples(graphs[0]), graph.CanonicalNTriples(graphs[i]))
			}
		}
		for _, alias := range []string{"ttl", "n3"} {
			if !bytes.Equal(get(t, s, Request{Path: path, Format: alias}), get(t, s, Request{Path: path, Format: "turtle"})) {
				t.Errorf("%s: %s must equal turtle", name, alias)
			}
		}
	}
}

// TestSortedOutput: subjects, and predicates within a subject, come out in
// term order, whatever order the graph was built in.
func TestSortedOutput(t *testing.T) {
	m, err := DefaultMethods()
	if err != nil {
		t.Fatal(err)
	}
	out, err := WriteGraph(m.Graph, "turtle2")
	if err != nil {
		t.Fatal(err)
	}
	var prev [2]string
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(f[0], "<") {
			break // blank node subjects follow the IRIs
		}
		cur := [2]string{strings.Trim(f[0], "<>"), strings.Trim(f[1], "<>")}
		if cur[0] < prev[0] || (cur[0] == prev[0] && cur[1] < prev[1]) {
			t.Fatalf("%v after %v", cur, prev)
		}
		prev = cur
		n++
	}
	if n < 100 {
		t.Fatalf("only %d IRI-subject lines", n)
	}
	g, _ := graph.ParseGraph(bytes.NewReader(out), graph.NTriples, graph.ParseOptions{})
	if !graph.Isomorphic(g, m.Graph) {
		t.Error("sorting changed the graph")
	}
}
