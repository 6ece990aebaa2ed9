package validate

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

var xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

type column struct{ label, typeRef string }

// multiTable builds decision d1 with a table of the given columns and rules
// (one slice of input-entry texts per rule, ids r1, r2, …). Every rule
// outputs its own id.
func multiTable(attrs string, cols []column, rules ...[]string) string {
	var b strings.Builder
	b.WriteString(`<decision id="d1" name="D1"><decisionTable id="dt1"` + attrs + `>` + "\n")
	for i, c := range cols {
		typeRef := ""
		if c.typeRef != "" {
			typeRef = ` typeRef="` + c.typeRef + `"`
		}
		fmt.Fprintf(&b, `<input id="i%d" label="%s"><inputExpression id="ie%d"%s><text>x%d</text></inputExpression></input>`+"\n", i+1, c.label, i+1, typeRef, i+1)
	}
	b.WriteString(`<output id="o1" name="out" typeRef="string"/>` + "\n")
	for i, r := range rules {
		fmt.Fprintf(&b, `<rule id="r%d">`, i+1)
		for j, cell := range r {
			fmt.Fprintf(&b, `<inputEntry id="r%d_%d"><text>%s</text></inputEntry>`, i+1, j+1, xmlText.Replace(cell))
		}
		fmt.Fprintf(&b, `<outputEntry id="r%d_o"><text>"r%d"</text></outputEntry></rule>`+"\n", i+1, i+1)
	}
	b.WriteString(`</decisionTable></decision>`)
	return b.String()
}

func TestFEELSyntaxErrors(t *testing.T) {
	cases := []struct {
		name     string
		body     string
		location string
		at       string
		contains string
	}{
		{
			name:     "input entry",
			body:     ageTable("", rule("r1", "&gt;= 18 and", `"adult"`)),
			location: `<decision id="d1"> > <rule id="r1"> > <inputEntry id="r1_i">`, at: `<inputEntry id="r1_i"`,
			contains: `rule "r1", input entry 1 ("Age"): FEEL syntax error in ">= 18 and" at 1:7: expected "," or end of expression, found "and"`,
		},
		{
			name:     "output entry",
			body:     ageTable("", rule("r1", "&gt;= 18", `"adult`)),
			location: `<decision id="d1"> > <rule id="r1"> > <outputEntry id="r1_o">`, at: `<outputEntry id="r1_o"`,
			contains: `rule "r1", output entry 1 ("result"): FEEL syntax error in "\"adult" at 1:1: string literal not terminated`,
		},
		{
			name:     "input expression",
			body:     strings.Replace(ageTable("", goodRules...), "<text>age</text>", "<text>age +</text>", 1),
			location: `<decision id="d1"> > <input id="i1"> > <inputExpression id="ie1">`, at: `<inputExpression`,
			contains: `input expression of input column 1 ("Age"): FEEL syntax error in "age +" at 1:6`,
		},
		{
			name:     "range without end",
			body:     ageTable("", rule("r1", "[18..", `"adult"`)),
			location: `<decision id="d1"> > <rule id="r1"> > <inputEntry id="r1_i">`, at: `<inputEntry id="r1_i"`,
			contains: `"[18.." at 1:6`,
		},
	}
	for _, ns := range specNamespaces {
		for _, c := range cases {
			t.Run(c.name+"/"+ns, func(t *testing.T) {
				src := doc(ns, c.body)
				r := Validate([]byte(src))
				got := findCode(r, "BIZ-015")
				if len(got) != 1 {
					t.Fatalf("want one BIZ-015, got %s", dump(r))
				}
				is := got[0]
				line, col := position(t, src, c.at)
				if is.Severity != Error || layerOf(r, "BIZ-015") != LayerBusiness || is.Location != c.location || is.Line != line || is.Column != col {
					t.Errorf("issue %+v; want error in business at %q %d:%d", is, c.location, line, col)
				}
				if !strings.Contains(is.Message, c.contains) {
					t.Errorf("message %q\nlacks %q", is.Message, c.contains)
				}
				if r.Valid {
					t.Error("valid with a FEEL syntax error")
				}
			})
		}
	}
}

