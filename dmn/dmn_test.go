package dmn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/dmn/feel"
)

func parseFile(t testing.TB, name string) *Definitions {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustCompile(t testing.TB, opts Options, src string) *Model {
	t.Helper()
	d, err := ParseBytes([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := CompileWith(opts, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Problems()) > 0 {
		t.Fatalf("problems: %v", m.Problems())
	}
	return m
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, xml string
		line, col int
		id, msg   string
	}{
		{"not xml", `<definitions`, 1, 0, "", "invalid XML"},
		{"unknown namespace", `<definitions xmlns="urn:nope" namespace="x"/>`, 1, 1, "", "unknown DMN namespace"},
		{"decision without name", "<definitions xmlns=\"" + NamespaceDMN13 + "\" namespace=\"x\">\n  <decision id=\"d1\"/>\n</definitions>", 2, 3, "d1", "missing name"},
		{"rule entry count", "<definitions xmlns=\"" + NamespaceDMN15 + "\" namespace=\"x\">\n<decision id=\"d\" name=\"d\"><decisionTable>\n" +
			"<input><inputExpression><text>a</text></inputExpression></input><output/>\n" +
			"    <rule id=\"r1\"><outputEntry><text>1</text></outputEntry></rule>\n</decisionTable></decision></definitions>", 4, 5, "r1", "0 input entries"},
		{"hit policy", "<definitions xmlns=\"" + NamespaceDMN12 + "\" namespace=\"x\"><decision name=\"d\">\n <decisionTable id=\"t\" hitPolicy=\"SOMETIMES\"><output/></decisionTable></decision></definitions>", 2, 2, "t", "unknown hit policy"},
	}
	for _, tc := range tests {
		_, err := ParseBytes([]byte(tc.xml))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want *ParseError", tc.name, err)
			continue
		}
		if pe.Line != tc.line || (tc.col != 0 && pe.Column != tc.col) || pe.ElementID != tc.id || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("%s: got %d:%d id=%q %q, want %d:%d id=%q containing %q", tc.name, pe.Line, pe.Column, pe.ElementID, pe.Msg, tc.line, tc.col, tc.id, tc.msg)
		}
	}
}

func TestNamespaces(t *testing.T) {
	for _, ns := range []string{NamespaceDMN11, NamespaceDMN12, NamespaceDMN13, NamespaceDMN14, NamespaceDMN15, NamespaceCamundaLegacy} {
		src := `<definitions xmlns="` + ns + `" namespace="urn:t" name="t"><decision id="d" name="d"><literalExpression><text>1 + 1</text></literalExpression></decision></definitions>`
		m := mustCompile(t, Options{}, src)
		res, err := m.Evaluate(context.Background(), "d", nil)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := res.Value("d"); feel.Literal(v) != "2" {
			t.Errorf("%s: d = %s, want 2", ns, feel.Literal(v))
		}
	}
}

const drd = `<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:drd" name="drd">
  <itemDefinition name="tAge"><typeRef>number</typeRef><allowedValues><text>[0..150]</text></allowedValues></itemDefinition>
  <inputData id="i_age" name="Applicant Age"><variable name="Applicant Age" typeRef="tAge"/></inputData>
  <inputData id="i_start" name="Start Date"><variable name="Start Date" typeRef="date"/></inputData>
  <decision id="d_cat" name="Age Category">
    <variable name="Age Category" typeRef="string"/>
    <informationRequirement><requiredInput href="#i_age"/></informationRequirement>
    <decisionTable hitPolicy="UNIQUE">
      <input><inputExpression typeRef="number"><text>Applicant Age</text></inputExpression></input>
      <output><outputValues><text>"minor","adult","senior"</text></outputValues></output>
      <rule id="r1"><inputEntry><text>&lt; 18</text></inputEntry><outputEntry><text>"minor"</text></outputEntry></rule>
      <rule id="r2"><inputEntry><text>[18..65)</text></inputEntry><outputEntry><text>"adult"</text></outputEntry></rule>
      <rule id="r3"><inputEntry><text>&gt;= 65</text></inputEntry><outputEntry><text>"senior"</text></outputEntry></rule>
    </decisionTable>
  </decision>
  <businessKnowledgeModel id="b_fee" name="Fee Of">
    <encapsulatedLogic>
      <formalParameter name="category" typeRef="string"/>
      <literalExpression><text>if category = "senior" then 10 else 25</text></literalExpression>
    </encapsulatedLogic>
  </businessKnowledgeModel>
  <decision id="d_fee" name="Fee">
    <variable name="Fee" typeRef="number"/>
    <informationRequirement><requiredDecision href="#d_cat"/></informationRequirement>
    <knowledgeRequirement><requiredKnowledge href="#b_fee"/></knowledgeRequirement>
    <invocation>
      <literalExpression><text>Fee Of</text></literalExpression>
      <binding><parameter name="category"/><literalExpression><text>Age Category</text></literalExpression></binding>
    </invocation>
  </decision>
  <decision id="d_end" name="End Date">
    <informationRequirement><requiredInput href="#i_start"/></informationRequirement>
    <informationRequirement><requiredDecision href="#d_fee"/></informationRequirement>
    <context>
      <contextEntry><variable name="months"/><literalExpression><text>if Fee &lt; 20 then 6 else 12</text></literalExpression></contextEntry>
      <contextEntry><literalExpression><text>Start Date + duration("P" + string(months) + "M")</text></literalExpression></contextEntry>
    </context>
  </decision>
</definitions>`

