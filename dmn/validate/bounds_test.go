package validate

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// int007Model is the issue-14 reproduction: one input expression that sums
// n names no inputData declares ("v0 + v1 + … + v<n-1>").
func int007Model(n int) (model, expr string) {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("v%d", i)
	}
	expr = strings.Join(names, " + ")
	body := strings.Replace(ageTable("", goodRules...), "<text>age</text>", "<text>"+expr+"</text>", 1)
	return doc(ns13, body), expr
}

// TestINT007OutputIsBounded: a 31 KB expression with 4,000 undeclared names
// used to repeat the whole expression in each of its 4,000 issues (125 MB
// of JSON). Now the report is under 100 KB, lists 20 names and counts the
// rest, and Validate allocates a bounded amount.
func TestINT007OutputIsBounded(t *testing.T) {
	model, expr := int007Model(4000)
	if len(expr) < 30_000 {
		t.Fatalf("the reproduction's expression is %d bytes, want about 31 KB", len(expr))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := Validate([]byte(model))
	runtime.ReadMemStats(&after)
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d-byte model: %d bytes of JSON, %d KB allocated", len(model), len(out), (after.TotalAlloc-before.TotalAlloc)>>10)
	if len(out) > 100_000 {
		t.Errorf("report is %d bytes of JSON, want under 100 KB", len(out))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("Validate allocated %d MB for a %d KB model", alloc>>20, len(model)>>10)
	}
	got := findCode(r, "INT-007")
	if len(got) != 21 {
		t.Fatalf("INT-007 issues: %d, want 20 names and one count of the rest", len(got))
	}
	first := `input expression "v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20 + v21 + v22 + v23 + v24 + v25 + v26 + v27 + v28 + v29 + v30 + v31 + v32 + v33 + v34 + …" (30687 more characters) uses "v0", which no inputData declares`
	if got[0].Message != first {
		t.Errorf("first INT-007:\n got %s\nwant %s", got[0].Message, first)
	}
	if !strings.HasSuffix(got[19].Message, ` uses "v19", which no inputData declares`) {
		t.Errorf("20th INT-007: %s", got[19].Message)
	}
	last := got[20].Message
	if !strings.Contains(last, ` uses 3980 further names that no inputData declares: "v20", "v21", `) ||
		!strings.HasSuffix(last, `"v39", … and 3960 more`) {
		t.Errorf("last INT-007: %s", last)
	}
	// The 21 issues are the warnings (the last one stands for 3,980 names).
	if r.Summary.Warnings != 21 {
		t.Errorf("summary %+v, want 21 warnings", r.Summary)
	}
	checkReport(t, r)
}

// TestLargeReproductionStaysSmall: 174 such expressions (a 5.4 MB model that
// once gave gigabytes) give a report of a few MB, not gigabytes, and a bounded
// heap.
func TestLargeReproductionStaysSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("5 MB model")
	}
	_, expr := int007Model(4000)
	var b strings.Builder
	b.WriteString(`<decision id="d1" name="D1"><decisionTable id="dt1">`)
	for i := 0; i < 174; i++ {
		fmt.Fprintf(&b, `<input id="i%d"><inputExpression id="ie%d" typeRef="number"><text>%s</text></inputExpression></input>`, i, i, expr)
	}
	b.WriteString(`<output id="o1" name="result" typeRef="string"/></decisionTable></decision>`)
	model := doc(ns13, b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := Validate([]byte(model))
	out, _ := json.Marshal(r)
	runtime.ReadMemStats(&after)
	t.Logf("%d-byte model: %d bytes of JSON, %d MB allocated", len(model), len(out), (after.TotalAlloc-before.TotalAlloc)>>20)
	if len(out) > 4<<20 {
		t.Errorf("report is %d bytes of JSON for a %d MB model", len(out), len(model)>>20)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 512<<20 {
		t.Errorf("Validate allocated %d MB for a %d MB model", alloc>>20, len(model)>>20)
	}
	// 174 expressions × 21 issues would be 3,654: the list stops at
	// MaxIssuesPerCode and one more issue counts the rest.
	got := findCode(r, "INT-007")
	if len(got) != MaxIssuesPerCode+1 {
		t.Fatalf("INT-007 issues listed: %d, want %d", len(got), MaxIssuesPerCode+1)
	}
	if want := "2654 further INT-007 issues are not listed (a report lists at most 1000 per code)"; got[MaxIssuesPerCode].Message != want {
		t.Errorf("note: %q, want %q", got[MaxIssuesPerCode].Message, want)
	}
	// Summary counts the unlisted issues too.
	if r.Summary.Warnings != 174*21 {
		t.Errorf("summary %+v, want %d warnings", r.Summary, 174*21)
	}
	checkReport(t, r)
}

// TestAttributeValuesAreExcerpted: a long attribute value is quoted as an
// excerpt of 200 characters with the length of the rest, and a long id in
// a location as 100.
func TestAttributeValuesAreExcerpted(t *testing.T) {
	long := strings.Repeat("x", 5000)
	id := strings.Repeat("i", 300)
	body := strings.Replace(ageTable(` hitPolicy="`+long+`"`, goodRules...), `<decision id="d1"`, `<decision id="`+id+`"`, 1)
	r := Validate([]byte(doc(ns13, body)))
	got := findCode(r, "BIZ-001")
	if len(got) != 1 {
		t.Fatalf("BIZ-001: %s", dump(r))
	}
	want := `hitPolicy "` + strings.Repeat("x", 200) + `…" (4800 more characters) is not one of UNIQUE, FIRST, ANY, COLLECT, RULE ORDER, OUTPUT ORDER, PRIORITY`
	if got[0].Message != want {
		t.Errorf("message:\n got %s\nwant %s", got[0].Message, want)
	}
	wantLoc := `<decision id="` + strings.Repeat("i", 100) + `…" (200 more characters)> > <decisionTable id="dt1">`
	if got[0].Location != wantLoc {
		t.Errorf("location:\n got %s\nwant %s", got[0].Location, wantLoc)
	}
}

// TestManyIssuesOfOneCode: 3,000 rules without ids give 1,000 BIZ-012
// issues and a note counting the other 2,000.
func TestManyIssuesOfOneCode(t *testing.T) {
	rules := make([]string, 3000)
	for i := range rules {
		rules[i] = fmt.Sprintf(`<rule><inputEntry id="e%d"><text>%d</text></inputEntry><outputEntry id="o%d"><text>"a"</text></outputEntry></rule>`, i, i, i)
	}
	r := Validate([]byte(doc(ns13, ageTable(` hitPolicy="FIRST"`, rules...))))
	got := findCode(r, "BIZ-012")
	if len(got) != 1001 || got[999].Message != "rule 1000 has no id" ||
		got[1000].Message != "2000 further BIZ-012 issues are not listed (a report lists at most 1000 per code)" {
		t.Fatalf("BIZ-012: %d issues, last two %+v", len(got), got[len(got)-2:])
	}
	if r.Summary.Errors != 3000 || r.Valid {
		t.Errorf("summary %+v valid %v", r.Summary, r.Valid)
	}
	checkReport(t, r)
}

// TestManyPhrasesStayCheap: 2,000 declared names with spaces and 400
// expressions would search every expression for every name; past the
// phrase budget the words of declared names count as declared, so the
// report is the same: one INT-007 per expression, for the one undeclared
// name.
func TestManyPhrasesStayCheap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<decision id="d1" name="D1"><decisionTable id="dt1">`)
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, `<input id="i%d"><inputExpression id="ie%d" typeRef="number"><text>w%d partner + onbekend%d</text></inputExpression></input>`, i, i, i, i)
	}
	b.WriteString(`<output id="o1" name="result" typeRef="string"/></decisionTable></decision>`)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, `<inputData id="in%d" name="w%d partner"><variable id="v%d" name="w%d partner" typeRef="number"/></inputData>`, i, i, i, i)
	}
	if 2000*(len("w399 partner + onbekend399")+32)*400 < 2*phraseBudget {
		t.Fatal("the model no longer exceeds the phrase budget")
	}
	r := Validate([]byte(doc(ns13, b.String())))
	got := findCode(r, "INT-007")
	if len(got) != 400 {
		t.Fatalf("INT-007: %d issues, want 400", len(got))
	}
	for i, is := range []Issue{got[0], got[399]} {
		n := []int{0, 399}[i]
		want := fmt.Sprintf(`input expression "w%d partner + onbekend%d" uses "onbekend%d", which no inputData declares`, n, n, n)
		if is.Message != want {
			t.Errorf("got %s\nwant %s", is.Message, want)
		}
	}
}

// TestLongCycleIsListedInPart: a cycle through 100 decisions names the
// first 20 and counts the rest.
func TestLongCycleIsListedInPart(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, `<decision id="c%d" name="C%d"><informationRequirement id="r%d"><requiredDecision href="#c%d"/></informationRequirement><literalExpression id="l%d"><text>1</text></literalExpression></decision>`,
			i, i, i, (i+1)%100, i)
	}
	r := Validate([]byte(doc(ns13, b.String())))
	got := findCode(r, "INT-003")
	if len(got) != 1 {
		t.Fatalf("INT-003: %s", dump(r))
	}
	want := `decision "c0" requires itself through a cycle of required decisions: "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13", "c14", "c15", "c16", "c17", "c18", "c19", … and 80 more`
	if got[0].Message != want {
		t.Errorf("got  %s\nwant %s", got[0].Message, want)
	}
}
