package chain

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/examples"
)

// localPassFiles reads the three local-pass DMN files in chain order.
func localPassFiles(t testing.TB) [][]byte {
	t.Helper()
	var files [][]byte
	for _, m := range examples.LocalPass {
		data, err := examples.FS.ReadFile(m.Path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	return files
}

// localPassEngine is an embedded engine with the three local-pass models
// deployed, as the explorer runs by default.
func localPassEngine(t testing.TB) *local.Engine {
	t.Helper()
	e := local.New(local.Options{})
	var rs []engine.Resource
	for i, data := range localPassFiles(t) {
		rs = append(rs, engine.Resource{Name: examples.LocalPass[i].Identifier + ".dmn", Data: data})
	}
	if _, err := e.Deploy(context.Background(), engine.NewDeployment{Name: "localpass", Resources: rs}); err != nil {
		t.Fatal(err)
	}
	return e
}

func localPassChain(t testing.TB) *FixedChain {
	t.Helper()
	c, err := NewLocalPass(localPassFiles(t)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// workedExample is the test oracle's request, as
// JSON decodes it (numbers as json.Number).
func workedExample() map[string]any {
	return map[string]any{
		"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": "1982-05-15",
		"aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true, "aanvragerHeeftKind4Tm17": true,
		"aanvragerInwonerMunicipality": true, "maandelijksBrutoInkomenAanvrager": json.Number("1500"),
		"aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
		"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
		"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false,
	}
}

func with(base map[string]any, changes map[string]any) map[string]any {
	out := maps.Clone(base)
	maps.Copy(out, changes)
	return out
}

// jsonText renders a plain value as JSON for comparison (json.Number keeps
// its text, so 1369.06 must appear exactly).
func jsonText(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFixedModelFromDMN(t *testing.T) {
	c := localPassChain(t)
	if got := c.ID(); got != "SVB_LeeftijdsInformatie->SZW_BijstandsnormInformatie->RONL_LocalpassEindresultaat" {
		t.Errorf("ID %q", got)
	}
	want := []struct {
		title  string
		inputs string
	}{
		{"SVB Leeftijdsinformatie", "dagVanAanvraag geboortedatumAanvrager geboortedatumPartner"},
		{"SZW Bijstandsnorminformatie", "dagVanAanvraag aanvragerAlleenstaand aanvragerHeeftKinderen aanvragerIs181920 aanvragerIsTenminste21 aanvragerHeeftAOWLeeftijd partnerIs181920 partnerIsTenminste21 partnerHeeftAOWLeeftijd"},
		{"RONL Localpass eindresultaat", "aanvragerInwonerMunicipality aanvragerHeeftKind4Tm17 maandelijksBrutoInkomenAanvrager bijstandsNorm aanvragerUitkeringBaanbrekers aanvragerVoedselbankpasCity aanvragerKwijtscheldingGemeentelijkeBelastingen aanvragerSchuldhulptrajectCreditBank aanvragerDitKalenderjaarAlAangevraagd aanvragerAanmerkingStudieFinanciering aanvragerIs181920 aanvragerIsTenminste21 aanvragerHeeftAOWLeeftijd"},
	}
	for i, m := range c.Models {
		if m.Title != want[i].title {
			t.Errorf("%s: title %q, want %q", m.Identifier, m.Title, want[i].title)
		}
		if got := strings.Join(m.Inputs, " "); got != want[i].inputs {
			t.Errorf("%s: inputs\n got %s\nwant %s", m.Identifier, got, want[i].inputs)
		}
	}
	for _, bad := range []string{``, `<x/>`, `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="other"/></definitions>`} {
		if _, err := FixedModelFromDMN("SVB_LeeftijdsInformatie", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestLocalPassWorkedExample(t *testing.T) {
	c, eng := localPassChain(t), localPassEngine(t)
	vars, err := c.Variables(workedExample())
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background(), eng, vars, RunOptions{Steps: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.ChainID != "SVB_LeeftijdsInformatie->SZW_BijstandsnormInformatie->RONL_LocalpassEindresultaat" {
		t.Errorf("chainId %q", res.ChainID)
	}
	if got := jsonText(t, res.FinalOutputs); got != `{"aanmerkingKindPakket":true,"aanmerkingLocalPass":true}` {
		t.Errorf("finalOutputs %s", got)
	}
	if len(res.Steps) != 3 {
		t.Fatalf("%d steps", len(res.Steps))
	}
	// Step outputs of the worked example.
	wantOutputs := []map[string]string{
		{"aanvragerLeeftijd": "45", "partnerLeeftijd": "43", "aanvragerIs18": "true", "aanvragerIs65": "false",
			"AOWDatumAanvrager": `"2047-01-23"`, "AOWDatumPartner": `"2049-05-15"`,
			"aanvragerIsJongerDan18": "false", "aanvragerIs181920": "false", "aanvragerIsTenminste21": "true", "aanvragerHeeftAOWLeeftijd": "false",
			"partnerIsJongerDan18": "false", "partnerIs181920": "false", "partnerIsTenminste21": "true", "partnerHeeftAOWLeeftijd": "false"},
		{"bijstandsNorm": "1369.06", "toepasselijkeNorm": `"MK"`, "bijstandsnormTermijn": `"2e helft 2025"`},
		{"aanmerkingLocalPass": "true", "aanmerkingKindPakket": "true"},
	}
	for i, s := range res.Steps {
		if s.DMNID != c.Models[i].Identifier || s.DMNTitle != c.Models[i].Title {
			t.Errorf("step %d: %q %q", i, s.DMNID, s.DMNTitle)
		}
		for k, w := range wantOutputs[i] {
			if got := jsonText(t, s.Outputs[k]); got != w {
				t.Errorf("step %d %s = %s, want %s", i, k, got, w)
			}
		}
		if len(s.Outputs) != len(wantOutputs[i]) {
			t.Errorf("step %d: %d outputs, want %d: %v", i, len(s.Outputs), len(wantOutputs[i]), s.Outputs)
		}
		// inputs are exactly the variables the model declares
		if len(s.Inputs) != len(c.Models[i].Inputs) {
			t.Errorf("step %d: inputs %v, want the %d declared", i, s.Inputs, len(c.Models[i].Inputs))
		}
		for _, name := range c.Models[i].Inputs {
			if _, ok := s.Inputs[name]; !ok {
				t.Errorf("step %d lacks declared input %s", i, name)
			}
		}
		if s.ExecutionTime < 0 {
			t.Errorf("step %d: executionTime %v", i, s.ExecutionTime)
		}
	}
	if got := jsonText(t, res.Steps[2].Inputs["bijstandsNorm"]); got != "1369.06" {
		t.Errorf("step 3 got bijstandsNorm %s", got)
	}
	if got := jsonText(t, res.Steps[2].Inputs["maandelijksBrutoInkomenAanvrager"]); got != "1500" {
		t.Errorf("step 3 got income %s", got)
	}

	// Without includeIntermediateSteps there are no steps.
	res, err = c.Run(context.Background(), eng, vars, RunOptions{})
	if err != nil || res.Steps != nil {
		t.Errorf("steps without asking: %v %v", res.Steps, err)
	}
}

// TestLocalPassBoundaries is the boundary table of the local-pass chain.
func TestLocalPassBoundaries(t *testing.T) {
	c, eng := localPassChain(t), localPassEngine(t)
	tests := []struct {
		name    string
		changes map[string]any
		lp, kp  string // expected final outputs
		norm    string // expected bijstandsNorm ("" = not checked)
		errMsg  string // expected error message instead
	}{
		{name: "worked example", lp: "true", kp: "true", norm: "1369.06"},
		{name: "no partner at all", changes: map[string]any{"geboortedatumPartner": nil}, lp: "true", kp: "true", norm: "1369.06"},
		{name: "income 1505.96", changes: map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1505.96")}, lp: "true", kp: "true"},
		{name: "income 1505.966 (exactly 1.1 × norm)", changes: map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1505.966")}, lp: "true", kp: "true"},
		{name: "income 1505.967", changes: map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1505.967")}, lp: "false", kp: "true"},
		{name: "income 1506", changes: map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1506")}, lp: "false", kp: "true"},
		{name: "income 1642.87", changes: map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1642.87")}, lp: "false", kp: "true"},
		{name: "income 1642.88", changes: map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1642.88")}, lp: "false", kp: "false"},
		{name: "income 5000 with a food-bank pass", changes: map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("5000"), "aanvragerVoedselbankpasCity": true}, lp: "true", kp: "false"},
		{name: "already applied this year", changes: map[string]any{"aanvragerDitKalenderjaarAlAangevraagd": true}, lp: "false", kp: "true"},
		{name: "not an inhabitant", changes: map[string]any{"aanvragerInwonerMunicipality": false}, lp: "false", kp: "false"},
		{name: "2025-06-30", changes: map[string]any{"dagVanAanvraag": "2025-06-30"}, lp: "false", kp: "true", norm: "1345.45"},
		{name: "2025-07-01", changes: map[string]any{"dagVanAanvraag": "2025-07-01"}, lp: "true", kp: "true", norm: "1369.06"},
		{name: "2024-06-30", changes: map[string]any{"dagVanAanvraag": "2024-06-30"}, errMsg: "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)"},
		{name: "2026-01-01", changes: map[string]any{"dagVanAanvraag": "2026-01-01"}, errMsg: "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)"},
		{name: "2026-03-15", changes: map[string]any{"dagVanAanvraag": "2026-03-15"}, errMsg: "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)"},
		{name: "request year 2019", changes: map[string]any{"dagVanAanvraag": "2019-12-24"}, errMsg: "SVB_LeeftijdsInformatie: no rule matched (SVB_AOWLeeftijd)"},
		{name: "request year 2031", changes: map[string]any{"dagVanAanvraag": "2031-01-02"}, errMsg: "SVB_LeeftijdsInformatie: no rule matched (SVB_AOWLeeftijd)"},
		{name: "applicant aged 17", changes: map[string]any{"geboortedatumAanvrager": "2008-06-01"}, errMsg: "SZW_BijstandsnormInformatie: no rule matched (SZW_Huishoudtype)"},
		{name: "couple without a partner date", changes: map[string]any{"aanvragerAlleenstaand": false, "geboortedatumPartner": nil}, errMsg: "SZW_BijstandsnormInformatie: no rule matched (SZW_Huishoudtype)"},
		{name: "turns 21 on the request date", changes: map[string]any{"geboortedatumAanvrager": "2004-12-24"}, lp: "true", kp: "true", norm: "1369.06"},
		{name: "turns 21 the day after", changes: map[string]any{"geboortedatumAanvrager": "2004-12-25"}, lp: "false", kp: "false", norm: "337.98"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vars, err := c.Variables(with(workedExample(), tc.changes))
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Run(context.Background(), eng, vars, RunOptions{Steps: true})
			if tc.errMsg != "" {
				var se *StepError
				if !errors.As(err, &se) || err.Error() != tc.errMsg {
					t.Fatalf("error %v, want %q", err, tc.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonText(t, res.FinalOutputs["aanmerkingLocalPass"]); got != tc.lp {
				t.Errorf("aanmerkingLocalPass %s, want %s", got, tc.lp)
			}
			if got := jsonText(t, res.FinalOutputs["aanmerkingKindPakket"]); got != tc.kp {
				t.Errorf("aanmerkingKindPakket %s, want %s", got, tc.kp)
			}
			if tc.norm != "" {
				if got := jsonText(t, res.Steps[1].Outputs["bijstandsNorm"]); got != tc.norm {
					t.Errorf("bijstandsNorm %s, want %s", got, tc.norm)
				}
			}
		})
	}
}

func TestFixedChainVariables(t *testing.T) {
	c := localPassChain(t)
	_, err := c.Variables(with(workedExample(), map[string]any{
		"dagVanAanvraag": "24-12-2025", "geboortedatumAanvrager": "2025-02-30", "aanvragerAlleenstaand": "true",
		"maandelijksBrutoInkomenAanvrager": "1500", "geboortedatumPartner": json.Number("1982"),
	}))
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v", err)
	}
	want := "inputs.geboortedatumAanvrager must be a date string YYYY-MM-DD; inputs.geboortedatumPartner must be a date string YYYY-MM-DD; " +
		"inputs.dagVanAanvraag must be a date string YYYY-MM-DD; inputs.aanvragerAlleenstaand must be a boolean; " +
		"inputs.maandelijksBrutoInkomenAanvrager must be a number"
	if err.Error() != want {
		t.Errorf("message\n got %s\nwant %s", err, want)
	}
	vars, err := c.Variables(map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1505.96"), "unknown": 1, "geboortedatumPartner": nil})
	if err != nil {
		t.Fatal(err)
	}
	if len(vars) != 1 || !vars["maandelijksBrutoInkomenAanvrager"].Equal(engine.Variable{Type: engine.TypeDouble, Value: json.Number("1505.96")}) {
		t.Errorf("vars %v", vars)
	}
}
