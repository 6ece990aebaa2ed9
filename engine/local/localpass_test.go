package local

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
	"github.com/regelkit/regelkit/examples"
)

// deployLocalPass deploys the three local-pass models of the examples
// package in one deployment, as the explorer does at start-up.
func deployLocalPass(t testing.TB, e *Engine) engine.Deployment {
	t.Helper()
	rs, err := enginetest.LocalPass()
	if err != nil {
		t.Fatal(err)
	}
	dep, err := e.Deploy(context.Background(), engine.NewDeployment{Name: "localpass", Resources: rs})
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return dep
}

func variables(t testing.TB, plain map[string]any) engine.Variables {
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

func integer(i int32) engine.Variable { return engine.Integer(i) }

func double(s string) engine.Variable {
	v, err := engine.Number(engineNumber(s))
	if err != nil {
		panic(err)
	}
	v.Type = engine.TypeDouble
	return v
}

// the worked example of the local-pass chain
func step1Inputs() map[string]any {
	return map[string]any{"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": "1982-05-15"}
}

func step2Inputs() map[string]any {
	return map[string]any{"dagVanAanvraag": "2025-12-24", "aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true,
		"aanvragerIs181920": false, "aanvragerIsTenminste21": true, "aanvragerHeeftAOWLeeftijd": false,
		"partnerIs181920": false, "partnerIsTenminste21": true, "partnerHeeftAOWLeeftijd": false}
}

func step3Inputs() map[string]any {
	return map[string]any{"aanvragerInwonerMunicipality": true, "aanvragerHeeftKind4Tm17": true,
		"maandelijksBrutoInkomenAanvrager": 1500, "bijstandsNorm": engineNumber("1369.06"),
		"aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
		"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
		"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false,
		"aanvragerIs181920": false, "aanvragerIsTenminste21": true, "aanvragerHeeftAOWLeeftijd": false}
}

func with(base map[string]any, changes map[string]any) map[string]any {
	out := maps.Clone(base)
	maps.Copy(out, changes)
	return out
}

func checkRow(t *testing.T, got engine.Result, want map[string]engine.Variable) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("got %d rows, want 1: %v", len(got), got)
	}
	for k, w := range want {
		g, ok := got[0][k]
		if !ok {
			t.Errorf("%s missing from the result", k)
			continue
		}
		if !g.Equal(w) {
			t.Errorf("%s = %v, want %v", k, g, w)
		}
	}
}