func TestFEELCellsPass(t *testing.T) {
	cases := map[string]string{
		"valid cells":               ageTable("", rule("r1", `[0..18), 100`, `if true then "minor" else null`), rule("r2", `not([0..18), 100)`, `"adult"`)),
		"empty output entry (null)": ageTable("", rule("r1", "&lt; 18", ""), rule("r2", "&gt;= 18", " ")),
		"other expression language": strings.Replace(ageTable("", goodRules...), `<inputExpression id="ie1"`, `<inputExpression id="ie1" expressionLanguage="javascript"`, 1) +
			strings.Replace(ageTable("", rule("r1", "x &gt; 1 &amp;&amp; y", `"a"`)), `<decisionTable id="dt1"`, `<decisionTable id="dt1" expressionLanguage="juel"`, 1),
		"names with spaces": `<inputData id="p" name="Leeftijd partner"><variable id="pv" name="Leeftijd partner" typeRef="number"/></inputData>` +
			strings.Replace(ageTable("", goodRules...), "<text>age</text>", "<text>Leeftijd partner - 1</text>", 1),
	}
	for name, body := range cases {
		body = strings.Replace(body, `id="d1"`, `id="d_`+strings.ReplaceAll(name, " ", "_")+`"`, 1)
		r := Validate([]byte(doc(ns13, body)))
		if got := findCode(r, "BIZ-015"); len(got) != 0 {
			t.Errorf("%s: %s", name, dump(r))
		}
	}
}

