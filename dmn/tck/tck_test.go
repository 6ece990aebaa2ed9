package tck

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/dmn/feel"
)

// suiteRoot finds the DMN TCK: $REGELKIT_DMN_TCK or ../shared/testsuites/dmn-tck
// beside the repository.
func suiteRoot(t *testing.T) string {
	if d := os.Getenv("REGELKIT_DMN_TCK"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "testsuites", "dmn-tck")
}

var update = flag.Bool("update", false, "rewrite the floor files testdata/passing-cl2.txt and -cl3.txt from this run")

// floorFile lists the ids of the test cases of one compliance level that
// pass, one per line: folder, test file and test case id, separated by
// spaces ("compliance-level-2/0001-input-data-string
// 0001-input-data-string-test-01 001").
func floorFile(short string) string { return filepath.Join("testdata", "passing-"+short+".txt") }

func outcomeID(o Outcome) string { return o.Folder + " " + o.File + " " + o.ID }

func readFloor(t *testing.T, short string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(floorFile(short))
	if err != nil {
		t.Fatalf("floor file: %v", err)
	}
	floor := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			floor[line] = true
		}
	}
	return floor
}

func TestTCK(t *testing.T) {
	root := suiteRoot(t)
	if _, err := os.Stat(filepath.Join(root, "TestCases")); err != nil {
		t.Skipf("DMN TCK not found at %s (set REGELKIT_DMN_TCK): %v", root, err)
	}
	var all []Outcome
	total, totalPassed := 0, 0
	for _, level := range []struct{ dir, short string }{
		{"compliance-level-2", "cl2"},
		{"compliance-level-3", "cl3"},
	} {
		outcomes, err := RunSuite(context.Background(), root, level.dir)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, outcomes...)
		floor := readFloor(t, level.short)
		passed, failed := 0, 0
		var passing []string
		for _, o := range outcomes {
			id := outcomeID(o)
			if o.Status == Success {
				passed++
				passing = append(passing, id)
				if !floor[id] {
					fmt.Printf("dmn-tck %s: newly passing: %s\n", level.short, id)
				}
				continue
			}
			failed++
			if floor[id] {
				t.Errorf("%s: %s fails but is in %s: %s", level.short, id, floorFile(level.short), o.Detail)
			} else if testing.Verbose() && os.Getenv("REGELKIT_DMN_TCK_DETAIL") != "" {
				t.Logf("FAIL %s: %s", id, o.Detail)
			}
		}
		ran := map[string]bool{}
		for _, o := range outcomes {
			ran[outcomeID(o)] = true
		}
		for id := range floor {
			if !ran[id] {
				t.Errorf("%s: %s is in %s but did not run", level.short, id, floorFile(level.short))
			}
		}
		fmt.Printf("dmn-tck %s: %d passed, %d failed\n", level.short, passed, failed)
		t.Logf("dmn-tck %s: %d passed, %d failed", level.short, passed, failed)
		total += passed + failed
		totalPassed += passed
		if *update {
			sort.Strings(passing)
			if err := os.WriteFile(floorFile(level.short), []byte(strings.Join(passing, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	fmt.Printf("dmn-tck all: %d/%d\n", totalPassed, total)
	if p := os.Getenv("REGELKIT_DMN_TCK_CSV"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := WriteCSV(f, all); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEqual(t *testing.T) {
	num := func(s string) feel.Value {
		d, err := feel.ParseNumber(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		exp, act feel.Value
		want     bool
	}{
		{num("2"), num("2.0"), true},
		{num("2"), num("2.4"), false},           // integers compare exactly
		{num("123456"), num("123456.4"), false}, // however many digits
		{num("0.33"), num("0.3333"), false},     // few digits compare exactly
		{num("2778.69354943277"), num("2778.693549432766768088520383236299"), true},
		{num("562.707359373292"), num("562.7073593732659271562143285576524"), true}, // relative 5e-14
		{num("-0.88796890"), num("-0.8879689066918555"), true},                      // truncated
		{num("54.59815003"), num("54.60"), false},
		{"a", "a", true},
		{"1", num("1"), false},
		{nil, nil, true},
		{nil, false, false},
		{[]feel.Value{num("1")}, []feel.Value{num("1"), num("2")}, false},
		{feel.Date{Year: 2024, Month: 1, Day: 2}, feel.Date{Year: 2024, Month: 1, Day: 2}, true},
	}
	for _, tc := range tests {
		if got := Equal(tc.exp, tc.act); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", feel.Literal(tc.exp), feel.Literal(tc.act), got, tc.want)
		}
	}
}
