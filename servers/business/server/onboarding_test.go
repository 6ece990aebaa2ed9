package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
)

// docsProcesses is the process side of the app, skipping without one.
func docsProcesses(t *testing.T, ta *testApp) engine.Processes {
	t.Helper()
	pe, err := ta.processEngine()
	if err != nil {
		t.Skip("the embedded engine runs no processes yet (engine/local runtime)")
	}
	return pe
}

// bundleRequest builds the deploy body of an example directory: its one
// .bpmn as bpmnXml, every .form and .document.
func bundleRequest(t *testing.T, dir, name string) map[string]any {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("../../../examples/processes", dir))
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"deploymentName": name}
	var forms, docs []any
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("../../../examples/processes", dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))
		switch filepath.Ext(e.Name()) {
		case ".bpmn":
			body["bpmnXml"] = string(data)
		case ".form":
			forms = append(forms, map[string]any{"id": base, "schema": json.RawMessage(data)})
		case ".document":
			docs = append(docs, map[string]any{"id": base, "template": json.RawMessage(data)})
		}
	}
	body["forms"], body["documents"] = forms, docs
	return body
}

// deployDMN deploys the example's decision models straight into the engine
// (the bundle route deploys processes, forms and templates).
func deployDMN(t *testing.T, ta *testApp, dir string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join("../../../examples/processes", dir, "*.dmn"))
	var rs []engine.Resource
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, engine.Resource{Name: filepath.Base(m), Data: data})
	}
	if _, err := ta.engine.Deploy(context.Background(), engine.NewDeployment{Name: dir + "-dmn", Resources: rs}); err != nil {
		t.Fatal(err)
	}
}

// completeTask finds the open task of instance at activity, claims and
// completes it with vars through /v1/task as the holder of h.
func completeTask(t *testing.T, ta *testApp, h []string, instance, activity string, vars map[string]any) {
	t.Helper()
	var tasks []taskItem
	ta.c.Get("/v1/task", h...).Data(t, 200, &tasks)
	for _, tk := range tasks {
		if tk.ProcessInstanceID == instance && tk.TaskDefinitionKey == activity {
			ta.c.Post("/v1/task/"+tk.ID+"/claim", nil, h...).ExpectStatus(t, 200)
			ta.c.Post("/v1/task/"+tk.ID+"/complete", map[string]any{"variables": vars}, h...).ExpectStatus(t, 200)
			return
		}
	}
	t.Fatalf("no open task %s of %s among %+v", activity, instance, tasks)
}

func staff(sub, tenant string, roles ...string) auth.TokenClaims {
	return auth.TokenClaims{Subject: sub, Municipality: tenant, Roles: roles, LoA: "hoog", Client: "ronl-frontend"}
}

func startProcess(t *testing.T, ta *testApp, h []string, key string, vars map[string]any) string {
	t.Helper()
	var started struct{ ProcessInstanceID string }
	ta.c.Post("/v1/process/"+key+"/start", map[string]any{"variables": vars}, h...).Data(t, 201, &started)
	if started.ProcessInstanceID == "" {
		t.Fatal("start answered no processInstanceId")
	}
	return started.ProcessInstanceID
}