func TestLocalPassStep1(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx := context.Background()
	F, T := engine.Boolean(false), engine.Boolean(true)
	tests := []struct {
		name   string
		inputs map[string]any
		want   map[string]engine.Variable
	}{
		{"worked example", step1Inputs(), map[string]engine.Variable{
			"aanvragerLeeftijd": integer(45), "partnerLeeftijd": integer(43),
			"AOWDatumAanvrager": engine.String("2047-01-23"), "AOWDatumPartner": engine.String("2049-05-15"),
			"aanvragerIs18": T, "aanvragerIs65": F, "aanvragerIsJongerDan18": F, "aanvragerIs181920": F,
			"aanvragerIsTenminste21": T, "aanvragerHeeftAOWLeeftijd": F,
			"partnerIsJongerDan18": F, "partnerIs181920": F, "partnerIsTenminste21": T, "partnerHeeftAOWLeeftijd": F}},
		{"no partner", with(step1Inputs(), map[string]any{"geboortedatumPartner": nil}), map[string]engine.Variable{
			"aanvragerLeeftijd": integer(45), "partnerLeeftijd": engine.Null(), "AOWDatumPartner": engine.Null(),
			"partnerIsJongerDan18": F, "partnerIs181920": F, "partnerIsTenminste21": F, "partnerHeeftAOWLeeftijd": F}},
		{"turns 21 on the request date", with(step1Inputs(), map[string]any{"geboortedatumAanvrager": "2004-12-24"}), map[string]engine.Variable{
			"aanvragerLeeftijd": integer(21), "aanvragerIs181920": F, "aanvragerIsTenminste21": T}},
		{"a day short of 21", with(step1Inputs(), map[string]any{"geboortedatumAanvrager": "2004-12-25"}), map[string]engine.Variable{
			"aanvragerLeeftijd": integer(20), "aanvragerIs181920": T, "aanvragerIsTenminste21": F, "aanvragerIs18": T}},
		{"born on 29 February", map[string]any{"dagVanAanvraag": "2022-02-28", "geboortedatumAanvrager": "2004-02-29", "geboortedatumPartner": nil},
			map[string]engine.Variable{"aanvragerLeeftijd": integer(17), "aanvragerIsJongerDan18": T, "aanvragerIs18": F}},
		{"AOW date clamps to the month's end", map[string]any{"dagVanAanvraag": "2027-03-01", "geboortedatumAanvrager": "1961-11-30", "geboortedatumPartner": nil},
			map[string]engine.Variable{"AOWDatumAanvrager": engine.String("2029-02-28"), "aanvragerLeeftijd": integer(65), "aanvragerIs65": T}},
		{"AOW age reached", map[string]any{"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1958-12-24", "geboortedatumPartner": nil},
			map[string]engine.Variable{"AOWDatumAanvrager": engine.String("2025-12-24"), "aanvragerHeeftAOWLeeftijd": T, "aanvragerLeeftijd": integer(67)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.Evaluate(ctx, "SVB_LeeftijdsInformatie", "", variables(t, tc.inputs))
			if err != nil {
				t.Fatal(err)
			}
			checkRow(t, got, tc.want)
			if len(got[0]) != 14 {
				t.Errorf("got %d outputs, want the 14 of the top decision", len(got[0]))
			}
		})
	}
}

func TestLocalPassStep2(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx := context.Background()
	tests := []struct {
		name   string
		inputs map[string]any
		want   map[string]engine.Variable
	}{
		{"worked example", step2Inputs(), map[string]engine.Variable{"toepasselijkeNorm": engine.String("MK"),
			"bijstandsNorm": double("1369.06"), "bijstandsnormTermijn": engine.String("2e helft 2025")}},
		{"last day of the first half", with(step2Inputs(), map[string]any{"dagVanAanvraag": "2025-06-30"}), map[string]engine.Variable{
			"bijstandsNorm": double("1345.45"), "bijstandsnormTermijn": engine.String("1e helft 2025")}},
		{"first day of the second half", with(step2Inputs(), map[string]any{"dagVanAanvraag": "2025-07-01"}), map[string]engine.Variable{
			"bijstandsNorm": double("1369.06"), "bijstandsnormTermijn": engine.String("2e helft 2025")}},
		{"couple with children, both 21+", with(step2Inputs(), map[string]any{"aanvragerAlleenstaand": false}), map[string]engine.Variable{
			"toepasselijkeNorm": engine.String("MMK"), "bijstandsNorm": double("1955.80")}},
		{"single 18-20 without children, 2024", with(step2Inputs(), map[string]any{"dagVanAanvraag": "2024-07-01", "aanvragerHeeftKinderen": false,
			"aanvragerIs181920": true, "aanvragerIsTenminste21": false}), map[string]engine.Variable{
			"toepasselijkeNorm": engine.String("J"), "bijstandsNorm": double("323.03"), "bijstandsnormTermijn": engine.String("2e helft 2024")}},
		{"AOW couple", with(step2Inputs(), map[string]any{"aanvragerAlleenstaand": false, "aanvragerHeeftKinderen": false,
			"aanvragerHeeftAOWLeeftijd": true, "partnerHeeftAOWLeeftijd": true}), map[string]engine.Variable{
			"toepasselijkeNorm": engine.String("OO"), "bijstandsNorm": double("2094.98")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", variables(t, tc.inputs))
			if err != nil {
				t.Fatal(err)
			}
			checkRow(t, got, tc.want)
		})
	}
}

