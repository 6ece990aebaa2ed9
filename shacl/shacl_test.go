package shacl_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

const prologue = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ex: <http://example.org/> .
`

func parse(t testing.TB, ttl string) *graph.Graph {
	t.Helper()
	g, err := graph.ParseGraph(strings.NewReader(prologue+ttl), graph.Turtle, graph.ParseOptions{})
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, ttl)
	}
	return g
}

func validate(t testing.TB, shapes, data string) *shacl.Report {
	t.Helper()
	v, err := shacl.Compile(parse(t, shapes))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	rep, err := v.Validate(context.Background(), parse(t, data))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// summary renders results as "Component focus value" lines, sorted; IRIs
// of example.org are shortened to ex:.
func summary(rep *shacl.Report) []string {
	short := func(t graph.Term) string {
		switch {
		case t.IsZero():
			return "-"
		case t.IsIRI():
			return strings.Replace(t.Value, "http://example.org/", "ex:", 1)
		case t.IsLiteral():
			return fmt.Sprintf("%q", t.Value)
		}
		return "_"
	}
	var out []string
	for _, r := range rep.Results {
		out = append(out, r.ComponentName()+" "+short(r.Focus)+" "+short(r.Value))
	}
	sort.Strings(out)
	return out
}

func TestConstraintComponents(t *testing.T) {
	cases := []struct {
		name, shapes, data string
		want               []string
	}{
		{"class with subclass",
			`ex:S sh:targetNode ex:a, ex:b, ex:c, "lit" ; sh:class ex:C .`,
			`ex:a a ex:D . ex:D rdfs:subClassOf ex:C . ex:b a ex:E . ex:c a ex:C .`,
			[]string{`Class "lit" "lit"`, "Class ex:b ex:b"}},
		{"targetClass follows subclasses",
			`ex:S sh:targetClass ex:C ; sh:nodeKind sh:BlankNode .`,
			`ex:a a ex:D . ex:D rdfs:subClassOf ex:C . ex:b a ex:C . [ a ex:C ] .`,
			[]string{"NodeKind ex:a ex:a", "NodeKind ex:b ex:b"}},
		{"implicit class target",
			`ex:C a rdfs:Class, sh:NodeShape ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .`,
			`ex:a a ex:C . ex:b a ex:C ; ex:p 1 .`,
			[]string{"MinCount ex:a -"}},
		{"subjectsOf and objectsOf",
			`ex:S sh:targetSubjectsOf ex:p ; sh:targetObjectsOf ex:q ; sh:nodeKind sh:Literal .`,
			`ex:a ex:p 1 . ex:a ex:p 2 . ex:b ex:q ex:c . ex:b ex:q "x" .`,
			[]string{"NodeKind ex:a ex:a", "NodeKind ex:c ex:c"}},
		{"datatype and ill-formed literals",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:datatype xsd:integer ] ;
			   sh:property [ sh:path ex:l ; sh:datatype rdf:langString ] .`,
			`ex:a ex:p 1, "x"^^xsd:integer, "2"^^xsd:decimal ; ex:l "hi"@en, "hi" .`,
			[]string{`Datatype ex:a "2"`, `Datatype ex:a "hi"`, `Datatype ex:a "x"`}},
		{"counts",
			`ex:S sh:targetNode ex:a, ex:b ; sh:property [ sh:path ex:p ; sh:minCount 2 ; sh:maxCount 2 ] .`,
			`ex:a ex:p 1 . ex:b ex:p 1, 2, 3 .`,
			[]string{"MaxCount ex:b -", "MinCount ex:a -"}},
		{"value ranges",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:minInclusive 1 ; sh:maxExclusive 10.5 ] .`,
			`ex:a ex:p 0, 1, 10, 10.5, 1e1, "3", ex:x .`,
			[]string{`MaxExclusive ex:a "10.5"`, `MaxExclusive ex:a "3"`, "MaxExclusive ex:a ex:x",
				`MinInclusive ex:a "0"`, `MinInclusive ex:a "3"`, "MinInclusive ex:a ex:x"}},
		{"dates",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:d ; sh:minExclusive "2024-01-01"^^xsd:date ] .`,
			`ex:a ex:d "2024-01-02"^^xsd:date, "2024-01-01"^^xsd:date, "2024-02-30"^^xsd:date .`,
			[]string{`MinExclusive ex:a "2024-01-01"`, `MinExclusive ex:a "2024-02-30"`}},
		{"lengths and patterns",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:minLength 2 ; sh:maxLength 3 ; sh:pattern "^A" ; sh:flags "i" ] .`,
			`ex:a ex:p "a", "abc", "Abcd", "bb", _:x .`,
			[]string{`MaxLength ex:a "Abcd"`, `MinLength ex:a "a"`, "MaxLength ex:a _", "MinLength ex:a _",
				`Pattern ex:a "bb"`, "Pattern ex:a _"}},
		{"XPath patterns and flags",
			`ex:S sh:targetNode ex:a ;
			   sh:property [ sh:path ex:p ; sh:pattern "^[a-z-[aeiou]]+$" ; sh:flags "i" ] ;
			   sh:property [ sh:path ex:q ; sh:pattern "^a.b$" ] ;
			   sh:property [ sh:path ex:r ; sh:pattern "1+1" ; sh:flags "qx" ] ;
			   sh:property [ sh:path ex:d ; sh:pattern "^\\d+$" ] .`,
			`ex:a ex:p "Rhythm", "rain" ; ex:q "a\rb", "a-b" ; ex:r "1 + 1", "x1+1" ; ex:d "\u0661\u0662", "12a" .`,
			[]string{`Pattern ex:a "1 + 1"`, `Pattern ex:a "12a"`, `Pattern ex:a "a\rb"`, `Pattern ex:a "rain"`}},
		{"languageIn and uniqueLang",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:languageIn ("nl" "en") ; sh:uniqueLang true ] .`,
			`ex:a ex:p "a"@nl, "b"@NL, "c"@en-GB, "d"@de, "e", "f"@de .`,
			[]string{`LanguageIn ex:a "d"`, `LanguageIn ex:a "e"`, `LanguageIn ex:a "f"`, "UniqueLang ex:a -", "UniqueLang ex:a -"}},
		{"property pairs",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:equals ex:q ; sh:disjoint ex:r ; sh:lessThan ex:s ; sh:lessThanOrEquals ex:t ] .`,
			`ex:a ex:p 1, 2 ; ex:q 2, 3 ; ex:r 2 ; ex:s 2 ; ex:t 1 .`,
			[]string{`Disjoint ex:a "2"`, `Equals ex:a "1"`, `Equals ex:a "3"`, `LessThan ex:a "2"`, `LessThanOrEquals ex:a "2"`}},
		{"logical",
			`ex:S sh:targetNode ex:a, ex:b, ex:c ;
			   sh:or ( [ sh:class ex:A ] [ sh:class ex:B ] ) ;
			   sh:xone ( [ sh:class ex:A ] [ sh:class ex:B ] ) ;
			   sh:and ( [ sh:nodeKind sh:IRI ] [ sh:class ex:A ] ) ;
			   sh:not [ sh:class ex:B ] .`,
			`ex:a a ex:A . ex:b a ex:A, ex:B . ex:c a ex:C .`,
			[]string{"And ex:c ex:c", "Not ex:b ex:b", "Or ex:c ex:c", "Xone ex:b ex:b", "Xone ex:c ex:c"}},
		{"node and property nesting",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:node ex:N ; sh:property [ sh:path ex:q ; sh:minCount 1 ] ] .
			 ex:N sh:class ex:C .`,
			`ex:a ex:p ex:b, ex:c . ex:b a ex:C ; ex:q 1 . ex:c ex:q 2 .`,
			[]string{"Node ex:a ex:c"}},
		{"qualified value shapes with disjoint siblings",
			`ex:S sh:targetNode ex:hand ;
			   sh:property ex:thumb, ex:finger .
			 ex:thumb sh:path ex:digit ; sh:qualifiedValueShape [ sh:class ex:Thumb ] ; sh:qualifiedValueShapesDisjoint true ; sh:qualifiedMinCount 1 ; sh:qualifiedMaxCount 1 .
			 ex:finger sh:path ex:digit ; sh:qualifiedValueShape [ sh:class ex:Finger ] ; sh:qualifiedValueShapesDisjoint true ; sh:qualifiedMinCount 4 .`,
			`ex:hand ex:digit ex:d1, ex:d2, ex:d3, ex:d4, ex:d5 .
			 ex:d1 a ex:Thumb, ex:Finger . ex:d2 a ex:Finger . ex:d3 a ex:Finger . ex:d4 a ex:Finger . ex:d5 a ex:Finger .`,
			[]string{"QualifiedMinCount ex:hand -"}},
		{"closed with ignored properties",
			`ex:S sh:targetNode ex:a ; sh:closed true ; sh:ignoredProperties ( rdf:type ) ; sh:property [ sh:path ex:p ] .`,
			`ex:a a ex:T ; ex:p 1 ; ex:q 2 .`,
			[]string{`Closed ex:a "2"`}},
		{"hasValue and in",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:hasValue 1 ; sh:in ( 2 3 ) ] .`,
			`ex:a ex:p 2, 4 .`,
			[]string{"HasValue ex:a -", `In ex:a "4"`}},
		{"deactivated shapes",
			`ex:S sh:targetNode ex:a ; sh:minLength 100 ; sh:deactivated true .
			 ex:T sh:targetNode ex:a ; sh:node ex:Off ; sh:property ex:P .
			 ex:Off sh:deactivated true ; sh:class ex:Nothing .
			 ex:P sh:path ex:p ; sh:minCount 1 ; sh:deactivated true .`,
			`ex:a ex:q 1 .`,
			nil},
		{"inverse and complex paths",
			`ex:S sh:targetNode ex:a ; sh:property [ sh:path [ sh:inversePath ex:parent ] ; sh:minCount 2 ] ;
			   sh:property [ sh:path ( ex:p [ sh:zeroOrMorePath ex:q ] ) ; sh:class ex:C ] .`,
			`ex:b ex:parent ex:a . ex:a ex:p ex:x . ex:x a ex:C ; ex:q ex:y . ex:y ex:q ex:x .`,
			[]string{"Class ex:a ex:y", "MinCount ex:a -"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := validate(t, tc.shapes, tc.data)
			got := summary(rep)
			want := slices.Clone(tc.want)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("results\n got: %q\nwant: %q", got, want)
			}
			if rep.Conforms != (len(want) == 0) {
				t.Errorf("Conforms = %v with %d results", rep.Conforms, len(want))
			}
		})
	}
}

func TestRecursiveShapeTerminates(t *testing.T) {
	// A list shape that refers to itself through sh:node on rdf:rest, as
	// the CPRMV hasPart shape does; the data holds a proper list, a list
	// with a wrong member and a cyclic list.
	shapes := `
