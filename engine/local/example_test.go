package local_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/examples"
)

// Deploy the example social-assistance norm model and evaluate it by key,
// as Operaton would: the top decision passes through the outputs of its
// three required decisions.
func ExampleEngine_Evaluate() {
	ctx := context.Background()
	e := local.New(local.Options{})
	xml, _ := examples.FS.ReadFile("models/localpass/SZW_BijstandsnormInformatie.dmn")
	if _, err := e.Deploy(ctx, engine.NewDeployment{Name: "norms",
		Resources: []engine.Resource{{Name: "SZW_BijstandsnormInformatie.dmn", Data: xml}}}); err != nil {
		fmt.Println(err)
		return
	}
	vars := engine.Variables{}
	for k, v := range map[string]any{"dagVanAanvraag": "2025-12-24", "aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true,
		"aanvragerIs181920": false, "aanvragerIsTenminste21": true, "aanvragerHeeftAOWLeeftijd": false,
		"partnerIs181920": false, "partnerIsTenminste21": true, "partnerHeeftAOWLeeftijd": false} {
		vars[k], _ = engine.Infer(v)
	}
	rows, err := e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rows[0]["toepasselijkeNorm"], rows[0]["bijstandsNorm"], rows[0]["bijstandsnormTermijn"])

	// a date outside every period: the period table matches no rule, and
	// the norm table that needs its output fails
	vars["dagVanAanvraag"] = engine.String("2026-01-01")
	_, err = e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
	var ee *engine.EvaluationError
	if errors.As(err, &ee) {
		fmt.Printf("%s: no rule matched (%s)\n", ee.DecisionKey, ee.NoRuleMatched)
	}
	// Output:
	// String("MK") Double(1369.06) String("2e helft 2025")
	// SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)
}

// Variables convert to FEEL values without losing digits, and results
// convert back.
func ExampleFEEL() {
	vs, _ := engine.ParseVariables([]byte(`{"amount": {"value": 12345678901234567890.12, "type": "Double"}}`))
	x, _ := local.FEEL(vs["amount"])
	fmt.Println(x)
	v, _ := local.FromFEEL(x)
	fmt.Println(v)
	// Output:
	// 12345678901234567890.12
	// Double(12345678901234567890.12)
}
