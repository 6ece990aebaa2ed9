package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
)

// echoDMN is a decision table that returns the municipality it was
// evaluated with, and a COLLECT table with two matching rules.
func echoDMN(key string) []byte {
	return []byte(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="%[1]s_defs" name="%[1]s" namespace="http://regelkit.example/test">
  <decision id="%[1]s" name="%[1]s">
    <decisionTable id="%[1]s_dt" hitPolicy="COLLECT">
      <input id="%[1]s_in"><inputExpression id="%[1]s_ie" typeRef="string"><text>municipality</text></inputExpression></input>
      <output id="%[1]s_o1" name="seen" typeRef="string" />
      <output id="%[1]s_o2" name="rule" typeRef="integer" />
      <rule id="%[1]s_r1"><inputEntry id="%[1]s_r1i"><text></text></inputEntry>
        <outputEntry id="%[1]s_r1o1"><text>municipality</text></outputEntry><outputEntry id="%[1]s_r1o2"><text>1</text></outputEntry></rule>
      <rule id="%[1]s_r2"><inputEntry id="%[1]s_r2i"><text>"utrecht"</text></inputEntry>
        <outputEntry id="%[1]s_r2o1"><text>"utrecht-only"</text></outputEntry><outputEntry id="%[1]s_r2o2"><text>2</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`, key))
}

func deploy(t *testing.T, ta *testApp, key, tenant string) {
	t.Helper()
	_, err := ta.engine.Deploy(context.Background(), engine.NewDeployment{Name: key, TenantID: tenant,
		Resources: []engine.Resource{{Name: key + ".dmn", Data: echoDMN(key)}}})
	if err != nil {
		t.Fatal(err)
	}
}

const leeftijdBody = `{"variables": {"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": {"value": "1980-01-23", "type": "String"}, "geboortedatumPartner": null}}`

func TestEvaluate(t *testing.T) {
	ta := newTestApp(t, nil)
	tok := ta.token(t, caseworker("heusden"))
	resp := ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, bearer(tok)...)
	var got struct {
		Data map[string]any `json:"data"`
		Meta struct {
			RowCount    int    `json:"rowCount"`
			GeneratedAt string `json:"generatedAt"`
		} `json:"meta"`
	}
	resp.Data(t, 200, nil)
	resp.Decode(t, &got)
	if got.Data["aanvragerLeeftijd"] != float64(45) || got.Data["AOWDatumAanvrager"] != "2047-01-23" || got.Meta.RowCount != 1 || got.Meta.GeneratedAt == "" {
		t.Errorf("evaluation: %s", resp.Body)
	}
	// Several rows: every output becomes the list of its values.
	deploy(t, ta, "TenantEcho", "")
	resp = ta.c.Post("/v1/decision/TenantEcho/evaluate", `{}`, bearer(ta.token(t, caseworker("utrecht")))...)
	resp.Decode(t, &got)
	if got.Meta.RowCount != 2 || fmt.Sprint(got.Data["seen"]) != "[utrecht utrecht-only]" || fmt.Sprint(got.Data["rule"]) != "[1 2]" {
		t.Errorf("collect: %s", resp.Body)
	}

	for _, tc := range []struct {
		body   string
		status int
		code   string
	}{
		{`{bad`, 400, "MALFORMED_BODY"},
		{`{"variables": [1]}`, 400, "VALIDATION_ERROR"},
		{`{"variables": "x"}`, 400, "VALIDATION_ERROR"},
		{`{"variables": {"x": {"value": "abc", "type": "Integer"}}}`, 400, "VALIDATION_ERROR"},
	} {
		ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", tc.body, bearer(tok)...).ExpectError(t, tc.status, tc.code)
	}
	msg := ta.c.Post("/v1/decision/Nope/evaluate", `{}`, bearer(tok)...).ExpectError(t, 404, "DECISION_NOT_FOUND")
	if msg != "Decision 'Nope' not found" {
		t.Errorf("not found message %q", msg)
	}
	// A body over 1 MB.
	big := `{"variables": {"x": "` + strings.Repeat("a", 1<<20) + `"}}`
	ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", big, bearer(tok)...).ExpectError(t, 413, "PAYLOAD_TOO_LARGE")
	// An evaluation failure: a required input missing.
	fail := ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", `{"variables": {}}`, bearer(tok)...)
	fail.ExpectError(t, 500, "DECISION_EVALUATION_FAILED")
	if !strings.Contains(string(fail.Envelope(t).Error.Details), `"engine"`) {
		t.Errorf("engine message in details.engine: %s", fail.Body)
	}
}

// TestTenantIsolation: the server sets municipality to the caller's tenant
// whatever the body says, a tenant's own definitions are invisible to other
// tenants, and machine tokens are refused on tenant routes.
func TestTenantIsolation(t *testing.T) {
	ta := newTestApp(t, nil)
	deploy(t, ta, "TenantEcho", "")
	deploy(t, ta, "UtrechtOnly", "utrecht")
	utrecht, amsterdam := ta.token(t, caseworker("utrecht")), ta.token(t, caseworker("amsterdam"))

	var data map[string]any
	ta.c.Post("/v1/decision/TenantEcho/evaluate", `{"variables": {"municipality": "utrecht"}}`, bearer(amsterdam)...).Data(t, 200, &data)
	if data["seen"] != "amsterdam" {
		t.Errorf("amsterdam evaluated as %v: the body's municipality must be overwritten", data["seen"])
	}
	ta.c.Post("/v1/decision/TenantEcho/evaluate", `{"variables": {"municipality": {"value": "utrecht", "type": "String"}}}`, bearer(amsterdam)...).Data(t, 200, &data)
	if data["seen"] != "amsterdam" {
		t.Errorf("wrapped municipality must be overwritten too: %v", data)
	}

	ta.c.Post("/v1/decision/UtrechtOnly/evaluate", `{}`, bearer(utrecht)...).Data(t, 200, nil)
	ta.c.Post("/v1/decision/UtrechtOnly/evaluate", `{}`, bearer(amsterdam)...).ExpectError(t, 404, "DECISION_NOT_FOUND")

	var list []struct {
		Key      string  `json:"key"`
		TenantID *string `json:"tenantId"`
	}
	resp := ta.c.Get("/api/decision", bearer(amsterdam)...)
	resp.Data(t, 200, &list)
	if resp.Header.Get("Deprecation") != "true" || resp.Header.Get("Link") != `</v1/decision>; rel="successor-version"` {
		t.Errorf("legacy headers: %v", resp.Header)
	}
	for _, d := range list {
		if d.Key == "UtrechtOnly" {
			t.Errorf("amsterdam sees utrecht's definition: %+v", d)
		}
	}
	// The three local-pass models define 13 decisions and the onboarding
	// bundle one (HrOnboardingItAccess); with TenantEcho 15.
	if len(list) != 15 {
		t.Errorf("amsterdam sees %d definitions, want the 14 example decisions and TenantEcho", len(list))
	}
	ta.c.Get("/api/decision", bearer(utrecht)...).Data(t, 200, &list)
	if len(list) != 16 {
		t.Errorf("utrecht sees %d definitions, want 16 (its own UtrechtOnly too)", len(list))
	}

	m2m := ta.token(t, machine("operaton-mcp-client"))
	msg := ta.c.Post("/v1/decision/TenantEcho/evaluate", `{}`, bearer(m2m)...).ExpectError(t, 403, "MISSING_TENANT")
	if msg != "Organisation information missing" {
		t.Errorf("message %q", msg)
	}
	ta.c.Get("/api/decision", bearer(m2m)...).ExpectError(t, 403, "MISSING_TENANT")

	// LoA: below basis or an unknown spelling fails closed.
	for _, loa := range []string{"", "substantial"} {
		c := caseworker("utrecht")
		c.LoA = loa
		ta.c.Post("/v1/decision/TenantEcho/evaluate", `{}`, bearer(ta.token(t, c))...).ExpectError(t, 403, "LOA_INSUFFICIENT")
	}
	c := caseworker("utrecht")
	c.LoA = "basis"
	ta.c.Post("/v1/decision/TenantEcho/evaluate", `{}`, bearer(ta.token(t, c))...).Data(t, 200, nil)
}

func TestIsolationSwitchKeepsMismatchChecks(t *testing.T) {
	ta := newTestApp(t, map[string]string{"ENABLE_TENANT_ISOLATION": "false"})
	deploy(t, ta, "UtrechtOnly", "utrecht")
	// Without the presence check a machine token passes the tenant
	// middleware, but it still sees no tenant's definitions.
	c := machine("operaton-mcp-client")
	c.LoA = "hoog"
	m2m := ta.token(t, c)
	ta.c.Post("/v1/decision/UtrechtOnly/evaluate", `{}`, bearer(m2m)...).ExpectError(t, 404, "DECISION_NOT_FOUND")
}

func TestM2MDecisions(t *testing.T) {
	ta := newTestApp(t, nil)
	deploy(t, ta, "TenantEcho", "")
	m2m := ta.token(t, machine("operaton-mcp-client"))
	var rows []map[string]struct {
		Type  string `json:"type"`
		Value any    `json:"value"`
	}
	ta.c.Post("/v1/m2m/decision/TenantEcho/evaluate", `{"variables": {"municipality": "utrecht"}}`, bearer(m2m)...).Data(t, 200, &rows)
	if len(rows) != 2 || rows[0]["seen"].Value != "utrecht" || rows[0]["seen"].Type != "String" || rows[1]["rule"].Value != float64(2) {
		t.Errorf("raw rows: %+v", rows)
	}
	var def map[string]any
	ta.c.Get("/v1/m2m/decision/SVB_LeeftijdsInformatie", bearer(m2m)...).Data(t, 200, &def)
	for _, k := range []string{"id", "key", "category", "name", "version", "resource", "deploymentId", "tenantId", "versionTag",
		"historyTimeToLive", "decisionRequirementsDefinitionId", "decisionRequirementsDefinitionKey"} {
		if _, ok := def[k]; !ok {
			t.Errorf("definition lacks %s: %v", k, def)
		}
	}
	if def["key"] != "SVB_LeeftijdsInformatie" || def["version"] != float64(1) {
		t.Errorf("definition: %v", def)
	}
	ta.c.Get("/v1/m2m/decision/Nope", bearer(m2m)...).ExpectError(t, 404, "DECISION_NOT_FOUND")
	ta.c.Post("/v1/m2m/decision/Nope/evaluate", `{}`, bearer(m2m)...).ExpectError(t, 404, "DECISION_NOT_FOUND")

	// Unlisted clients, caseworkers included, are refused.
	for _, c := range []auth.TokenClaims{machine("some-other-client"), caseworker("utrecht")} {
		msg := ta.c.Get("/v1/m2m/decision/TenantEcho", bearer(ta.token(t, c))...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
		if msg != "This API is only available to registered M2M clients." {
			t.Errorf("message %q", msg)
		}
	}
	ta.c.Get("/v1/m2m/decision/TenantEcho").ExpectError(t, 401, "UNAUTHORIZED")

	// The operation gate: switched off, the route answers 403.
	saved := auth.M2MAllowedOperations
	t.Cleanup(func() { auth.M2MAllowedOperations = saved })
	auth.M2MAllowedOperations = []string{"decision.evaluate"}
	gated := newTestApp(t, nil)
	gated.c.Get("/v1/m2m/decision/TenantEcho", bearer(gated.token(t, machine("operaton-mcp-client")))...).
		ExpectError(t, 403, "OPERATION_NOT_PERMITTED")
}

// TestRemoteEngineFailures: an unreachable engine is 502 OPERATON_ERROR
// with no engine address in the message.
func TestRemoteEngineFailures(t *testing.T) {
	ta := newTestApp(t, map[string]string{"PROCESS_ENGINE_URL": "http://127.0.0.1:1/engine-rest", "PROCESS_ENGINE_TIMEOUT": "2000"})
	tok := ta.token(t, caseworker("utrecht"))
	resp := ta.c.Post("/v1/decision/X/evaluate", `{}`, bearer(tok)...)
	msg := resp.ExpectError(t, http.StatusBadGateway, "OPERATON_ERROR")
	if strings.Contains(string(resp.Body), "127.0.0.1") {
		t.Errorf("engine address leaked: %s (%s)", resp.Body, msg)
	}
	// The embedded engine is never re-served for a remote one.
	ta.c.Get("/engine-rest/version").ExpectError(t, 404, "NOT_FOUND")
}

func TestEvaluationMessages(t *testing.T) {
	if m := evaluationMessage("T", "ProcessEngineException", "Exception while evaluating decision with key 'null'"); !strings.Contains(m, "Meerdere regels van beslistabel 'T'") {
		t.Errorf("hit policy: %q", m)
	}
	if m := evaluationMessage("T", "RestException", "Cannot find decision-definition"); !strings.Contains(m, "Configuratiefout") {
		t.Errorf("configuration: %q", m)
	}
	if m := evaluationMessage("T", "", "plain"); m != "plain" {
		t.Errorf("other: %q", m)
	}
}
