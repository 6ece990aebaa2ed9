package chainapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// Register mounts the endpoints; here with the embedded engine holding the
// example local-pass models, and the local-pass chain executed once.
func Example() {
	ctx := context.Background()
	eng := local.New(local.Options{})
	if err := chainapi.DeployLocalPassExamples(ctx, eng); err != nil {
		panic(err)
	}
	localPass, err := chainapi.LocalPassFromExamples()
	if err != nil {
		panic(err)
	}
	store := memstore.New() // the knowledge graph; the local-pass chain does not need it
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	chainapi.Register(r, chainapi.Deps{
		Resolve:   func(context.Context, string) (sparql.Endpoint, error) { return store, nil },
		Engine:    eng,
		LocalPass: localPass,
	})

	req := httptest.NewRequest("POST", "/v1/chains/execute/localpass", strings.NewReader(`{"inputs": {
		"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "aanvragerAlleenstaand": true,
		"aanvragerHeeftKinderen": true, "aanvragerHeeftKind4Tm17": true, "aanvragerInwonerMunicipality": true,
		"maandelijksBrutoInkomenAanvrager": 1500, "aanvragerUitkeringBaanbrekers": false,
		"aanvragerVoedselbankpasCity": false, "aanvragerKwijtscheldingGemeentelijkeBelastingen": false,
		"aanvragerSchuldhulptrajectCreditBank": false, "aanvragerDitKalenderjaarAlAangevraagd": false,
		"aanvragerAanmerkingStudieFinanciering": false}}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	var env struct {
		Data struct {
			ChainID      string          `json:"chainId"`
			FinalOutputs json.RawMessage `json:"finalOutputs"`
		}
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &env)
	fmt.Println(rec.Code, env.Data.ChainID)
	fmt.Println(string(env.Data.FinalOutputs))
	// Output:
	// 200 SVB_LeeftijdsInformatie->SZW_BijstandsnormInformatie->RONL_LocalpassEindresultaat
	// {"aanmerkingKindPakket":true,"aanmerkingLocalPass":true}
}
