package memstore

import (
	"path/filepath"
	"strings"
)

// Floors: testdata/floors/<suite>.txt lists, one per line and sorted, the
// ids of the tests of a W3C suite that pass (internal/suitetest holds the
// suites to them; -update raises them).

// caseID names a test stably across machines: the manifest's path below
// rdf-tests/sparql, '#', and the test's local name (its mf:name when the
// entry is a blank node).
func caseID(root string, tc testCase) string {
	rel, err := filepath.Rel(filepath.Join(root, "sparql"), urlPath(tc.m.base))
	if err != nil {
		rel = filepath.Base(urlPath(tc.m.base))
	}
	local := tc.name
	if tc.node.IsIRI() {
		v := tc.node.Value
		local = v[strings.LastIndexAny(v, "#/")+1:]
	}
	return filepath.ToSlash(rel) + "#" + local
}

// floorPath is the floor file of the suite called name.
func floorPath(name string) string { return filepath.Join("testdata", "floors", name+".txt") }
