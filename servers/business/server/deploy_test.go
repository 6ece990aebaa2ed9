package server

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/beevik/etree"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"
)

const plainBPMN = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="x">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:documentation>Docs first</bpmn:documentation>
    <bpmn:startEvent id="s"/>
  </bpmn:process>
</bpmn:definitions>`

// boardOwnerOf reads the boardOwner properties back by namespace, as the
// task history does.
func boardOwnerOf(t *testing.T, xml string) []string {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromString(xml); err != nil {
		t.Fatalf("tagged XML does not parse: %v\n%s", err, xml)
	}
	var out []string
	for _, p := range doc.Root().ChildElements() {
		if p.Tag != "process" {
			continue
		}
		kids := p.ChildElements()
		docs := 0
		for _, k := range kids {
			if k.Tag == "documentation" {
				docs++
			}
		}
		for i, ext := range kids {
			if ext.Tag != "extensionElements" || ext.NamespaceURI() != bpmnNS {
				continue
			}
			if i != docs {
				t.Errorf("extensionElements is child %d, want %d: right after the %d documentation elements", i, docs, docs)
			}
			for _, props := range ext.ChildElements() {
				if props.Tag != "properties" || props.NamespaceURI() != camundaNS {
					continue
				}
				for _, prop := range props.ChildElements() {
					if prop.NamespaceURI() == camundaNS && prop.SelectAttrValue("name", "") == "boardOwner" {
						out = append(out, prop.SelectAttrValue("value", ""))
					}
				}
			}
		}
	}
	return out
}

func TestTagBoardOwner(t *testing.T) {
	got, err := tagBoardOwner(plainBPMN, "infra-board")
	if err != nil {
		t.Fatal(err)
	}
	if owners := boardOwnerOf(t, got); len(owners) != 1 || owners[0] != "infra-board" {
		t.Errorf("owners = %v in\n%s", owners, got)
	}
	if !strings.Contains(got, `xmlns:camunda="http://camunda.org/schema/1.0/bpmn"`) {
		t.Errorf("camunda namespace not declared:\n%s", got)
	}
	// Tagging again replaces, never duplicates; an existing prefix is reused.
	again, err := tagBoardOwner(got, "caseworker")
	if err != nil {
		t.Fatal(err)
	}
	if owners := boardOwnerOf(t, again); len(owners) != 1 || owners[0] != "caseworker" {
		t.Errorf("retagged owners = %v in\n%s", owners, again)
	}
	if strings.Count(again, "xmlns:camunda=") != 1 {
		t.Errorf("namespace declared twice:\n%s", again)
	}
	// A foreign binding of the prefix camunda is left alone.
	foreign := strings.Replace(plainBPMN, `id="d"`, `xmlns:camunda="urn:other" id="d"`, 1)
	tagged, err := tagBoardOwner(foreign, "caseworker")
	if err != nil {
		t.Fatal(err)
	}
	if owners := boardOwnerOf(t, tagged); len(owners) != 1 || !strings.Contains(tagged, `xmlns:camunda1="http://camunda.org/schema/1.0/bpmn"`) {
		t.Errorf("with a foreign camunda prefix: owners %v in\n%s", owners, tagged)
	}
	if _, err := tagBoardOwner("<not-bpmn/>", "x"); err == nil {
		t.Error("a non-BPMN document was tagged")
	}
}

func TestDeriveBoardOwner(t *testing.T) {
	task := func(groups string) string {
		return `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn">
