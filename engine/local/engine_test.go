package local

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
)

const dmnHead = `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:camunda="http://camunda.org/schema/1.0/dmn" id="%s" name="%s" namespace="urn:test">`

func model(id string, body string) []byte {
	return []byte(fmt.Sprintf(dmnHead, id, id) + body + `</definitions>`)
}

func deploy(t testing.TB, e *Engine, nd engine.NewDeployment) engine.Deployment {
	t.Helper()
	dep, err := e.Deploy(context.Background(), nd)
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return dep
}

func one(name string, data []byte) engine.NewDeployment {
	return engine.NewDeployment{Name: name, Resources: []engine.Resource{{Name: name + ".dmn", Data: data}}}
}

// drd: top requires B then A (document order); A is a COLLECT table, B a
// literal expression with a variable name different from its decision name.
var drd = model("drd", `
  <decision id="A" name="Decision A">
    <decisionTable hitPolicy="COLLECT">
      <input><inputExpression typeRef="number"><text>n</text></inputExpression></input>
      <output name="hit" typeRef="string"/>
      <rule><inputEntry><text>&gt; 0</text></inputEntry><outputEntry><text>"positive"</text></outputEntry></rule>
      <rule><inputEntry><text></text></inputEntry><outputEntry><text>"any"</text></outputEntry></rule>
      <rule><inputEntry><text>  </text></inputEntry><outputEntry><text>"blank"</text></outputEntry></rule>
    </decisionTable>
  </decision>
  <decision id="B" name="Decision B" camunda:versionTag="v7" camunda:historyTimeToLive="30">
    <variable name="doubled" typeRef="number"/>
    <literalExpression><text>n * 2</text></literalExpression>
  </decision>
  <decision id="C" name="Decision C">
    <informationRequirement><requiredDecision href="#A"/></informationRequirement>
    <literalExpression><text>count(hit)</text></literalExpression>
  </decision>
  <decision id="Top" name="Top">
    <informationRequirement><requiredDecision href="#B"/></informationRequirement>
    <informationRequirement><requiredDecision href="#C"/></informationRequirement>
    <decisionTable hitPolicy="UNIQUE">
      <input camunda:inputVariable="x"><inputExpression typeRef="number"><text>doubled + 1</text></inputExpression></input>
      <output name="doubledPlusOne" typeRef="double"/>
      <output name="hits"/>
      <output name="seenAs"/>
      <rule><inputEntry><text>-</text></inputEntry>
        <outputEntry><text>doubled + 1</text></outputEntry><outputEntry><text>hit</text></outputEntry><outputEntry><text>Decision C</text></outputEntry></rule>
    </decisionTable>
  </decision>`)

func TestOperatonDRDSemantics(t *testing.T) {
	e := New(Options{})
	dep := deploy(t, e, one("drd", drd))
	ctx := context.Background()
	res, err := e.Evaluate(ctx, "Top", "", engine.Variables{"n": engine.Integer(5)})
	if err != nil {
		t.Fatal(err)
	}
	// B's result is in scope by its variable name, A's COLLECT rows as a
	// list per output (also visible to Top, which does not require A), C's
	// literal result under its variable name (= decision name)
	if len(res) != 1 || !res[0]["doubledPlusOne"].Equal(engine.Double(11)) ||
		!res[0]["hits"].Equal(engine.Variable{Type: engine.TypeJSON, Value: `["positive","any","blank"]`}) ||
		!res[0]["seenAs"].Equal(engine.Integer(3)) {
		t.Errorf("Top = %v", res)
	}
	// a COLLECT table returns one row per matched rule
	res, err = e.Evaluate(ctx, "A", "", engine.Variables{"n": engine.Integer(-1)})
	if err != nil || len(res) != 2 || !res[0]["hit"].Equal(engine.String("any")) || !res[1]["hit"].Equal(engine.String("blank")) {
		t.Errorf("A = %v, %v", res, err)
	}
	// a literal expression: one row named by the variable
	res, err = e.Evaluate(ctx, "B", "", engine.Variables{"n": engine.String("x")})
	if err != nil || len(res) != 1 || !res[0]["doubled"].Equal(engine.Null()) {
		t.Errorf("B = %v, %v", res, err)
	}
	// required decisions are evaluated in document order of the
	// requirements: B (the first) fails before A is reached
	_, err = e.Evaluate(ctx, "Top", "", engine.Variables{})
	var ee *engine.EvaluationError
	if !errors.As(err, &ee) || ee.DecisionID != "B" || ee.Variable != "n" || ee.NoRuleMatched != "" || ee.DecisionKey != "Top" {
		t.Errorf("missing input: %v", err)
	}
	// camunda: attributes and the DRD
	for _, d := range dep.DeployedDecisionDefinitions {
		if d.Key == "B" && (d.VersionTag != "v7" || d.HistoryTimeToLive == nil || *d.HistoryTimeToLive != 30) {
			t.Errorf("B: versionTag %q, historyTimeToLive %v", d.VersionTag, d.HistoryTimeToLive)
		}
		if d.DecisionRequirementsDefinitionKey != "drd" || d.Category != "urn:test" {
			t.Errorf("%s: drd %q, category %q", d.Key, d.DecisionRequirementsDefinitionKey, d.Category)
		}
	}
	if len(dep.DeployedDecisionRequirementsDefinitions) != 1 || dep.DeployedDecisionRequirementsDefinitions[0].Key != "drd" {
		t.Errorf("DRDs %v", dep.DeployedDecisionRequirementsDefinitions)
	}
}

