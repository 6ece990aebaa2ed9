package graph

import (
	"errors"
	"github.com/regelkit/regelkit/sparql/graph/internal/benchdata"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func parseTurtle(t *testing.T, src string, opt ParseOptions) *Graph {
	t.Helper()
	g, err := ParseGraph(strings.NewReader(src), Turtle, opt)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return g
}

func TestParseTurtleTerms(t *testing.T) {
	g := parseTurtle(t, `
		@prefix ex: <http://example.org/> .
		@prefix : <http://example.org/default#> .
		ex:s ex:int 42 ; ex:neg -5 ; ex:dec 4.5 ; ex:dbl 1.5e3 ; ex:dbl2 1.e2 ;
		     ex:bool true , false ; ex:str "x\ty\u00e9\U0001F600" ;
		     ex:lang "kat"@NL-be ; ex:typed "2024-01-01"^^<http://www.w3.org/2001/XMLSchema#date> ;
		     ex:typed2 "x"^^ex:dt ; ex:long """a"b""c
d""" ; ex:local ex:a\~b.c%20d ; :x :y .
	`, ParseOptions{})
	want := map[string]Term{
		"int":    Literal("42", XSDInteger),
		"neg":    Literal("-5", XSDInteger),
		"dec":    Literal("4.5", XSDDecimal),
		"dbl":    Literal("1.5e3", XSDDouble),
		"dbl2":   Literal("1.e2", XSDDouble),
		"str":    String("x\tyé😀"),
		"lang":   LangLiteral("kat", "nl-be"),
		"typed":  Literal("2024-01-01", XSDDate),
		"typed2": Literal("x", "http://example.org/dt"),
		"long":   String("a\"b\"\"c\nd"),
		"local":  ex("a~b.c%20d"),
	}
	for p, o := range want {
		if !g.Has(Triple{ex("s"), ex(p), o}) {
			t.Errorf("missing ex:s ex:%s %v; have %v", p, o, slices.Collect(g.Objects(ex("s"), ex(p))))
		}
	}
	if n := g.Count(ex("s"), ex("bool"), Term{}); n != 2 {
		t.Errorf("ex:bool has %d objects, want 2", n)
	}
	if !g.Has(Triple{IRI("http://example.org/default#x"), IRI("http://example.org/default#y"), Term{}}) &&
		g.Count(IRI("http://example.org/default#x"), Term{}, Term{}) != 0 {
		t.Error("empty prefix not handled")
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		f         Format
		line, col int
		msg       string
	}{
		{"missing dot", "<a> <b> <c>\n<d> <e> <f> .", Turtle, 2, 1, "expected '.' after triples, found IRI <d>"},
		{"undefined prefix", "@prefix ex: <http://e/> .\n  ex:a foo:b ex:c .", Turtle, 2, 8, `undefined prefix "foo"`},
		{"column counts characters", "<a> <b> \"é\u00e9\" x .", Turtle, 1, 14, "expected '.' after triples, found 'x'"},
		{"bad escape", `<a> <b> "x\qy" .`, Turtle, 1, 11, "invalid escape sequence"},
		{"unterminated string", "<a> <b> \"abc\n\" .", Turtle, 1, 13, "unterminated string"},
		{"literal subject", `"x" <b> <c> .`, Turtle, 1, 1, "expected subject"},
		{"bad surrogate", `<a> <b> "\uD800" .`, Turtle, 1, 10, "does not denote a Unicode character"},
		{"double colon blank", `_::a <b> <c> .`, Turtle, 1, 3, "expected blank node label"},
		{"nt relative IRI", "<http://a> <b> <http://c> .", NTriples, 1, 12, "expected absolute IRI"},
		{"nt prefixed name", "<http://a> ex:b <http://c> .", NTriples, 1, 12, "expected predicate (IRI), found prefixed name ex:b"},
		{"nt two lines", "<http://a> <http://b>\n<http://c> .", NTriples, 1, 22, "expected object"},
		{"trig unclosed graph", "<g> { <a> <b> <c> .", TriG, 1, 20, "expected '}' to close graph, found end of input"},
		{"nquads literal graph", `<http://a> <http://b> <http://c> "g" .`, NQuads, 1, 34, "expected '.' at end of statement"},
		{"bad utf8", "<a> <b> \"\xff\" .", Turtle, 1, 9, "invalid UTF-8"},
		{"eof in collection", "<a> <b> ( <c> ", Turtle, 1, 15, "expected ')' to close collection"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Parse(strings.NewReader(c.src), c.f, ParseOptions{}, func(Quad) error { return nil })
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error = %v, want a *ParseError", err)
			}
			if pe.Line != c.line || pe.Column != c.col || !strings.Contains(pe.Msg, c.msg) {
				t.Errorf("got %q, want line %d, column %d, message containing %q", pe.Error(), c.line, c.col, c.msg)
			}
			if !strings.HasPrefix(pe.Error(), "line ") {
				t.Errorf("Error() = %q, want it to start with the position", pe.Error())
			}
		})
	}
}

