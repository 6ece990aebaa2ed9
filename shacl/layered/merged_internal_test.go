package layered

import (
	"errors"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
)

func TestPublishedQuery(t *testing.T) {
	q, err := publishedQuery([]string{"https://example.org/a", "urn:x:b#c"})
	if err != nil {
		t.Fatal(err)
	}
	want := "CONSTRUCT { ?s ?p ?o . ?o ?bp ?bo . }\nWHERE {\n  VALUES ?s { <https://example.org/a> <urn:x:b#c> }\n" +
		"  { ?s ?p ?o . }\n  UNION\n  { ?s ?p ?o . FILTER(isBlank(?o)) ?o ?bp ?bo . }\n}\n"
	if q != want {
		t.Errorf("query\n%s\nwant\n%s", q, want)
	}
	// IRIs that would break out of <...> or are not IRIREF characters.
	for _, bad := range []string{"https://e.org/a b", "https://e.org/a>b", "https://e.org/<", `https://e.org/"`,
		"https://e.org/{x}", "https://e.org/a|b", "https://e.org/^", "https://e.org/`", `https://e.org/\`, "https://e.org/\x01", ""} {
		_, err := publishedQuery([]string{"https://example.org/ok", bad})
		var ie *IRIError
		if !errors.As(err, &ie) || ie.IRI != bad {
			t.Errorf("%q: err = %v, want an IRIError", bad, err)
		}
	}
	if _, err := publishedQuery([]string{"https://e.org/ä?q=1&r=é#frag"}); err != nil {
		t.Errorf("non-ASCII IRI refused: %v", err)
	}
}

func TestBlankRenamerAvoidsFileLabels(t *testing.T) {
	file := graph.NewGraphOf(
		graph.Triple{S: graph.Blank("published1"), P: graph.IRI("http://e.org/p"), O: graph.Blank("published2")},
	)
	r := newBlankRenamer(file)
	a := r.term(graph.Blank("published1"))
	b := r.term(graph.Blank("x"))
	if a == graph.Blank("published1") || a == graph.Blank("published2") || b == a || b.Value == "published2" {
		t.Errorf("renamed to %v and %v", a, b)
	}
	if r.term(graph.Blank("published1")) != a {
		t.Error("one remote blank node must keep one name")
	}
	if iri := graph.IRI("http://e.org/x"); r.term(iri) != iri {
		t.Error("IRIs are not renamed")
	}
	if !strings.HasPrefix(a.Value, "published") {
		t.Errorf("label %q", a.Value)
	}
}
