package shacl_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

// FuzzCompileAndValidate compiles arbitrary Turtle as a shapes graph and
// validates the same graph with it: whatever the input, Compile returns a
// Validator or a *ShapeError and Validate terminates without panicking.
func FuzzCompileAndValidate(f *testing.F) {
	for _, seed := range []string{
		`ex:S sh:targetNode ex:a ; sh:class ex:C .`,
		`ex:S sh:targetClass ex:C ; sh:property [ sh:path ( ex:p [ sh:inversePath ex:q ] ) ; sh:minCount 1 ; sh:datatype xsd:date ] .
		 ex:a a ex:C ; ex:p ex:b . ex:c ex:q ex:b .`,
		`ex:L sh:targetSubjectsOf ex:parts ; sh:or ( [ sh:hasValue rdf:nil ] [ sh:property [ sh:path rdf:rest ; sh:node ex:L ] ] ) .
		 ex:x ex:parts ( 1 2 ) . _:c rdf:rest _:c .`,
		`ex:S sh:targetNode "x", 1, ex:a ; sh:pattern "^[a-z]+$" ; sh:flags "ix" ; sh:minLength 1 ; sh:maxInclusive "2024-01-01T00:00:00Z"^^xsd:dateTime .`,
		`ex:S sh:targetObjectsOf ex:p ; sh:closed true ; sh:ignoredProperties ( rdf:type ) ; sh:xone ( ex:S ex:T ) ; sh:not ex:S .
		 ex:T sh:in ( 1 "a"@en ex:z ) ; sh:languageIn ( "en" "*" ) . ex:a ex:p ex:b . ex:b ex:r 1 .`,
		`ex:S sh:targetNode ex:a ; sh:property [ sh:path [ sh:zeroOrMorePath [ sh:alternativePath ( ex:p ex:q ) ] ] ;
		   sh:qualifiedValueShape [ sh:nodeKind sh:IRI ] ; sh:qualifiedMinCount 2 ; sh:uniqueLang true ; sh:lessThan ex:r ] .`,
		// Recursion through the data: a property shape holding itself
		// (stops at MaxDepth) and a recursive list shape over a list long
		// enough to suspend conformance checks.
		`ex:S sh:targetNode ex:a ; sh:property ex:P . ex:P sh:path ex:next ; sh:property ex:P . ex:a ex:next ex:b . ex:b ex:next ex:a .`,
		`ex:L sh:targetObjectsOf ex:items ; sh:or ( [ sh:hasValue rdf:nil ] [ sh:property [ sh:path rdf:rest ; sh:minCount 1 ; sh:node ex:L ] ] ) .
		 ex:x ex:items (` + strings.Repeat(" 1", 2000) + ` ) .`,
		// A path whose shared blank nodes would unfold exponentially.
		`ex:S sh:targetNode ex:a ; sh:property [ sh:path _:p0 ; sh:minCount 1 ] .` + sharedPath(30),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, ttl string) {
		g, err := graph.ParseGraph(strings.NewReader(prologue+ttl), graph.Turtle, graph.ParseOptions{})
		if err != nil {
			return
		}
		v, err := shacl.Compile(g)
		if err != nil {
			if _, ok := err.(*shacl.ShapeError); !ok {
				t.Fatalf("error %T %v, want *ShapeError", err, err)
			}
			return
		}
		rep, err := v.Validate(context.Background(), g)
		if err != nil {
			var le *shacl.LimitError
			if !errors.As(err, &le) {
				t.Fatal(err)
			}
			return
		}
		if rep.Conforms != (len(rep.Results) == 0) {
			t.Fatalf("conforms %v with %d results", rep.Conforms, len(rep.Results))
		}
		rep.Graph()
	})
}

// sharedPath returns Turtle for _:p0 ... _:pn, each an alternative of the
// next one twice.
func sharedPath(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(" _:p" + strconv.Itoa(i) + " sh:alternativePath ( _:p" + strconv.Itoa(i+1) + " _:p" + strconv.Itoa(i+1) + " ) .")
	}
	b.WriteString(" _:p" + strconv.Itoa(n) + " sh:inversePath ex:q .")
	return b.String()
}