func TestEvaluateDRD(t *testing.T) {
	m := mustCompile(t, Options{}, drd)
	tests := []struct {
		age                 any
		start               any
		cat, fee, end, msgs string
	}{
		{70, "2024-01-31", `"senior"`, "10", `date("2024-07-31")`, ""},
		{json.Number("30"), "2024-01-31", `"adult"`, "25", `date("2025-01-31")`, ""},
		{17.0, feel.Date{Year: 2024, Month: 8, Day: 31}, `"minor"`, "25", `date("2025-08-31")`, ""},
		// an age outside the allowed values is null; null = "senior" is false, so the fee is 25
		{200, "2024-01-31", "null", "25", `date("2025-01-31")`, "does not conform"},
	}
	for _, tc := range tests {
		res, err := m.Evaluate(context.Background(), "End Date", map[string]any{"Applicant Age": tc.age, "Start Date": tc.start})
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, n := range []string{"Age Category", "Fee", "End Date"} {
			v, ok := res.Value(n)
			if !ok {
				t.Fatalf("no result for %s", n)
			}
			got = append(got, feel.Literal(v))
		}
		want := []string{tc.cat, tc.fee, tc.end}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("age %v: got %v, want %v", tc.age, got, want)
		}
		if tc.msgs != "" && !strings.Contains(strings.Join(res.Messages, ";"), tc.msgs) {
			t.Errorf("age %v: messages %v, want %q", tc.age, res.Messages, tc.msgs)
		}
		if res.Main().Name != "End Date" {
			t.Errorf("main result is %s", res.Main().Name)
		}
	}
	infos := m.Decisions()
	if len(infos) != 3 || infos[0].Name != "Age Category" || infos[0].HitPolicy != HitUnique || fmt.Sprint(infos[0].RequiredInputs) != "[Applicant Age]" ||
		fmt.Sprint(infos[1].RequiredKnowledge) != "[Fee Of]" || fmt.Sprint(infos[2].RequiredDecisions) != "[Fee]" {
		t.Errorf("Decisions() = %+v", infos)
	}
	if _, err := m.Evaluate(context.Background(), "Nope", nil); !errors.Is(err, ErrUnknownDecision) {
		t.Errorf("unknown decision: %v", err)
	}
}

