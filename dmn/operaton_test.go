package dmn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/examples"
)

func compileOperaton(t testing.TB, src string) *Model {
	t.Helper()
	return mustCompile(t, Options{Operaton: true}, src)
}

// rowsLiteral renders a result list as FEEL contexts, "[]" when empty.
func rowsLiteral(rows []Row) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = feel.Literal(r.Context())
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestOperatonLocalPassModels evaluates the three Camunda-style example
// models in Operaton mode as they are (no rewriting of input expressions
// such as "date(dagVanAanvraag).year" or "a or b or c"). The expected
// values are those of the worked example of the local-pass chain.
func TestOperatonLocalPassModels(t *testing.T) {
	ctx := context.Background()
	step1 := map[string]any{"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": "1982-05-15"}
	step2 := map[string]any{"dagVanAanvraag": "2025-12-24", "aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true,
		"aanvragerIs181920": false, "aanvragerIsTenminste21": true, "aanvragerHeeftAOWLeeftijd": false,
		"partnerIs181920": false, "partnerIsTenminste21": true, "partnerHeeftAOWLeeftijd": false}
	step3 := func(changes map[string]any) map[string]any {
		m := map[string]any{"aanvragerInwonerMunicipality": true, "aanvragerHeeftKind4Tm17": true,
			"maandelijksBrutoInkomenAanvrager": 1500, "bijstandsNorm": json.Number("1369.06"),
			"aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
			"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
			"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false,
			"aanvragerIs181920": false, "aanvragerIsTenminste21": true, "aanvragerHeeftAOWLeeftijd": false}
		for k, v := range changes {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		file, decision string
		inputs         map[string]any
		want           map[string]string // output -> FEEL literal
	}{
		{"SVB_LeeftijdsInformatie", "SVB_LeeftijdsInformatie", step1, map[string]string{
			"aanvragerLeeftijd": "45", "partnerLeeftijd": "43", "AOWDatumAanvrager": `"2047-01-23"`, "AOWDatumPartner": `"2049-05-15"`,
			"aanvragerIsTenminste21": "true", "aanvragerIs181920": "false", "partnerHeeftAOWLeeftijd": "false"}},
		{"SZW_BijstandsnormInformatie", "SZW_BijstandsnormInformatie", step2, map[string]string{
			"toepasselijkeNorm": `"MK"`, "bijstandsNorm": "1369.06", "bijstandsnormTermijn": `"2e helft 2025"`}},
		{"RONL_LocalpassEindresultaat", "RONL_LocalpassEindresultaat", step3(nil), map[string]string{
			"aanmerkingLocalPass": "true", "aanmerkingKindPakket": "true"}},
		// two exclusion rules of an ANY table match with equal outputs: one row, merged as one value
		{"RONL_LocalpassEindresultaat", "RONL_LocalpassEindresultaat", step3(map[string]any{"aanvragerInwonerMunicipality": false,
			"aanvragerDitKalenderjaarAlAangevraagd": true}), map[string]string{"aanmerkingLocalPass": "false", "aanmerkingKindPakket": "false"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data, err := examples.FS.ReadFile("models/localpass/" + tc.file + ".dmn")
			if err != nil {
				t.Fatal(err)
			}
			defs, err := ParseBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			m, err := CompileWith(Options{Operaton: true}, defs)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Problems()) > 0 {
				t.Fatalf("problems: %v", m.Problems())
			}
			res, err := m.Evaluate(ctx, tc.decision, tc.inputs)
			if err != nil {
				t.Fatal(err)
			}
			rows := res.Main().Rows()
			if len(rows) != 1 {
				t.Fatalf("rows %s, want one", rowsLiteral(rows))
			}
			for name, want := range tc.want {
				v, ok := rows[0].Get(name)
				if !ok || feel.Literal(v) != want {
					t.Errorf("%s = %s (present %v), want %s", name, feel.Literal(v), ok, want)
				}
			}
			if len(res.Messages) > 0 {
				t.Errorf("messages: %v", res.Messages)
			}
		})
	}
}

const operatonHead = `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:camunda="http://camunda.org/schema/1.0/dmn" namespace="urn:o" name="o">`

