package tck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/sparql/suitetest"
)

// floorFile lists the ids of the test cases of one compliance level that
// pass, one per line: folder, test file and test case id, separated by
// spaces ("compliance-level-2/0001-input-data-string
// 0001-input-data-string-test-01 001").
func floorFile(short string) string { return filepath.Join("testdata", "passing-"+short+".txt") }

func outcomeID(o Outcome) string { return o.Folder + " " + o.File + " " + o.ID }

// TestTCK runs compliance levels 2 and 3 of the DMN TCK
// (../shared/testsuites/dmn-tck, or $REGELKIT_DMN_TCK) and holds each to
// its floor file.
func TestTCK(t *testing.T) {
	root := suitetest.Dir(t, suitetest.DMNTCK)
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
		res := suitetest.NewResults("dmn-tck " + level.short)
		for _, o := range outcomes {
			var err error
			if o.Status != Success {
				err = fmt.Errorf("%s: %s", o.Status, o.Detail)
			}
			res.Record(t, outcomeID(o), err)
		}
		res.Check(t, floorFile(level.short))
		total += res.Len()
		totalPassed += len(res.Passed())
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
