package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseJSONLD(t *testing.T) {
	doc := `{
  "@context": {"dct": "http://purl.org/dc/terms/", "title": {"@id": "dct:title", "@language": "nl"},
               "n": {"@id": "http://example.org/n", "@type": "http://www.w3.org/2001/XMLSchema#integer"}},
  "@id": "http://example.org/doc",
  "@type": "http://example.org/Doc",
  "title": "Wet",
  "n": "3",
  "http://example.org/part": {"title": "Artikel 1"},
  "@graph": []
}`
	pfx := NewPrefixes()
	g, err := ParseGraph(strings.NewReader(doc), JSONLD, ParseOptions{Prefixes: pfx})
	if err != nil {
		t.Fatal(err)
	}
	if ns, ok := pfx.Namespace("dct"); !ok || ns != "http://purl.org/dc/terms/" || pfx.Len() != 1 {
		t.Errorf("context prefixes: dct = %q, %d prefixes", ns, pfx.Len())
	}
	d := IRI("http://example.org/doc")
	for _, tr := range []Triple{
		{d, IRI(RDFType), IRI("http://example.org/Doc")},
		{d, IRI("http://purl.org/dc/terms/title"), LangLiteral("Wet", "nl")},
		{d, IRI("http://example.org/n"), Literal("3", XSDInteger)},
	} {
		if !g.Has(tr) {
			t.Errorf("missing %v in\n%s", tr, CanonicalNTriples(g))
		}
	}
	part, ok := g.Object(d, IRI("http://example.org/part"))
	if !ok || !part.IsBlank() || !g.Has(Triple{part, IRI("http://purl.org/dc/terms/title"), LangLiteral("Artikel 1", "nl")}) {
		t.Errorf("nested node missing:\n%s", CanonicalNTriples(g))
	}
	if g.Len() != 5 {
		t.Errorf("%d triples, want 5", g.Len())
	}
}

func TestParseJSONLDErrors(t *testing.T) {
	_, err := ParseGraph(strings.NewReader("{\n  \"@id\": \"http://x\",\n  \"a\": tru\n}"), JSONLD, ParseOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 11 || !strings.Contains(pe.Msg, "invalid character") {
		t.Errorf("syntax error: %v", err)
	}
	_, err = ParseGraph(strings.NewReader(`{"@context": "https://schema.org/", "name": "x"}`), JSONLD, ParseOptions{})
	if !errors.Is(err, ErrRemoteContext) {
		t.Errorf("remote context: err = %v, want ErrRemoteContext", err)
	}
	_, err = ParseGraph(strings.NewReader(`{"@context": {"@version": 2}}`), JSONLD, ParseOptions{})
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "JSON-LD") {
		t.Errorf("invalid context: err = %v, want a JSON-LD ParseError", err)
	}
}

func TestWriteJSONLD(t *testing.T) {
	g := NewGraphOf(
		Triple{IRI("http://example.org/doc"), IRI("http://purl.org/dc/terms/title"), LangLiteral("Wet", "nl")},
		Triple{IRI("http://example.org/doc"), IRI(RDFType), IRI("http://example.org/Doc")},
		Triple{IRI("http://example.org/doc"), IRI("http://example.org/n"), Literal("3", XSDInteger)},
	)
	// Expanded form.
	var buf bytes.Buffer
	if err := WriteGraph(&buf, JSONLD, g, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var expanded []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &expanded); err != nil {
		t.Fatalf("expanded output is not a JSON array: %v\n%s", err, buf.String())
	}
	if len(expanded) != 1 || expanded[0]["@id"] != "http://example.org/doc" {
		t.Errorf("expanded = %s", buf.String())
	}
	// Compacted with a context.
	buf.Reset()
	ctx := `{"dct": "http://purl.org/dc/terms/", "ex": "http://example.org/"}`
	if err := WriteGraph(&buf, JSONLD, g, WriteOptions{Context: ctx}); err != nil {
		t.Fatal(err)
	}
	var compacted map[string]any
	if err := json.Unmarshal(buf.Bytes(), &compacted); err != nil {
		t.Fatalf("compacted output: %v\n%s", err, buf.String())
	}
	if compacted["@id"] != "ex:doc" || compacted["@type"] != "ex:Doc" {
		t.Errorf("compacted = %s", buf.String())
	}
	title, _ := compacted["dct:title"].(map[string]any)
	if title["@value"] != "Wet" || title["@language"] != "nl" {
		t.Errorf("dct:title = %v", compacted["dct:title"])
	}
	back, err := ParseGraph(bytes.NewReader(buf.Bytes()), JSONLD, ParseOptions{})
	if err != nil || !Isomorphic(back, g) {
		t.Errorf("compacted JSON-LD does not read back (%v):\n%s", err, buf.String())
	}
	if err := WriteGraph(&buf, JSONLD, g, WriteOptions{Context: `{"@context": "https://schema.org/"}`}); !errors.Is(err, ErrRemoteContext) {
		t.Errorf("remote compaction context: err = %v, want ErrRemoteContext", err)
	}
}