// TestOperatonInputVariable: an input expression is an expression, not a
// variable name; inside input entries (only there) its value is
// cellInput, or the name camunda:inputVariable gives, as in Camunda 7.
func TestOperatonInputVariable(t *testing.T) {
	m := compileOperaton(t, operatonHead+`
  <decision id="d" name="d">
    <decisionTable>
      <input><inputExpression><text>a or b</text></inputExpression></input>
      <input><inputExpression><text>date(day).year</text></inputExpression></input>
      <input camunda:inputVariable="jaar"><inputExpression><text>date(day).year + 1</text></inputExpression></input>
      <output name="o"/>
      <rule id="r1"><inputEntry><text>true</text></inputEntry><inputEntry><text>cellInput &lt; 2025</text></inputEntry>
        <inputEntry><text>jaar = 2025</text></inputEntry><outputEntry><text>"old"</text></outputEntry></rule>
      <rule id="r2"><inputEntry><text>true</text></inputEntry><inputEntry><text>cellInput &gt;= 2025</text></inputEntry>
        <inputEntry><text>-</text></inputEntry><outputEntry><text>"new " + string(date(day).year)</text></outputEntry></rule>
    </decisionTable>
  </decision>
  <decision id="e" name="e">
    <decisionTable>
      <input><inputExpression><text>a or b</text></inputExpression></input>
      <output name="o"/>
      <rule id="r1"><inputEntry><text>-</text></inputEntry><outputEntry><text>cellInput</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`)
	ctx := context.Background()
	for _, tc := range []struct {
		a, b bool
		day  string
		want string
	}{
		{false, true, "2024-03-01", `[{o: "old"}]`},
		{true, false, "2025-03-01", `[{o: "new 2025"}]`},
		{false, false, "2025-03-01", `[]`},
	} {
		res, err := m.Evaluate(ctx, "d", map[string]any{"a": tc.a, "b": tc.b, "day": tc.day})
		if err != nil {
			t.Fatalf("%v: %v", tc, err)
		}
		if got := rowsLiteral(res.Main().Rows()); got != tc.want {
			t.Errorf("a=%v b=%v day=%s: %s, want %s", tc.a, tc.b, tc.day, got, tc.want)
		}
	}
	// cellInput exists in input entries only, not in output entries
	_, err := m.Evaluate(ctx, "e", map[string]any{"a": true, "b": false})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Kind != UnknownVariable || ee.Variable != "cellInput" || ee.DecisionID != "e" {
		t.Errorf("cellInput in an output entry: %v, want an unknown variable", err)
	}
}

// hitTable is a table over n with three rules: a (n > 0), b (n > 5), c (n > 3).
func hitTable(hit, agg string, outs [3]string) string {
	a := ""
	if agg != "" {
		a = ` aggregation="` + agg + `"`
	}
	return operatonHead + `
  <inputData id="n" name="n"/>
  <decision id="d" name="d"><informationRequirement><requiredInput href="#n"/></informationRequirement>
    <decisionTable hitPolicy="` + hit + `"` + a + `>
    <input><inputExpression><text>n</text></inputExpression></input>
    <output name="o"><outputValues><text>1, 2, 3, 5, 20</text></outputValues></output>
    <rule id="a"><inputEntry><text>&gt; 0</text></inputEntry><outputEntry><text>` + outs[0] + `</text></outputEntry></rule>
    <rule id="b"><inputEntry><text>&gt; 5</text></inputEntry><outputEntry><text>` + outs[1] + `</text></outputEntry></rule>
    <rule id="c"><inputEntry><text>&gt; 3</text></inputEntry><outputEntry><text>` + outs[2] + `</text></outputEntry></rule>
  </decisionTable></decision></definitions>`
}