// TestOnboardingEndToEnd: the onboarding bundle deployed through the bundle
// route runs (start form, decision, role review, notification with its
// document), then the HR routes read it, per tenant and role.
func TestOnboardingEndToEnd(t *testing.T) {
	ta := newTestApp(t, map[string]string{"DOCMGMT_WORKER_ENABLED": "false"})
	pe := docsProcesses(t, ta)
	deployDMN(t, ta, "onboarding")
	cw := bearer(ta.token(t, caseworker("utrecht")))
	var dep struct {
		DeploymentID  string
		ResourceCount int
	}
	ta.c.Post(deployPath, bundleRequest(t, "onboarding", "hr-onboarding"), cw...).Data(t, 200, &dep)
	if dep.DeploymentID == "" || dep.ResourceCount != 5 {
		t.Fatalf("deploy = %+v, want 5 resources (bpmn, 3 forms, 1 template)", dep)
	}
	def, err := pe.ProcessDefinitions(context.Background(), engine.ProcessDefinitionQuery{Key: onboardingProcessKey, DeploymentID: dep.DeploymentID})
	if err != nil || len(def) != 1 {
		t.Fatalf("deployed definitions %v %v", def, err)
	}
	xml, err := pe.ProcessDefinitionXML(context.Background(), def[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if owners := boardOwnerOf(t, xml); len(owners) != 1 || owners[0] != "caseworker" {
		t.Errorf("boardOwner of the deployed onboarding = %v, want [caseworker] (hr-medewerker groups)", owners)
	}

	// The start form comes from the deployment.
	var form struct{ ID string }
	ta.c.Get("/v1/process/HrOnboardingProcess/start-form", cw...).Data(t, 200, &form)
	if form.ID != "hr-onboarding-start" {
		t.Errorf("start form %q", form.ID)
	}
	id := startProcess(t, ta, cw, onboardingProcessKey, map[string]any{
		"employeeId": "emp-001", "firstName": "Sanne", "lastName": "de Vries", "role": "behandelaar", "startDate": "2026-12-01"})

	hr := bearer(ta.token(t, staff("hr-utrecht", "utrecht", "caseworker", "hr-medewerker")))
	// Not yet completed: no profile, an empty list.
	ta.c.Get("/v1/hr/onboarding/profile?employeeId=emp-001", hr...).ExpectError(t, 500, codeHRProfile)
	completeTask(t, ta, hr, id, "Activity_RolBeoordelen", map[string]any{"roleApproved": false, "reviewNote": "check"})
	completeTask(t, ta, hr, id, "Activity_RolBeoordelen", map[string]any{"roleApproved": true})
	completeTask(t, ta, hr, id, "Activity_Informeren", map[string]any{"employeeNotified": true})

	var docResp struct{ ID string }
	ta.c.Get("/v1/process/"+id+"/decision-document", hr...).Data(t, 200, &docResp)
	if docResp.ID != "hr-it-handover" {
		t.Errorf("decision document %q, want hr-it-handover", docResp.ID)
	}

	var completed []map[string]any
	ta.c.Get("/v1/hr/onboarding/completed", hr...).Data(t, 200, &completed)
	if len(completed) != 1 {
		t.Fatalf("completed = %v", completed)
	}
	c := completed[0]
	if c["id"] != id || c["employeeId"] != "emp-001" || c["firstName"] != "Sanne" || c["lastName"] != "de Vries" {
		t.Errorf("completed item = %v", c)
	}
	for _, k := range []string{"startTime", "endTime"} {
		if s, _ := c[k].(string); len(s) != len("2026-11-24T04:00:00.000+0000") {
			t.Errorf("%s = %v, want an engine date", k, c[k])
		}
	}

	var profile map[string]any
	ta.c.Get("/v1/hr/onboarding/profile?employeeId=emp-001", hr...).Data(t, 200, &profile)
	for k, want := range map[string]any{"employeeId": "emp-001", "role": "behandelaar", "laptopType": "standaard",
		"accessLevel": "zaaksysteem", "roleApproved": true, "employeeNotified": true, "municipality": "utrecht"} {
		if profile[k] != want {
			t.Errorf("profile.%s = %v, want %v", k, profile[k], want)
		}
	}
	// A caseworker reads their own record only.
	self := staff("cw-emp-001", "utrecht", "caseworker")
	self.EmployeeID = "emp-001"
	ta.c.Get("/v1/hr/onboarding/profile?employeeId=emp-001", bearer(ta.token(t, self))...).Data(t, 200, &profile)
	self.EmployeeID = "emp-002"
	ta.c.Get("/v1/hr/onboarding/profile?employeeId=emp-001", bearer(ta.token(t, self))...).ExpectError(t, 403, auth.CodeForbidden)
	ta.c.Get("/v1/hr/onboarding/profile", hr...).ExpectError(t, 400, codeValidation)
	ta.c.Get("/v1/hr/onboarding/profile?employeeId="+strings.Repeat("e", 201), hr...).ExpectError(t, 400, codeValidation)
	ta.c.Get("/v1/hr/onboarding/profile?employeeId=emp-999", hr...).ExpectError(t, 500, codeHRProfile)

	// Another municipality sees nothing of it.
	other := bearer(ta.token(t, staff("hr-amsterdam", "amsterdam", "caseworker", "hr-medewerker")))
	ta.c.Get("/v1/hr/onboarding/completed", other...).Data(t, 200, &completed)
	if len(completed) != 0 {
		t.Errorf("amsterdam sees %v", completed)
	}
	ta.c.Get("/v1/hr/onboarding/profile?employeeId=emp-001", other...).ExpectError(t, 500, codeHRProfile)
	// Roles and tenant.
	citizen := auth.TokenClaims{Subject: "c1", Municipality: "utrecht", Roles: []string{"citizen"}, LoA: "hoog"}
	ta.c.Get("/v1/hr/onboarding/completed", bearer(ta.token(t, citizen))...).ExpectError(t, 403, auth.CodeForbidden)
	ta.c.Get("/v1/hr/onboarding/completed", bearer(ta.token(t, machine("operaton-mcp-client")))...).ExpectError(t, 403, auth.CodeMissingTenant)
}

// TestHREngineDown: an engine that cannot be reached is 502 OPERATON_ERROR.
func TestHREngineDown(t *testing.T) {
	ta := newTestApp(t, map[string]string{"PROCESS_ENGINE_URL": "http://127.0.0.1:1/engine-rest", "PROCESS_ENGINE_TIMEOUT": "2000"})
	if _, err := ta.processEngine(); err != nil {
		t.Skip("the remote engine client runs no processes yet")
	}
	hr := bearer(ta.token(t, staff("hr-utrecht", "utrecht", "caseworker", "hr-medewerker")))
	ta.c.Get("/v1/hr/onboarding/completed", hr...).ExpectError(t, 502, codeOperatonError)
	ta.c.Get("/v1/rip/phase1/active", hr...).ExpectError(t, 502, codeOperatonError)
}
