package chainapi_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/operaton"
	"github.com/regelkit/regelkit/engine/rest"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
)

// TestRemoteEngine runs the chains against an Operaton-compatible engine
// over HTTP: the embedded engine behind engine/rest, reached with the
// engine/operaton client, as a remote Operaton would be.
func TestRemoteEngine(t *testing.T) {
	srv := httptest.NewServer(rest.NewHandler(local.New(local.Options{}), rest.Options{}))
	defer srv.Close()
	client, err := operaton.New(operaton.Config{BaseURL: srv.URL + "/engine-rest"})
	if err != nil {
		t.Fatal(err)
	}
	if err := chainapi.DeployLocalPassExamples(context.Background(), client); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, client)

	d := obj(t, data(t, e.c.Post("/v1/chains/execute/localpass", map[string]any{"inputs": workedExample(),
		"options": map[string]any{"includeIntermediateSteps": true}}), 200))
	if got := jsonOf(t, d["finalOutputs"]); got != `{"aanmerkingKindPakket":true,"aanmerkingLocalPass":true}` {
		t.Errorf("finalOutputs %s", got)
	}
	if got := jsonOf(t, obj(t, obj(t, arr(t, d["steps"])[1])["outputs"])["bijstandsNorm"]); got != "1369.06" {
		t.Errorf("bijstandsNorm over HTTP: %s", got)
	}
	msg := e.c.Post("/v1/chains/execute/localpass", map[string]any{"inputs": with(workedExample(), map[string]any{"dagVanAanvraag": "2026-01-01"})}).
		ExpectError(t, 500, "EXECUTION_ERROR")
	t.Logf("2026 over HTTP: %s", msg)
	if !strings.HasPrefix(msg, "SZW_BijstandsnormInformatie: engine returned 500 ") || !strings.Contains(msg, "no rule matched (SZW_Bijstandsnormtermijn)") {
		t.Errorf("2026 over HTTP: %q", msg)
	}

	body := map[string]any{"chain": localPassChain, "inputs": workedExample(), "endpoint": kgURL}
	if got := jsonOf(t, obj(t, obj(t, data(t, e.c.Post("/v1/chains/execute", body), 200))["results"])["aanmerkingLocalPass"]); got != "true" {
		t.Errorf("sequential chain over HTTP: %s", got)
	}

	exp := obj(t, data(t, e.c.Post("/v1/chains/export", map[string]any{"chain": localPassChain, "name": "Localpass DRD", "endpoint": kgURL}), 200))
	if exp["entryPointId"] != "dmn2_RONL_LocalpassEindresultaat" {
		t.Fatalf("entry point %v", exp["entryPointId"])
	}
	for _, income := range []string{"1505.96", "1506"} {
		inputs := with(workedExample(), map[string]any{"maandelijksBrutoInkomenAanvrager": jsonNumber(income)})
		seq := obj(t, data(t, e.c.Post("/v1/chains/execute/localpass", map[string]any{"inputs": inputs}), 200))
		drd := obj(t, data(t, e.c.Post("/v1/chains/execute", map[string]any{"chain": []string{"dmn2_RONL_LocalpassEindresultaat"},
			"isDrd": true, "inputs": inputs, "endpoint": kgURL}), 200))
		if a, b := jsonOf(t, seq["finalOutputs"]), jsonOf(t, drd["results"]); a != b {
			t.Errorf("income %s: chain %s, DRD %s", income, a, b)
		}
	}
	resp := e.c.Get("/v1/dmns/RONL_LocalpassEindresultaat/xml")
	resp.ExpectStatus(t, 200)
	if !strings.Contains(string(resp.Body), `<decision id="RONL_LocalpassEindresultaat"`) {
		t.Errorf("xml over HTTP: %.200s", resp.Body)
	}
	e.c.Get("/v1/dmns/Nope/xml").ExpectError(t, 404, "NOT_FOUND")
}
