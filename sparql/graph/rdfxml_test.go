package graph

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const rdfNS = `xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/"`

func TestParseRDFXML(t *testing.T) {
	for _, c := range []struct {
		name, base, xml, want string
	}{
		{
			// knakk/rdf merged these two nodes.
			name: "nodeID and anonymous nodes stay apart",
			xml: `<rdf:RDF ` + rdfNS + `>
  <rdf:Description rdf:nodeID="b0"><ex:p>doc node</ex:p></rdf:Description>
  <rdf:Description><ex:p>anonymous</ex:p></rdf:Description>
</rdf:RDF>`,
			want: `_:x <http://example.org/p> "doc node" .
_:y <http://example.org/p> "anonymous" .`,
		},
		{
			// knakk/rdf resolved these by joining strings.
			name: "RFC 3986 resolution against xml:base",
			xml: `<rdf:RDF ` + rdfNS + ` xml:base="http://a/b/c/d;p?q">
  <rdf:Description rdf:about="../g"><ex:p rdf:resource="g;x=1/../y"/><ex:q rdf:resource="?y"/><ex:r rdf:resource=""/></rdf:Description>
  <rdf:Description rdf:ID="frag"/>
</rdf:RDF>`,
			want: `<http://a/b/g> <http://example.org/p> <http://a/b/c/y> .
<http://a/b/g> <http://example.org/q> <http://a/b/c/d;p?y> .
<http://a/b/g> <http://example.org/r> <http://a/b/c/d;p?q> .`,
		},
		{
			name: "typed nodes, attributes, languages, datatypes, containers",
			base: "http://example.org/base/doc",
			xml: `<rdf:RDF ` + rdfNS + `>
  <ex:Thing rdf:about="s" ex:attr="v" xml:lang="NL">
    <ex:label>Hallo</ex:label>
    <ex:en xml:lang="en">Hello</ex:en>
    <ex:plain xml:lang="">plain</ex:plain>
    <ex:n rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">3</ex:n>
    <ex:bag><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></ex:bag>
    <ex:empty/>
    <ex:obj ex:q="w" rdf:type="http://example.org/T"/>
  </ex:Thing>
</rdf:RDF>`,
			want: `<http://example.org/base/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/Thing> .
<http://example.org/base/s> <http://example.org/attr> "v"@nl .
<http://example.org/base/s> <http://example.org/label> "Hallo"@nl .
<http://example.org/base/s> <http://example.org/en> "Hello"@en .
<http://example.org/base/s> <http://example.org/plain> "plain" .
<http://example.org/base/s> <http://example.org/n> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://example.org/base/s> <http://example.org/bag> _:bag .
_:bag <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/1999/02/22-rdf-syntax-ns#Bag> .
_:bag <http://www.w3.org/1999/02/22-rdf-syntax-ns#_1> "a"@nl .
_:bag <http://www.w3.org/1999/02/22-rdf-syntax-ns#_2> "b"@nl .
<http://example.org/base/s> <http://example.org/empty> ""@nl .
<http://example.org/base/s> <http://example.org/obj> _:o .
_:o <http://example.org/q> "w"@nl .
_:o <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/T> .`,
		},
		{
			name: "parseType Resource, Collection and Literal; reification",
			base: "http://example.org/doc",
			xml: `<rdf:RDF ` + rdfNS + `>
  <rdf:Description rdf:about="http://example.org/s">
    <ex:res rdf:parseType="Resource"><ex:x>y</ex:x></ex:res>
    <ex:coll rdf:parseType="Collection"><rdf:Description rdf:about="http://example.org/i1"/><rdf:Description rdf:about="http://example.org/i2"/></ex:coll>
    <ex:none rdf:parseType="Collection"></ex:none>
    <ex:xml rdf:parseType="Literal"><b xmlns="http://www.w3.org/1999/xhtml" class="c">bold &amp; <ex:i/></b> text</ex:xml>
    <ex:reif rdf:ID="r1">reified</ex:reif>
  </rdf:Description>
</rdf:RDF>`,
			want: `<http://example.org/s> <http://example.org/res> _:r .
_:r <http://example.org/x> "y" .
<http://example.org/s> <http://example.org/coll> _:l1 .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <http://example.org/i1> .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:l2 .
_:l2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <http://example.org/i2> .
_:l2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
<http://example.org/s> <http://example.org/none> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
<http://example.org/s> <http://example.org/xml> "<b xmlns=\"http://www.w3.org/1999/xhtml\" class=\"c\">bold &amp; <ex:i xmlns:ex=\"http://example.org/\"></ex:i></b> text"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#XMLLiteral> .
<http://example.org/s> <http://example.org/reif> "reified" .
<http://example.org/doc#r1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement> .
<http://example.org/doc#r1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject> <http://example.org/s> .
<http://example.org/doc#r1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate> <http://example.org/reif> .
<http://example.org/doc#r1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#object> "reified" .`,
		},
		{
			name: "a single node element without rdf:RDF",
			xml:  `<ex:Doc ` + rdfNS + ` rdf:about="http://example.org/d"><ex:p rdf:nodeID="n"/></ex:Doc>`,
			want: `<http://example.org/d> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/Doc> .
<http://example.org/d> <http://example.org/p> _:n .`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseGraph(strings.NewReader(c.xml), RDFXML, ParseOptions{Base: c.base})
			if err != nil {
				t.Fatal(err)
			}
			want, err := ParseGraph(strings.NewReader(c.want), NTriples, ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !Isomorphic(got, want) {
				t.Errorf("got\n%swant\n%s", CanonicalNTriples(got), CanonicalNTriples(want))
			}
		})
	}
}