func TestSemanticOverlap(t *testing.T) {
	num := []column{{"Age", "number"}}
	integer := []column{{"Age", "integer"}}
	cases := []struct {
		name string
		cols []column
		hp   string
		rows [][]string
		want []string // BIZ-016 messages, in order, without the common prefix
	}{
		{"closed ends meet", num, "", [][]string{{"[0..18]"}, {"[18..65)"}}, []string{`"r1" and "r2": Age = 18`}},
		{"open and closed ends", num, "", [][]string{{"< 18"}, {">= 18"}}, nil},
		{"half-open brackets", num, "", [][]string{{"]0..18]"}, {"(18..30)"}, {"[30..40["}, {"[40..50]"}}, nil},
		{"decimal gap", num, "", [][]string{{"(1..2)"}, {"(1.5..3]"}}, []string{`"r1" and "r2": Age = 1.75`}},
		{"integers have no room between 5 and 6", integer, "", [][]string{{"> 5"}, {"< 6"}}, nil},
		{"numbers do", num, "", [][]string{{"> 5"}, {"< 6"}}, []string{`"r1" and "r2": Age = 5.5`}},
		{"integer bounds rounded", integer, "", [][]string{{"> 10.5"}, {"[3..11]"}}, []string{`"r1" and "r2": Age = 11`}},
		{"negative numbers", num, "", [][]string{{"< -3"}, {"[-5..-4]"}, {"-4, 2"}}, []string{`"r1" and "r2": Age = -5`, `"r1" and "r3": Age = -4`, `"r2" and "r3": Age = -4`}},
		{"point and not-equal", num, "", [][]string{{"!= 5"}, {"5"}, {"[4..6]"}}, []string{`"r1" and "r3": Age = 4`, `"r2" and "r3": Age = 5`}},
		{"negated range", num, "", [][]string{{"not([1..10])"}, {"5"}, {"= 11"}}, []string{`"r1" and "r3": Age = 11`}},
		{"dates", []column{{"Start", "date"}}, "", [][]string{{`[date("2020-01-01")..date("2020-12-31")]`}, {`>= date("2020-12-31")`}, {`< @"2020-01-01"`}},
			[]string{`"r1" and "r2": Start = date("2020-12-31")`}},
		{"dates are discrete", []column{{"Start", "date"}}, "", [][]string{{`> date("2020-01-01")`}, {`< date("2020-01-02")`}}, nil},
		{"enumerations", []column{{"Code", "string"}}, "", [][]string{{`"A","B"`}, {`"C"`}, {`"B", "C"`}}, []string{`"r1" and "r3": Code = "B"`, `"r2" and "r3": Code = "C"`}},
		{"negated enumeration", []column{{"Code", "string"}}, "", [][]string{{`not("A")`}, {`"A"`}, {`not("A", "B")`}, {`"B","A"`}},
			[]string{`"r1" and "r3": Code = "other"`, `"r1" and "r4": Code = "B"`, `"r2" and "r4": Code = "A"`}},
		{"booleans", []column{{"Flag", "boolean"}}, "", [][]string{{"true"}, {"false"}, {"not(false)"}}, []string{`"r1" and "r3": Flag = true`}},
		{"type from literals", []column{{"Code", ""}, {"Amount", ""}}, "", [][]string{{`"A"`, "< 10"}, {`"A"`, "[5..20]"}, {`"B"`, "[5..20]"}},
			[]string{`"r1" and "r2": Code = "A", Amount = 5`}},
		{"all columns must meet", []column{{"Age", "number"}, {"Code", "string"}}, "", [][]string{{"[0..18]", `"A"`}, {"[18..65)", `"B"`}}, nil},
		{"any column", []column{{"Age", "number"}, {"Code", "string"}}, "", [][]string{{"[0..18]", `-`}, {"[10..65)", `"B"`}},
			[]string{`"r1" and "r2": Age = 10, Code = "B"`}},
		{"null", []column{{"Age", "number"}, {"Code", "string"}}, "", [][]string{{"null", `"A"`}, {"-", `"A"`}}, []string{`"r1" and "r2": Age = null, Code = "A"`}},
		{"identical text is BIZ-008 only", num, "", [][]string{{"> 1"}, {" > 1"}, {"> 1 "}}, nil},
		{"catch-all is BIZ-009 only", num, "", [][]string{{"-"}, {"> 1"}}, nil},
		{"expressions are not read", num, "", [][]string{{"< maxAge"}, {"> 1"}}, nil},
		{"FIRST tables may overlap", num, ` hitPolicy="FIRST"`, [][]string{{"> 1"}, {"> 2"}}, nil},
		{"ANY tables are not checked", num, ` hitPolicy="ANY"`, [][]string{{"> 1"}, {"> 2"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Validate([]byte(doc(ns13, multiTable(c.hp, c.cols, c.rows...))))
			if bad := findCode(r, "BIZ-015"); len(bad) != 0 {
				t.Errorf("valid FEEL reported: %s", bad[0].Message)
			}
			got := findCode(r, "BIZ-016")
			var msgs []string
			for _, is := range got {
				if is.Severity != Error || layerOf(r, "BIZ-016") != LayerBusiness {
					t.Errorf("issue %+v", is)
				}
				msgs = append(msgs, is.Message)
			}
			var want []string
			for _, w := range c.want {
				ids, example, _ := strings.Cut(w, ": ")
				want = append(want, "rules "+ids+" of this UNIQUE table overlap: both match for example "+example)
			}
			if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
			}
			// The FEEL engine agrees that both rules match each example.
			for _, m := range msgs {
				checkExample(t, c.cols, c.rows, m)
			}
			// Each issue sits on the later rule of its pair.
			for i, is := range got {
				if i >= len(c.want) {
					break
				}
				ids := strings.Fields(strings.ReplaceAll(c.want[i], `"`, " "))
				if wantLoc := `<decision id="d1"> > <rule id="` + ids[2] + `">`; is.Location != wantLoc {
					t.Errorf("location %q, want %q", is.Location, wantLoc)
				}
			}
		})
	}
}

// TestOverlapAmongManyRules: one overlap hidden among thousands of disjoint
// rules is found, with no false report.
func TestOverlapAmongManyRules(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 1000
	}
	rows := disjointRows(n)
	// Rule n+1 overlaps rule 7 ("GM0000", [30..45), < 2021) only.
	rows = append(rows, []string{`"GM0000"`, "44", `date("2020-06-01")`})
	body := multiTable("", benchColumns, rows...)
	r := Validate([]byte(doc(ns13, body)))
	got := findCode(r, "BIZ-016")
	want := fmt.Sprintf(`rules "r7" and "r%d" of this UNIQUE table overlap: both match for example Gemeente = "GM0000", Leeftijd = 44, Periode = date("2020-06-01")`, n+1)
	if len(got) != 1 || got[0].Message != want {
		t.Fatalf("got %s", dump(Report{Layers: Layers{Business: Layer{Issues: got}}}))
	}
	if r.Summary.Errors != 1 {
		t.Errorf("errors %d: %s", r.Summary.Errors, dump(r))
	}
}

