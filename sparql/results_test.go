package sparql

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/sparql/graph"
)

func sample() *Results {
	return &Results{
		Vars: []string{"s", "label", "n"},
		Solutions: []Solution{
			{"s": graph.IRI("http://example.org/a"), "label": graph.LangLiteral("tab\there \"q\"", "nl"), "n": graph.Literal("42", graph.XSDInteger)},
			{"s": graph.Blank("b0"), "n": graph.Literal("1.5e0", graph.XSDDouble)},
			{"label": graph.String("x,y\nz")},
		},
	}
}

func TestJSONExactShapeAndRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	want := `{"head":{"vars":["s","label","n"]},"results":{"bindings":[` +
		`{"s":{"type":"uri","value":"http://example.org/a"},"label":{"type":"literal","value":"tab\there \"q\"","xml:lang":"nl"},"n":{"type":"literal","value":"42","datatype":"http://www.w3.org/2001/XMLSchema#integer"}},` +
		`{"s":{"type":"bnode","value":"b0"},"n":{"type":"literal","value":"1.5e0","datatype":"http://www.w3.org/2001/XMLSchema#double"}},` +
		`{"label":{"type":"literal","value":"x,y\nz"}}]}}`
	if buf.String() != want {
		t.Errorf("JSON:\n got %s\nwant %s", buf.String(), want)
	}
	back, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sample(), back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestXMLRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteXML(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	back, err := ReadXML(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sample(), back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestBooleanDocuments(t *testing.T) {
	yes := true
	r := &Results{Boolean: &yes}
	var j, x bytes.Buffer
	WriteJSON(&j, r)
	if j.String() != `{"head":{},"boolean":true}` {
		t.Errorf("JSON = %s", j.String())
	}
	WriteXML(&x, r)
	back, err := ReadXML(&x)
	if err != nil || back.Boolean == nil || !*back.Boolean {
		t.Errorf("XML boolean round trip: %v %v", back, err)
	}
}

func TestCSVAndTSV(t *testing.T) {
	var c, tsv bytes.Buffer
	WriteCSV(&c, sample())
	wantCSV := "s,label,n\r\nhttp://example.org/a,\"tab\there \"\"q\"\"\",42\r\n_:b0,,1.5e0\r\n,\"x,y\nz\",\r\n"
	if c.String() != wantCSV {
		t.Errorf("CSV:\n got %q\nwant %q", c.String(), wantCSV)
	}
	WriteTSV(&tsv, sample())
	wantTSV := "?s\t?label\t?n\n<http://example.org/a>\t\"tab\\there \\\"q\\\"\"@nl\t42\n_:b0\t\t1.5e0\n\t\"x,y\\nz\"\t\n"
	if tsv.String() != wantTSV {
		t.Errorf("TSV:\n got %q\nwant %q", tsv.String(), wantTSV)
	}
}

func TestReadErrors(t *testing.T) {
	for _, doc := range []string{``, `{"head":{}}`, `{"results":{"bindings":[]}}`, `{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"weird","value":"1"}}]}}`} {
		if _, err := ReadJSON(strings.NewReader(doc)); err == nil {
			t.Errorf("ReadJSON(%q) succeeded", doc)
		}
	}
	for _, doc := range []string{``, `<html/>`, `<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/><boolean>maybe</boolean></sparql>`} {
		if _, err := ReadXML(strings.NewReader(doc)); err == nil {
			t.Errorf("ReadXML(%q) succeeded", doc)
		}
	}
}

func TestNegotiate(t *testing.T) {
	offers := []string{MediaResultsJSON, MediaResultsXML, MediaCSV}
	for _, tc := range []struct{ accept, want string }{
		{"", MediaResultsJSON},
		{"*/*", MediaResultsJSON},
		{"text/csv", MediaCSV},
		{"application/sparql-results+xml;q=0.9, application/sparql-results+json;q=0.5", MediaResultsXML},
		{"text/*", MediaCSV},
		{"image/png", ""},
	} {
		if got := Negotiate(tc.accept, offers); got != tc.want {
			t.Errorf("Negotiate(%q) = %q, want %q", tc.accept, got, tc.want)
		}
	}
}

func FuzzReadJSON(f *testing.F) {
	f.Add(`{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"uri","value":"a"}}]}}`)
	f.Add(`{"head":{},"boolean":false}`)
	f.Fuzz(func(t *testing.T, doc string) {
		res, err := ReadJSON(strings.NewReader(doc))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, res); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadJSON(&buf); err != nil {
			t.Fatalf("re-reading our own output: %v", err)
		}
	})
}

func FuzzReadXML(f *testing.F) {
	f.Add(`<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="x"/></head><results><result><binding name="x"><literal xml:lang="en">a</literal></binding></result></results></sparql>`)
	f.Fuzz(func(t *testing.T, doc string) {
		res, err := ReadXML(strings.NewReader(doc))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteXML(&buf, res); err != nil {
			t.Fatal(err)
		}
	})
}
