package server

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/brp"
)

// TestBRPLookupLogsNoNumber runs lookups (success, unknown person,
// validation failure, bad token) on the embedded register with the audit
// log in the application log, and checks that no citizen number of the
// request or the answer reaches the log.
func TestBRPLookupLogsNoNumber(t *testing.T) {
	ta := newTestApp(t, nil)
	tok := ta.token(t, caseworker("heusden"))
	ok := `{"type": "RaadpleegMetBurgerservicenummer", "burgerservicenummer": ["999992235"], "fields": ["burgerservicenummer", "naam", "partners", "kinderen"]}`
	resp := ta.c.Post("/v1/brp/personen?bsn=999992235", ok, bearer(tok)...)
	resp.Data(t, 200, nil)
	for _, n := range []string{"999991450", "999991231", "999994554", "999991954"} {
		if !strings.Contains(string(resp.Body), n) {
			t.Fatalf("answer lacks related person %s: %s", n, resp.Body)
		}
	}
	expectProblem(t, ta.c.Post("/v1/brp/personen", strings.Replace(ok, "999992235", "999990019", 1), bearer(tok)...),
		404, "BRP_API_ERROR", "/v1/brp/personen")
	expectProblem(t, ta.c.Post("/v1/brp/personen", `{"type": "RaadpleegMetBurgerservicenummer", "burgerservicenummer": ["12345678"], "fields": ["naam"]}`, bearer(tok)...),
		400, "VALIDATION_ERROR", "/v1/brp/personen")
	expectProblem(t, ta.c.Post("/v1/brp/personen", `{bad`, bearer(tok)...), 400, "MALFORMED_BODY", "/v1/brp/personen")
	expectProblem(t, ta.c.Post("/v1/brp/personen", ok, "Authorization", "Bearer x.y.z"), 401, "INVALID_TOKEN", "/v1/brp/personen")
	ta.Close() // drains the audit queue into the log
	logs := ta.logs.String()
	for _, n := range []string{"999992235", "999991450", "999991231", "999994554", "999991954", "999990019", "12345678", "Kooyman"} {
		if strings.Contains(logs, n) {
			t.Errorf("the log holds %q:\n%s", n, logs)
		}
	}
	if !strings.Contains(logs, "brp.personen.fetch") {
		t.Errorf("the audit sink (no database) should log the action name:\n%s", logs)
	}
}

// TestBRPUpstream: with BRP_UPSTREAM_URL the lookup goes to that register
// over HTTP.
func TestBRPUpstream(t *testing.T) {
	upstream := httptest.NewServer(&brp.Register{})
	defer upstream.Close()
	ta := newTestApp(t, map[string]string{"BRP_UPSTREAM_URL": upstream.URL + "/haalcentraal/api/brp"})
	tok := ta.token(t, caseworker("heusden"))
	var data struct {
		Personen []struct {
			Naam struct {
				Geslachtsnaam string `json:"geslachtsnaam"`
			} `json:"naam"`
		} `json:"personen"`
	}
	ta.c.Post("/v1/brp/personen", `{"type": "RaadpleegMetBurgerservicenummer", "burgerservicenummer": ["999991450"], "fields": ["naam"]}`,
		bearer(tok)...).Data(t, 200, &data)
	if len(data.Personen) != 1 || data.Personen[0].Naam.Geslachtsnaam != "Altena" {
		t.Errorf("upstream answer: %+v", data)
	}
}
