package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestExportOnAnotherPort: on PORT 9123 the README's calls, with that port,
// work: the example graph's engine links point at this server (not at
// :8081) and resolve to its /engine-rest, and the export succeeds.
func TestExportOnAnotherPort(t *testing.T) {
	_, c := newTestApp(t, map[string]string{"PORT": "9123"})
	kg := "http://localhost:9123/v1/sparql"
	var svb struct {
		ImplementedBy string `json:"implementedBy"`
	}
	c.Get("/v1/dmns/SVB_LeeftijdsInformatie?endpoint="+url.QueryEscape(kg)).Data(t, http.StatusOK, &svb)
	const want = "http://localhost:9123/engine-rest/decision-definition/key/SVB_LeeftijdsInformatie/evaluate"
	if svb.ImplementedBy != want {
		t.Fatalf("implementedBy %q, want %q", svb.ImplementedBy, want)
	}
	// The link works: it is this server's engine.
	link, _ := url.Parse(svb.ImplementedBy)
	eval := c.Post(link.Path, `{"variables": {"dagVanAanvraag": {"value": "2025-12-24", "type": "String"},
		"geboortedatumAanvrager": {"value": "1980-01-23", "type": "String"}, "geboortedatumPartner": {"value": null, "type": "Null"}}}`)
	if eval.Status != http.StatusOK || !strings.Contains(string(eval.Body), `"aanvragerLeeftijd"`) {
		t.Fatalf("POST %s: %d %s", link.Path, eval.Status, eval.Body)
	}
	var exp struct {
		EntryPointID string `json:"entryPointId"`
	}
	c.Post("/v1/chains/export", map[string]any{
		"chain": []string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "RONL_LocalpassEindresultaat"},
		"name":  "Localpass", "endpoint": kg,
	}).Data(t, http.StatusOK, &exp)
	if exp.EntryPointID != "dmn2_RONL_LocalpassEindresultaat" {
		t.Errorf("export entry point %q", exp.EntryPointID)
	}
}