// TestRowsFollowHitPolicy: DecisionResult.Rows is Operaton's result list
// for every hit policy, in both modes; in Operaton mode a violated hit
// policy fails the evaluation with a typed error.
func TestRowsFollowHitPolicy(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		hit, agg string
		outs     [3]string
		n        int
		want     string // rows, or the violation
	}{
		{"UNIQUE", "", [3]string{"1", "2", "3"}, 1, "[{o: 1}]"},
		{"UNIQUE", "", [3]string{"1", "2", "3"}, 4, "violation [a c]"},
		{"ANY", "", [3]string{"1", "1", "1"}, 7, "[{o: 1}]"},
		{"ANY", "", [3]string{"1", "2", "1"}, 7, "violation [a b c]"},
		{"FIRST", "", [3]string{"1", "2", "3"}, 7, "[{o: 1}]"},
		{"PRIORITY", "", [3]string{"5", "2", "3"}, 7, "[{o: 2}]"},
		{"RULE ORDER", "", [3]string{"1", "2", "3"}, 7, "[{o: 1} {o: 2} {o: 3}]"},
		{"RULE ORDER", "", [3]string{"1", "2", "3"}, 1, "[{o: 1}]"},
		{"OUTPUT ORDER", "", [3]string{"5", "2", "3"}, 7, "[{o: 2} {o: 3} {o: 5}]"},
		{"COLLECT", "", [3]string{"1", "2", "3"}, 4, "[{o: 1} {o: 3}]"},
		{"COLLECT", "COUNT", [3]string{"5", "20", "5"}, 1, "[{o: 1}]"},
		{"COLLECT", "COUNT", [3]string{"5", "20", "5"}, 7, "[{o: 3}]"},
		{"COLLECT", "SUM", [3]string{"5", "20", "5"}, 7, "[{o: 30}]"},
		{"COLLECT", "MIN", [3]string{"5", "20", "1"}, 7, "[{o: 1}]"},
		{"COLLECT", "MAX", [3]string{"5", "20", "1"}, 4, "[{o: 5}]"},
		{"UNIQUE", "", [3]string{"1", "2", "3"}, 0, "[]"},
		{"COLLECT", "SUM", [3]string{"5", "20", "5"}, 0, "[]"},
	} {
		name := fmt.Sprintf("%s %s n=%d", tc.hit, tc.agg, tc.n)
		src := hitTable(tc.hit, tc.agg, tc.outs)
		for _, operaton := range []bool{false, true} {
			m := mustCompile(t, Options{Operaton: operaton}, src)
			res, err := m.Evaluate(ctx, "d", map[string]any{"n": tc.n})
			got := ""
			switch {
			case operaton && err != nil:
				var ee *EvalError
				if !errors.As(err, &ee) || ee.Kind != HitPolicyViolation || ee.DecisionID != "d" {
					t.Fatalf("%s: error %v is not a hit policy violation of d", name, err)
				}
				got = fmt.Sprintf("violation %v", ee.Rules)
			case err != nil:
				t.Fatalf("%s: %v", name, err)
			default:
				d := res.Main()
				got = rowsLiteral(d.Rows())
				if f := d.Failure; f != nil {
					if f.Kind != HitPolicyViolation || d.Rows() != nil || d.Value != nil {
						t.Errorf("%s: failure %v with rows %s and value %s", name, f, got, feel.Literal(d.Value))
					}
					got = fmt.Sprintf("violation %v", f.Rules)
				}
			}
			if got != tc.want {
				t.Errorf("%s (operaton %v): got %s, want %s", name, operaton, got, tc.want)
			}
		}
	}
}

// TestOperatonMergeByHitPolicy: a required decision's result is merged
// into the variables the way Operaton merges its result list.
func TestOperatonMergeByHitPolicy(t *testing.T) {
	drd := func(hit, agg string, outs [3]string) string {
		src := hitTable(hit, agg, outs)
		return strings.Replace(src, "</definitions>", `
  <decision id="top" name="top"><informationRequirement><requiredDecision href="#d"/></informationRequirement>
    <variable name="seen"/><literalExpression><text>o</text></literalExpression></decision></definitions>`, 1)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		hit, agg string
		outs     [3]string
		n        int
		want     string
	}{
		{"ANY", "", [3]string{"1", "1", "1"}, 7, "[{seen: 1}]"},           // one row: its value
		{"FIRST", "", [3]string{"1", "2", "3"}, 7, "[{seen: 1}]"},         // one row
		{"COLLECT", "COUNT", [3]string{"5", "20", "5"}, 1, "[{seen: 1}]"}, // the count, not the rule's output
		{"COLLECT", "SUM", [3]string{"5", "20", "5"}, 4, "[{seen: 10}]"},  // the sum
		{"COLLECT", "", [3]string{"5", "20", "5"}, 1, "[{seen: [5]}]"},    // COLLECT: always a list
		{"RULE ORDER", "", [3]string{"5", "20", "5"}, 7, "[{seen: [5, 20, 5]}]"},
		{"OUTPUT ORDER", "", [3]string{"5", "20", "3"}, 4, "[{seen: [3, 5]}]"}, // several rows: a list
		{"OUTPUT ORDER", "", [3]string{"5", "20", "3"}, 1, "[{seen: 5}]"},      // one row: its value
		{"UNIQUE", "", [3]string{"1", "2", "3"}, 4, "violation d"},
		{"ANY", "", [3]string{"1", "2", "1"}, 7, "violation d"},
	} {
		name := fmt.Sprintf("%s %s n=%d", tc.hit, tc.agg, tc.n)
		m := compileOperaton(t, drd(tc.hit, tc.agg, tc.outs))
		res, err := m.Evaluate(ctx, "top", map[string]any{"n": tc.n})
		got := ""
		if err != nil {
			var ee *EvalError
			if !errors.As(err, &ee) || ee.Kind != HitPolicyViolation {
				t.Fatalf("%s: %v", name, err)
			}
			got = "violation " + ee.DecisionID
		} else {
			got = rowsLiteral(res.Main().Rows())
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", name, got, tc.want)
		}
	}
}