// The following tests pin down the knakk/rdf defects listed in the package
// documentation, each one fixed by this package's own parser.

func TestRegressionBaseResolution(t *testing.T) {
	// knakk joined base and reference by string concatenation.
	g := parseTurtle(t, `
		@base <http://a/b/c/d;p?q> .
		<../g> <g;x=1/../y> <?y> .
		<#s> <//g> <> .
	`, ParseOptions{})
	for _, tr := range []Triple{
		{IRI("http://a/b/g"), IRI("http://a/b/c/y"), IRI("http://a/b/c/d;p?y")},
		{IRI("http://a/b/c/d;p?q#s"), IRI("http://g"), IRI("http://a/b/c/d;p?q")},
	} {
		if !g.Has(tr) {
			t.Errorf("missing %v; have\n%s", tr, CanonicalNTriples(g))
		}
	}
}

func TestRegressionSignedDecimals(t *testing.T) {
	// knakk rejected -.2e3 and +.7.
	g := parseTurtle(t, `<http://s> <http://p> -.2e3, +.7, -0.5, .5 .`, ParseOptions{})
	for _, o := range []Term{Literal("-.2e3", XSDDouble), Literal("+.7", XSDDecimal), Literal("-0.5", XSDDecimal), Literal(".5", XSDDecimal)} {
		if !g.Has(Triple{IRI("http://s"), IRI("http://p"), o}) {
			t.Errorf("missing %v", o)
		}
	}
}

