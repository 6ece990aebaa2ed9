package graph

import "testing"

// TestResolveIRI checks the examples of RFC 3986 §5.4.
func TestResolveIRI(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	for ref, want := range map[string]string{
		// 5.4.1 normal examples
		"g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
		"/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
		"#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s",
		";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "g;x?y#s": "http://a/b/c/g;x?y#s",
		"": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/",
		"../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
		"../../g": "http://a/g",
		// 5.4.2 abnormal examples
		"../../../g": "http://a/g", "../../../../g": "http://a/g", "/./g": "http://a/g",
		"/../g": "http://a/g", "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g", "g..": "http://a/b/c/g..",
		"..g": "http://a/b/c/..g", "./../g": "http://a/b/g", "./g/.": "http://a/b/c/g/",
		"g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h", "g;x=1/./y": "http://a/b/c/g;x=1/y",
		"g;x=1/../y": "http://a/b/c/y", "g?y/./x": "http://a/b/c/g?y/./x", "g?y/../x": "http://a/b/c/g?y/../x",
		"g#s/./x": "http://a/b/c/g#s/./x", "g#s/../x": "http://a/b/c/g#s/../x", "http:g": "http:g",
	} {
		if got := ResolveIRI(base, ref); got != want {
			t.Errorf("ResolveIRI(%q) = %q, want %q", ref, got, want)
		}
	}
	if got := ResolveIRI("", "rel/x"); got != "rel/x" {
		t.Errorf("empty base: %q", got)
	}
	if got := ResolveIRI("http://a", "b"); got != "http://a/b" {
		t.Errorf("base without path: %q", got)
	}
	if got := ResolveIRI("urn:x:y", "#f"); got != "urn:x:y#f" {
		t.Errorf("urn base: %q", got)
	}
}

func TestFormatFor(t *testing.T) {
	for in, want := range map[string]Format{
		"text/turtle": Turtle, "Text/Turtle; charset=UTF-8": Turtle, ".ttl": Turtle, "shapes.TTL": Turtle,
		"application/n-triples": NTriples, ".nt": NTriples, "application/trig": TriG, ".nq": NQuads,
		"application/rdf+xml": RDFXML, ".owl": RDFXML, "application/ld+json": JSONLD, "json-ld": JSONLD,
		"turtle": Turtle, "xml": RDFXML, "n3": Turtle, "data/shapes.ttl": Turtle, "/tmp/x.y/model.rdf": RDFXML,
	} {
		if got, ok := FormatFor(in); !ok || got != want {
			t.Errorf("FormatFor(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "text/html", ".docx", "turtle2"} {
		if f, ok := FormatFor(in); ok {
			t.Errorf("FormatFor(%q) = %v, want none", in, f)
		}
	}
	if Format(0).MediaType() != "" || Format(99).String() != "Format(99)" || NQuads.Extension() != ".nq" {
		t.Error("Format methods on edge values")
	}
}