<bpmn:process id="P"><bpmn:userTask id="u" camunda:candidateGroups="` + groups + `"/></bpmn:process></bpmn:definitions>`
	}
	for groups, want := range map[string]string{
		"caseworker":                  "caseworker",
		"hr-medewerker":               "caseworker",
		"case-workers, rip-team":      "infra-board",
		"infra-projectteam":           "infra-board",
		"caseworker,infra-medewerker": "infra-board",
		"finance":                     "",
		"":                            "",
	} {
		if got := deriveBoardOwner(task(groups)); got != want {
			t.Errorf("deriveBoardOwner(%q) = %q, want %q", groups, got, want)
		}
	}
	// Matched by namespace, not by prefix.
	other := strings.ReplaceAll(task("caseworker"), `xmlns:camunda="http://camunda.org/schema/1.0/bpmn"`, `xmlns:camunda="urn:x"`)
	if got := deriveBoardOwner(other); got != "" {
		t.Errorf("candidateGroups of a foreign namespace counted: %q", got)
	}
}

func TestDeployValidation(t *testing.T) {
	ta := newTestApp(t, map[string]string{"DEPLOY_ALLOWED_ENGINE_URLS": "http://engine.internal:8080/engine-rest"})
	h := bearer(ta.token(t, caseworker("utrecht")))
	good := func() map[string]any {
		return map[string]any{"bpmnXml": plainBPMN, "deploymentName": "bundle"}
	}
	with := func(k string, v any) map[string]any { m := good(); m[k] = v; return m }
	for _, c := range []struct {
		name  string
		body  any
		field string
	}{
		{"no bpmnXml", with("bpmnXml", ""), "bpmnXml"},
		{"no deploymentName", with("deploymentName", " "), "deploymentName"},
		{"deploymentName with a slash", with("deploymentName", "../x"), "deploymentName"},
		{"form without id", with("forms", []any{map[string]any{"schema": map[string]any{}}}), "forms[0].id"},
		{"form schema not an object", with("forms", []any{map[string]any{"id": "f", "schema": "x"}}), "forms[0].schema"},
		{"duplicate form ids", with("forms", []any{map[string]any{"id": "f", "schema": map[string]any{}}, map[string]any{"id": "f", "schema": map[string]any{}}}), "forms[1].id"},
		{"document without id", with("documents", []any{map[string]any{"template": map[string]any{}}}), "documents[0].id"},
		{"document template an array", with("documents", []any{map[string]any{"id": "d", "template": []any{}}}), "documents[0].template"},
		{"sub-process without filename", with("subProcesses", []any{map[string]any{"xml": "<x/>"}}), "subProcesses[0].filename"},
		{"sub-process without xml", with("subProcesses", []any{map[string]any{"filename": "s.bpmn"}}), "subProcesses[0].xml"},
		{"sub-process named like the main process", with("subProcesses", []any{map[string]any{"filename": "bundle.bpmn", "xml": "<x/>"}}), "subProcesses[0].filename"},
		{"unlisted engine URL", with("operatonUrl", "http://169.254.169.254/latest"), "operatonUrl"},
		{"listed URL with a different path", with("operatonUrl", "http://engine.internal:8080/engine-rest/x"), "operatonUrl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := ta.c.Post(deployPath, c.body, h...)
			msg := resp.ExpectError(t, 400, codeValidation)
			if !strings.HasPrefix(msg, c.field+" ") {
				t.Errorf("message %q does not start with the field %s", msg, c.field)
			}
			if e := resp.Envelope(t); !strings.Contains(string(e.Error.Details), `"field":"`+c.field+`"`) {
				t.Errorf("details %s lack field %s", e.Error.Details, c.field)
			}
		})
	}
	ta.c.Post(deployPath, `{"bpmnXml": 1}`, h...).ExpectError(t, 400, codeValidation)
	ta.c.Post(deployPath, `{"bpmnXml": `, h...).ExpectError(t, 400, "MALFORMED_BODY")
	ta.c.Post(deployPath, good()).ExpectError(t, 401, "UNAUTHORIZED")
	resp := ta.c.Post(legacyDeployPath, with("bpmnXml", ""), h...)
	resp.ExpectError(t, 400, codeValidation)
	if resp.Header.Get("Deprecation") != "true" || resp.Header.Get("Link") != `</v1/dmns/process/deploy>; rel="successor-version"` {
		t.Errorf("legacy path headers: Deprecation %q, Link %q", resp.Header.Get("Deprecation"), resp.Header.Get("Link"))
	}
	big := `{"bpmnXml":"` + strings.Repeat("x", 11<<20) + `"}`
	ta.c.Post(deployPath, big, h...).ExpectError(t, 413, "PAYLOAD_TOO_LARGE")
}

// TestDeployToAllowedEngine: a bundle goes, as one multipart deployment, to
// an engine named by operatonUrl when listed (here engine/rest over another
// embedded engine); the configured engine gets nothing. A BPMN the engine
// rejects is 500 PROCESS_DEPLOY_FAILED; an unreachable listed engine 502.
func TestDeployToAllowedEngine(t *testing.T) {
	remote := local.New(local.Options{Version: "remote"})
	rp, ok := any(remote).(engine.Processes)
	if !ok {
		t.Skip("the embedded engine runs no processes yet")
	}
	srv := httptest.NewServer(rest.NewHandler(remote, rest.Options{}))
	defer srv.Close()
	remoteURL := srv.URL + "/engine-rest"
	ta := newTestApp(t, map[string]string{"DEPLOY_ALLOWED_ENGINE_URLS": remoteURL + ",http://127.0.0.1:1/engine-rest",
		"DOCMGMT_WORKER_ENABLED": "false"})
	cw := bearer(ta.token(t, caseworker("utrecht")))
	body := bundleRequest(t, "projectphase", "rip-remote")
	body["operatonUrl"] = remoteURL
	var dep struct {
		DeploymentID  string
		ResourceCount int
	}
	resp := ta.c.Post(deployPath, body, cw...)
	resp.Data(t, 200, &dep)
	if dep.ResourceCount != 5 || resp.Header.Get("Deprecation") != "" {
		t.Errorf("deploy = %+v, Deprecation %q; want 5 resources and no deprecation on /v1", dep, resp.Header.Get("Deprecation"))
	}
	ctx := context.Background()
	res, err := rp.DeploymentResources(ctx, dep.DeploymentID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range res {
		names = append(names, r.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "rip-intake-report.document,rip-pdp.document,rip-phase1-start.form,rip-psu-report.document,rip-remote.bpmn" {
		t.Errorf("remote deployment resources %v", names)
	}
	defs, err := rp.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{Key: ripProcessKey})
	if err != nil || len(defs) != 1 {
		t.Fatalf("remote definitions %v %v", defs, err)
	}
	xml, err := rp.ProcessDefinitionXML(ctx, defs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if owners := boardOwnerOf(t, xml); len(owners) != 1 || owners[0] != "infra-board" {
		t.Errorf("boardOwner %v, want [infra-board] (infra-projectteam groups)", owners)
	}
	configured, _ := ta.processEngine()
	if mine, _ := configured.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{DeploymentID: dep.DeploymentID}); len(mine) != 0 {
		t.Errorf("the configured engine got the remote deployment: %v", mine)
	}
	// The deployed bundle runs on the remote engine.
	pi, err := rp.StartProcess(ctx, engine.StartProcess{Key: ripProcessKey, Variables: engine.Variables{
		"projectNumber": engine.String("1"), "projectName": engine.String("x")}})
	if err != nil || pi.Ended {
		t.Fatalf("start on the remote engine: %+v %v", pi, err)
	}

	// The audit log writes in batches, after the response.
	for deadline := time.Now().Add(3 * time.Second); !strings.Contains(ta.logs.String(), "action=process.deploy"); {
		if time.Now().After(deadline) {
			t.Error("no audit entry process.deploy")
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// An explicit "" leaves the process untagged.
	body = map[string]any{"bpmnXml": plainBPMN, "deploymentName": "plain", "boardOwner": ""}
	ta.c.Post(deployPath, body, cw...).ExpectStatus(t, 200)
	// Rejections and an unreachable engine.
	body = map[string]any{"bpmnXml": "<bpmn:definitions", "deploymentName": "broken"}
	msg := ta.c.Post(deployPath, body, cw...).ExpectError(t, 500, codeDeployFailed)
	if !strings.HasPrefix(msg, "Process deployment failed: ") {
		t.Errorf("message %q", msg)
	}
	body = map[string]any{"bpmnXml": plainBPMN, "deploymentName": "x", "operatonUrl": "http://127.0.0.1:1/engine-rest"}
	ta.c.Post(deployPath, body, cw...).ExpectError(t, 502, codeOperatonError)
}

func FuzzTagBoardOwner(f *testing.F) {
	f.Add(plainBPMN, "caseworker")
	f.Add(`<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"><bpmn:process/></bpmn:definitions>`, `a"b`)
	f.Fuzz(func(t *testing.T, xml, owner string) {
		_ = deriveBoardOwner(xml)
		out, err := tagBoardOwner(xml, owner)
		if err != nil {
			return
		}
		// Tagging is idempotent: the output tags again to the same owner.
		again, err := tagBoardOwner(out, owner)
		if err != nil {
			t.Fatalf("tagged output does not tag again: %v\n%s", err, out)
		}
		if strings.Count(again, "boardOwner") != strings.Count(out, "boardOwner") {
			t.Fatalf("retagging added properties:\n%s\n%s", out, again)
		}
	})
}