// TestOperatonEmptyOutputEntry: an empty output entry is left out of the
// rule's result, so it is not merged (Camunda 7 skips empty output entries).
func TestOperatonEmptyOutputEntry(t *testing.T) {
	m := compileOperaton(t, operatonHead+`
  <decision id="d" name="d"><decisionTable>
    <input><inputExpression><text>n</text></inputExpression></input>
    <output name="x"/><output name="y"/>
    <rule id="r"><inputEntry><text>-</text></inputEntry><outputEntry><text>1</text></outputEntry><outputEntry><text> </text></outputEntry></rule>
  </decisionTable></decision>
  <decision id="top" name="top"><informationRequirement><requiredDecision href="#d"/></informationRequirement>
    <literalExpression><text>y</text></literalExpression></decision></definitions>`)
	ctx := context.Background()
	res, err := m.Evaluate(ctx, "d", map[string]any{"n": 1})
	if err != nil || rowsLiteral(res.Main().Rows()) != "[{x: 1}]" {
		t.Errorf("d: %v, %v; want [{x: 1}]", res.Main().Rows(), err)
	}
	_, err = m.Evaluate(ctx, "top", map[string]any{"n": 1})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Kind != UnknownVariable || ee.Variable != "y" {
		t.Errorf("top: %v, want y unknown", err)
	}
}

// TestParseErrorsMalformedXML: every well-formedness error has a line and
// a column.
func TestParseErrorsMalformedXML(t *testing.T) {
	ns := `<definitions xmlns="` + NamespaceDMN13 + `" namespace="x">`
	tests := []struct {
		name, xml string
		line, col int
		msg       string
	}{
		{"mismatched end tag", ns + "\n<decision>\n</definitions>", 3, 1, "invalid XML"},
		{"mismatched end tag indented", ns + "\n  <decision id=\"d\" name=\"d\">\n    <literalExpression>\n  </decision>", 4, 3, "invalid XML"},
		{"unclosed start tag", "<definitions", 1, 13, "invalid XML"},
		{"unknown entity", ns + "\n<decision name=\"a &amp; b &nope; c\"/></definitions>", 2, 32, "invalid XML"},
		{"end of input", ns + "\n<decision name=\"d\">", 2, 20, "invalid XML"},
		{"stray end tag", "</definitions>", 1, 1, "invalid XML"},
		{"text after the root", ns + "</definitions>\n<x/>", 2, 1, "invalid XML"},
		{"empty", "", 1, 1, "empty document"},
		{"bad attribute", ns + "\n<decision name=d/>", 2, 16, "invalid XML"},
		{"text before the root", "x" + ns + "</definitions>", 1, 1, "invalid XML"},
	}
	// a byte order mark and a declared encoding are fine
	if _, err := ParseBytes([]byte("\uFEFF<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + ns + "</definitions>")); err != nil {
		t.Errorf("byte order mark and encoding: %v", err)
	}
	for _, tc := range tests {
		_, err := ParseBytes([]byte(tc.xml))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want *ParseError", tc.name, err)
			continue
		}
		if pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("%s: got %d:%d %q, want %d:%d containing %q", tc.name, pe.Line, pe.Column, pe.Msg, tc.line, tc.col, tc.msg)
		}
	}
}