ex:Holder sh:targetClass ex:Holder ; sh:property [ sh:path ex:parts ; sh:node ex:List ] .
ex:List sh:or ( [ sh:hasValue rdf:nil ]
                [ sh:property [ sh:path rdf:first ; sh:minCount 1 ; sh:maxCount 1 ; sh:class ex:Part ] ;
                  sh:property [ sh:path rdf:rest ; sh:minCount 1 ; sh:maxCount 1 ; sh:node ex:List ] ] ) .`
	data := `
ex:good a ex:Holder ; ex:parts ( ex:p1 ex:p2 ex:p3 ) .
ex:bad a ex:Holder ; ex:parts ( ex:p1 ex:x ex:p3 ) .
ex:loop a ex:Holder ; ex:parts _:c .
_:c rdf:first ex:p1 ; rdf:rest _:c .
ex:p1 a ex:Part . ex:p2 a ex:Part . ex:p3 a ex:Part .`
	rep := validate(t, shapes, data)
	if len(rep.Results) != 1 || rep.Results[0].Focus != graph.IRI("http://example.org/bad") || rep.Results[0].ComponentName() != "Node" {
		t.Fatalf("results = %+v, want one Node result on ex:bad", rep.Results)
	}
}

func TestResultValues(t *testing.T) {
	rep := validate(t, `