func TestHitPoliciesAndRows(t *testing.T) {
	table := func(hp, agg string) string {
		return `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" namespace="urn:h">
  <inputData id="n" name="n"/>
  <decision id="d" name="d"><informationRequirement><requiredInput href="#n"/></informationRequirement>
  <decisionTable hitPolicy="` + hp + `" aggregation="` + agg + `">
    <input><inputExpression><text>n</text></inputExpression></input>
    <output name="o"><outputValues><text>"low","mid","high"</text></outputValues></output>
    <rule id="a"><inputEntry><text>&gt; 0</text></inputEntry><outputEntry><text>"low"</text></outputEntry></rule>
    <rule id="b"><inputEntry><text>&gt; 5</text></inputEntry><outputEntry><text>"high"</text></outputEntry></rule>
    <rule id="c"><inputEntry><text>&gt; 3</text></inputEntry><outputEntry><text>"mid"</text></outputEntry></rule>
  </decisionTable></decision></definitions>`
	}
	tests := []struct {
		hp, agg string
		n       int
		want    string
		rules   string
	}{
		{"UNIQUE", "", 1, `"low"`, "[a]"},
		{"UNIQUE", "", 7, "null", "[a b c]"},
		{"FIRST", "", 7, `"low"`, "[a]"},
		{"PRIORITY", "", 7, `"low"`, "[a b c]"},
		{"ANY", "", 4, "null", "[a c]"},
		{"RULE ORDER", "", 7, `["low", "high", "mid"]`, "[a b c]"},
		{"OUTPUT ORDER", "", 7, `["low", "mid", "high"]`, "[a b c]"},
		{"COLLECT", "", 4, `["low", "mid"]`, "[a c]"},
		{"COLLECT", "COUNT", 7, "3", "[a b c]"},
		{"COLLECT", "COUNT", 0, "0", "[]"},
		{"UNIQUE", "", 0, "null", "[]"},
	}
	for _, tc := range tests {
		m := mustCompile(t, Options{}, table(tc.hp, tc.agg))
		res, err := m.Evaluate(context.Background(), "d", map[string]any{"n": tc.n})
		if err != nil {
			t.Fatal(err)
		}
		d := res.Main()
		var ids []string
		for _, r := range d.Rules {
			ids = append(ids, r.ID)
		}
		if got := feel.Literal(d.Value); got != tc.want || fmt.Sprint(ids) != tc.rules {
			t.Errorf("%s %s n=%d: got %s rules %v, want %s %s", tc.hp, tc.agg, tc.n, got, ids, tc.want, tc.rules)
		}
		if d.NoRuleMatched != (tc.rules == "[]") {
			t.Errorf("%s n=%d: NoRuleMatched = %v", tc.hp, tc.n, d.NoRuleMatched)
		}
	}
}