// TestTypedFailures: a reached expression that did not compile is a
// typed failure (Operaton mode: the evaluation's error; default mode: the
// decision's Failure with a null value); rules whose expressions are fine
// still evaluate.
func TestTypedFailures(t *testing.T) {
	src := operatonHead + `
  <inputData id="x" name="x"/>
  <decision id="d" name="d"><informationRequirement><requiredInput href="#x"/></informationRequirement><decisionTable>
    <input><inputExpression><text>x</text></inputExpression></input>
    <input><inputExpression><text>x * 2</text></inputExpression></input><output name="o"/>
    <rule id="r1"><inputEntry><text>1</text></inputEntry><inputEntry><text>-</text></inputEntry><outputEntry><text>1 +* 2</text></outputEntry></rule>
    <rule id="r2"><inputEntry><text>2</text></inputEntry><inputEntry><text>-</text></inputEntry><outputEntry><text>"fine"</text></outputEntry></rule>
    <rule id="r3"><inputEntry><text>3</text></inputEntry><inputEntry><text>[3..</text></inputEntry><outputEntry><text>"never"</text></outputEntry></rule>
  </decisionTable></decision></definitions>`
	d, err := ParseBytes([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, operaton := range []bool{false, true} {
		m, err := CompileWith(Options{Operaton: operaton}, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Problems()) != 2 {
			t.Fatalf("problems %v, want the output entry and the input entry", m.Problems())
		}
		for _, tc := range []struct {
			x    int
			want string // rows, or the failure: kind and element id
		}{
			{2, `[{o: "fine"}]`},
			{1, "compile problem r1"},
			{3, "compile problem r3"}, // the broken second input entry of r3 is reached
		} {
			res, err := m.Evaluate(ctx, "d", map[string]any{"x": tc.x})
			var f *EvalError
			switch {
			case err != nil && operaton:
				if !errors.As(err, &f) {
					t.Fatalf("x=%d: %v", tc.x, err)
				}
			case err != nil:
				t.Fatal(err)
			default:
				f = res.Main().Failure
			}
			got := ""
			if f != nil {
				if f.Kind != CompileProblem || f.Problem == nil || f.DecisionID != "d" {
					t.Fatalf("x=%d: failure %+v", tc.x, f)
				}
				got = "compile problem " + f.Problem.ElementID
				if !operaton && res.Main().Value != nil {
					t.Errorf("x=%d: value %s with a failure", tc.x, feel.Literal(res.Main().Value))
				}
			} else {
				got = rowsLiteral(res.Main().Rows())
			}
			if got != tc.want {
				t.Errorf("operaton %v, x=%d: got %s, want %s", operaton, tc.x, got, tc.want)
			}
		}
	}
}

// TestExtensionAttributes: attributes outside the DMN namespace are kept
// by namespace and local name.
func TestExtensionAttributes(t *testing.T) {
	d, err := ParseBytes([]byte(operatonHead + `
  <decision id="d" name="d" camunda:versionTag="v7" camunda:historyTimeToLive="30" xmlns:x="urn:x" x:owner="team">
    <decisionTable><input camunda:inputVariable="v"><inputExpression><text>n</text></inputExpression></input><output name="o"/></decisionTable>
  </decision></definitions>`))
	if err != nil {
		t.Fatal(err)
	}
	dec := d.Decisions[0]
	for _, tc := range []struct{ space, local, want string }{
		{NamespaceCamundaExt, "versionTag", "v7"},
		{NamespaceCamundaExt, "historyTimeToLive", "30"},
		{"urn:x", "owner", "team"},
	} {
		if v, ok := dec.Extensions.Get(tc.space, tc.local); !ok || v != tc.want {
			t.Errorf("%s %s = %q, %v", tc.space, tc.local, v, ok)
		}
	}
	if _, ok := dec.Extensions.Get(NamespaceCamundaExt, "name"); ok {
		t.Error("a DMN attribute is among the extensions")
	}
	if len(dec.Extensions) != 3 {
		t.Errorf("extensions %v, want 3 (no namespace declarations)", dec.Extensions)
	}
	in := dec.Logic.(*DecisionTable).Inputs[0]
	if v, _ := in.Extensions.Get(NamespaceCamundaExt, "inputVariable"); v != "v" {
		t.Errorf("inputVariable %q", v)
	}
}

// TestOperatonFailures: Operaton evaluates the outputs of every matching
// rule before it applies the hit policy, also for FIRST, so a later
// matching rule can fail the evaluation; a value outside a table's input
// values is a typed failure in both modes.
func TestOperatonFailures(t *testing.T) {
	ctx := context.Background()
	m := compileOperaton(t, operatonHead+`
  <decision id="first" name="first"><decisionTable hitPolicy="FIRST">
    <input><inputExpression><text>n</text></inputExpression></input><output name="o"/>
    <rule id="r1"><inputEntry><text>&gt; 0</text></inputEntry><outputEntry><text>1</text></outputEntry></rule>
    <rule id="r2"><inputEntry><text>&gt; 5</text></inputEntry><outputEntry><text>missing + 1</text></outputEntry></rule>
  </decisionTable></decision></definitions>`)
	res, err := m.Evaluate(ctx, "first", map[string]any{"n": 1})
	if err != nil || rowsLiteral(res.Main().Rows()) != "[{o: 1}]" {
		t.Errorf("n=1: %v, %v", res.Main().Rows(), err)
	}
	_, err = m.Evaluate(ctx, "first", map[string]any{"n": 7})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Kind != UnknownVariable || ee.Variable != "missing" {
		t.Errorf("n=7: %v, want the unknown variable of the second matching rule", err)
	}

	src := `<definitions xmlns="` + NamespaceDMN13 + `" namespace="urn:v" name="v">
  <inputData id="n" name="n"/>
  <decision id="d" name="d"><informationRequirement><requiredInput href="#n"/></informationRequirement><decisionTable>
    <input id="in1"><inputExpression><text>n</text></inputExpression><inputValues><text>[1..10]</text></inputValues></input><output name="o"/>
    <rule id="r1"><inputEntry><text>-</text></inputEntry><outputEntry><text>n</text></outputEntry></rule>
  </decisionTable></decision></definitions>`
	for _, operaton := range []bool{false, true} {
		m := mustCompile(t, Options{Operaton: operaton}, src)
		res, err := m.Evaluate(ctx, "d", map[string]any{"n": 11})
		f := res.Main().Failure
		if err != nil {
			if !errors.As(err, &f) {
				t.Fatal(err)
			}
		}
		if f == nil || f.Kind != DisallowedValue || f.DecisionID != "d" || !strings.Contains(f.Error(), "not among the input values") {
			t.Errorf("operaton %v: failure %v, error %v", operaton, f, err)
		}
		if (err != nil) != operaton {
			t.Errorf("operaton %v: error %v", operaton, err)
		}
	}
}

// TestEvaluateContext: inputs given as a FEEL context evaluate like the
// same inputs in a map, in both modes.
func TestEvaluateContext(t *testing.T) {
	ctx := context.Background()
	m := mustCompile(t, Options{}, drd)
	in := feel.NewContext(2)
	in.Put("Applicant Age", feel.Number(70))
	in.Put("Start Date", "2024-01-31") // converted against the input's typeRef date
	res, err := m.EvaluateContext(ctx, "End Date", in, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fee, _ := res.Value("Fee"); feel.Literal(fee) != "10" {
		t.Errorf("Fee = %s, want 10", feel.Literal(fee))
	}
	if end, _ := res.Value("End Date"); feel.Literal(end) != `date("2024-07-31")` {
		t.Errorf("End Date = %s", feel.Literal(end))
	}

	om, err := CompileWith(Options{Operaton: true}, parseFile(t, "testdata/operaton-drd.dmn"))
	if err != nil {
		t.Fatal(err)
	}
	in = feel.NewContext(2)
	in.Put("geboortedatum", "1950-05-01")
	in.Put("aantal", feel.Number(1))
	res, err = om.EvaluateContext(ctx, "Korting", in, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rowsLiteral(res.Main().Rows()); got != `[{kortingPercentage: 25, reden: "seniorenkorting"}]` {
		t.Errorf("Korting rows = %s", got)
	}
	if in.Len() != 2 {
		t.Errorf("the inputs were changed: %s", feel.Literal(in))
	}
	// nor is a map of FEEL values, which is used as it is
	vars := map[string]any{"geboortedatum": "1950-05-01", "aantal": feel.Number(1)}
	if _, err := om.Evaluate(ctx, "Korting", vars); err != nil || len(vars) != 2 {
		t.Errorf("map inputs: %v, now %v", err, vars)
	}
	// a required decision's result replaces an input of the same name
	in.Put("categorie", "jeugd")
	res, err = om.EvaluateContext(ctx, "Korting", in, EvalOptions{})
	if err != nil || rowsLiteral(res.Main().Rows()) != `[{kortingPercentage: 25, reden: "seniorenkorting"}]` {
		t.Errorf("with categorie given: %v, %v", res.Main().Rows(), err)
	}
}

// typedOutputTable is a one-rule table whose output has the typeRef and
// the output entry expr.
func typedOutputTable(typeRef, expr string) string {
	return operatonHead + `
  <decision id="d" name="d"><decisionTable hitPolicy="UNIQUE">
    <input><inputExpression typeRef="integer"><text>1</text></inputExpression></input>
    <output id="o1" name="o" typeRef="` + typeRef + `"/>
    <rule id="r1"><inputEntry><text></text></inputEntry><outputEntry><text>` + expr + `</text></outputEntry></rule>
  </decisionTable></decision></definitions>`
}

// TestOperatonOutputTyping: in Operaton mode an output with a typeRef is
// converted as Operaton's data type transformers convert it; a value the
// transformer refuses fails the evaluation, naming output, rule, value and
// type. The expected values are Operaton's (Camunda 7's) transformer
// results written out by hand.
func TestOperatonOutputTyping(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		typeRef, expr string
		want          string // FEEL literal of the output
		err           string // else: part of the failure's message
	}{
		// string: the value's string form
		{"string", `date("2047-01-23")`, `"2047-01-23"`, ""},
		{"String", `date("2047-01-23")`, `"2047-01-23"`, ""},
		{"string", `date("1980-01-23") + duration("P" + string(804) + "M")`, `"2047-01-23"`, ""},
		{"string", `2.50`, `"2.5"`, ""},
		{"string", `1000000 * 1000000`, `"1000000000000"`, ""},
		{"string", `0.000001`, `"0.000001"`, ""},
		{"string", `true`, `"true"`, ""},
		{"string", `"tekst"`, `"tekst"`, ""},
		{"string", `duration("P3M")`, `"P3M"`, ""},
		{"string", `date and time("2047-01-23T10:00:00")`, `"2047-01-23T10:00:00"`, ""},
		{"string", `null`, `null`, ""},
		// integer and long: whole numbers within 32 and 64 bits
		{"integer", `10.0`, `10`, ""},
		{"integer", `804 / 12`, `67`, ""},
		{"integer", `"42"`, `42`, ""},
		{"integer", `"-7"`, `-7`, ""},
		{"integer", `2147483647`, `2147483647`, ""},
		{"integer", `806 / 12`, ``, `invalid value 67.16666666666666666666666666666667 for typeRef "integer": not a whole number`},
		{"integer", `2.5`, ``, `invalid value 2.5 for typeRef "integer": not a whole number`},
		{"integer", `2147483648`, ``, `out of the range of integer (32 bits)`},
		{"integer", `"4.0"`, ``, `a string that is not a whole number`},
		{"integer", `true`, ``, `invalid value true for typeRef "integer": a boolean`},
		{"Long", `2147483648`, `2147483648`, ""},
		{"long", `"9223372036854775807"`, `9223372036854775807`, ""},
		{"long", `9223372036854775808`, ``, `out of the range of long (64 bits)`},
		{"long", `-0.5`, ``, `not a whole number`},
		// double: the nearest double
		{"double", `1 / 3`, `0.3333333333333333`, ""},
		{"double", `0.1`, `0.1`, ""},
		{"double", `"1.5e3"`, `1500`, ""},
		{"double", `" 2.25 "`, `2.25`, ""},
		{"double", `"abc"`, ``, `a string that is not a number`},
		{"double", `date("2020-01-01")`, ``, `invalid value date("2020-01-01") for typeRef "double": not a number`},
		// boolean: booleans and the strings true and false
		{"boolean", `"TRUE"`, `true`, ""},
		{"boolean", `"false"`, `false`, ""},
		{"boolean", `false`, `false`, ""},
		{"boolean", `"ja"`, ``, `a string other than true or false`},
		{"boolean", `1`, ``, `invalid value 1 for typeRef "boolean": a number`},
		// date: ISO dates and dates and times
		{"date", `"2047-01-23"`, `date("2047-01-23")`, ""},
		{"date", `"2047-01-23T10:00:00"`, `date and time("2047-01-23T10:00:00")`, ""},
		{"date", `date("2047-01-23")`, `date("2047-01-23")`, ""},
		{"date", `"23-01-2047"`, ``, `a string that is not an ISO date or date and time`},
		{"date", `5`, ``, `a number`},
		// any other typeRef: the value as it is (Operaton's identity transformer)
		{"number", `"geen getal"`, `"geen getal"`, ""},
		{"dateTime", `date("2047-01-23")`, `date("2047-01-23")`, ""},
	}
	for _, tc := range tests {
		m := compileOperaton(t, typedOutputTable(tc.typeRef, tc.expr))
		res, err := m.Evaluate(ctx, "d", nil)
		if tc.err != "" {
			var ee *EvalError
			if !errors.As(err, &ee) || ee.Kind != TypeConversion || ee.DecisionID != "d" || len(ee.Rules) != 1 || ee.Rules[0] != "r1" ||
				!strings.Contains(err.Error(), `output "o" of rule r1: `) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %s: error %v, want a type conversion failure with %q", tc.typeRef, tc.expr, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", tc.typeRef, tc.expr, err)
			continue
		}
		if got := feel.Literal(res.Main().Value); got != tc.want {
			t.Errorf("%s %s = %s, want %s", tc.typeRef, tc.expr, got, tc.want)
		}
		if len(res.Messages) > 0 {
			t.Errorf("%s %s: messages %v", tc.typeRef, tc.expr, res.Messages)
		}
	}
}

// TestOperatonTypedDRD evaluates a Camunda-Modeler-style DRD in which a
// table computes a date into an output typed string that a later table
// reads: in Operaton mode the string is the date's text; with DMN
// semantics (the TCK's mode) the same output is null, as before.
func TestOperatonTypedDRD(t *testing.T) {
	ctx := context.Background()
	d := parseFile(t, "testdata/operaton-typing.dmn")
	m, err := CompileWith(Options{Operaton: true}, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Problems()) > 0 {
		t.Fatalf("problems: %v", m.Problems())
	}
	in := func(peildatum string) map[string]any {
		return map[string]any{"geboortedatum": "1980-01-23", "aowLeeftijdInMaanden": 806, "peildatum": peildatum}
	}
	res, err := m.Evaluate(ctx, "AOWDatum", in("2047-06-01"))
	if err != nil {
		t.Fatal(err)
	}
	if got := rowsLiteral(res.Main().Rows()); got != `[{aowDatum: "2047-03-23", aowLeeftijdJaren: 67, aowLeeftijdMaanden: 806, aowLeeftijdJarenExact: 67.16666666666667}]` {
		t.Errorf("AOWDatum rows %s", got)
	}
	for _, tc := range []struct{ peildatum, want string }{
		{"2047-06-01", `[{aowStatus: "AOW", aowIngang: date("2047-03-23")}]`},
		{"2030-06-01", `[{aowStatus: "geen AOW, ingang over 16 jaar", aowIngang: date("2047-03-23")}]`},
	} {
		res, err := m.Evaluate(ctx, "AOWStatus", in(tc.peildatum))
		if err != nil {
			t.Fatalf("peildatum %s: %v", tc.peildatum, err)
		}
		if got := rowsLiteral(res.Main().Rows()); got != tc.want {
			t.Errorf("peildatum %s: AOWStatus rows %s, want %s", tc.peildatum, got, tc.want)
		}
		if len(res.Messages) > 0 {
			t.Errorf("peildatum %s: messages %v", tc.peildatum, res.Messages)
		}
	}

	std, err := CompileWith(Options{}, d)
	if err != nil {
		t.Fatal(err)
	}
	sres, err := std.Evaluate(ctx, "AOWDatum", in("2047-06-01"))
	if err != nil {
		t.Fatal(err)
	}
	got := rowsLiteral(sres.Main().Rows())
	if got != `[{aowDatum: null, aowLeeftijdJaren: 67, aowLeeftijdMaanden: 806, aowLeeftijdJarenExact: 67.16666666666666666666666666666667}]` ||
		len(sres.Messages) != 1 || sres.Messages[0] != `decision table AOW-datum: output date("2047-03-23") does not conform to string` {
		t.Errorf("DMN semantics: rows %s, messages %q, want aowDatum null with a warning and exact numbers", got, sres.Messages)
	}
}

// TestOperatonLiteralTyping: Operaton converts a literal expression's
// result to its variable's typeRef as it converts table outputs.
func TestOperatonLiteralTyping(t *testing.T) {
	ctx := context.Background()
	literal := func(typeRef, expr string) string {
		return operatonHead + `
  <decision id="d" name="d"><variable name="x" typeRef="` + typeRef + `"/><literalExpression><text>` + expr + `</text></literalExpression></decision></definitions>`
	}
	m := compileOperaton(t, literal("string", `date("2047-01-23") + duration("P2M")`))
	res, err := m.Evaluate(ctx, "d", nil)
	if err != nil || feel.Literal(res.Main().Value) != `"2047-03-23"` {
		t.Errorf("string: %s, %v, want \"2047-03-23\"", feel.Literal(res.Main().Value), err)
	}
	m = compileOperaton(t, literal("integer", `5 / 2`))
	_, err = m.Evaluate(ctx, "d", nil)
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Kind != TypeConversion || ee.DecisionID != "d" ||
		err.Error() != `dmn: decision d: variable "x": invalid value 2.5 for typeRef "integer": not a whole number` {
		t.Errorf("integer: %v, want a type conversion failure", err)
	}
}
