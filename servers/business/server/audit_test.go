package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/internal/auth"
)

type auditItem struct {
	ID           int64           `json:"id"`
	Timestamp    string          `json:"timestamp"`
	TenantID     string          `json:"tenant_id"`
	UserID       string          `json:"user_id"`
	Action       string          `json:"action"`
	ResourceType *string         `json:"resource_type"`
	ResourceID   *string         `json:"resource_id"`
	Details      json.RawMessage `json:"details"`
	Result       string          `json:"result"`
	ErrorMessage *string         `json:"error_message"`
	RequestID    *string         `json:"request_id"`
}

type auditPage struct {
	Items      []auditItem `json:"items"`
	Pagination struct {
		Limit, Offset, Total int
		HasMore              bool
	} `json:"pagination"`
}

// waitAudit lists until want rows are stored (the writer is asynchronous).
func waitAudit(t *testing.T, ta *testApp, admin string, want int) auditPage {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var page auditPage
		ta.c.Get("/v1/admin/audit?limit=200", bearer(admin)...).Data(t, 200, &page)
		if page.Pagination.Total >= want || time.Now().After(deadline) {
			return page
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func find(page auditPage, action string) []auditItem {
	var out []auditItem
	for _, it := range page.Items {
		if it.Action == action {
			out = append(out, it)
		}
	}
	return out
}

// TestAuditTrail: authenticated requests leave one row each plus their
// named rows; the register lookup stores the number in its audit row and
// nowhere in the log; the admin listing is paged and not itself audited.
func TestAuditTrail(t *testing.T) {
	db := pgtest.New(t)
	ta := newTestApp(t, map[string]string{"DATABASE_URL": db.URL})
	admin := ta.token(t, auth.TokenClaims{Subject: "admin-1", Municipality: "utrecht", Roles: []string{"admin"}, LoA: "hoog"})
	cw := ta.token(t, caseworker("utrecht"))
	m2m := ta.token(t, machine("operaton-mcp-client"))

	ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, bearer(cw)...).Data(t, 200, nil)
	ta.c.Post("/v1/decision/Nope/evaluate", `{}`, bearer(cw)...).ExpectError(t, 404, "DECISION_NOT_FOUND")
	ta.c.Post("/v1/m2m/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, bearer(m2m)...).Data(t, 200, nil)
	lookup := `{"type": "RaadpleegMetBurgerservicenummer", "burgerservicenummer": ["999992235"], "fields": ["naam", "partners"]}`
	brpResp := ta.c.Post("/v1/brp/personen", lookup, bearer(cw)...)
	brpResp.Data(t, 200, nil)
	if !strings.Contains(string(brpResp.Body), "999991450") {
		t.Fatalf("the lookup answer should name the partner: %s", brpResp.Body)
	}
	unknown := `{"type": "RaadpleegMetBurgerservicenummer", "burgerservicenummer": ["999990019"], "fields": ["naam"]}`
	ta.c.Post("/v1/brp/personen", unknown, bearer(cw)...)
	ta.c.Post("/v1/brp/personen", `{"type": "x"}`, bearer(cw)...)
	ta.c.Get("/v1/health")                                                                                       // public: no row
	ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody).ExpectError(t, 401, "UNAUTHORIZED") // 401: no row
	ta.c.Get("/v1/admin/audit", bearer(cw)...).ExpectError(t, 403, "FORBIDDEN")

	// 3 decision calls → 3 request rows + 3 named rows; 3 lookups → 3 + 3.
	// /v1/admin/audit is never audited, refused or not.
	page := waitAudit(t, ta, admin, 12)
	if page.Pagination.Total != 12 {
		for _, it := range page.Items {
			t.Logf("%s %s %s", it.Action, it.Result, it.UserID)
		}
		t.Fatalf("total %d rows, want 12", page.Pagination.Total)
	}
	checkDecisionRows(t, page)
	checkLookupRows(t, page, ta.logs.String())
	checkAuditPaging(t, ta, admin)
}

// checkDecisionRows: the named and request rows of TestAuditTrail's
// decision calls.
func checkDecisionRows(t *testing.T, page auditPage) {
	t.Helper()
	ev := find(page, "decision.evaluate.SVB_LeeftijdsInformatie")
	if len(ev) != 1 || ev[0].TenantID != "utrecht" || ev[0].UserID != "cw-utrecht" || ev[0].Result != "success" ||
		*ev[0].ResourceID != "SVB_LeeftijdsInformatie" || !strings.Contains(string(ev[0].Details), `"variableCount":4`) ||
		ev[0].RequestID == nil {
		t.Errorf("named decision row: %+v %s", ev, ev[0].Details)
	}
	if nf := find(page, "decision.evaluate.Nope"); len(nf) != 1 || nf[0].Result != "error" || nf[0].ErrorMessage == nil || *nf[0].ErrorMessage != "Decision 'Nope' not found" {
		t.Errorf("failed evaluation row: %+v", nf)
	}
	mm := find(page, "decision.evaluate.m2m.SVB_LeeftijdsInformatie")
	if len(mm) != 1 || mm[0].TenantID != "operaton-mcp-client" || mm[0].UserID != "service-account-operaton-mcp-client" {
		t.Errorf("machine rows fall back to azp for the tenant: %+v", mm)
	}
	req := find(page, "POST /v1/decision/SVB_LeeftijdsInformatie/evaluate")
	if len(req) != 1 || *req[0].ResourceType != "decision" || *req[0].ResourceID != "SVB_LeeftijdsInformatie" ||
		!strings.Contains(string(req[0].Details), `"statusCode":200`) {
		t.Errorf("request row: %+v", req)
	}
	if nf := find(page, "POST /v1/decision/Nope/evaluate"); len(nf) != 1 || nf[0].ErrorMessage == nil ||
		*nf[0].ErrorMessage != "Decision 'Nope' not found" || nf[0].Result != "error" {
		t.Errorf("a failed request's row carries the error message: %+v", nf)
	}
	if rows := find(page, "GET /v1/admin/audit"); len(rows) != 0 {
		t.Errorf("admin listing audited: %+v", rows)
	}
}

// checkLookupRows: TestAuditTrail's register lookups keep the citizen
// number in their audit rows only, never in resource ids or the log.
func checkLookupRows(t *testing.T, page auditPage, logs string) {
	t.Helper()
	fetches := find(page, "brp.personen.fetch")
	if len(fetches) != 3 {
		t.Fatalf("brp.personen.fetch rows: %d, want 3", len(fetches))
	}
	bsns := map[string]string{}
	for _, f := range fetches {
		var d struct {
			BSN    string `json:"bsn"`
			Status int    `json:"status"`
		}
		_ = json.Unmarshal(f.Details, &d)
		bsns[d.BSN] = f.Result
		if f.ResourceID != nil && strings.Contains(*f.ResourceID, "9999") {
			t.Errorf("resource_id holds a citizen number: %v", *f.ResourceID)
		}
	}
	if bsns["999992235"] != "success" || bsns["999990019"] != "error" || bsns[""] != "error" {
		t.Errorf("lookup rows by number: %v", bsns)
	}
	for _, n := range []string{"999992235", "999991450", "999990019", "Kooyman", "Wessel"} {
		if strings.Contains(logs, n) {
			t.Errorf("the application log holds %q", n)
		}
	}
	if !strings.Contains(logs, `msg="brp lookup" user=cw-utrecht tenant=utrecht type=RaadpleegMetBurgerservicenummer count=1 status=200`) {
		t.Errorf("brp log line missing:\n%s", logs)
	}

}

// checkAuditPaging: GET /v1/admin/audit pages, clamps and is not itself
// audited (TestAuditTrail left 12 rows).
func checkAuditPaging(t *testing.T, ta *testApp, admin string) {
	t.Helper()
	// Paging: limit clamped to 200, nonsense falls back to 50, newest first.
	var p auditPage
	ta.c.Get("/v1/admin/audit?limit=5&offset=2", bearer(admin)...).Data(t, 200, &p)
	if len(p.Items) != 5 || p.Pagination.Limit != 5 || p.Pagination.Offset != 2 || !p.Pagination.HasMore || p.Pagination.Total != 12 {
		t.Errorf("page: %+v", p.Pagination)
	}
	ta.c.Get("/v1/admin/audit?limit=abc&offset=-3", bearer(admin)...).Data(t, 200, &p)
	if p.Pagination.Limit != 50 || p.Pagination.Offset != 0 {
		t.Errorf("fallbacks: %+v", p.Pagination)
	}
	ta.c.Get("/v1/admin/audit?limit=5000", bearer(admin)...).Data(t, 200, &p)
	if p.Pagination.Limit != 200 {
		t.Errorf("clamp: %+v", p.Pagination)
	}
	time.Sleep(300 * time.Millisecond)
	ta.c.Get("/v1/admin/audit?limit=1", bearer(admin)...).Data(t, 200, &p)
	if p.Pagination.Total != 12 {
		t.Errorf("the admin listing audited itself: %d rows", p.Pagination.Total)
	}
}

func TestAuditWithoutDatabase(t *testing.T) {
	ta := newTestApp(t, nil)
	admin := ta.token(t, auth.TokenClaims{Subject: "admin-1", Roles: []string{"admin"}})
	msg := ta.c.Get("/v1/admin/audit", bearer(admin)...).ExpectError(t, 500, "DB_ERROR")
	if msg != "Auditlog kon niet worden opgehaald." {
		t.Errorf("message %q", msg)
	}
}

// TestAuditDatabaseDown: with the database stopped, requests are answered
// as before and the health endpoint still answers.
func TestAuditDatabaseDown(t *testing.T) {
	db := pgtest.New(t)
	ta := newTestApp(t, map[string]string{"DATABASE_URL": db.URL})
	cw := ta.token(t, caseworker("utrecht"))
	db.Stop(t)
	for range 20 {
		ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, bearer(cw)...).Data(t, 200, nil)
	}
	ta.c.Get("/v1/health").ExpectStatus(t, 200)
	admin := ta.token(t, auth.TokenClaims{Subject: "admin-1", Roles: []string{"admin"}})
	ta.c.Get("/v1/admin/audit", bearer(admin)...).ExpectError(t, 500, "DB_ERROR")
	db.Start(t)
	page := waitAudit(t, ta, admin, 40)
	if page.Pagination.Total != 40 {
		t.Errorf("rows after the database returned: %d, want 40", page.Pagination.Total)
	}
}
