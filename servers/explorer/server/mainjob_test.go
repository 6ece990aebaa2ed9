package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestMainJobOnEmbeddedDefaults runs the explorer's main job the way the
// README shows it: everything on the embedded knowledge graph and engine.
func TestMainJobOnEmbeddedDefaults(t *testing.T) {
	_, c := newTestApp(t, nil)
	ep := "endpoint=" + url.QueryEscape("http://localhost:8081/v1/sparql")

	var listing struct {
		DMNs []struct {
			Identifier string `json:"identifier"`
		} `json:"dmns"`
		Endpoint string `json:"endpoint"`
		Cached   bool   `json:"cached"`
	}
	c.Get("/v1/dmns?"+ep).Data(t, http.StatusOK, &listing)
	if len(listing.DMNs) != 8 || listing.Cached || listing.Endpoint != "http://localhost:8081/v1/sparql" {
		t.Fatalf("listing: %d models, cached %v, endpoint %q", len(listing.DMNs), listing.Cached, listing.Endpoint)
	}
	legacy := c.Get("/api/dmns?" + ep)
	legacy.Data(t, http.StatusOK, &listing)
	if !listing.Cached || legacy.Header.Get("Deprecation") != "true" {
		t.Errorf("second listing through the legacy alias: cached %v, Deprecation %q", listing.Cached, legacy.Header.Get("Deprecation"))
	}
	c.Get("/v1/dmns").ExpectError(t, http.StatusBadRequest, "INVALID_REQUEST")
	c.Get("/v1/dmns/NOPE?"+ep).ExpectError(t, http.StatusNotFound, "NOT_FOUND")

	var pairs []struct {
		MatchType string `json:"matchType"`
	}
	c.Get("/v1/dmns/enhanced-chain-links?"+ep).Data(t, http.StatusOK, &pairs)
	if len(pairs) != 17 {
		t.Errorf("connectable pairs over the example graph: %d, want 17", len(pairs))
	}
	var cycles []any
	c.Get("/v1/dmns/cycles?"+ep).Data(t, http.StatusOK, &cycles)
	if len(cycles) != 3 {
		t.Errorf("cycles: %d, want 3 (one cycle, three rotations)", len(cycles))
	}

	body := `{"inputs": {
		"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": null,
		"aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true, "aanvragerHeeftKind4Tm17": true,
		"aanvragerInwonerMunicipality": true, "maandelijksBrutoInkomenAanvrager": 1500,
		"aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
		"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
		"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false},
		"options": {"includeIntermediateSteps": true}}`
	var lp struct {
		Success      bool            `json:"success"`
		ChainID      string          `json:"chainId"`
		FinalOutputs map[string]bool `json:"finalOutputs"`
		Steps        []struct {
			DMNID   string         `json:"dmnId"`
			Outputs map[string]any `json:"outputs"`
		} `json:"steps"`
	}
	c.Post("/v1/chains/execute/localpass", body).Data(t, http.StatusOK, &lp)
	if lp.ChainID != "SVB_LeeftijdsInformatie->SZW_BijstandsnormInformatie->RONL_LocalpassEindresultaat" ||
		!lp.FinalOutputs["aanmerkingLocalPass"] || !lp.FinalOutputs["aanmerkingKindPakket"] || len(lp.FinalOutputs) != 2 {
		t.Fatalf("local pass: %+v", lp)
	}
	if len(lp.Steps) != 3 || lp.Steps[1].Outputs["bijstandsNorm"] != 1369.06 || lp.Steps[1].Outputs["toepasselijkeNorm"] != "MK" {
		t.Errorf("steps: %+v", lp.Steps)
	}
	msg := c.Post("/v1/chains/execute/localpass", strings.Replace(body, "2025-12-24", "2026-01-01", 1)).
		ExpectError(t, http.StatusInternalServerError, "EXECUTION_ERROR")
	if !strings.Contains(msg, "SZW_BijstandsnormInformatie") || !strings.Contains(msg, "no rule matched") {
		t.Errorf("2026 date: %q must name the norm model and that no rule matched", msg)
	}

	// Export the chain as one DRD, then run it from its entry point.
	var exp struct {
		DeploymentID string `json:"deploymentId"`
		EntryPointID string `json:"entryPointId"`
		XML          string `json:"xml"`
	}
	c.Post("/v1/chains/export", map[string]any{
		"chain": []string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "RONL_LocalpassEindresultaat"},
		"name":  "Localpass DRD", "endpoint": "/v1/sparql",
	}).Data(t, http.StatusOK, &exp)
	if exp.EntryPointID != "dmn2_RONL_LocalpassEindresultaat" || exp.DeploymentID == "" || !strings.Contains(exp.XML, `requiredDecision href="#dmn1_SZW_BijstandsnormInformatie"`) {
		t.Fatalf("export: %+v", exp.EntryPointID)
	}
	var drd struct {
		Results map[string]any `json:"results"`
	}
	inputs := body[strings.Index(body, "{\"inputs\": ")+len("{\"inputs\": ") : strings.Index(body, ",\n\t\t\"options\"")]
	c.Post("/v1/chains/execute", `{"chain": ["dmn2_RONL_LocalpassEindresultaat"], "isDrd": true, "endpoint": "/v1/sparql", "inputs": `+inputs+`}`).
		Data(t, http.StatusOK, &drd)
	if drd.Results["aanmerkingLocalPass"] != true || drd.Results["aanmerkingKindPakket"] != true {
		t.Errorf("DRD execution: %+v", drd.Results)
	}
}
