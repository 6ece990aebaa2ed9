package validate

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/dmn/feel"
)

// FuzzValidate: Validate never panics (a recovered panic shows as BASE-ERR),
// never takes more than 2 s, and its report is consistent.
func FuzzValidate(f *testing.F) {
	for _, c := range codeCases {
		f.Add([]byte(doc(ns13, c.fail)))
	}
	for _, c := range baseCases {
		f.Add([]byte(c.src))
	}
	f.Add([]byte(billionLaughs))
	f.Add([]byte(doc("http://www.omg.org/spec/DMN/20151101/dmn.xsd", multiTable("", benchColumns, disjointRows(30)...))))
	f.Add([]byte(doc(ns13, multiTable("", []column{{"A", "number"}, {"B", ""}}, []string{"[1..5]", `not("x")`}, []string{"> 3", `"x","y"`}))))
	f.Fuzz(func(t *testing.T, src []byte) {
		start := time.Now()
		r := Validate(src)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Validate took %v on %d bytes", d, len(src))
		}
		checkReport(t, r)
	})
}

func addSeverity(s *Summary, sev Severity, n int) {
	switch sev {
	case Error:
		s.Errors += n
	case Warning:
		s.Warnings += n
	case Info:
		s.Infos += n
	}
}

// checkReport checks the invariants of any report.
func checkReport(t *testing.T, r Report) {
	t.Helper()
	var sum Summary
	for _, k := range LayerKeys {
		l := r.Layers.Get(k)
		if l.Label != k.Label() || l.Issues == nil {
			t.Fatalf("layer %s: label %q issues %v", k, l.Label, l.Issues)
		}
		for _, is := range l.Issues {
			c, ok := codeIndex[is.Code]
			if !ok || c.Layer != k || c.Severity != is.Severity {
				t.Fatalf("issue %+v in layer %s does not fit the code table", is, k)
			}
			if is.Code == "BASE-ERR" || strings.Contains(is.Message, "the FEEL parser failed") {
				t.Fatalf("internal failure: %s", is.Message)
			}
			if is.Message == "" || (is.Line == 0) != (is.Column == 0) {
				t.Fatalf("issue %+v", is)
			}
			if len(is.Message) > 2048 || len(is.Location) > 2048 {
				t.Fatalf("issue of %d + %d bytes: %.300s", len(is.Message), len(is.Location), is.Message)
			}
			// The note on unlisted issues of a code stands for that many findings.
			var n int
			var code string
			if _, err := fmt.Sscanf(is.Message, "%d further %s issues are not listed", &n, &code); err == nil && code == is.Code {
				addSeverity(&sum, is.Severity, n)
				continue
			}
			switch is.Severity {
			case Error:
				sum.Errors++
			case Warning:
				sum.Warnings++
			case Info:
				sum.Infos++
			}
		}
	}
	if sum != r.Summary {
		t.Fatalf("summary %+v, counted %+v", r.Summary, sum)
	}
	if r.Valid != (r.ParseError == "" && sum.Errors == 0) {
		t.Fatalf("valid %v with parse error %q and %d errors", r.Valid, r.ParseError, sum.Errors)
	}
	if r.ParseError != "" && (len(r.Layers.Base.Issues) != 1 || len(r.Issues()) != 1) {
		t.Fatalf("parse error with other issues: %s", dump(r))
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
}

// FuzzOverlap: every overlap BIZ-016 reports is real. The FEEL engine (an
// independent implementation of unary-test matching) must find that both
// rules match the reported example input.
func FuzzOverlap(f *testing.F) {
	seeds := [][6]string{
		{"[0..18]", `"A","B"`, `< date("2021-01-01")`, "[18..65)", `"B"`, `-`},
		{"(1..2)", `not("A")`, `[date("2020-01-01")..date("2020-12-31")]`, "(1.5..3]", `"C"`, `>= date("2020-12-31")`},
		{"!= 5", `-`, `@"2020-01-01"`, "[4..6]", `"A"`, `date("2020-01-01")`},
		{"not([1..10])", `"x"`, `-`, "= 11", `not("y")`, `> date("2019-01-01")`},
		{"< -3", `null`, `-`, "-4, 2", `-`, `null`},
		{"]0..18]", `"A"`, `-`, "]18..30[", `"A"`, `-`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5])
	}
	cols := []column{{"N", "number"}, {"S", "string"}, {"D", "date"}}
	f.Fuzz(func(t *testing.T, a1, a2, a3, b1, b2, b3 string) {
		rows := [][]string{{a1, a2, a3}, {b1, b2, b3}}
		for _, row := range rows {
			for _, cell := range row {
				if strings.ContainsAny(cell, "\x00") || !validXMLText(cell) {
					return
				}
			}
		}
		start := time.Now()
		r := Validate([]byte(doc(ns13, multiTable("", cols, rows...))))
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Validate took %v", d)
		}
		checkReport(t, r)
		for _, is := range findCode(r, "BIZ-016") {
			checkExample(t, cols, rows, is.Message)
		}
	})
}

// validXMLText reports whether s can stand in XML character data unchanged
// (after escaping &, < and >), so the fuzzed cell reaches the validator as written.
func validXMLText(s string) bool {
	for _, r := range s {
		if r == 0xFFFD || (r < 0x20 && r != '\t' && r != '\n') || r == '\r' {
			return false
		}
	}
	return true
}

// checkExample evaluates the example input of a BIZ-016 message with the
// FEEL engine and checks that both named rules' entries match it.
func checkExample(t *testing.T, cols []column, rows [][]string, msg string) {
	t.Helper()
	var a, b int
	if _, err := fmt.Sscanf(msg, `rules "r%d" and "r%d"`, &a, &b); err != nil {
		t.Fatalf("message %q: %v", msg, err)
	}
	_, example, ok := strings.Cut(msg, "for example ")
	if !ok {
		t.Fatalf("message %q has no example", msg)
	}
	if i := strings.Index(example, " ("); i >= 0 && strings.Contains(example[i:], "more overlapping pairs") {
		example = example[:i]
	}
	for c := range cols {
		prefix := cols[c].label + " = "
		if !strings.HasPrefix(example, prefix) {
			t.Fatalf("example %q: want column %s", example, cols[c].label)
		}
		example = example[len(prefix):]
		val := example
		if c+1 < len(cols) {
			next := ", " + cols[c+1].label + " = "
			i := strings.LastIndex(example, next)
			if i < 0 {
				t.Fatalf("example %q: no column %s", example, cols[c+1].label)
			}
			val, example = example[:i], example[i+2:]
		}
		v, err := feel.Eval(val, nil)
		if err != nil {
			t.Fatalf("example value %q of %s: %v", val, cols[c].label, err)
		}
		for _, ri := range []int{a, b} {
			tests, err := feel.CompileUnaryTests(rows[ri-1][c], nil)
			if err != nil {
				t.Fatalf("rule r%d cell %q: %v", ri, rows[ri-1][c], err)
			}
			if !tests.Match(v, nil) {
				t.Errorf("%s: rule r%d's %s entry %q does not match the example %s", msg, ri, cols[c].label, rows[ri-1][c], val)
			}
		}
	}
}