func TestParseRDFXMLErrors(t *testing.T) {
	for _, c := range []struct{ name, xml, msg string }{
		{"not XML", "<rdf:RDF " + rdfNS + "><ex:a>", "XML"},
		{"unclosed", "<rdf:RDF " + rdfNS + ">\n<rdf:Description>", "unexpected EOF"},
		{"text in node", "<rdf:RDF " + rdfNS + "><rdf:Description>text</rdf:Description></rdf:RDF>", "expected a property element, found text"},
		{"two subjects", "<rdf:RDF " + rdfNS + `><rdf:Description rdf:about="a" rdf:nodeID="b"/></rdf:RDF>`, "only one of"},
		{"li as node", "<rdf:RDF " + rdfNS + "><rdf:li/></rdf:RDF>", "rdf:li is not allowed as a node element"},
		{"bad ID", "<rdf:RDF " + rdfNS + `><rdf:Description rdf:ID="1x"/></rdf:RDF>`, "not an XML name"},
		{"duplicate ID", "<rdf:RDF " + rdfNS + `><rdf:Description rdf:ID="x"/><rdf:Description rdf:ID="x"/></rdf:RDF>`, "used twice"},
		{"mixed content", "<rdf:RDF " + rdfNS + `><rdf:Description><ex:p>t<rdf:Description/></ex:p></rdf:Description></rdf:RDF>`, "cannot mix text and elements"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseGraph(strings.NewReader(c.xml), RDFXML, ParseOptions{Base: "http://example.org/"})
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(pe.Msg, c.msg) || pe.Line < 1 {
				t.Errorf("err = %v, want a positioned error containing %q", err, c.msg)
			}
		})
	}
}

func TestWriteRDFXML(t *testing.T) {
	src := `@prefix ex: <http://example.org/> .
ex:s a ex:C ; ex:p "a < b & \"c\"\r\n"@nl, "x"^^ex:dt, _:b ; ex:q ex:o .
_:b ex:r "1" .`
	g := parseTurtle(t, src, ParseOptions{})
	var buf bytes.Buffer
	if err := WriteGraph(&buf, RDFXML, g, WriteOptions{Prefixes: NewPrefixes("ex", "http://example.org/")}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `xmlns:ex="http://example.org/"`) || !strings.Contains(buf.String(), "<ex:q rdf:resource=") {
		t.Errorf("prefixes not used:\n%s", buf.String())
	}
	pfx := NewPrefixes()
	back, err := ParseGraph(bytes.NewReader(buf.Bytes()), RDFXML, ParseOptions{Prefixes: pfx})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if ns, _ := pfx.Namespace("ex"); ns != "http://example.org/" {
		t.Errorf("namespace declarations not reported: ex = %q", ns)
	}
	if !Isomorphic(back, g) {
		t.Errorf("RDF/XML round trip:\n%s\ngot\n%s", buf.String(), CanonicalNTriples(back))
	}
	bad := NewGraphOf(Triple{IRI("http://example.org/s"), IRI("http://example.org/1"), String("x")})
	if err := WriteGraph(&buf, RDFXML, bad, WriteOptions{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("predicate without a local name: err = %v", err)
	}
}