ex:S sh:targetNode ex:a ; sh:severity sh:Warning ; sh:message "too many"@en, "te veel"@nl ;
  sh:property ex:P .
ex:P sh:path [ sh:alternativePath ( ex:p [ sh:inversePath ex:q ] ) ] ; sh:maxCount 1 ; sh:message "one only" .`,
		`ex:a ex:p 1 . ex:b ex:q ex:a .`)
	if len(rep.Results) != 1 {
		t.Fatalf("results: %+v", rep.Results)
	}
	r := rep.Results[0]
	if r.Severity != shacl.Violation {
		t.Errorf("severity %v: the property shape's own default applies", r.Severity)
	}
	if r.Shape != graph.IRI("http://example.org/P") || r.Component != graph.IRI(shacl.SH+"MaxCountConstraintComponent") {
		t.Errorf("shape %v component %v", r.Shape, r.Component)
	}
	if len(r.Messages) != 1 || r.Messages[0] != graph.String("one only") {
		t.Errorf("messages %v", r.Messages)
	}
	if !r.Value.IsZero() {
		t.Errorf("maxCount names no value, got %v", r.Value)
	}
	if got := r.Path.String(); got != "<http://example.org/p>|^<http://example.org/q>" {
		t.Errorf("path %q", got)
	}
	px := graph.NewPrefixes("ex", "http://example.org/")
	if got := r.Path.Format(px); got != "ex:p|^ex:q" {
		t.Errorf("formatted path %q", got)
	}
	vals := r.Path.Values(parse(t, `ex:a ex:p 1 . ex:b ex:q ex:a .`), graph.IRI("http://example.org/a"))
	if len(vals) != 2 {
		t.Errorf("path values %v", vals)
	}

	rep = validate(t, `ex:S sh:targetNode ex:a ; sh:severity sh:Warning ; sh:message "bad"@en ; sh:class ex:C .`, `ex:a a ex:D .`)
	if r := rep.Results[0]; r.Severity != shacl.Warning || r.Messages[0] != graph.LangLiteral("bad", "en") || r.Path != nil || r.Value != graph.IRI("http://example.org/a") {
		t.Errorf("node shape result %+v", r)
	}
}

func TestReportGraph(t *testing.T) {
	rep := validate(t, `ex:S sh:targetNode ex:a ; sh:property [ sh:path ( ex:p ex:q ) ; sh:class ex:C ; sh:message "m" ] .`,
		`ex:a ex:p ex:b . ex:b ex:q ex:c, ex:d .`)
	want := parse(t, `
