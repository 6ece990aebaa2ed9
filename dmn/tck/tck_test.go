package tck

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
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

func readFloor(t *testing.T) map[string]int {
	f, err := os.Open(filepath.Join("..", "testdata", "tck-floor.txt"))
	if err != nil {
		t.Fatalf("floor file: %v", err)
	}
	defer f.Close()
	floor := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			continue
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil {
			t.Fatalf("floor file: %q: %v", sc.Text(), err)
		}
		floor[fields[0]] = n
	}
	return floor
}

func TestTCK(t *testing.T) {
	root := suiteRoot(t)
	if _, err := os.Stat(filepath.Join(root, "TestCases")); err != nil {
		t.Skipf("DMN TCK not found at %s (set REGELKIT_DMN_TCK): %v", root, err)
	}
	floor := readFloor(t)
	var all []Outcome
	for _, level := range []struct{ dir, name, short string }{
		{"compliance-level-2", "dmn-tck-cl2", "cl2"},
		{"compliance-level-3", "dmn-tck-cl3", "cl3"},
	} {
		outcomes, err := RunSuite(context.Background(), root, level.dir)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, outcomes...)
		passed, failed := 0, 0
		byFolder := map[string]int{}
		for _, o := range outcomes {
			if o.Status == Success {
				passed++
			} else {
				failed++
				byFolder[o.Folder]++
				if testing.Verbose() && os.Getenv("REGELKIT_DMN_TCK_DETAIL") != "" {
					t.Logf("FAIL %s %s %s: %s", o.Folder, o.File, o.ID, o.Detail)
				}
			}
		}
		fmt.Printf("dmn-tck %s: %d passed, %d failed\n", level.short, passed, failed)
		t.Logf("dmn-tck %s: %d passed, %d failed", level.short, passed, failed)
		if testing.Verbose() {
			var folders []string
			for f := range byFolder {
				folders = append(folders, f)
			}
			sort.Strings(folders)
			for _, f := range folders {
				t.Logf("  failures in %s: %d", f, byFolder[f])
			}
		}
		if passed < floor[level.name] {
			t.Errorf("%s: %d passed, below the floor of %d", level.name, passed, floor[level.name])
		}
	}
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