func TestLocalPassStep3(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx := context.Background()
	tests := []struct {
		name          string
		changes       map[string]any
		local, kindPk bool
	}{
		{"worked example", nil, true, true},
		{"income 1505.96", map[string]any{"maandelijksBrutoInkomenAanvrager": engineNumber("1505.96")}, true, true},
		{"income 1506", map[string]any{"maandelijksBrutoInkomenAanvrager": 1506}, false, true},
		{"income 1642.87", map[string]any{"maandelijksBrutoInkomenAanvrager": engineNumber("1642.87")}, false, true},
		{"income 1642.88", map[string]any{"maandelijksBrutoInkomenAanvrager": engineNumber("1642.88")}, false, false},
		{"income 5000 with a food-bank pass", map[string]any{"maandelijksBrutoInkomenAanvrager": 5000, "aanvragerVoedselbankpasCity": true}, true, false},
		{"already applied this year", map[string]any{"aanvragerDitKalenderjaarAlAangevraagd": true}, false, true},
		{"not an inhabitant", map[string]any{"aanvragerInwonerMunicipality": false}, false, false},
		// two knock-off rules match (ANY, equal outputs): one row, as in Operaton
		{"not an inhabitant and already applied", map[string]any{"aanvragerInwonerMunicipality": false, "aanvragerDitKalenderjaarAlAangevraagd": true}, false, false},
		{"two automatic grounds", map[string]any{"maandelijksBrutoInkomenAanvrager": 5000, "aanvragerVoedselbankpasCity": true, "aanvragerUitkeringBaanbrekers": true}, true, false},
		{"norm of the first half of 2025 (1500 > 1479.995)", map[string]any{"bijstandsNorm": engineNumber("1345.45")}, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.Evaluate(ctx, "RONL_LocalpassEindresultaat", "", variables(t, with(step3Inputs(), tc.changes)))
			if err != nil {
				t.Fatal(err)
			}
			checkRow(t, got, map[string]engine.Variable{"aanmerkingLocalPass": engine.Boolean(tc.local), "aanmerkingKindPakket": engine.Boolean(tc.kindPk)})
			if len(got[0]) != 2 {
				t.Errorf("got outputs %v, want exactly the two final ones", got[0])
			}
		})
	}
}

