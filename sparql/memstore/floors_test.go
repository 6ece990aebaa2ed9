package memstore

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Floors: testdata/floors/<suite>.txt lists, one per line and sorted, the
// ids of the tests of a W3C suite that pass. A listed test that fails or
// is missing fails the run; a passing test not listed is printed so that
// the floor can be raised, which -update-floors does (only when nothing
// listed fails, so a floor is never lowered by it).

var updateFloors = flag.Bool("update-floors", false, "rewrite testdata/floors/*.txt with the passing tests of each suite")

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

// suiteOutcome collects the outcome of each test of one suite.
type suiteOutcome struct {
	name    string
	results map[string]error // by test id; nil: passed
	order   []string
}

func newSuiteOutcome(name string) *suiteOutcome {
	return &suiteOutcome{name: name, results: map[string]error{}}
}

func (s *suiteOutcome) record(t *testing.T, id string, err error) {
	t.Helper()
	if _, dup := s.results[id]; dup {
		t.Errorf("%s: two tests with the id %s", s.name, id)
	}
	s.results[id] = err
	s.order = append(s.order, id)
}

func (s *suiteOutcome) passed() []string {
	var out []string
	for id, err := range s.results {
		if err == nil {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// check prints the suite's summary line ("sparql11-protocol: 34 passed,
// 0 failed", which .ci/run greps), logs the failures, and holds the suite
// to its floor file.
func (s *suiteOutcome) check(t *testing.T) {
	t.Helper()
	pass := s.passed()
	fmt.Printf("%s: %d passed, %d failed\n", s.name, len(pass), len(s.results)-len(pass))
	for _, id := range s.order {
		if err := s.results[id]; err != nil {
			t.Logf("  %s FAIL %s: %v", s.name, id, err)
		}
	}
	path := filepath.Join("testdata", "floors", s.name+".txt")
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	floor := map[string]bool{}
	var lines []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			floor[line] = true
			lines = append(lines, line)
		}
	}
	if !slices.IsSorted(lines) {
		t.Errorf("%s: %s is not sorted", s.name, path)
	}
	regressed := false
	for _, id := range lines {
		err, ok := s.results[id]
		switch {
		case !ok:
			regressed = true
			t.Errorf("%s: %s is in the floor but not in the suite", s.name, id)
		case err != nil:
			regressed = true
			t.Errorf("%s: %s is in the floor but fails: %v", s.name, id, err)
		}
	}
	var raised []string
	for _, id := range pass {
		if !floor[id] {
			raised = append(raised, id)
			fmt.Printf("%s: newly passing, not in %s: %s\n", s.name, path, id)
		}
	}
	if *updateFloors && len(raised) > 0 && !regressed {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(pass, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s: wrote %s (%d tests)\n", s.name, path, len(pass))
	}
}
