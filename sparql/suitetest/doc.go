// Package suitetest is the test support shared by the conformance tests
// (W3C RDF and SPARQL suites, the W3C SHACL suite, the DMN TCK): it finds a
// suite on disk, holds a suite's results to a floor file that lists the ids
// of the tests that pass, and compares documents with golden files.
//
// A test finds its suite, runs it, and checks the outcome:
//
//	dir := suitetest.Dir(t, suitetest.RDFTests)
//	res := suitetest.NewResults("turtle")
//	res.Record(t, id, runOne(dir, id)) // for each test
//	res.Check(t, "testdata/conformance/turtle.txt")
//
// It is a public test-support package, as net/http/httptest is, placed
// under sparql/ because sparql/graph is the lowest layer of the module:
// every package with a conformance test (sparql/graph, sparql/memstore,
// shacl, dmn/tck, engine/operaton) may import it without importing
// upwards. It imports nothing of regelkit.
package suitetest