// TestLocalPassChain runs the three steps as the explorer does: each step's
// outputs are added to the variables of the next.
func TestLocalPassChain(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx := context.Background()
	acc := with(with(step1Inputs(), step2Inputs()), map[string]any{"aanvragerInwonerMunicipality": true, "aanvragerHeeftKind4Tm17": true,
		"maandelijksBrutoInkomenAanvrager": 1500, "aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
		"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
		"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false})
	vars := variables(t, acc)
	for _, step := range examples.LocalPass {
		res, err := e.Evaluate(ctx, step.Identifier, "", vars)
		if err != nil {
			t.Fatalf("%s: %v", step.Identifier, err)
		}
		if len(res) != 1 {
			t.Fatalf("%s: %d rows", step.Identifier, len(res))
		}
		maps.Copy(vars, res[0])
	}
	for k, want := range map[string]engine.Variable{"aanvragerLeeftijd": integer(45), "toepasselijkeNorm": engine.String("MK"),
		"bijstandsNorm": double("1369.06"), "aanmerkingLocalPass": engine.Boolean(true), "aanmerkingKindPakket": engine.Boolean(true)} {
		if !vars[k].Equal(want) {
			t.Errorf("%s = %v, want %v", k, vars[k], want)
		}
	}
}

func TestLocalPassNoRuleMatched(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx := context.Background()
	tests := []struct {
		name, key string
		inputs    map[string]any
		failing   string // decision that needed the missing variable
		noRule    string // decision that matched no rule
		message   string // prefix of the error text
	}{
		{"request on 2026-01-01", "SZW_BijstandsnormInformatie", with(step2Inputs(), map[string]any{"dagVanAanvraag": "2026-01-01"}),
			"SZW_Bijstandsnorm", "SZW_Bijstandsnormtermijn", "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)"},
		{"request on 2024-06-30", "SZW_BijstandsnormInformatie", with(step2Inputs(), map[string]any{"dagVanAanvraag": "2024-06-30"}),
			"SZW_Bijstandsnorm", "SZW_Bijstandsnormtermijn", "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)"},
		{"applicant aged 17", "SZW_BijstandsnormInformatie", with(step2Inputs(), map[string]any{"aanvragerIsTenminste21": false}),
			"SZW_Bijstandsnorm", "SZW_Huishoudtype", "SZW_BijstandsnormInformatie: no rule matched (SZW_Huishoudtype)"},
		{"couple without partner date", "SZW_BijstandsnormInformatie", with(step2Inputs(), map[string]any{"aanvragerAlleenstaand": false,
			"partnerIsTenminste21": false}), "SZW_Bijstandsnorm", "SZW_Huishoudtype", "SZW_BijstandsnormInformatie: no rule matched (SZW_Huishoudtype)"},
		{"request year 2019", "SVB_LeeftijdsInformatie", with(step1Inputs(), map[string]any{"dagVanAanvraag": "2019-05-01"}),
			"SVB_Leeftijden", "SVB_AOWLeeftijd", "SVB_LeeftijdsInformatie: no rule matched (SVB_AOWLeeftijd)"},
		{"request year 2031", "SVB_LeeftijdsInformatie", with(step1Inputs(), map[string]any{"dagVanAanvraag": "2031-01-02"}),
			"SVB_Leeftijden", "SVB_AOWLeeftijd", "SVB_LeeftijdsInformatie: no rule matched (SVB_AOWLeeftijd)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Evaluate(ctx, tc.key, "", variables(t, tc.inputs))
			var ee *engine.EvaluationError
			if !errors.As(err, &ee) {
				t.Fatalf("got %v, %v; want an *engine.EvaluationError", res, err)
			}
			if ee.DecisionKey != tc.key || ee.DecisionID != tc.failing || ee.NoRuleMatched != tc.noRule {
				t.Errorf("got key %q, failing %q, no rule matched %q; want %q, %q, %q", ee.DecisionKey, ee.DecisionID, ee.NoRuleMatched, tc.key, tc.failing, tc.noRule)
			}
			if !strings.HasPrefix(err.Error(), tc.message) {
				t.Errorf("message %q does not start with %q", err.Error(), tc.message)
			}
		})
	}
}

// TestLocalPassTableNoMatch evaluates a single table of the DRD by key:
// with no rule matching, Operaton returns an empty result list, no error.
func TestLocalPassTableNoMatch(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	res, err := e.Evaluate(context.Background(), "SZW_Bijstandsnormtermijn", "", variables(t, map[string]any{"dagVanAanvraag": "2026-01-01"}))
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoRuleMatched() || len(res.Values()) != 0 {
		t.Errorf("got %v, want no rows", res)
	}
}

func engineNumber(s string) json.Number { return json.Number(s) }

// TestLocalPassChainCoupleWithoutPartner: a couple without a partner's
// birth date stops at step 2.
func TestLocalPassChainCoupleWithoutPartner(t *testing.T) {
	e := New(Options{})
	deployLocalPass(t, e)
	ctx := context.Background()
	vars := variables(t, with(step1Inputs(), map[string]any{"geboortedatumPartner": nil, "aanvragerAlleenstaand": false, "aanvragerHeeftKinderen": false}))
	res, err := e.Evaluate(ctx, "SVB_LeeftijdsInformatie", "", vars)
	if err != nil {
		t.Fatal(err)
	}
	maps.Copy(vars, res[0])
	_, err = e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
	var ee *engine.EvaluationError
	if !errors.As(err, &ee) || ee.NoRuleMatched != "SZW_Huishoudtype" {
		t.Errorf("got %v, want no rule matched in SZW_Huishoudtype", err)
	}
}