[] a sh:ValidationReport ; sh:conforms false ;
  sh:result [ a sh:ValidationResult ; sh:focusNode ex:a ; sh:value ex:c ; sh:resultPath ( ex:p ex:q ) ;
              sh:resultSeverity sh:Violation ; sh:sourceConstraintComponent sh:ClassConstraintComponent ;
              sh:sourceShape _:shape ; sh:resultMessage "m" ] ,
            [ a sh:ValidationResult ; sh:focusNode ex:a ; sh:value ex:d ; sh:resultPath ( ex:p ex:q ) ;
              sh:resultSeverity sh:Violation ; sh:sourceConstraintComponent sh:ClassConstraintComponent ;
              sh:sourceShape _:shape ; sh:resultMessage "m" ] .`)
	if got := rep.Graph(); !graph.Isomorphic(got, want) {
		t.Errorf("report graph\n%s\nwant\n%s", graph.CanonicalNTriples(got), graph.CanonicalNTriples(want))
	}
	ok := validate(t, `ex:S sh:targetNode ex:a ; sh:class ex:C .`, `ex:a a ex:C .`)
	if !graph.Isomorphic(ok.Graph(), parse(t, `[] a sh:ValidationReport ; sh:conforms true .`)) {
		t.Errorf("conforming report: %s", graph.CanonicalNTriples(ok.Graph()))
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct{ shapes, mention string }{
		{`ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:minCount "x" ] .`, "sh:minCount"},
		{`ex:S sh:targetNode ex:a ; sh:in ex:notAList .`, "well-formed RDF list"},
		{`ex:S sh:targetNode ex:a ; sh:pattern "(" .`, "regular expression"},
		{`ex:S sh:targetNode ex:a ; sh:property ex:P . ex:P sh:minCount 1 .`, "no sh:path"},
		{`ex:S sh:targetNode ex:a ; sh:path [ ex:notAPath 1 ] .`, "not a property path"},
		{`ex:S sh:targetNode ex:a ; sh:path "p" .`, "literal"},
		{`ex:S sh:targetNode ex:a ; sh:nodeKind ex:Other .`, "sh:IRI"},
		{`ex:S sh:targetNode ex:a ; sh:pattern "a" ; sh:flags "z" .`, "unknown flag 'z'"},
		{`ex:S sh:targetNode ex:a ; sh:pattern "\\1(a)" .`, `back reference \1 refers to no group closed before it`},
		{`ex:S sh:targetNode ex:a ; sh:pattern "\\p{IsKlingon}" .`, "Unicode block IsKlingon"},
		{`ex:S sh:targetNode ex:a ; sh:node "shape" .`, "literal cannot be a shape"},
	}
	for _, tc := range cases {
		_, err := shacl.Compile(parse(t, tc.shapes))
		var se *shacl.ShapeError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want a *ShapeError", tc.shapes, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: error %q does not mention %q", tc.shapes, err, tc.mention)
		}
	}
}

func TestValidateHonoursContext(t *testing.T) {
	v, err := shacl.Compile(parse(t, `ex:S sh:targetSubjectsOf ex:p ; sh:class ex:C .`))
	if err != nil {
		t.Fatal(err)
	}
	data := graph.NewGraph()
	for i := range 5000 {
		data.Add(graph.Triple{S: graph.IRI(fmt.Sprintf("http://example.org/n%d", i)), P: graph.IRI("http://example.org/p"), O: graph.String("x")})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := v.Validate(ctx, data); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
