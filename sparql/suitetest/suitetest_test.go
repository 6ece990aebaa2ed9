package suitetest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records what a helper reports instead of
// failing the real test; Fatal and Skip end the goroutine as they do in
// package testing.
type recorder struct {
	testing.TB
	errors  []string
	fatal   string
	skipped string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.fatal = fmt.Sprintf(format, a...)
	runtime.Goexit()
}
func (r *recorder) Fatal(a ...any) { r.fatal = fmt.Sprint(a...); runtime.Goexit() }
func (r *recorder) Skip(a ...any)  { r.skipped = fmt.Sprint(a...); runtime.Goexit() }

// run calls f with a fresh recorder in its own goroutine, as package
// testing runs a test, and returns the recorder.
func run(f func(tb testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func setUpdate(t *testing.T, on bool) {
	old := *update
	*update = on
	t.Cleanup(func() { *update = old })
}

func TestCheckBreakWhileAnotherIsFixed(t *testing.T) {
	floor := filepath.Join(t.TempDir(), "floor.txt")
	writeFile(t, floor, "# passing tests\nsuite#a\nsuite#b\n")
	r := run(func(tb testing.TB) {
		res := NewResults("demo")
		res.Record(tb, "suite#a", errors.New("broke"))
		res.Record(tb, "suite#b", nil)
		res.Record(tb, "suite#c", nil) // newly fixed
		res.Check(tb, floor)
	})
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "suite#a is listed in") || !strings.Contains(r.errors[0], "broke") {
		t.Errorf("errors = %q, want one naming suite#a and its failure", r.errors)
	}
}

func TestCheckListedButNotRun(t *testing.T) {
	floor := filepath.Join(t.TempDir(), "floor.txt")
	writeFile(t, floor, "x\ny\n")
	r := run(func(tb testing.TB) {
		res := NewResults("demo")
		res.Record(tb, "x", nil)
		res.Check(tb, floor)
	})
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "y is listed in") || !strings.Contains(r.errors[0], "did not run") {
		t.Errorf("errors = %q, want one saying y did not run", r.errors)
	}
}

func TestCheckUnsortedAndDuplicate(t *testing.T) {
	floor := filepath.Join(t.TempDir(), "floor.txt")
	writeFile(t, floor, "b\na\n")
	r := run(func(tb testing.TB) {
		res := NewResults("demo")
		res.Record(tb, "a", nil)
		res.Record(tb, "b", nil)
		res.Record(tb, "b", nil)
		res.Check(tb, floor)
	})
	want := []string{"demo: two tests with the id b", "demo: " + floor + " is not sorted"}
	if strings.Join(r.errors, "|") != strings.Join(want, "|") {
		t.Errorf("errors = %q, want %q", r.errors, want)
	}
}

func TestCheckMissingFloor(t *testing.T) {
	floor := filepath.Join(t.TempDir(), "none.txt")
	r := run(func(tb testing.TB) {
		res := NewResults("demo")
		res.Record(tb, "a", nil)
		res.Check(tb, floor)
	})
	if !strings.Contains(r.fatal, "write it with -update") {
		t.Errorf("fatal = %q, want a hint to -update", r.fatal)
	}
}

func TestCheckUpdateRaises(t *testing.T) {
	setUpdate(t, true)
	floor := filepath.Join(t.TempDir(), "floor.txt")
	writeFile(t, floor, "m\n")
	r := run(func(tb testing.TB) {
		res := NewResults("demo")
		res.Record(tb, "z", nil)
		res.Record(tb, "m", nil)
		res.Record(tb, "q", errors.New("fails"))
		res.Record(tb, "a", nil)
		res.Check(tb, floor)
	})
	if len(r.errors) != 0 || r.fatal != "" {
		t.Fatalf("errors = %q, fatal = %q", r.errors, r.fatal)
	}
	got, _ := os.ReadFile(floor)
	if string(got) != "a\nm\nz\n" {
		t.Errorf("floor = %q, want %q", got, "a\nm\nz\n")
	}
}