func TestRegressionSurrogateEscapes(t *testing.T) {
	// knakk accepted escapes naming UTF-16 surrogates.
	for _, src := range []string{`<a> <b> "\uD800" .`, `<a> <b> "\uDFFF" .`, `<a> <b> "\U0000D834" .`, `<a\uD800> <b> <c> .`, `<a> <b> "\U00110000" .`} {
		if _, err := ParseGraph(strings.NewReader(src), Turtle, ParseOptions{}); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
}

func TestRegressionDoubleColonBlank(t *testing.T) {
	// knakk accepted _::a.
	if _, err := ParseGraph(strings.NewReader(`_::a <http://p> <http://o> .`), Turtle, ParseOptions{}); err == nil {
		t.Error("_::a accepted")
	}
	if _, err := ParseGraph(strings.NewReader("_::a <http://p> <http://o> .\n"), NTriples, ParseOptions{}); err == nil {
		t.Error("_::a accepted in N-Triples")
	}
}

func TestRegressionBlankLabelCollision(t *testing.T) {
	// knakk generated _:bN labels for [] and collections, which merged them
	// with nodes the document labelled _:bN.
	g := parseTurtle(t, `
		_:b0 <http://p> [ <http://q> 1 ] .
		_:b1 <http://p> ( 2 3 ) .
		_:b2 <http://p> [] .
		_:b3 <http://p> _:b4 .
	`, ParseOptions{BlankScope: "b"})
	blanks := map[Term]bool{}
	for tr := range g.Triples() {
		for _, x := range []Term{tr.S, tr.O} {
			if x.IsBlank() {
				blanks[x] = true
			}
		}
	}
	// 5 labelled nodes + [ ... ] + 2 list nodes + [] = 9 distinct nodes.
	if len(blanks) != 9 {
		t.Errorf("%d distinct blank nodes, want 9:\n%s", len(blanks), CanonicalNTriples(g))
	}
}

func TestBlankScopes(t *testing.T) {
	src := `_:a <http://p> <http://o> .`
	d := NewDataset()
	for range 2 {
		if err := Parse(strings.NewReader(src), Turtle, ParseOptions{}, func(q Quad) error { d.Add(q); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if d.Len() != 2 {
		t.Errorf("two default-scoped parses of _:a gave %d quads, want 2 distinct nodes", d.Len())
	}
	d = NewDataset()
	for range 2 {
		if err := Parse(strings.NewReader(src), Turtle, ParseOptions{BlankScope: "doc"}, func(q Quad) error { d.Add(q); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if d.Len() != 1 {
		t.Errorf("two parses with one explicit scope gave %d quads, want 1 shared node", d.Len())
	}
	g := parseTurtle(t, `_:a <http://p> [] .`, ParseOptions{BlankScope: "doc"})
	want := Triple{Blank("doc.a"), IRI("http://p"), Blank("doc-1")}
	if !g.Has(want) {
		t.Errorf("labels: got\n%s want %v", CanonicalNTriples(g), want)
	}
}

func TestRegressionLongStringQuoteBeforeNewline(t *testing.T) {
	// knakk mis-parsed """...""" strings with a quote before a line break.
	g := parseTurtle(t, "<http://s> <http://p> \"\"\"say \"hi\"\nnow\"\"\" , '''it's\n''' .", ParseOptions{})
	for _, o := range []Term{String("say \"hi\"\nnow"), String("it's\n")} {
		if !g.Has(Triple{IRI("http://s"), IRI("http://p"), o}) {
			t.Errorf("missing %q; have\n%s", o.Value, CanonicalNTriples(g))
		}
	}
}

func TestRegressionNoGoroutineLeak(t *testing.T) {
	// knakk's lexer ran in a goroutine that leaked when the decoder was
	// abandoned. Parsing here is synchronous: stopping early leaves nothing.
	before := runtime.NumGoroutine()
	stop := errors.New("stop")
	for range 50 {
		err := Parse(strings.NewReader(strings.Repeat("<http://s> <http://p> <http://o> .\n", 100)), Turtle, ParseOptions{},
			func(Quad) error { return stop })
		if err != stop {
			t.Fatalf("err = %v, want the emit error", err)
		}
	}
	time.Sleep(10 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("goroutines: %d before, %d after abandoning 50 parses", before, after)
	}
}

func TestParsePrefixesReported(t *testing.T) {
	p := NewPrefixes()
	parseTurtle(t, "@base <http://b/> .\nPREFIX ex: <x/>\n@prefix dct: <http://purl.org/dc/terms/> .\n<a> <b> <c> .", ParseOptions{Prefixes: p})
	var got []string
	for n, ns := range p.All() {
		got = append(got, n+"="+ns)
	}
	if want := []string{"ex=http://b/x/", "dct=http://purl.org/dc/terms/"}; !slices.Equal(got, want) {
		t.Errorf("prefixes = %v, want %v", got, want)
	}
}

func TestParseGraphOptionAndNamedGraphs(t *testing.T) {
	_, err := ParseGraph(strings.NewReader(`<http://g> { <http://s> <http://p> <http://o> . }`), TriG, ParseOptions{})
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("ParseGraph of TriG with a named graph: err = %v, want ErrUnsupported", err)
	}
	g, err := ParseGraph(strings.NewReader(`{ <http://s> <http://p> <http://o> }`), TriG, ParseOptions{})
	if err != nil || g.Len() != 1 {
		t.Errorf("ParseGraph of TriG default graph: %v, %v", g, err)
	}
	d, err := ParseDataset(strings.NewReader(`<http://s> <http://p> <http://o> .`), Turtle, ParseOptions{Graph: IRI("http://g")})
	if err != nil || d.Named(IRI("http://g")) == nil || d.Named(IRI("http://g")).Len() != 1 || d.Default().Len() != 0 {
		t.Errorf("ParseOptions.Graph not applied: %v", err)
	}
}

func TestParseNestingLimit(t *testing.T) {
	src := "<http://s> <http://p> " + strings.Repeat("(", maxNesting+1) + strings.Repeat(")", maxNesting+1) + " ."
	_, err := ParseGraph(strings.NewReader(src), Turtle, ParseOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "nested deeper") {
		t.Errorf("err = %v, want a nesting error", err)
	}
}

// TestParseSmallReads feeds the parser through readers that return one
// byte, or a few random bytes, per Read, so tokens straddle buffer refills
// and buffer moves everywhere.
func TestParseSmallReads(t *testing.T) {
	var doc strings.Builder
	doc.WriteString(`@prefix ex: <http://example.org/> .
ex:s ex:p "a long string with \"escapes\" and é" , """multi
line""" , ex:x\.y , -1.5e-3 , ( 1 2 [ ex:q _:lab ] ) , _:lab.x , ex:e. ex:t a ex:C .
`)
	if err := benchdata.WriteTurtle(&doc, 6000); err != nil {
		t.Fatal(err)
	}
	src := doc.String()
	for _, f := range []Format{Turtle, NTriples} {
		text := src
		want := parseTurtle(t, src, ParseOptions{BlankScope: "x"})
		if f == NTriples {
			var nt strings.Builder
			if err := WriteGraph(&nt, NTriples, want, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			text = nt.String()
			var err error
			if want, err = ParseGraph(strings.NewReader(text), NTriples, ParseOptions{BlankScope: "x"}); err != nil {
				t.Fatal(err)
			}
		}
		for name, r := range map[string]io.Reader{
			"one byte":     &oneByteReader{s: text},
			"random sizes": &chunkReader{s: text, rng: rand.New(rand.NewPCG(7, 8))},
		} {
			got, err := ParseGraph(r, f, ParseOptions{BlankScope: "x"})
			if err != nil {
				t.Fatalf("%v, %s: %v", f, name, err)
			}
			if !got.Equal(want) {
				t.Errorf("%v, %s: %d triples, want %d", f, name, got.Len(), want.Len())
			}
		}
	}
}

type oneByteReader struct {
	s string
	i int
}

func (r *oneByteReader) Read(p []byte) (int, error) {
	if r.i >= len(r.s) {
		return 0, io.EOF
	}
	p[0] = r.s[r.i]
	r.i++
	return 1, nil
}

type chunkReader struct {
	s   string
	rng *rand.Rand
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.s) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(r.s), 1+r.rng.IntN(4096))
	copy(p, r.s[:n])
	r.s = r.s[n:]
	return n, nil
}

func TestParseByteOrderMark(t *testing.T) {
	for _, f := range []Format{Turtle, TriG, NTriples, NQuads} {
		g, err := ParseGraph(strings.NewReader("\uFEFF<http://s> <http://p> <http://o> ."), f, ParseOptions{})
		if err != nil || g.Len() != 1 {
			t.Errorf("%v with a byte order mark: %v", f, err)
		}
	}
	if _, err := ParseGraph(strings.NewReader("<http://s> <http://p> \uFEFF<http://o> ."), Turtle, ParseOptions{}); err == nil {
		t.Error("a byte order mark inside the document was accepted")
	}
}
