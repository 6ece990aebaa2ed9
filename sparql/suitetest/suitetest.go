package suitetest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the floor files and golden files from this run")

// Update reports whether the test binary runs with -update, which rewrites
// floor files (Results.Check) and golden files (Golden) instead of
// comparing with them.
func Update() bool { return *update }

// EnvRequire names the environment variable that, set to 1 (as CI does),
// turns the skip of a test whose suite is absent into a failure.
const EnvRequire = "REGELKIT_REQUIRE_SUITES"

// Suite names a conformance suite: its directory below testsuites in the
// shared directory beside the repository, and the environment variable
// that points elsewhere.
type Suite struct {
	Name  string // for messages: "W3C rdf-tests"
	Env   string // overrides the location: "REGELKIT_RDF_TESTS"
	Dir   string // below ../shared/testsuites: "rdf-tests"
	Probe string // a path inside the suite that must exist; "" for the directory itself
}

// The suites the repository's conformance tests read.
var (
	RDFTests = Suite{Name: "W3C rdf-tests", Env: "REGELKIT_RDF_TESTS", Dir: "rdf-tests"}
	SHACL    = Suite{Name: "W3C SHACL test suite", Env: "REGELKIT_SHACL_TESTS", Dir: "shacl"}
	DMNTCK   = Suite{Name: "DMN TCK", Env: "REGELKIT_DMN_TCK", Dir: "dmn-tck", Probe: "TestCases"}
)

// Lookup returns the suite's directory: the value of s.Env when set, else
// shared/testsuites/<s.Dir> beside the module's root (the directory
// holding go.mod, found upwards from the working directory). The error
// says why the suite is unusable; the directory, absolute, is returned
// with it.
func (s Suite) Lookup() (string, error) {
	dir := os.Getenv(s.Env)
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(filepath.Dir(root), "shared", "testsuites", s.Dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir, err
	}
	if _, err := os.Stat(filepath.Join(abs, s.Probe)); err != nil {
		return abs, err
	}
	return abs, nil
}

// moduleRoot is the nearest directory at or above the working directory
// that holds a go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory")
		}
		dir = parent
	}
}

// Dir returns the suite's directory (see Lookup). When the suite is
// absent it skips t with a message saying where it looked and how to point
// elsewhere, or fails t when REGELKIT_REQUIRE_SUITES=1.
func Dir(t testing.TB, s Suite) string {
	t.Helper()
	dir, err := s.Lookup()
	if err == nil {
		return dir
	}
	msg := fmt.Sprintf("%s not found at %s (set %s to its directory): %v", s.Name, dir, s.Env, err)
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s=1 but %s", EnvRequire, msg)
	}
	t.Skip("SKIPPED: " + msg)
	return ""
}

// Results collects the outcome of each test of one suite, by test id.
type Results struct {
	name  string
	errs  map[string]error // nil: passed
	order []string
}

// NewResults returns an empty collection for the suite called name, the
// name its summary line starts with.
func NewResults(name string) *Results {
	return &Results{name: name, errs: map[string]error{}}
}

// Record notes the outcome of the test id; err is nil when it passed. Two
// outcomes for one id fail t: a floor could not tell them apart.
func (r *Results) Record(t testing.TB, id string, err error) {
	t.Helper()
	if _, dup := r.errs[id]; dup {
		t.Errorf("%s: two tests with the id %s", r.name, id)
	}
	r.errs[id] = err
	r.order = append(r.order, id)
}

// Passed returns the ids of the tests that passed, sorted.
func (r *Results) Passed() []string {
	var out []string
	for id, err := range r.errs {
		if err == nil {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Len is the number of tests recorded.
func (r *Results) Len() int { return len(r.errs) }

// maxDetail bounds the failure message logged per test.
const maxDetail = 500

// Check prints the suite's summary line ("turtle: 313 passed, 0 failed",
// which CI collects), logs each failure, and holds the results to the
// floor file at path: one test id per line, sorted ('#' starts a comment
// line). A listed test that fails or did not run fails t, even when other
// tests newly pass; a passing test that is not listed is printed. With
// -update the file is rewritten with the passing ids, unless a listed test
// fails: a floor is lowered only by editing it by hand.
func (r *Results) Check(t testing.TB, path string) {
	t.Helper()
	pass := r.Passed()
	fmt.Printf("%s: %d passed, %d failed\n", r.name, len(pass), len(r.errs)-len(pass))
	for _, id := range r.order {
		if err := r.errs[id]; err != nil {
			t.Logf("%s FAIL %s: %s", r.name, id, clip(err.Error()))
		}
	}
	lines, err := readFloor(path)
	if err != nil && !(errors.Is(err, os.ErrNotExist) && *update) {
		t.Fatalf("%s: %v (write it with -update)", r.name, err)
	}
	if !slices.IsSorted(lines) {
		t.Errorf("%s: %s is not sorted", r.name, path)
	}
	listed := map[string]bool{}
	regressed := false
	for _, id := range lines {
		listed[id] = true
		err, ran := r.errs[id]
		switch {
		case !ran:
			regressed = true
			t.Errorf("%s: %s is listed in %s but did not run", r.name, id, path)
		case err != nil:
			regressed = true
			t.Errorf("%s: %s is listed in %s but fails: %s", r.name, id, path, clip(err.Error()))
		}
	}
	var raised int
	for _, id := range pass {
		if !listed[id] {
			raised++
			fmt.Printf("%s: newly passing, not in %s: %s\n", r.name, path, id)
		}
	}
	if !*update || (raised == 0 && len(lines) == len(pass)) {
		return
	}
	if regressed {
		t.Errorf("%s: not rewriting %s while listed tests fail; remove them by hand if that is intended", r.name, path)
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(pass, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s: wrote %s (%d tests)\n", r.name, path, len(pass))
}

// readFloor returns the ids listed in a floor file, in file order.
func readFloor(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ids []string
	for line := range strings.SplitSeq(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			ids = append(ids, line)
		}
	}
	return ids, nil
}

func clip(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	return strings.ToValidUTF8(s[:maxDetail], "") + "..."
}

// Golden compares got with the golden file at path and fails t with a
// line diff when they differ; with -update it writes got to path instead.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (write it with -update)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("output differs from %s (-want +got; check the change, then refresh with -update):\n%s", path, lineDiff(want, got))
	}
}

// lineDiff shows the lines that differ, with their neighbours, so that a
// long document's change is found at a glance.
func lineDiff(want, got []byte) string {
	return cmp.Diff(strings.SplitAfter(string(want), "\n"), strings.SplitAfter(string(got), "\n"))
}
