package server

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/internal/httpapi"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// These tests check that the capability packages are mounted in the
// explorer with its configuration; their behaviour is tested in their own
// packages.

func TestDocmgmtIsMounted(t *testing.T) {
	_, c := newTestApp(t, nil)
	var status struct {
		Status   string `json:"status"`
		StubMode bool   `json:"stubMode"`
	}
	c.Get("/v1/docmgmt/status").Data(t, http.StatusOK, &status)
	if status.Status != "stub" || !status.StubMode {
		t.Errorf("default document management must be the stub: %+v", status)
	}
	legacy := c.Get("/api/docmgmt/status")
	legacy.ExpectStatus(t, http.StatusOK)
	if legacy.Header.Get("Deprecation") != "true" {
		t.Error("legacy docmgmt alias lacks the deprecation header")
	}
	var ws struct {
		WorkspaceID string `json:"workspaceId"`
		Created     bool   `json:"created"`
	}
	c.Post("/v1/docmgmt/workspaces/ensure", map[string]string{"projectNumber": "P-2025/7", "projectName": "Rotonde"}).Data(t, 200, &ws)
	if ws.WorkspaceID != "stub-ws-P-2025-7" || ws.Created {
		t.Errorf("ensure: %+v", ws)
	}
	c.Post("/v1/docmgmt/workspaces/ensure", `{bad`).ExpectError(t, 400, "MALFORMED_BODY")
}

func TestDocmgmtLiveNeedsSettings(t *testing.T) {
	cfg, _, err := loadConfig(func(k string) (string, bool) { return "false", k == "DOCMGMT_STUB_MODE" })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newDocmgmt(cfg, nil, nil); err == nil {
		t.Error("live document management without base URL, library and account must not start")
	}
}

func TestAssetsWithoutDatabase(t *testing.T) {
	_, c := newTestApp(t, nil)
	for _, path := range []string{"/v1/assets/bpmn", "/v1/assets/forms", "/v1/assets/documents"} {
		c.Get(path).ExpectError(t, http.StatusServiceUnavailable, "DB_NOT_CONFIGURED")
	}
}

func TestAssetsWithDatabase(t *testing.T) {
	db := pgtest.New(t)
	_, c := newTestApp(t, map[string]string{"DATABASE_URL": db.URL})
	body := map[string]any{
		"id": "p1", "name": "Aanvraag localpass", "xml": "<definitions/>", "bpmnProcessId": "localpass",
		"linkedDmnTemplates": []string{"RONL_LocalpassEindresultaat"},
		"createdAt":          "2026-01-02T03:04:05.000Z", "updatedAt": "2026-01-02T03:04:05.000Z",
	}
	c.Post("/v1/assets/bpmn", body).Data(t, http.StatusOK, nil)
	var got struct {
		ID, BpmnProcessID, XML string
	}
	c.Get("/v1/assets/bpmn/by-bpmn-id/localpass").Data(t, http.StatusOK, &got)
	if got.ID != "p1" || got.XML != "<definitions/>" {
		t.Errorf("by-bpmn-id: %+v", got)
	}
}