// TestStandardMode: the same DRD under DMN semantics, where required
// decisions are in scope by decision name only.
func TestStandardMode(t *testing.T) {
	e := New(Options{Standard: true})
	deploy(t, e, one("drd", drd))
	m := model("std", `
  <inputData id="i" name="n"><variable name="n" typeRef="number"/></inputData>
  <decision id="B" name="Decision B"><informationRequirement><requiredInput href="#i"/></informationRequirement>
    <decisionTable><input><inputExpression><text>n</text></inputExpression></input><output name="b2"/>
      <rule><inputEntry><text>-</text></inputEntry><outputEntry><text>n * 2</text></outputEntry></rule></decisionTable></decision>
  <decision id="T" name="T"><informationRequirement><requiredDecision href="#B"/></informationRequirement>
    <literalExpression><text>Decision B + 1</text></literalExpression></decision>`)
	deploy(t, e, one("std", m))
	res, err := e.Evaluate(context.Background(), "T", "", engine.Variables{"n": engine.String("21")})
	if err != nil || len(res) != 1 || !res[0]["T"].Equal(engine.Integer(43)) {
		t.Errorf("standard T = %v, %v (inputs are converted against typeRefs)", res, err)
	}
	o := New(Options{})
	deploy(t, o, one("std", m))
	_, err = o.Evaluate(context.Background(), "T", "", engine.Variables{"n": engine.Integer(21)})
	var ee *engine.EvaluationError
	if !errors.As(err, &ee) || ee.Variable != "Decision B" {
		t.Errorf("Operaton T: %v, want an unknown variable Decision B", err)
	}
}

