package server

import (
	"net"
	"net/url"
	"strings"
	"testing"
)

// TestNoInternalCausesOutsideDevelopment drives every 5xx path the
// explorer has towards unreachable dependencies in production mode and
// requires bodies without addresses or driver messages; development shows
// the cause.
func TestNoInternalCausesOutsideDevelopment(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	endpoint := "http://" + dead + "/sparql"
	leaks := []string{dead, "127.0.0.1", "connection refused", "dial tcp"}
	settings := map[string]string{
		"SPARQL_ENDPOINT": endpoint, "EMBEDDED_STORE": "false", "SPARQL_TIMEOUT": "2s",
		"OPERATON_BASE_URL": "http://" + dead + "/engine-rest", "OPERATON_TIMEOUT": "2s",
	}
	for _, env := range []string{"production", "acceptance", "development"} {
		settings["ENVIRONMENT"] = env
		_, c := newTestApp(t, settings)
		q := "?endpoint=" + url.QueryEscape(endpoint)
		type call struct{ method, path, body string }
		calls := []call{
			{"GET", "/v1/health", ""},
			{"GET", "/v1/dmns" + q, ""},
			{"GET", "/v1/dmns/x" + q, ""},
			{"GET", "/v1/dmns/enhanced-chain-links" + q, ""},
			{"GET", "/v1/dmns/semantic-equivalences" + q, ""},
			{"GET", "/v1/dmns/cycles" + q, ""},
			{"GET", "/v1/chains" + q, ""},
			{"GET", "/v1/norms", ""},
			{"POST", "/v1/graphdb/query", `{"endpoint":"` + endpoint + `","query":"SELECT * WHERE { ?s ?p ?o }"}`},
			{"POST", "/v1/shacl/validate-merged", `{"content":"<https://x.example/a> a <https://x.example/B> ."}`},
			{"POST", "/v1/chains/execute/localpass", `{"inputs":{"dagVanAanvraag":"2025-12-24","geboortedatumAanvrager":"1980-01-23","aanvragerAlleenstaand":true,"aanvragerHeeftKinderen":false,"aanvragerHeeftKind4Tm17":false,"aanvragerInwonerMunicipality":true,"maandelijksBrutoInkomenAanvrager":1500,"aanvragerUitkeringBaanbrekers":false,"aanvragerVoedselbankpasCity":false,"aanvragerKwijtscheldingGemeentelijkeBelastingen":false,"aanvragerSchuldhulptrajectCreditBank":false,"aanvragerDitKalenderjaarAlAangevraagd":false,"aanvragerAanmerkingStudieFinanciering":false}}`},
		}
		for _, cl := range calls {
			var body any
			if cl.body != "" {
				body = cl.body
			}
			resp := c.Do(cl.method, cl.path, body)
			if resp.Status < 500 {
				t.Errorf("%s: %s %s answered %d, want a 5xx: %s", env, cl.method, cl.path, resp.Status, resp.Body)
				continue
			}
			leaked := ""
			for _, l := range leaks {
				if strings.Contains(string(resp.Body), l) {
					leaked = l
				}
			}
			if env != "development" && leaked != "" {
				t.Errorf("%s: %s %s (%d) leaks %q: %s", env, cl.method, cl.path, resp.Status, leaked, resp.Body)
			}
			if env == "development" && leaked == "" && resp.Status != 503 {
				t.Errorf("development: %s %s (%d) hides the cause: %s", cl.method, cl.path, resp.Status, resp.Body)
			}
		}
	}
}