func TestDMNValidationIsMounted(t *testing.T) {
	_, c := newTestApp(t, nil)
	data, err := fs.ReadFile(examples.FS, examples.LocalPass[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Valid   bool `json:"valid"`
		Summary struct{ Errors, Warnings, Infos int }
	}
	c.Post("/v1/dmns/validate", map[string]string{"content": string(data)}).Data(t, http.StatusOK, &got)
	if !got.Valid || got.Summary.Errors != 0 || got.Summary.Warnings != 0 {
		t.Errorf("the example norm model must validate cleanly: %+v", got)
	}
	// The foundation's promise on the first JSON POST route.
	c.Post("/v1/dmns/validate", `{bad`).ExpectError(t, http.StatusBadRequest, "MALFORMED_BODY")
	c.Post("/v1/dmns/validate", `{"content": 7}`).ExpectError(t, http.StatusBadRequest, "INVALID_REQUEST")
}

func TestNormsAreMounted(t *testing.T) {
	_, c := newTestApp(t, nil)
	resp := c.Get("/v1/norms?rulesetid=BWBR0015703")
	resp.ExpectStatus(t, http.StatusOK)
	etag := resp.Header.Get("ETag")
	if etag == "" || resp.Header.Get("Cache-Control") != "public, max-age=3600" {
		t.Fatalf("the fully versioned example ruleset must be cacheable: %v", resp.Header)
	}
	var data struct {
		Total           int                         `json:"total"`
		DatasetVersions map[string][]map[string]any `json:"dataset_versions"`
		CPRMVVersion    string                      `json:"cprmv_version"`
	}
	resp.Data(t, http.StatusOK, &data)
	if data.Total == 0 || len(data.DatasetVersions["BWBR0015703"]) == 0 || data.CPRMVVersion != "0.3.0" {
		t.Errorf("norms over the embedded graph: %+v", data)
	}
	again := c.Get("/v1/norms?rulesetid=BWBR0015703", "If-None-Match", etag)
	if again.Status != http.StatusNotModified || len(again.Body) != 0 || again.Header.Get("API-Version") != version {
		t.Errorf("conditional request: %d %q %v", again.Status, again.Body, again.Header)
	}
	c.Get("/v1/norms?rulesetid=BWBR0015703&endpoint=ftp://x/").ExpectError(t, http.StatusBadRequest, "INVALID_REQUEST")
}

func TestSHACLIsMounted(t *testing.T) {
	_, c := newTestApp(t, nil)
	org := `@prefix cv: <http://data.europa.eu/m8g/> . @prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> . @prefix dct: <http://purl.org/dc/terms/> .
<https://data.regelkit.example/organisation/gemeente> a cv:PublicOrganisation ;
    skos:prefLabel "Gemeente Voorbeeldstad"@nl ; dct:identifier "GM9999" ;
    foaf:homepage <https://voorbeeldstad.example/home> .`
	var local, merged struct {
		Valid  bool `json:"valid"`
		Layers map[string]struct {
			Loaded bool `json:"loaded"`
			Issues []struct{ Code string }
		} `json:"layers"`
	}
	c.Post("/v1/shacl/validate", map[string]string{"content": org}).Data(t, 200, &local)
	if n := len(local.Layers["custom"].Issues); n != 0 || !local.Layers["custom"].Loaded {
		t.Errorf("file-local custom layer: %+v", local.Layers["custom"])
	}
	// The embedded graph publishes this organisation with another homepage:
	// merged with it (the default endpoint), the second homepage collides.
	c.Post("/v1/shacl/validate-merged", map[string]string{"content": org}).Data(t, 200, &merged)
	if issues := merged.Layers["custom"].Issues; len(issues) != 1 || issues[0].Code != "SHACL-MAXCOUNT" {
		t.Errorf("merged custom layer: %+v", merged.Layers["custom"])
	}
	var h struct {
		SHACL struct {
			Complete bool `json:"complete"`
		} `json:"shacl"`
	}
	c.Get("/v1/health").Decode(t, &h)
	if !h.SHACL.Complete {
		t.Error("health must report the SHACL layers as complete")
	}
}

func TestEmbeddedEngine(t *testing.T) {
	_, c := newTestApp(t, nil)
	var h struct {
		Services map[string]struct{ Status string } `json:"services"`
	}
	c.Get("/v1/health").ExpectStatus(t, http.StatusOK).Decode(t, &h)
	if h.Services["operaton"].Status != "up" {
		t.Errorf("embedded engine probe: %+v", h.Services["operaton"])
	}
	// The Operaton-compatible facade serves the deployed example models.
	var def struct {
		Key     string `json:"key"`
		Version int    `json:"version"`
	}
	c.Get("/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie").ExpectStatus(t, http.StatusOK).Decode(t, &def)
	if def.Key != "SZW_BijstandsnormInformatie" || def.Version != 1 {
		t.Errorf("definition: %+v", def)
	}
	resp := c.Post("/engine-rest/decision-definition/key/SVB_LeeftijdsInformatie/evaluate", `{"variables": {
		"dagVanAanvraag": {"value": "2025-12-24", "type": "String"},
		"geboortedatumAanvrager": {"value": "1980-01-23", "type": "String"},
		"geboortedatumPartner": {"value": null, "type": "Null"}}}`)
	resp.ExpectStatus(t, http.StatusOK)
	var rows []map[string]struct {
		Value any    `json:"value"`
		Type  string `json:"type"`
	}
	resp.Decode(t, &rows)
	if len(rows) != 1 || rows[0]["aanvragerLeeftijd"].Value != float64(45) || rows[0]["AOWDatumAanvrager"].Value != "2047-01-23" {
		t.Errorf("evaluation through /engine-rest: %s", resp.Body)
	}
	c.Get("/engine-rest/decision-definition/key/Nope").ExpectStatus(t, http.StatusNotFound)
	if c.Get("/engine-rest/version").Header.Get("API-Version") != version {
		t.Error("the facade's answers pass through the middleware too")
	}
}

func TestEngineRESTOffInProduction(t *testing.T) {
	_, c := newTestApp(t, map[string]string{"ENVIRONMENT": "production"})
	c.Get("/engine-rest/version").ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	_, on := newTestApp(t, map[string]string{"ENVIRONMENT": "production", "ENGINE_REST": "true"})
	on.Get("/engine-rest/version").ExpectStatus(t, http.StatusOK)
}

func TestRemoteEngineProbe(t *testing.T) {
	_, c := newTestApp(t, map[string]string{"OPERATON_BASE_URL": "http://127.0.0.1:1/engine-rest", "OPERATON_TIMEOUT": "2s"})
	var h struct {
		Status   string                             `json:"status"`
		Services map[string]struct{ Status string } `json:"services"`
	}
	c.Get("/v1/health").ExpectStatus(t, http.StatusServiceUnavailable).Decode(t, &h)
	if h.Status != "degraded" || h.Services["operaton"].Status != "down" {
		t.Errorf("unreachable remote engine: %+v", h)
	}
	// A remote engine is never re-served by the explorer.
	c.Get("/engine-rest/version").ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}

// TestDatabaseURLForms connects the asset store through each form of
// DATABASE_URL libpq and pgx accept: the URL, the Unix-socket URL and a
// key=value string.
func TestDatabaseURLForms(t *testing.T) {
	db := pgtest.New(t)
	forms := map[string]string{"url": db.URL}
	if s := db.SocketURL(); s != "" {
		forms["socket"] = s
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		forms["key=value"] = fmt.Sprintf("host=%s port=%s user=postgres dbname=%s sslmode=disable",
			u.Query().Get("host"), u.Query().Get("port"), db.Name)
	} else {
		t.Log("external database: the socket and key=value forms are covered by envconfig's tests only")
	}
	for name, dsn := range forms {
		t.Run(name, func(t *testing.T) {
			_, c := newTestApp(t, map[string]string{"DATABASE_URL": dsn})
			id := "form-" + strings.ReplaceAll(name, "=", "-")
			body := map[string]any{"id": id, "name": name, "xml": "<definitions/>", "bpmnProcessId": id, "linkedDmnTemplates": []string{},
				"createdAt": "2026-01-02T03:04:05.000Z", "updatedAt": "2026-01-02T03:04:05.000Z"}
			c.Post("/v1/assets/bpmn", body).Data(t, http.StatusOK, nil)
			var got struct{ ID string }
			c.Get("/v1/assets/bpmn/by-bpmn-id/"+id).Data(t, http.StatusOK, &got)
			if got.ID != id {
				t.Errorf("%s: by-bpmn-id = %+v", name, got)
			}
		})
	}
}

// TestEngineStateBounds: ENGINE_MAX_BYTES reaches the embedded engine; the
// example models do not fit in 1 KB, so start-up fails saying so.
func TestEngineStateBounds(t *testing.T) {
	cfg, _, err := loadConfig(func(k string) (string, bool) {
		v, ok := map[string]string{"ENGINE_MAX_BYTES": "1KB"}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := newEngine(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "deploying the example models") {
		t.Errorf("newEngine with 1 KB = %v, want the deployment refused", err)
	}
}

// TestEngineRESTCrossSiteWrites: a browser on another site may not deploy
// (multipart is a CORS-simple type); the configured frontends and tools
// without an Origin may.
func TestEngineRESTCrossSiteWrites(t *testing.T) {
	_, c := newTestApp(t, nil)
	body := "--b\r\nContent-Disposition: form-data; name=\"deployment-name\"\r\n\r\nx\r\n--b--\r\n"
	deploy := func(headers ...string) int {
		h := append([]string{"Content-Type", "multipart/form-data; boundary=b"}, headers...)
		return c.Do("POST", "/engine-rest/deployment/create", []byte(body), h...).Status
	}
	if got := deploy("Origin", "https://evil.example"); got != 403 {
		t.Errorf("foreign origin: %d, want 403", got)
	}
	if got := deploy("Sec-Fetch-Site", "cross-site"); got != 403 {
		t.Errorf("cross-site without Origin: %d, want 403", got)
	}
	// Allowed: the request reaches the engine, which refuses the empty
	// upload with its own 400.
	for _, h := range [][]string{nil, {"Origin", "http://localhost:5173"}, {"Sec-Fetch-Site", "same-origin"}} {
		if got := deploy(h...); got != 400 {
			t.Errorf("%v: %d, want the engine's 400", h, got)
		}
	}
	if got := c.Get("/engine-rest/version", "Origin", "https://evil.example").Status; got != 200 {
		t.Errorf("reads stay open: %d", got)
	}
}

// TestEvaluationLimitsReachEngines: the EVAL_* table bounds SHACL
// validation and FEEL evaluation, and their limit errors are 400/503
// LIMIT_EXCEEDED through the real router.
func TestEvaluationLimitsReachEngines(t *testing.T) {
	rule := `@prefix cpsv: <http://purl.org/vocab/cpsv#> . @prefix dct: <http://purl.org/dc/terms/> .
<https://example.org/rule> a cpsv:Rule ; dct:title "Regel" .`
	_, rows := newTestApp(t, map[string]string{"EVAL_MAX_ROWS": "1"})
	msg := rows.Post("/v1/shacl/validate", map[string]string{"content": rule}).ExpectError(t, 400, "LIMIT_EXCEEDED")
	if !strings.Contains(msg, "MaxRows") {
		t.Errorf("SHACL with EVAL_MAX_ROWS=1: %q", msg)
	}
	// SPARQL on the embedded store, through the proxy and the protocol
	// endpoint.
	query := "SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?o"
	msg = rows.Post("/v1/graphdb/query", map[string]string{"endpoint": "/v1/sparql", "query": query}).ExpectError(t, 400, "LIMIT_EXCEEDED")
	if !strings.Contains(msg, "MaxRows (1 solutions)") {
		t.Errorf("SPARQL with EVAL_MAX_ROWS=1: %q", msg)
	}
	if got := rows.Get("/v1/sparql?query=" + url.QueryEscape(query)); got.Status != 400 {
		t.Errorf("protocol endpoint with EVAL_MAX_ROWS=1: %d %s", got.Status, got.Body)
	}

	// FEEL: the embedded engine evaluates under EVAL_MAX_ROWS.
	cfg, _, err := loadConfig(func(k string) (string, bool) {
		v, ok := map[string]string{"EVAL_MAX_ROWS": "10"}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	eng, _, err := newEngine(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	dmnXML := `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="lists" name="lists" namespace="https://regelkit.example/lists">
  <decision id="rows" name="rows"><variable name="rows"/>
    <literalExpression><text>for i in 1..100 return i</text></literalExpression>
  </decision>
</definitions>`
	if _, err := eng.Deploy(context.Background(), engine.NewDeployment{Name: "lists",
		Resources: []engine.Resource{{Name: "lists.dmn", Data: []byte(dmnXML)}}}); err != nil {
		t.Fatal(err)
	}
	_, err = eng.Evaluate(context.Background(), "rows", "", engine.Variables{})
	le := httpapi.LimitError(err)
	if le == nil || le.Status != 400 || !strings.Contains(le.Message, "MaxRows") {
		t.Errorf("FEEL with EVAL_MAX_ROWS=10: %v (mapped %+v)", err, le)
	}
}