func TestCheckUpdateNeverLowers(t *testing.T) {
	setUpdate(t, true)
	floor := filepath.Join(t.TempDir(), "floor.txt")
	writeFile(t, floor, "a\nb\n")
	r := run(func(tb testing.TB) {
		res := NewResults("demo")
		res.Record(tb, "a", errors.New("broke"))
		res.Record(tb, "b", nil)
		res.Record(tb, "c", nil)
		res.Check(tb, floor)
	})
	if len(r.errors) != 2 || !strings.Contains(r.errors[1], "not rewriting") {
		t.Errorf("errors = %q, want the failure of a and a refusal to rewrite", r.errors)
	}
	got, _ := os.ReadFile(floor)
	if string(got) != "a\nb\n" {
		t.Errorf("floor = %q, want it unchanged", got)
	}
}

func TestDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "TestCases"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := Suite{Name: "demo suite", Env: "REGELKIT_SUITETEST_DEMO", Dir: "demo", Probe: "TestCases"}
	t.Setenv(s.Env, dir)
	t.Setenv(EnvRequire, "")
	r := run(func(tb testing.TB) {
		if got := Dir(tb, s); got != dir {
			t.Errorf("Dir = %q, want %q", got, dir)
		}
	})
	if r.skipped != "" || r.fatal != "" {
		t.Errorf("skipped %q, fatal %q", r.skipped, r.fatal)
	}
}

func TestDirAbsent(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	s := Suite{Name: "demo suite", Env: "REGELKIT_SUITETEST_DEMO", Dir: "demo"}
	t.Setenv(s.Env, missing)
	t.Setenv(EnvRequire, "")
	r := run(func(tb testing.TB) { Dir(tb, s); t.Error("Dir returned for an absent suite") })
	if !strings.HasPrefix(r.skipped, "SKIPPED: demo suite not found at "+missing+" (set REGELKIT_SUITETEST_DEMO to its directory)") {
		t.Errorf("skip message = %q", r.skipped)
	}
	t.Setenv(EnvRequire, "1")
	r = run(func(tb testing.TB) { Dir(tb, s) })
	if r.skipped != "" || !strings.HasPrefix(r.fatal, "REGELKIT_REQUIRE_SUITES=1 but demo suite not found") {
		t.Errorf("with %s=1: skipped %q, fatal %q", EnvRequire, r.skipped, r.fatal)
	}
}

func TestDefaultLocation(t *testing.T) {
	s := Suite{Name: "demo suite", Env: "REGELKIT_SUITETEST_DEMO", Dir: "demo"}
	t.Setenv(s.Env, "")
	dir, _ := s.Lookup()
	// the test runs in sparql/suitetest, two levels below the module root
	wd, _ := os.Getwd()
	want := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(wd))), "shared", "testsuites", "demo")
	if dir != want {
		t.Errorf("Lookup = %q, want %q", dir, want)
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	writeFile(t, path, "line 1\nline 2\n")
	if r := run(func(tb testing.TB) { Golden(tb, path, []byte("line 1\nline 2\n")) }); len(r.errors) != 0 {
		t.Errorf("equal output: errors %q", r.errors)
	}
	r := run(func(tb testing.TB) { Golden(tb, path, []byte("line 1\nline two\n")) })
	// cmp varies its spacing on purpose; match the marks and the lines
	if len(r.errors) != 1 || !regexp.MustCompile(`(?m)^-[^"]*"line 2\\n"`).MatchString(r.errors[0]) || !regexp.MustCompile(`(?m)^\+[^"]*"line two\\n"`).MatchString(r.errors[0]) {
		t.Errorf("changed output: errors %q, want a line diff", r.errors)
	}
	setUpdate(t, true)
	if r := run(func(tb testing.TB) { Golden(tb, path, []byte("new\n")) }); len(r.errors) != 0 {
		t.Errorf("update: errors %q", r.errors)
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("after -update the file holds %q", got)
	}
}