// TestOverlapReportsAreCapped: a table where every rule overlaps every other
// gives at most maxOverlapReports issues, the last saying how many more.
func TestOverlapReportsAreCapped(t *testing.T) {
	var rows [][]string
	for i := 0; i < 60; i++ {
		rows = append(rows, []string{fmt.Sprintf("> %d", i)})
	}
	r := Validate([]byte(doc(ns13, multiTable("", []column{{"Age", "number"}}, rows...))))
	got := findCode(r, "BIZ-016")
	if len(got) != maxOverlapReports {
		t.Fatalf("%d issues", len(got))
	}
	pairs := 60 * 59 / 2
	if want := fmt.Sprintf("(%d more overlapping pairs in this table are not listed)", pairs-maxOverlapReports); !strings.HasSuffix(got[len(got)-1].Message, want) {
		t.Errorf("last message %q", got[len(got)-1].Message)
	}
	if !strings.HasPrefix(got[0].Message, `rules "r1" and "r2" `) || !strings.HasPrefix(got[1].Message, `rules "r1" and "r3" `) {
		t.Errorf("order: %q, %q", got[0].Message, got[1].Message)
	}
}

// benchColumns and disjointRows describe a large realistic UNIQUE table: a
// municipality code, an age bracket and a period, no two rules overlapping.
var benchColumns = []column{{"Gemeente", "string"}, {"Leeftijd", "integer"}, {"Periode", "date"}}

func disjointRows(n int) [][]string {
	brackets := []string{"[0..18)", "[18..30)", "[30..45)", "[45..65)"}
	periods := []string{`< date("2021-01-01")`, `[date("2021-01-01")..date("2022-01-01"))`, `>= date("2022-01-01")`}
	rows := make([][]string, 0, n)
	for i := 0; ; i++ {
		code := fmt.Sprintf(`"GM%04d"`, i)
		for _, b := range brackets {
			for _, p := range periods {
				rows = append(rows, []string{code, b, p})
			}
		}
		rows = append(rows, []string{code, "[65..120]", "-"})
		if len(rows) >= n {
			return rows[:n]
		}
	}
}

// TestOverlapWorstCases: in tables where most rules overlap, the search
// ends (bounded by its work budget and pair limit) and reports the capped
// list with the count of pairs left out.
func TestOverlapWorstCases(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 2000
	}
	staircase := make([][]string, n)    // every rule overlaps every later one
	nested := make([][]string, n)       // wide intervals over many distinct points
	enumerations := make([][]string, n) // negations over many literals
	for i := range staircase {
		staircase[i] = []string{fmt.Sprintf("> %d", i), "-"}
		nested[i] = []string{fmt.Sprintf("[%d..%d]", i, 2*n-i), fmt.Sprintf(`"c%d"`, i%3)}
		enumerations[i] = []string{fmt.Sprintf("%d", i%7), fmt.Sprintf(`not("c%d")`, i)}
	}
	cols := []column{{"N", "number"}, {"S", "string"}}
	for name, rows := range map[string][][]string{"staircase": staircase, "nested": nested, "enumerations": enumerations} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			r := Validate([]byte(doc(ns13, multiTable("", cols, rows...))))
			// Wall time on a shared machine says little; the work budget is
			// what bounds this, the log shows the figure.
			t.Logf("%d rules: %v", len(rows), time.Since(start))
			got := findCode(r, "BIZ-016")
			if len(got) != maxOverlapReports {
				t.Fatalf("%d BIZ-016 issues", len(got))
			}
			if last := got[len(got)-1].Message; !strings.Contains(last, "more overlapping pairs in this table are not listed)") {
				t.Errorf("last message %q", last)
			}
			for _, is := range got[:5] {
				checkExample(t, cols, rows, is.Message)
			}
		})
	}
}
