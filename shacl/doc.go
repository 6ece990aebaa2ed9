// Package shacl validates RDF graphs against SHACL Core shapes (W3C SHACL,
// sections 2–4): node and property shapes, every target kind, property
// paths and every Core constraint component, with severities, messages and
// sh:deactivated. A shapes graph is compiled once into a Validator (targets,
// paths and per-constraint functions), which then validates any number of
// data graphs and returns the report as Go values and as an RDF
// sh:ValidationReport.
//
// The one call a newcomer needs:
//
//	v, err := shacl.Compile(shapesGraph)
//	report, err := v.Validate(ctx, dataGraph)
//
// Conformance: the Core part of the W3C SHACL test suite (the 98 tests
// reachable from tests/core/manifest.ttl; the SHACL-SPARQL tests are out of
// scope) passes completely, compared by graph isomorphism as the suite
// prescribes: `go test -run W3C -v ./shacl` prints
// "shacl-core: 98 passed, 0 failed".
//
// The suite is read from ../shared/testsuites/shacl relative to the
// repository (REGELKIT_SHACL_TESTS names another folder holding
// data-shapes-test-suite/); the test skips when it is absent. The ids of
// the passing tests are listed in shacl/testdata/conformance/shacl-core.txt,
// one per line, sorted: a listed test that fails fails the run, a passing
// test that is not listed is printed (-update rewrites the list).
//
// Its speed on a large graph (package shacl/layered, BenchmarkCheck100k)
// is in the README's performance table.
//
// Every validation is bounded by Limits (CompileWith; Compile takes
// DefaultLimits): Timeout (30 s), MaxDepth (500 nested shape validations,
// reached only by sh:property recursion through the data; never more than
// 10,000) and MaxRows
// (100,000 results); reaching one ends Validate with a *LimitError. A
// property path may nest 64 levels and hold 10,000 elements.
//
// Semantics worth knowing: SHACL instances follow rdfs:subClassOf in the
// data graph; sh:deactivated, sh:closed, sh:uniqueLang and
// sh:qualifiedValueShapesDisjoint take effect only for the literal true
// (not "1"^^xsd:boolean); a node's conformance to a shape used by sh:node,
// sh:not, sh:and, sh:or, sh:xone or sh:qualifiedValueShape is memoised per
// (node, shape), and a shape that recursively reaches itself for the same
// node conforms at the inner visit, so recursive shapes (SHACL leaves them
// undefined) terminate. Recursion through the data never grows the stack
// without bound: conformance checks nested deeper than 128 shape
// validations are suspended and finished deepest first (a recursive shape
// over a 250,000-member RDF list validates on a bounded stack), and the
// compiler reads shapes from a work list. sh:datatype checks the lexical form with
// graph.WellFormed, and sh:minInclusive and its relatives, sh:lessThan and
// sh:lessThanOrEquals compare with graph.CompareLiterals, SPARQL's value
// order (numbers across the XSD numeric types, strings, booleans,
// date/times with the ±14-hour rule for a missing time zone); values that
// do not compare, NaN among them, violate the constraint. sh:pattern and
// sh:flags are read as XPath's fn:matches reads them, by xsdregexp.Compile
// (also SPARQL's REGEX and FEEL's matches): XML Schema's \d, \w, \i,
// blocks and class subtraction, a dot that matches neither \n nor \r
// without s; a pattern with a back reference runs on a backtracking
// engine under a match time limit, and a match past it fails Validate with
// the *xsdregexp.LimitError.
package shacl
