package chain

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

func deploy(t testing.TB, e engine.Decisions, name string, files map[string][]byte) {
	t.Helper()
	var rs []engine.Resource
	for n, data := range files {
		rs = append(rs, engine.Resource{Name: n, Data: data})
	}
	if _, err := e.Deploy(context.Background(), engine.NewDeployment{Name: name, Resources: rs}); err != nil {
		t.Fatalf("deploy %s: %v", name, err)
	}
}

func testdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// modelsByID picks models from a listing in the given order.
func modelsByID(t testing.TB, listing []Model, ids ...string) []Model {
	t.Helper()
	var out []Model
	for _, id := range ids {
		found := false
		for _, m := range listing {
			if m.Identifier == id {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			t.Fatalf("model %s not listed", id)
		}
	}
	return out
}

func inferAll(t testing.TB, plain map[string]any) engine.Variables {
	t.Helper()
	vs := engine.Variables{}
	for k, v := range plain {
		x, err := engine.Infer(v)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		vs[k] = x
	}
	return vs
}

func TestExecuteSequential(t *testing.T) {
	ctx := context.Background()
	store := exampleStore(t)
	listing, err := ListModels(ctx, store, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	models := modelsByID(t, listing, "SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "RONL_LocalpassEindresultaat")
	inputs := inferAll(t, workedExample())
	ex, err := Execute(ctx, localPassEngine(t), store, models, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Steps) != 3 {
		t.Fatalf("%d steps", len(ex.Steps))
	}
	// results: the merged outputs of all steps (14 + 3 + 2), never the inputs
	if len(ex.Results) != 19 {
		t.Errorf("%d results: %v", len(ex.Results), ex.Results)
	}
	if _, ok := ex.Results["dagVanAanvraag"]; ok {
		t.Error("an input leaked into results")
	}
	for k, want := range map[string]string{"aanmerkingLocalPass": "true", "aanmerkingKindPakket": "true",
		"bijstandsNorm": "1369.06", "toepasselijkeNorm": `"MK"`, "aanvragerLeeftijd": "45"} {
		if got := jsonText(t, ex.Results[k]); got != want {
			t.Errorf("results.%s = %s, want %s", k, got, want)
		}
	}
	// every step is sent all accumulated variables
	for i, want := range []int{14, 14 + 14, 14 + 14 + 3} {
		if s := ex.Steps[i]; len(s.Inputs) != want || s.DMN != models[i].Identifier {
			t.Errorf("step %d (%s): %d inputs, want %d", i, s.DMN, len(s.Inputs), want)
		}
	}
	if got := jsonText(t, ex.Steps[2].Inputs["bijstandsNorm"]); got != "1369.06" {
		t.Errorf("step 3 was sent bijstandsNorm %s", got)
	}
	if len(ex.Steps[1].Outputs) != 3 || ex.TotalDuration < ex.Steps[0].Duration {
		t.Errorf("step 2 outputs %v; total %v", ex.Steps[1].Outputs, ex.TotalDuration)
	}

	// An application date in 2026: the norm model matches no rule.
	inputs["dagVanAanvraag"] = engine.String("2026-02-01")
	_, err = Execute(ctx, localPassEngine(t), store, models, inputs)
	var se *StepError
	if !errors.As(err, &se) || se.Model != "SZW_BijstandsnormInformatie" ||
		err.Error() != "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)" {
		t.Errorf("error %v", err)
	}
}

func TestExecuteSemanticPassForward(t *testing.T) {
	ctx := context.Background()
	store := exampleStore(t)
	listing, err := ListModels(ctx, store, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eng := localPassEngine(t)
	deploy(t, eng, "test", map[string][]byte{"BD_ZorgtoeslagRecht.dmn": testdata(t, "BD_ZorgtoeslagRecht.dmn")})
	models := modelsByID(t, listing, "SVB_LeeftijdsInformatie", "BD_ZorgtoeslagRecht")
	inputs := inferAll(t, map[string]any{"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23",
		"geboortedatumPartner": nil, "toetsingsinkomen": json.Number("30000")})

	// aanvragerLeeftijd (SVB) and leeftijdAanvrager (BD) share a concept.
	ex, err := Execute(ctx, eng, store, models, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonText(t, ex.Steps[1].Inputs["leeftijdAanvrager"]); got != "45" {
		t.Errorf("leeftijdAanvrager passed forward as %s", got)
	}
	if got := jsonText(t, ex.Results["rechtOpZorgtoeslag"]); got != "true" {
		t.Errorf("rechtOpZorgtoeslag %s", got)
	}
	if _, ok := ex.Results["leeftijdAanvrager"]; ok {
		t.Error("a passed-forward input is not an output")
	}

	// A value the caller gives is not overwritten.
	withAge := inferAll(t, map[string]any{"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23",
		"geboortedatumPartner": nil, "toetsingsinkomen": json.Number("30000"), "leeftijdAanvrager": json.Number("17")})
	ex, err = Execute(ctx, eng, store, models, withAge)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonText(t, ex.Results["rechtOpZorgtoeslag"]); got != "false" {
		t.Errorf("with the caller's age 17: rechtOpZorgtoeslag %s", got)
	}

	// Without the knowledge graph there is nothing to pass forward.
	_, err = Execute(ctx, eng, nil, models, inputs)
	var se *StepError
	if !errors.As(err, &se) || se.Model != "BD_ZorgtoeslagRecht" || !strings.Contains(err.Error(), `"leeftijdAanvrager"`) {
		t.Errorf("without links: %v", err)
	}
}

// Three tiny models: P1 and P2 both produce a value whose concept Q's
// input b shares; Q must take it from the most recent of them.
const preferGraph = `@prefix cprmv: <https://cprmv.open-regels.nl/0.3.0/> .
@prefix cpsv: <http://purl.org/vocab/cpsv#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <https://example.org/> .
ex:P1 a cprmv:DecisionModel ; dct:identifier "P1" ; dct:title "P1" .
ex:P2 a cprmv:DecisionModel ; dct:identifier "P2" ; dct:title "P2" .
ex:Q a cprmv:DecisionModel ; dct:identifier "Q" ; dct:title "Q" .
ex:a1 a cpsv:Output ; cpsv:produces ex:P1 ; dct:identifier "a1" ; dct:type "Integer" .
ex:a2 a cpsv:Output ; cpsv:produces ex:P2 ; dct:identifier "a2" ; dct:type "integer" .
ex:b a cpsv:Input ; cpsv:isRequiredBy ex:Q ; dct:identifier "b" ; dct:type "Integer" .
ex:c1 a skos:Concept ; skos:prefLabel "a1" ; dct:subject ex:a1 ; skos:exactMatch ex:shared .
ex:c2 a skos:Concept ; skos:prefLabel "a2" ; dct:subject ex:a2 ; skos:exactMatch ex:shared .
ex:cb a skos:Concept ; skos:prefLabel "b" ; dct:subject ex:b ; skos:exactMatch ex:shared .
`

func literalModel(id, variable, expr string) []byte {
	return []byte(`<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="` + id + `_defs" name="` + id + `" namespace="urn:test">
  <decision id="` + id + `" name="` + id + `">
    <variable name="` + variable + `" typeRef="number"/>
    <literalExpression id="` + id + `_expr"><text>` + expr + `</text></literalExpression>
  </decision>
</definitions>`)
}

func TestExecutePrefersTheMostRecentStep(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	if err := store.Load(ctx, strings.NewReader(preferGraph), graph.Turtle); err != nil {
		t.Fatal(err)
	}
	listing, err := ListModels(ctx, store, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eng := local.New(local.Options{})
	deploy(t, eng, "prefer", map[string][]byte{
		"P1.dmn": literalModel("P1", "a1", "1"),
		"P2.dmn": literalModel("P2", "a2", "2"),
		"Q.dmn":  literalModel("Q", "q", "b * 10"),
	})
	for _, tc := range []struct {
		order []string
		want  string
	}{
		{[]string{"P1", "P2", "Q"}, "20"},
		{[]string{"P2", "P1", "Q"}, "10"},
		{[]string{"P1", "Q"}, "10"},
	} {
		ex, err := Execute(ctx, eng, store, modelsByID(t, listing, tc.order...), engine.Variables{})
		if err != nil {
			t.Fatalf("%v: %v", tc.order, err)
		}
		if got := jsonText(t, ex.Results["q"]); got != tc.want {
			t.Errorf("%v: q = %s, want %s", tc.order, got, tc.want)
		}
	}
	links, err := SemanticLinks(ctx, store, modelsByID(t, listing, "P1", "P2", "Q"))
	if err != nil {
		t.Fatal(err)
	}
	// a1 -> b, a2 -> b, and between P1 and P2 no input exists
	if len(links) != 2 || links[0].InputVariable != "b" || deref(links[0].SharedConcept) != "https://example.org/shared" {
		t.Errorf("links %+v", links)
	}
}

const collectModel = `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="multi_defs" name="multi" namespace="urn:test">
  <decision id="Multi" name="Multi">
    <decisionTable id="Multi_dt" hitPolicy="COLLECT">
      <input id="Multi_in"><inputExpression id="Multi_in_expr" typeRef="number"><text>n</text></inputExpression></input>
      <output id="Multi_o1" name="code" typeRef="string"/>
      <output id="Multi_o2" name="weight" typeRef="number"/>
      <rule id="Multi_r1"><inputEntry id="Multi_r1_i"><text>&gt; 0</text></inputEntry><outputEntry id="Multi_r1_o1"><text>"A"</text></outputEntry><outputEntry id="Multi_r1_o2"><text>1.5</text></outputEntry></rule>
      <rule id="Multi_r2"><inputEntry id="Multi_r2_i"><text>&gt; 1</text></inputEntry><outputEntry id="Multi_r2_o1"><text>"B"</text></outputEntry><outputEntry id="Multi_r2_o2"><text>2</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`

func TestExecuteResultRows(t *testing.T) {
	ctx := context.Background()
	eng := local.New(local.Options{})
	deploy(t, eng, "rows", map[string][]byte{
		"multi.dmn": []byte(collectModel),
		"sum.dmn":   literalModel("Sum", "total", "sum(weight)"),
	})
	models := []Model{{Identifier: "Multi"}, {Identifier: "Sum"}}
	// several rows: per output, the list of its values in row order; the
	// list is passed on as a list
	ex, err := Execute(ctx, eng, nil, models, engine.Variables{"n": engine.Integer(5)})
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonText(t, ex.Steps[0].Outputs); got != `{"code":["A","B"],"weight":[1.5,2]}` {
		t.Errorf("multi-row outputs %s", got)
	}
	if got := jsonText(t, ex.Results["total"]); got != "3.5" {
		t.Errorf("sum of the passed list %s", got)
	}
	// one row: a map of values
	ex, err = Execute(ctx, eng, nil, models[:1], engine.Variables{"n": engine.Integer(1)})
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonText(t, ex.Results); got != `{"code":"A","weight":1.5}` {
		t.Errorf("one-row results %s", got)
	}
	// no rows: no rule matched, naming the model and the decision
	_, err = Execute(ctx, eng, nil, models[:1], engine.Variables{"n": engine.Integer(0)})
	if err == nil || err.Error() != "Multi: no rule matched (Multi)" {
		t.Errorf("no rows: %v", err)
	}
	// an unknown key: the engine's 404
	_, err = Execute(ctx, eng, nil, []Model{{Identifier: "Nope"}}, nil)
	var se *StepError
	if !errors.As(err, &se) || !errors.Is(err, engine.ErrNotFound) || !strings.HasPrefix(err.Error(), "Nope: engine returned 404 RestException: ") {
		t.Errorf("unknown key: %v", err)
	}
	// a DRD entry point is one evaluation
	ex, err = ExecuteDRD(ctx, eng, "Multi", engine.Variables{"n": engine.Integer(1)})
	if err != nil || len(ex.Steps) != 1 || ex.Steps[0].DMN != "Multi" || jsonText(t, ex.Results) != `{"code":"A","weight":1.5}` {
		t.Errorf("DRD: %+v %v", ex, err)
	}
}

func TestStepErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		err  *StepError
		want string
	}{
		{&StepError{Model: "RONL_X", Err: &engine.Error{Status: 500, Type: "RestException", Message: "Cannot evaluate decision RONL_X"}},
			"RONL_X: engine returned 500 RestException: Cannot evaluate decision RONL_X"},
		{&StepError{Model: "RONL_X", NoRuleMatched: "RONL_Sub"}, "RONL_X: no rule matched (RONL_Sub)"},
		{&StepError{Model: "RONL_X", Err: engine.Unavailable(errors.New("dial tcp: connection refused"))},
			"RONL_X: engine unavailable: dial tcp: connection refused"},
		{&StepError{Model: "RONL_X", Err: &engine.EvaluationError{DecisionKey: "RONL_X", DecisionID: "D", Variable: "v"}},
			`RONL_X: decision D: unknown variable "v"`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
