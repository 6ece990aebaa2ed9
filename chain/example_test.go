package chain_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/chain"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// Run the local-pass chain on the embedded engine, then list the models
// the example knowledge graph publishes and the pairs that connect them.
func Example() {
	ctx := context.Background()
	eng := local.New(local.Options{})
	var files [][]byte
	var resources []engine.Resource
	for _, m := range examples.LocalPass {
		data, _ := examples.FS.ReadFile(m.Path)
		files = append(files, data)
		resources = append(resources, engine.Resource{Name: m.Identifier + ".dmn", Data: data})
	}
	if _, err := eng.Deploy(ctx, engine.NewDeployment{Name: "localpass", Resources: resources}); err != nil {
		panic(err)
	}
	localPass, err := chain.NewLocalPass(files...)
	if err != nil {
		panic(err)
	}
	vars, err := localPass.Variables(map[string]any{
		"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23",
		"aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true, "aanvragerHeeftKind4Tm17": true,
		"aanvragerInwonerMunicipality": true, "maandelijksBrutoInkomenAanvrager": json.Number("1506"),
		"aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
		"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
		"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false,
	})
	if err != nil {
		panic(err)
	}
	res, err := localPass.Run(ctx, eng, vars, chain.RunOptions{Steps: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.ChainID)
	fmt.Println("norm:", res.Steps[1].Outputs["bijstandsNorm"], "local pass:", res.FinalOutputs["aanmerkingLocalPass"],
		"child package:", res.FinalOutputs["aanmerkingKindPakket"])

	kg := memstore.New()
	for _, f := range []string{"knowledge-graph/organisations.ttl", "knowledge-graph/localpass.ttl"} {
		data, _ := examples.FS.ReadFile(f)
		if err := kg.Load(ctx, strings.NewReader(string(data)), graph.Turtle); err != nil {
			panic(err)
		}
	}
	models, _ := chain.ListModels(ctx, kg, chain.ListOptions{})
	pairs, _ := chain.ConnectablePairs(ctx, kg)
	fmt.Println(len(models), "models,", len(pairs), "connectable pairs")
	// Output:
	// SVB_LeeftijdsInformatie->SZW_BijstandsnormInformatie->RONL_LocalpassEindresultaat
	// norm: 1369.06 local pass: false child package: true
	// 3 models, 10 connectable pairs
}