func TestHitPolicies(t *testing.T) {
	table := func(hit, outputs, rules string) []byte {
		return model("hp", `<decision id="d" name="d"><decisionTable `+hit+`>
      <input><inputExpression><text>x</text></inputExpression></input>`+outputs+rules+`</decisionTable></decision>`)
	}
	rule := func(in, out string) string {
		return `<rule><inputEntry><text>` + in + `</text></inputEntry><outputEntry><text>` + out + `</text></outputEntry></rule>`
	}
	o := `<output name="o" typeRef="number"/>`
	ctx := context.Background()
	for _, tc := range []struct {
		name, hit, rules string
		want             string // fmt of the rows, or error text
	}{
		{"unique", `hitPolicy="UNIQUE"`, rule("1", "10") + rule("2", "20"), "[map[o:Integer(10)]]"},
		{"unique violated", `hitPolicy="UNIQUE"`, rule("1", "10") + rule("-", "20"), "error: hit policy UNIQUE only allows a single rule to match, but 2 rules match (rule 1, rule 2)"},
		{"any agreeing", `hitPolicy="ANY"`, rule("1", "10") + rule("-", "10"), "[map[o:Integer(10)]]"},
		{"any disagreeing", `hitPolicy="ANY"`, rule("1", "10") + rule("-", "20"), "error: hit policy ANY only allows matching rules with equal outputs"},
		{"first", `hitPolicy="FIRST"`, rule("-", "10") + rule("1", "20"), "[map[o:Integer(10)]]"},
		{"rule order", `hitPolicy="RULE ORDER"`, rule("-", "10") + rule("1", "20"), "[map[o:Integer(10)] map[o:Integer(20)]]"},
		{"collect", `hitPolicy="COLLECT"`, rule("1", "10") + rule("-", "20"), "[map[o:Integer(10)] map[o:Integer(20)]]"},
		{"collect sum", `hitPolicy="COLLECT" aggregation="SUM"`, rule("1", "10") + rule("-", "20.5"), "[map[o:Double(30.5)]]"},
		{"collect count", `hitPolicy="COLLECT" aggregation="COUNT"`, rule("1", "10") + rule("-", "20"), "[map[o:Integer(2)]]"},
		{"no match", `hitPolicy="UNIQUE"`, rule("2", "10"), "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{})
			deploy(t, e, one("hp", table(tc.hit, o, tc.rules)))
			res, err := e.Evaluate(ctx, "d", "", engine.Variables{"x": engine.Integer(1)})
			got := fmt.Sprint(res)
			if err != nil {
				var ee *engine.EvaluationError
				if !errors.As(err, &ee) || ee.DecisionID != "d" {
					t.Fatalf("error %v is not an EvaluationError of d", err)
				}
				got = "error: " + ee.Err.Error()
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	// PRIORITY and OUTPUT ORDER follow the output values' order
	prio := `<output name="o" typeRef="string"><outputValues><text>"high","low"</text></outputValues></output>`
	for _, tc := range []struct{ hit, want string }{
		{`hitPolicy="PRIORITY"`, `[map[o:String("high")]]`},
		{`hitPolicy="OUTPUT ORDER"`, `[map[o:String("high")] map[o:String("low")]]`},
	} {
		e := New(Options{})
		deploy(t, e, one("hp", table(tc.hit, prio, rule("-", `"low"`)+rule("1", `"high"`))))
		res, err := e.Evaluate(ctx, "d", "", engine.Variables{"x": engine.Integer(1)})
		if err != nil || fmt.Sprint(res) != tc.want {
			t.Errorf("%s: %v, %v; want %s", tc.hit, res, err, tc.want)
		}
	}
}

func TestCompileProblemFailsEvaluation(t *testing.T) {
	e := New(Options{})
	m := model("bad", `<decision id="d" name="d"><decisionTable>
      <input><inputExpression><text>x</text></inputExpression></input><output name="o"/>
      <rule><inputEntry><text>1</text></inputEntry><outputEntry><text>1 +* 2</text></outputEntry></rule>
      <rule><inputEntry><text>2</text></inputEntry><outputEntry><text>"fine"</text></outputEntry></rule>
    </decisionTable></decision>`)
	deploy(t, e, one("bad", m)) // Operaton compiles expressions lazily: the deployment succeeds
	ctx := context.Background()
	res, err := e.Evaluate(ctx, "d", "", engine.Variables{"x": engine.Integer(2)})
	if err != nil || fmt.Sprint(res) != `[map[o:String("fine")]]` {
		t.Errorf("a rule without the problem: %v, %v", res, err)
	}
	_, err = e.Evaluate(ctx, "d", "", engine.Variables{"x": engine.Integer(1)})
	var ee *engine.EvaluationError
	if !errors.As(err, &ee) || ee.DecisionID != "d" || ee.Err == nil {
		t.Errorf("the broken output entry: %v", err)
	}
}

func TestDeploymentErrors(t *testing.T) {
	e := New(Options{})
	ctx := context.Background()
	cyc := model("cyc", `<decision id="a" name="a"><informationRequirement><requiredDecision href="#b"/></informationRequirement><literalExpression><text>b</text></literalExpression></decision>
  <decision id="b" name="b"><informationRequirement><requiredDecision href="#a"/></informationRequirement><literalExpression><text>a</text></literalExpression></decision>`)
	dupA := model("x", `<decision id="same" name="s"><literalExpression><text>1</text></literalExpression></decision>`)
	dupB := model("y", `<decision id="same" name="s"><literalExpression><text>2</text></literalExpression></decision>`)
	for _, tc := range []struct {
		name string
		nd   engine.NewDeployment
		want string
	}{
		{"cycle", one("cyc", cyc), "requires itself"},
		{"same key twice", engine.NewDeployment{Resources: []engine.Resource{{Name: "x.dmn", Data: dupA}, {Name: "y.dmn", Data: dupB}}}, `two decisions with the key "same"`},
		{"not XML", one("junk", []byte("not xml at all")), ""},
		{"broken XML", one("broken", []byte("<definitions>\n<decision>\n</definitions>")), "line 3, column 1: invalid XML: element <decision> closed by </definitions>"},
		{"not DMN", one("html", []byte("<html/>")), ""},
	} {
		_, err := e.Deploy(ctx, tc.nd)
		var de *engine.DeploymentError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.want) || de.Resource == "" {
			t.Errorf("%s: got %v", tc.name, err)
		}
	}
	if _, err := e.Deploy(ctx, engine.NewDeployment{}); !errors.Is(err, errInvalid(t, err)) {
		t.Errorf("empty deployment: %v", err)
	}
	if deps, _ := e.Deployments(ctx, engine.DeploymentQuery{}); len(deps) != 0 {
		t.Errorf("failed deployments were stored: %v", deps)
	}
}

func errInvalid(t *testing.T, err error) error {
	var e *engine.Error
	if !errors.As(err, &e) || e.Status != 400 {
		t.Errorf("%v is not a 400 engine error", err)
		return errors.New("no")
	}
	return err
}

func TestVersionsTenantsAndFiltering(t *testing.T) {
	now := time.Date(2025, 12, 24, 10, 0, 0, 0, time.UTC)
	e := New(Options{Now: func() time.Time { return now }, Version: "7.24.0"})
	ctx := context.Background()
	v1 := model("k", `<decision id="k" name="k"><literalExpression><text>1</text></literalExpression></decision>`)
	v2 := model("k", `<decision id="k" name="k"><literalExpression><text>2</text></literalExpression></decision>`)
	other := []byte("a form")
	nd := func(data []byte, tenant string, filter, changedOnly bool) engine.NewDeployment {
		return engine.NewDeployment{Name: "n", TenantID: tenant, EnableDuplicateFiltering: filter, DeployChangedOnly: changedOnly,
			Resources: []engine.Resource{{Name: "k.dmn", Data: data}, {Name: "start.form", Data: other}}}
	}
	d1 := deploy(t, e, nd(v1, "", true, false))
	if d1.Time != now || len(d1.DeployedDecisionDefinitions) != 1 || d1.DeployedDecisionDefinitions[0].Version != 1 {
		t.Errorf("first: %+v", d1)
	}
	if d := deploy(t, e, nd(v1, "", true, false)); d.ID != d1.ID || len(d.DeployedDecisionDefinitions) != 0 {
		t.Errorf("duplicate filtering deployed %+v", d)
	}
	d3 := deploy(t, e, nd(v2, "", false, true)) // only k.dmn changed
	if len(d3.DeployedDecisionDefinitions) != 1 || d3.DeployedDecisionDefinitions[0].Version != 2 {
		t.Errorf("changed only: %+v", d3)
	}
	if rs, _ := e.Resources(ctx, d3.ID); len(rs) != 1 || rs[0].Name != "k.dmn" {
		t.Errorf("changed-only resources: %v", rs)
	}
	if rs, _ := e.Resources(ctx, d1.ID); len(rs) != 2 {
		t.Errorf("first deployment resources: %v", rs)
	}
	deploy(t, e, nd(v1, "t1", false, false)) // another tenant counts its own versions
	res, err := e.Evaluate(ctx, "k", "", nil)
	if err != nil || fmt.Sprint(res) != "[map[k:Integer(2)]]" {
		t.Errorf("latest untenanted: %v, %v", res, err)
	}
	res, err = e.Evaluate(ctx, "k", "t1", nil)
	if err != nil || fmt.Sprint(res) != "[map[k:Integer(1)]]" {
		t.Errorf("tenant t1: %v, %v", res, err)
	}
	if d, err := e.LatestDecisionDefinition(ctx, "k", "t1"); err != nil || d.Version != 1 || d.TenantID != "t1" {
		t.Errorf("latest t1: %+v, %v", d, err)
	}
	if _, err := e.Evaluate(ctx, "k", "t2", nil); !errors.Is(err, engine.ErrNotFound) || !strings.Contains(err.Error(), "No matching decision definition with key: k and tenant-id: t2") {
		t.Errorf("unknown tenant: %v", err)
	}
	defs, _ := e.DecisionDefinitions(ctx, engine.DecisionDefinitionQuery{Key: "k"})
	if len(defs) != 3 {
		t.Fatalf("definitions: %v", defs)
	}
	res, err = e.EvaluateDefinition(ctx, defs[0].ID, nil)
	if err != nil || fmt.Sprint(res) != "[map[k:Integer(1)]]" {
		t.Errorf("version 1 by id: %v, %v", res, err)
	}
	if x, err := e.DecisionDefinitionXML(ctx, defs[1].ID); err != nil || x != string(v2) {
		t.Errorf("xml of version 2: %v", err)
	}
	if v, _ := e.Version(ctx); v != "7.24.0" {
		t.Errorf("version %q", v)
	}
	if _, err := e.Deployment(ctx, "nope"); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("unknown deployment: %v", err)
	}
	// the second version reuses nothing; deploying v1 again reuses its compiled model
	e.mu.RLock()
	n := len(e.models)
	e.mu.RUnlock()
	if n != 2 {
		t.Errorf("%d compiled models cached, want 2", n)
	}
}

func TestVariableErrors(t *testing.T) {
	e := New(Options{})
	deploy(t, e, one("k", model("k", `<decision id="k" name="k"><literalExpression><text>x</text></literalExpression></decision>`)))
	// few variables (passed to dmn as a context) and many (as a map)
	for _, n := range []int{0, 40} {
		vars := engine.Variables{"x": {Type: "File", Value: "f"}}
		for i := 0; i < n; i++ {
			vars[fmt.Sprintf("v%d", i)] = engine.Integer(int32(i))
		}
		_, err := e.Evaluate(context.Background(), "k", "", vars)
		var ve *engine.VariableError
		if !errors.As(err, &ve) || ve.Name != "x" {
			t.Errorf("%d more variables: got %v", n, err)
		}
		vars["x"] = engine.Integer(7)
		if res, err := e.Evaluate(context.Background(), "k", "", vars); err != nil || fmt.Sprint(res) != "[map[k:Integer(7)]]" {
			t.Errorf("%d more variables: %v, %v", n, res, err)
		}
	}
}

func TestCancelledEvaluation(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", variables(t, step2Inputs()))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

// TestConcurrentUse deploys and evaluates from several goroutines (run
// with -race).
func TestConcurrentUse(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx := context.Background()
	vars := variables(t, step2Inputs())
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				if i%10 == 0 {
					if _, err := e.Deploy(ctx, one(fmt.Sprintf("k%d", g), model("k", fmt.Sprintf(`<decision id="k%d" name="k"><literalExpression><text>%d</text></literalExpression></decision>`, g, i)))); err != nil {
						errs <- err
						return
					}
				}
				res, err := e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
				if err != nil || !res[0]["toepasselijkeNorm"].Equal(engine.String("MK")) {
					errs <- fmt.Errorf("evaluate: %v, %v", res, err)
					return
				}
				e.DecisionDefinitions(ctx, engine.DecisionDefinitionQuery{LatestVersion: true})
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if d, err := e.LatestDecisionDefinition(ctx, "k0", ""); err != nil || d.Version != 3 {
		t.Errorf("k0: %+v, %v", d, err)
	}
}