func TestOperatonMode(t *testing.T) {
	d := parseFile(t, "testdata/operaton-drd.dmn")
	m, err := CompileWith(Options{Operaton: true}, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Problems()) > 0 {
		t.Fatalf("problems: %v", m.Problems())
	}
	ctx := context.Background()
	rows := func(r DecisionResult) string {
		var parts []string
		for _, row := range r.Rows() {
			parts = append(parts, feel.Literal(row.Context()))
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	// a string date works with date(); the required decision's output is in scope by name
	res, err := m.Evaluate(ctx, "Korting", map[string]any{"geboortedatum": "1950-05-01", "aantal": int64(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Decisions) != 2 || res.Decisions[0].ID != "Leeftijdscategorie" {
		t.Fatalf("evaluation order: %+v", res.Decisions)
	}
	if got := rows(res.Main()); got != `[{kortingPercentage: 25, reden: "seniorenkorting"}]` {
		t.Errorf("Korting rows = %s", got)
	}
	// no rule matched in the requiring decision
	res, err = m.Evaluate(ctx, "Korting", map[string]any{"geboortedatum": "2010-05-01", "aantal": 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Main().NoRuleMatched || rows(res.Main()) != "[]" {
		t.Errorf("want no rule matched, got %+v", res.Main())
	}
	// the required decision matched no rule, so its output variable is missing
	_, err = m.Evaluate(ctx, "Korting", map[string]any{"geboortedatum": "1990-05-01", "aantal": 1})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.DecisionID != "Korting" || ee.Variable != "categorie" || ee.NoRuleMatched != "Leeftijdscategorie" {
		t.Errorf("err = %v, want EvalError naming Korting, categorie and Leeftijdscategorie", err)
	}
	// every earlier result is in the shared map, not only the directly required one
	res, err = m.Evaluate(ctx, "Samenvatting", map[string]any{"geboortedatum": "1950-05-01", "aantal": 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Decisions) != 3 {
		t.Errorf("Samenvatting evaluated %d decisions, want 3", len(res.Decisions))
	}
	if got := rows(res.Main()); got != `[{samenvatting: "seniorenkorting: 25% (senior)"}]` {
		t.Errorf("Samenvatting rows = %s", got)
	}
	// COLLECT: one row per matched rule
	res, err = m.Evaluate(ctx, "Bonussen", map[string]any{"aantal": 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := rows(res.Main()); got != `[{bonus: "welkom", punten: 1.5} {bonus: "groep", punten: 5}]` {
		t.Errorf("Bonussen rows = %s", got)
	}
}

func TestConvert(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{0.1, "0.1"},
		{json.Number("12345678901234567890.123456789"), "12345678901234567890.123456789"},
		{int64(9223372036854775807), "9223372036854775807"},
		{uint64(18446744073709551615), "18446744073709551615"},
		{"2024-01-01", `"2024-01-01"`},
		{[]any{1, "a", nil}, `[1, "a", null]`},
		{map[string]any{"b": true, "a": []int{1}}, `{a: [1], b: true}`},
	}
	for _, tc := range tests {
		if got := feel.Literal(ToValue(tc.in)); got != tc.want {
			t.Errorf("ToValue(%#v) = %s, want %s", tc.in, got, tc.want)
		}
	}
	out, err := json.Marshal(FromValue(ToValue(map[string]any{"n": json.Number("0.30"), "d": feel.Date{Year: 2024, Month: 2, Day: 29}})))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"d":"2024-02-29","n":0.3}` {
		t.Errorf("FromValue JSON = %s", out)
	}
}

// imports: a model uses a BKM and a type of another model by namespace
func TestImport(t *testing.T) {
	lib, err := ParseBytes([]byte(`<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:lib" name="lib">
  <itemDefinition name="tPerson"><itemComponent name="name"><typeRef>string</typeRef></itemComponent></itemDefinition>
  <businessKnowledgeModel id="greet" name="Greet"><encapsulatedLogic><formalParameter name="p" typeRef="tPerson"/>
    <literalExpression><text>"Hello " + p.name</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>
</definitions>`))
	if err != nil {
		t.Fatal(err)
	}
	main, err := ParseBytes([]byte(`<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:main" name="main">
  <import namespace="urn:lib" name="lib" importType="https://www.omg.org/spec/DMN/20230324/MODEL/"/>
  <inputData id="p" name="Person"><variable name="Person" typeRef="lib.tPerson"/></inputData>
  <decision id="d" name="Greeting"><informationRequirement><requiredInput href="#p"/></informationRequirement>
    <knowledgeRequirement><requiredKnowledge href="urn:lib#greet"/></knowledgeRequirement>
    <literalExpression><text>lib.Greet(Person)</text></literalExpression></decision>
</definitions>`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(main); err == nil {
		t.Error("compiling without the imported model succeeded")
	}
	m, err := Compile(main, lib)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Evaluate(context.Background(), "Greeting", map[string]any{"Person": map[string]any{"name": "Ann"}})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := res.Value("Greeting"); v != "Hello Ann" {
		t.Errorf("Greeting = %s", feel.Literal(v))
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(drd))
	if b, err := os.ReadFile("testdata/operaton-drd.dmn"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`<definitions xmlns="https://www.omg.org/spec/DMN/20151101/dmn.xsd"><itemDefinition name="t"><typeRef>feel:number</typeRef></itemDefinition></definitions>`))
	f.Add([]byte("<definitions xmlns=\"" + NamespaceDMN13 + "\">\n<decision>\n</definitions>"))
	f.Add([]byte(`<definitions xmlns="` + NamespaceDMN13 + `" xmlns:c="` + NamespaceCamundaExt + `"><decision id="d" name="d" c:versionTag="1"/></definitions><x/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseBytes(data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *ParseError: %v", err)
			}
			return
		}
		// a parsed model compiles without panicking (FEEL evaluation is fuzzed in dmn/feel)
		Compile(d)
	})
}

func TestConcurrentEvaluate(t *testing.T) {
	m := mustCompile(t, Options{}, drd)
	type result struct {
		age int
		fee string
	}
	done := make(chan result)
	for g := 0; g < 8; g++ {
		go func(age int) {
			fee := ""
			for i := 0; i < 50; i++ {
				res, err := m.Evaluate(context.Background(), "End Date", map[string]any{"Applicant Age": age, "Start Date": "2024-01-31"})
				if err != nil {
					fee = err.Error()
					break
				}
				v, _ := res.Value("Fee")
				fee = feel.Literal(v)
			}
			done <- result{age, fee}
		}(10 + g*10)
	}
	for g := 0; g < 8; g++ {
		r := <-done
		want := "25"
		if r.age >= 65 {
			want = "10"
		}
		if r.fee != want {
			t.Errorf("age %d: fee %s, want %s", r.age, r.fee, want)
		}
	}
}
