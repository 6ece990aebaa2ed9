package enginetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// Processes is the behavioural suite of the process side: it runs
// against any engine.ProcessEngine (the embedded engine in memory or on
// PostgreSQL, or the embedded engine behind engine/rest through
// engine/operaton) using only the interface, so that all of them behave
// alike. newEngine returns a fresh, empty engine for each subtest.
// Expected values are written by hand from the models.
func Processes(t *testing.T, newEngine func(t *testing.T) engine.ProcessEngine) {
	for _, tc := range []struct {
		name string
		f    func(t *testing.T, e engine.ProcessEngine)
	}{
		{"OnboardingBundle", testOnboarding},
		{"LocalpassBundle", testLocalpass},
		{"ProjectphaseExternalTasks", testProjectphase},
		{"SubprocessCallActivity", testSubprocess},
		{"JUEL", testJUEL},
		{"ResultMappings", testResultMappings},
		{"FormBindings", testFormBindings},
		{"Tenants", testTenants},
		{"SuspensionAndCancellation", testSuspension},
		{"Claim", testClaim},
		{"TypedVariables", testTypedVariables},
		{"ParallelAndTerminate", testParallelTerminate},
		{"DeleteCalledInstance", testDeleteCalled},
		{"ScriptErrorBoundary", testScriptErrorBoundary},
		{"UnsupportedElement", testUnsupported},
		{"ExternalTaskRetries", testExternalRetries},
		{"Incidents", testIncidents},
		{"IncidentsUpTheCallChain", testRecursiveIncidents},
		{"DeployErrors", testDeployErrors},
		{"Deployments", testDeployments},
		{"MunicipalityFilter", testMunicipality},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.f(t, newEngine(t)) })
	}
}

var ctx = context.Background()

func deploy(t *testing.T, e engine.ProcessEngine, nd engine.NewDeployment) engine.Deployment {
	t.Helper()
	dep, err := e.Deploy(ctx, nd)
	if err != nil {
		t.Fatalf("deploy %s: %v", nd.Name, err)
	}
	return dep
}

func deployBundle(t *testing.T, e engine.ProcessEngine, name, tenant string) engine.Deployment {
	t.Helper()
	nd, err := Bundle(name)
	if err != nil {
		t.Fatal(err)
	}
	nd.TenantID = tenant
	return deploy(t, e, nd)
}

func deployXML(t *testing.T, e engine.ProcessEngine, tenant string, files ...string) engine.Deployment {
	t.Helper()
	nd := engine.NewDeployment{Name: "inline", TenantID: tenant}
	for i := 0; i+1 < len(files); i += 2 {
		nd.Resources = append(nd.Resources, engine.Resource{Name: files[i], Data: []byte(files[i+1])})
	}
	return deploy(t, e, nd)
}

func start(t *testing.T, e engine.ProcessEngine, s engine.StartProcess) engine.ProcessInstance {
	t.Helper()
	pi, err := e.StartProcess(ctx, s)
	if err != nil {
		t.Fatalf("start %s%s: %v", s.Key, s.DefinitionID, err)
	}
	return pi
}

// onlyTask returns the one open task of an instance, checking its key.
func onlyTask(t *testing.T, e engine.ProcessEngine, pid, key string) engine.Task {
	t.Helper()
	ts, err := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: pid})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].TaskDefinitionKey != key {
		var keys []string
		for _, x := range ts {
			keys = append(keys, x.TaskDefinitionKey)
		}
		t.Fatalf("open tasks of %s = %v, want only %s", pid, keys, key)
	}
	return ts[0]
}

func complete(t *testing.T, e engine.ProcessEngine, taskID string, vars engine.Variables) {
	t.Helper()
	if err := e.CompleteTask(ctx, taskID, vars); err != nil {
		t.Fatalf("complete %s: %v", taskID, err)
	}
}

// activities lists an instance's activity instances as "id:type" (with
// "!" for a canceled and "…" for an unfinished one), in start order.
func activities(t *testing.T, e engine.ProcessEngine, pid string) []string {
	t.Helper()
	as, err := e.HistoricActivities(ctx, engine.HistoricActivityQuery{ProcessInstanceID: pid})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		s := a.ActivityID + ":" + a.ActivityType
		if a.Canceled {
			s += "!"
		}
		if a.EndTime == nil {
			s += "…"
		}
		out = append(out, s)
	}
	return out
}

func checkStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

func history(t *testing.T, e engine.ProcessEngine, pid string) engine.HistoricProcessInstance {
	t.Helper()
	h, err := e.HistoricProcessInstance(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func checkState(t *testing.T, e engine.ProcessEngine, pid, want string) {
	t.Helper()
	h := history(t, e, pid)
	if h.State != want {
		t.Errorf("history state of %s = %s, want %s", pid, h.State, want)
	}
	if ended := want != engine.StateActive && want != engine.StateSuspended; ended != (h.EndTime != nil) {
		t.Errorf("history end time of %s = %v, want set: %v", pid, h.EndTime, ended)
	}
}

func checkEnded(t *testing.T, e engine.ProcessEngine, pid string) {
	t.Helper()
	_, err := e.ProcessInstance(ctx, pid)
	if !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("ProcessInstance(%s) after its end: %v, want not found", pid, err)
	}
}

func vars(t *testing.T, e engine.ProcessEngine, pid string) engine.Variables {
	t.Helper()
	vs, err := e.ProcessInstanceVariables(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func checkVar(t *testing.T, vs engine.Variables, name string, want engine.Variable) {
	t.Helper()
	got, ok := vs[name]
	if !ok {
		t.Errorf("variable %s missing (have %v)", name, vs)
		return
	}
	if !got.Equal(want) {
		t.Errorf("variable %s = %v, want %v", name, got, want)
	}
}

func jsonVar(t *testing.T, text string) engine.Variable {
	t.Helper()
	v, err := engine.JSON(json.RawMessage(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func formID(t *testing.T, f engine.Form) string {
	t.Helper()
	var x struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(f.Data, &x); err != nil {
		t.Fatalf("form is not form-js JSON: %v: %.60s", err, f.Data)
	}
	return x.ID
}

func engineError(t *testing.T, err error, status int, typ, msgPart string) {
	t.Helper()
	var ee *engine.Error
	if !errors.As(err, &ee) {
		t.Fatalf("error %v (%T), want *engine.Error %d %s", err, err, status, typ)
	}
	if ee.Status != status || ee.Type != typ || !strings.Contains(ee.Message, msgPart) {
		t.Errorf("error = %d %s %q, want %d %s containing %q", ee.Status, ee.Type, ee.Message, status, typ, msgPart)
	}
}

var municipality = func(m string) []engine.VariableFilter {
	return []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: m}}
}

// --- the example bundles

func testOnboarding(t *testing.T, e engine.ProcessEngine) {
	pd := onboardingDeploy(t, e)
	pi := onboardingStart(t, e, pd)
	first := onboardingTaskList(t, e)
	onboardingComplete(t, e, pi, first)
	onboardingHistory(t, e, pi)
	onboardingHistoricDecision(t, e, pi)
}

// onboardingDeploy deploys the onboarding bundle and checks its process
// definition and start form.
func onboardingDeploy(t *testing.T, e engine.ProcessEngine) engine.ProcessDefinition {
	t.Helper()
	dep := deployBundle(t, e, "onboarding", "")
	if len(dep.DeployedProcessDefinitions) != 1 {
		t.Fatalf("deployed process definitions = %+v, want 1", dep.DeployedProcessDefinitions)
	}
	pd := dep.DeployedProcessDefinitions[0]
	if pd.Key != "HrOnboardingProcess" || pd.Version != 1 || pd.Name != "Onboarding nieuwe medewerker" ||
		pd.HistoryTimeToLive == nil || *pd.HistoryTimeToLive != 180 || !strings.HasPrefix(pd.ID, "HrOnboardingProcess:1:") {
		t.Errorf("process definition = %+v", pd)
	}
	sf, err := e.StartForm(ctx, pd.ID)
	if err != nil || formID(t, sf) != "hr-onboarding-start" {
		t.Errorf("start form: %v %v, want hr-onboarding-start (binding deployment)", sf.ContentType, err)
	}
	return pd
}

// onboardingStart starts an onboarding and checks the variables the
// business rule task set.
func onboardingStart(t *testing.T, e engine.ProcessEngine, pd engine.ProcessDefinition) engine.ProcessInstance {
	t.Helper()
	pi := start(t, e, engine.StartProcess{Key: "HrOnboardingProcess", BusinessKey: "HR-1",
		Variables: engine.Variables{"role": engine.String("behandelaar"), "municipality": engine.String("utrecht")}})
	if pi.BusinessKey != "HR-1" || pi.DefinitionID != pd.ID || pi.Ended {
		t.Errorf("instance = %+v", pi)
	}
	vs := vars(t, e, pi.ID)
	checkVar(t, vs, "laptopType", engine.String("standaard"))
	checkVar(t, vs, "accessLevel", engine.String("zaaksysteem"))
	checkVar(t, vs, "itMiddelen", jsonVar(t, `{"laptopType":"standaard","accessLevel":"zaaksysteem"}`))
	return pi
}

// onboardingTaskList checks the task list of the business API
// (municipality and candidate group) and the review task's form; it
// returns the review task.
func onboardingTaskList(t *testing.T, e engine.ProcessEngine) engine.Task {
	t.Helper()
	q := engine.TaskQuery{ProcessVariables: municipality("utrecht"), CandidateGroups: []string{"hr-medewerker"}, IncludeAssignedTasks: true}
	ts, err := e.Tasks(ctx, q)
	if err != nil || len(ts) != 1 || ts[0].TaskDefinitionKey != "Activity_RolBeoordelen" || ts[0].Name != "Rol en toegang beoordelen" {
		t.Fatalf("task list = %+v, %v", ts, err)
	}
	for _, other := range []engine.TaskQuery{
		{ProcessVariables: municipality("amsterdam")},
		{CandidateGroups: []string{"caseworker"}},
	} {
		if n, err := e.TaskCount(ctx, other); err != nil || n != 0 {
			t.Errorf("TaskCount(%+v) = %d, %v; want 0", other, n, err)
		}
	}
	if fr := ts[0].FormRef; fr == nil || fr.Key != "hr-role-review" || fr.Binding != "latest" {
		t.Errorf("formRef = %+v", fr)
	}
	f, err := e.TaskForm(ctx, ts[0].ID)
	if err != nil || formID(t, f) != "hr-role-review" || f.ContentType != "application/json" {
		t.Errorf("task form: %v", err)
	}
	return ts[0]
}

// onboardingComplete rejects the role once (the default flow loops back to
// the review), approves it, informs, and checks the instance completed.
func onboardingComplete(t *testing.T, e engine.ProcessEngine, pi engine.ProcessInstance, first engine.Task) {
	t.Helper()
	complete(t, e, first.ID, engine.Variables{"roleApproved": engine.Boolean(false)})
	review := onlyTask(t, e, pi.ID, "Activity_RolBeoordelen")
	complete(t, e, review.ID, engine.Variables{"roleApproved": engine.Boolean(true)})
	inform := onlyTask(t, e, pi.ID, "Activity_Informeren")
	complete(t, e, inform.ID, nil)
	checkEnded(t, e, pi.ID)
	checkState(t, e, pi.ID, engine.StateCompleted)
}

// onboardingHistory checks the completed instance's history: the
// instance, its activities and its finished tasks.
func onboardingHistory(t *testing.T, e engine.ProcessEngine, pi engine.ProcessInstance) {
	t.Helper()
	h := history(t, e, pi.ID)
	if h.BusinessKey != "HR-1" || h.StartActivityID != "StartEvent_Onboarding" || h.ProcessDefinitionKey != "HrOnboardingProcess" ||
		h.ProcessDefinitionVersion != 1 || h.SuperProcessInstanceID != "" || h.RootProcessInstanceID != pi.ID {
		t.Errorf("historic instance = %+v", h)
	}
	checkStrings(t, "activities", activities(t, e, pi.ID), []string{
		"StartEvent_Onboarding:startEvent", "Activity_ItToegang:businessRuleTask", "Activity_RolBeoordelen:userTask",
		"Gateway_Akkoord:exclusiveGateway", "Activity_RolBeoordelen:userTask", "Gateway_Akkoord:exclusiveGateway",
		"Activity_Informeren:userTask", "EndEvent_Onboarded:noneEndEvent"})
	hts, err := e.HistoricTasks(ctx, engine.HistoricTaskQuery{ProcessInstanceID: pi.ID, Finished: true, ProcessVariables: municipality("utrecht")})
	if err != nil || len(hts) != 3 {
		t.Fatalf("historic tasks = %+v, %v; want 3 finished", hts, err)
	}
	for _, ht := range hts {
		if ht.DeleteReason != "completed" || ht.EndTime == nil {
			t.Errorf("historic task %s: deleteReason %q end %v", ht.TaskDefinitionKey, ht.DeleteReason, ht.EndTime)
		}
	}
}

// onboardingHistoricDecision checks the history of the IT access decision
// and of the variable roleApproved.
func onboardingHistoricDecision(t *testing.T, e engine.ProcessEngine, pi engine.ProcessInstance) {
	t.Helper()
	ds, err := e.HistoricDecisions(ctx, engine.HistoricDecisionQuery{ProcessInstanceID: pi.ID, IncludeInputs: true, IncludeOutputs: true})
	if err != nil || len(ds) != 1 {
		t.Fatalf("historic decisions = %+v, %v", ds, err)
	}
	d := ds[0]
	if d.DecisionDefinitionKey != "HrOnboardingItAccess" || d.ActivityID != "Activity_ItToegang" || d.ProcessDefinitionKey != "HrOnboardingProcess" {
		t.Errorf("historic decision = %+v", d)
	}
	if len(d.Inputs) != 1 || d.Inputs[0].ClauseName != "Rol" || !d.Inputs[0].Value.Equal(engine.String("behandelaar")) {
		t.Errorf("decision inputs = %+v", d.Inputs)
	}
	var outs []string
	for _, o := range d.Outputs {
		outs = append(outs, fmt.Sprintf("%s=%v#%d", o.VariableName, o.Value.Value, o.RuleOrder))
	}
	checkStrings(t, "decision outputs", outs, []string{"laptopType=standaard#1", "accessLevel=zaaksysteem#1"})
	hv, err := e.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: pi.ID, VariableName: "roleApproved"})
	if err != nil || len(hv) != 1 || !hv[0].Value.Equal(engine.Boolean(true)) {
		t.Errorf("historic variable roleApproved = %+v, %v; want one row with the latest value true", hv, err)
	}
}

func testLocalpass(t *testing.T, e engine.ProcessEngine) {
	rs, err := LocalPass()
	if err != nil {
		t.Fatal(err)
	}
	// the models untenanted, the process in a tenant: decisionRefTenantId="${null}"
	deploy(t, e, engine.NewDeployment{Name: "localpass-models", Resources: rs})
	deployBundle(t, e, "localpass", "utrecht")
	base := engine.Variables{"municipality": engine.String("utrecht"), "dagVanAanvraag": engine.String("2025-12-24"),
		"geboortedatumAanvrager": engine.String("1980-01-23"), "aanvragerHeeftKinderen": engine.Boolean(true),
		"aanvragerInwonerMunicipality": engine.Boolean(true), "aanvragerHeeftKind4Tm17": engine.Boolean(true),
		"maandelijksBrutoInkomenAanvrager": engine.Integer(1500), "geboortedatumPartner": engine.Null(), "aanvragerUitkeringBaanbrekers": engine.Boolean(false),
		"aanvragerVoedselbankpasCity": engine.Boolean(false), "aanvragerKwijtscheldingGemeentelijkeBelastingen": engine.Boolean(false),
		"aanvragerSchuldhulptrajectCreditBank": engine.Boolean(false), "aanvragerDitKalenderjaarAlAangevraagd": engine.Boolean(false),
		"aanvragerAanmerkingStudieFinanciering": engine.Boolean(false)}
	pi := start(t, e, engine.StartProcess{Key: "LocalpassAanvraagProcess", TenantID: "utrecht", BusinessKey: "LP-1", Variables: base})
	if pi.TenantID != "utrecht" {
		t.Errorf("tenant = %q", pi.TenantID)
	}
	vs := vars(t, e, pi.ID)
	// the worked example of the local-pass chain (engine/local's localpass tests)
	checkVar(t, vs, "aanvragerAlleenstaand", engine.Boolean(true))
	checkVar(t, vs, "aanvragerIsTenminste21", engine.Boolean(true))
	checkVar(t, vs, "toepasselijkeNorm", engine.String("MK"))
	task := onlyTask(t, e, pi.ID, "Activity_Beoordelen")
	if task.TenantID != "utrecht" {
		t.Errorf("task tenant = %q", task.TenantID)
	}
	f, err := e.TaskForm(ctx, task.ID)
	if err != nil || formID(t, f) != "localpass-beoordeling" {
		t.Errorf("task form: %v", err)
	}
	complete(t, e, task.ID, engine.Variables{"besluit": engine.String("toegekend")})
	checkState(t, e, pi.ID, engine.StateCompleted)
	acts := activities(t, e, pi.ID)
	if len(acts) == 0 || acts[len(acts)-1] != "EndEvent_Toegekend:noneEndEvent" {
		t.Errorf("activities = %v, want the end EndEvent_Toegekend", acts)
	}
	// a high income: not eligible, the default flow ends at once
	rich := engine.Variables{}
	for k, v := range base {
		rich[k] = v
	}
	rich["maandelijksBrutoInkomenAanvrager"] = engine.Integer(5000)
	pi2 := start(t, e, engine.StartProcess{Key: "LocalpassAanvraagProcess", TenantID: "utrecht", Variables: rich})
	if !pi2.Ended {
		t.Errorf("instance with a high income did not end: %+v", pi2)
	}
	acts = activities(t, e, pi2.ID)
	if len(acts) == 0 || acts[len(acts)-1] != "EndEvent_Afgewezen:noneEndEvent" {
		t.Errorf("activities = %v, want the end EndEvent_Afgewezen", acts)
	}
	ds, _ := e.HistoricDecisions(ctx, engine.HistoricDecisionQuery{ProcessInstanceID: pi2.ID})
	var keys []string
	for _, d := range ds {
		keys = append(keys, d.DecisionDefinitionKey)
		if d.TenantID != "" {
			t.Errorf("decision %s evaluated in tenant %q, want the untenanted model", d.DecisionDefinitionKey, d.TenantID)
		}
	}
	checkStrings(t, "decisions", keys, []string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "RONL_LocalpassEindresultaat"})
}

func testProjectphase(t *testing.T, e engine.ProcessEngine) {
	deployBundle(t, e, "projectphase", "")
	pi := start(t, e, engine.StartProcess{Key: "RipPhase1Process", BusinessKey: "RIP-7",
		Variables: engine.Variables{"projectNumber": engine.String("P-7"), "projectName": engine.String("Brug")}})
	// nothing for another topic
	none, err := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w1", MaxTasks: 5, Topics: []engine.FetchTopic{{TopicName: "other", LockDuration: time.Minute}}})
	if err != nil || len(none) != 0 {
		t.Fatalf("fetch other topic = %+v, %v", none, err)
	}
	fetch := func(worker, topic string, names []string) engine.LockedExternalTask {
		t.Helper()
		got, err := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: worker, MaxTasks: 5,
			Topics: []engine.FetchTopic{{TopicName: topic, LockDuration: time.Minute, Variables: names}}})
		if err != nil || len(got) != 1 {
			t.Fatalf("fetch %s = %+v, %v; want one task", topic, got, err)
		}
		return got[0]
	}
	x := fetch("w1", "rip-edocs-workspace", nil)
	if x.ActivityID != "Activity_Werkruimte" || x.WorkerID != "w1" || x.BusinessKey != "RIP-7" || x.ProcessInstanceID != pi.ID ||
		x.ProcessDefinitionKey != "RipPhase1Process" || x.TopicName != "rip-edocs-workspace" {
		t.Errorf("locked task = %+v", x)
	}
	checkVar(t, x.Variables, "workspaceName", engine.String("P-7 Brug"))
	checkVar(t, x.Variables, "projectNumber", engine.String("P-7"))
	// locked: a second worker gets nothing
	if again, _ := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w2", MaxTasks: 5,
		Topics: []engine.FetchTopic{{TopicName: "rip-edocs-workspace", LockDuration: time.Minute}}}); len(again) != 0 {
		t.Errorf("a locked task was fetched again: %+v", again)
	}
	err = e.CompleteExternalTask(ctx, x.ID, engine.CompleteExternalTask{WorkerID: "w2"})
	engineError(t, err, 400, "BadUserRequestException", "cannot be completed by worker 'w2'")
	if err := e.ExtendLock(ctx, x.ID, "w1", 2*time.Minute); err != nil {
		t.Errorf("extend lock: %v", err)
	}
	if err := e.CompleteExternalTask(ctx, x.ID, engine.CompleteExternalTask{WorkerID: "w1",
		Variables: engine.Variables{"docmgmtWorkspaceId": engine.String("ws-42")}}); err != nil {
		t.Fatal(err)
	}
	// the loser of a race, or a second completion: not found
	err = e.CompleteExternalTask(ctx, x.ID, engine.CompleteExternalTask{WorkerID: "w1"})
	if !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("second completion: %v, want not found", err)
	}
	intake := onlyTask(t, e, pi.ID, "Activity_Intake")
	complete(t, e, intake.ID, nil)
	doc := fetch("w1", "rip-edocs-document", []string{"documentTemplateId", "workspaceId"})
	if len(doc.Variables) != 2 {
		t.Errorf("variables = %v, want only the two asked for", doc.Variables)
	}
	checkVar(t, doc.Variables, "documentTemplateId", engine.String("rip-intake-report"))
	checkVar(t, doc.Variables, "workspaceId", engine.String("ws-42"))
	if err := e.CompleteExternalTask(ctx, doc.ID, engine.CompleteExternalTask{WorkerID: "w1"}); err != nil {
		t.Fatal(err)
	}
	onlyTask(t, e, pi.ID, "Activity_Psu")

	// the error boundary event: document management unreachable
	pi2 := start(t, e, engine.StartProcess{Key: "RipPhase1Process", Variables: engine.Variables{
		"projectNumber": engine.String("P-8"), "projectName": engine.String("Tunnel")}})
	x2 := fetch("w1", "rip-edocs-workspace", nil)
	if x2.ProcessInstanceID != pi2.ID {
		t.Fatalf("fetched %s, want the task of %s", x2.ProcessInstanceID, pi2.ID)
	}
	if err := e.ExternalTaskBPMNError(ctx, x2.ID, engine.ExternalTaskBPMNError{WorkerID: "w1", ErrorCode: "DOCMGMT_UNAVAILABLE",
		Variables: engine.Variables{"reden": engine.String("timeout")}}); err != nil {
		t.Fatal(err)
	}
	onlyTask(t, e, pi2.ID, "Activity_WerkruimteHandmatig")
	checkVar(t, vars(t, e, pi2.ID), "reden", engine.String("timeout"))
	checkStrings(t, "activities after the BPMN error", activities(t, e, pi2.ID), []string{
		"StartEvent_Project:startEvent", "Activity_Werkruimte:serviceTask!", "Event_WerkruimteMislukt:boundaryError",
		"Activity_WerkruimteHandmatig:userTask…"})
}

func testSubprocess(t *testing.T, e engine.ProcessEngine) {
	dep := deployBundle(t, e, "subprocess", "")
	if len(dep.DeployedProcessDefinitions) != 2 {
		t.Fatalf("deployed %+v, want two processes", dep.DeployedProcessDefinitions)
	}
	for _, pd := range dep.DeployedProcessDefinitions {
		if pd.Key == "BoomInspectieProcess" && pd.HistoryTimeToLive != nil {
			t.Errorf("BoomInspectieProcess has no historyTimeToLive, got %d", *pd.HistoryTimeToLive)
		}
	}
	parent := start(t, e, engine.StartProcess{Key: "KapvergunningProcess", BusinessKey: "KAP-3",
		Variables: engine.Variables{"municipality": engine.String("utrecht"), "boomSoort": engine.String("eik")}})
	children, err := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: parent.ID})
	if err != nil || len(children) != 1 {
		t.Fatalf("children = %+v, %v", children, err)
	}
	child := children[0]
	if child.DefinitionKey != "BoomInspectieProcess" || child.BusinessKey != "KAP-3" {
		t.Errorf("child = %+v, want BoomInspectieProcess with the business key KAP-3", child)
	}
	checkVar(t, vars(t, e, child.ID), "boomSoort", engine.String("eik"))
	inspect := onlyTask(t, e, child.ID, "Activity_Inspecteren")
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{CandidateGroup: "boominspecteur", ProcessVariables: municipality("utrecht")}); n != 1 {
		t.Errorf("inspector's task list has %d tasks, want 1", n)
	}
	complete(t, e, inspect.ID, engine.Variables{"boomGezond": engine.Boolean(false)})
	checkEnded(t, e, child.ID)
	checkState(t, e, child.ID, engine.StateCompleted)
	hc := history(t, e, child.ID)
	if hc.SuperProcessInstanceID != parent.ID || hc.RootProcessInstanceID != parent.ID {
		t.Errorf("child history super %q root %q, want %s", hc.SuperProcessInstanceID, hc.RootProcessInstanceID, parent.ID)
	}
	checkStrings(t, "child activities", activities(t, e, child.ID), []string{
		"StartEvent_Inspectie:startEvent", "Gateway_Split:parallelGateway", "Activity_Bezoek:subProcess",
		"StartEvent_Bezoek:startEvent", "Activity_Inspecteren:userTask", "Activity_Flora:manualTask",
		"Gateway_Join:parallelGateway", "Activity_Verslag:scriptTask", "EndEvent_Bezoek:noneEndEvent",
		"Gateway_Join:parallelGateway", "EndEvent_Inspectie:noneEndEvent"})
	// activities inside the embedded sub-process hang under its activity instance
	cas, _ := e.HistoricActivities(ctx, engine.HistoricActivityQuery{ProcessInstanceID: child.ID})
	parentOf := map[string]string{}
	actID := map[string]string{}
	for _, a := range cas {
		parentOf[a.ActivityID] = a.ParentActivityInstanceID
		actID[a.ActivityID] = a.ID
		if a.ProcessDefinitionKey != "BoomInspectieProcess" || a.EndTime == nil || a.DurationInMillis == nil {
			t.Errorf("activity %s: %+v", a.ActivityID, a)
		}
	}
	for _, inner := range []string{"StartEvent_Bezoek", "Activity_Inspecteren", "Activity_Verslag", "EndEvent_Bezoek"} {
		if parentOf[inner] != actID["Activity_Bezoek"] {
			t.Errorf("parent of %s = %q, want the sub-process's activity instance %q", inner, parentOf[inner], actID["Activity_Bezoek"])
		}
	}
	for _, outer := range []string{"StartEvent_Inspectie", "Activity_Bezoek", "Activity_Flora"} {
		if parentOf[outer] != child.ID {
			t.Errorf("parent of %s = %q, want the process instance %q", outer, parentOf[outer], child.ID)
		}
	}
	hts, _ := e.HistoricTasks(ctx, engine.HistoricTaskQuery{ProcessInstanceID: child.ID})
	if len(hts) != 1 || hts[0].TaskDefinitionKey != "Activity_Inspecteren" || hts[0].DeleteReason != "completed" ||
		hts[0].ProcessDefinitionKey != "BoomInspectieProcess" || hts[0].RootProcessInstanceID != parent.ID || hts[0].ActivityInstanceID != actID["Activity_Inspecteren"] {
		t.Errorf("historic task = %+v", hts)
	}
	// variables="all" out: the child's variables are the parent's now
	pv := vars(t, e, parent.ID)
	checkVar(t, pv, "inspectieAfgerond", engine.Boolean(true))
	checkVar(t, pv, "inspectieDatum", engine.String("onbekend"))
	checkVar(t, pv, "boomGezond", engine.Boolean(false))
	review := onlyTask(t, e, parent.ID, "Activity_Beoordelen")
	f, err := e.TaskForm(ctx, review.ID)
	if err != nil || formID(t, f) != "tree-felling-review" {
		t.Errorf("task form: %v", err)
	}
	complete(t, e, review.ID, nil)
	checkState(t, e, parent.ID, engine.StateCompleted)
	acts, _ := e.HistoricActivities(ctx, engine.HistoricActivityQuery{ProcessInstanceID: parent.ID, ActivityID: "Activity_Inspectie"})
	if len(acts) != 1 || acts[0].CalledProcessInstanceID != child.ID {
		t.Errorf("call activity history = %+v, want calledProcessInstanceId %s", acts, child.ID)
	}
}

// --- inline models

// bpmnDoc wraps process XML in a definitions element with the Camunda
// namespace and extra top-level elements (errors, signals).
func bpmnDoc(top, processes string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="Defs" targetNamespace="http://regelkit.test/bpmn">
` + top + processes + `
</bpmn:definitions>`
}

// proc is an executable process; body holds its elements and flows.
func proc(id, body string) string {
	return `<bpmn:process id="` + id + `" isExecutable="true" camunda:historyTimeToLive="30">` + body + `</bpmn:process>`
}

// flow is a sequence flow, with an optional condition.
func flow(id, from, to, cond string) string {
	if cond == "" {
		return `<bpmn:sequenceFlow id="` + id + `" sourceRef="` + from + `" targetRef="` + to + `"/>`
	}
	return `<bpmn:sequenceFlow id="` + id + `" sourceRef="` + from + `" targetRef="` + to + `"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">` + cond + `</bpmn:conditionExpression></bpmn:sequenceFlow>`
}

// chain links elements with flows f1, f2, … in order.
func chain(ids ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(ids); i++ {
		b.WriteString(flow(fmt.Sprintf("f%d_%s", i+1, ids[i]), ids[i], ids[i+1], ""))
	}
	return b.String()
}

func testJUEL(t *testing.T, e engine.ProcessEngine) {
	outputs := map[string]string{
		"isEq": `${a == 1}`, "neq": `${a != 2}`, "andWords": `${t and !f}`, "andSymbols": `${t &amp;&amp; not f}`,
		"orWords": `${f or t}`, "emptyString": `${empty s}`, "emptyList": `${empty lst}`, "notEmpty": `${not empty obj}`,
		"dotted": `${obj.inner.x}`, "index": `${obj.items[1]}`, "has": `${execution.hasVariable('a')}`,
		"hasNot": `${execution.hasVariable('zz')}`, "getVariable": `${execution.getVariable('s2')}`, "nullValue": `${null}`,
		"arith": `${a + 2 * 3}`, "lessThan": `${a lt 2}`, "ternary": `${a == 1 ? 'one' : 'other'}`,
		"text": `Nr ${a}!`, "literal": `plain`, "businessKey": `${execution.processBusinessKey}`,
		"division": `${7 / 2}`, "javaEquals": `${s2 eq 'twee'}`,
	}
	var params strings.Builder
	names := make([]string, 0, len(outputs))
	for n := range outputs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		params.WriteString(`<camunda:outputParameter name="` + n + `">` + outputs[n] + `</camunda:outputParameter>`)
	}
	xml := bpmnDoc("", proc("Juel", `<bpmn:startEvent id="s"/>
<bpmn:task id="calc"><bpmn:extensionElements><camunda:inputOutput>`+params.String()+`</camunda:inputOutput></bpmn:extensionElements></bpmn:task>
<bpmn:exclusiveGateway id="gw" default="toB"/>
<bpmn:endEvent id="endA"/><bpmn:endEvent id="endB"/>`+chain("s", "calc", "gw")+
		flow("toA", "gw", "endA", `${isEq &amp;&amp; dotted == 7 &amp;&amp; execution.hasVariable('t')}`)+flow("toB", "gw", "endB", "")))
	deployXML(t, e, "", "juel.bpmn", xml)
	pi := start(t, e, engine.StartProcess{Key: "Juel", BusinessKey: "BK-9", WithVariablesInReturn: true, Variables: engine.Variables{
		"a": engine.Integer(1), "t": engine.Boolean(true), "f": engine.Boolean(false), "s": engine.String(""),
		"s2": engine.String("twee"), "lst": jsonVar(t, `[]`), "obj": jsonVar(t, `{"inner":{"x":7},"items":["p","q"]}`)}})
	if !pi.Ended {
		t.Fatalf("instance did not end: %+v", pi)
	}
	hv, err := e.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: pi.ID})
	if err != nil {
		t.Fatal(err)
	}
	got := engine.Variables{}
	for _, h := range hv {
		got[h.Name] = h.Value
	}
	for name, want := range map[string]engine.Variable{
		"isEq": engine.Boolean(true), "neq": engine.Boolean(true), "andWords": engine.Boolean(true), "andSymbols": engine.Boolean(true),
		"orWords": engine.Boolean(true), "emptyString": engine.Boolean(true), "emptyList": engine.Boolean(true),
		"notEmpty": engine.Boolean(true), "dotted": engine.Integer(7), "index": engine.String("q"), "has": engine.Boolean(true),
		"hasNot": engine.Boolean(false), "getVariable": engine.String("twee"), "nullValue": engine.Null(),
		"arith": engine.Integer(7), "lessThan": engine.Boolean(true), "ternary": engine.String("one"),
		"text": engine.String("Nr 1!"), "literal": engine.String("plain"), "businessKey": engine.String("BK-9"),
		"division": engine.Double(3.5), "javaEquals": engine.Boolean(true),
	} {
		checkVar(t, got, name, want)
	}
	acts := activities(t, e, pi.ID)
	if len(acts) == 0 || acts[len(acts)-1] != "endA:noneEndEvent" {
		t.Errorf("activities = %v, want the condition to lead to endA", acts)
	}
}

const mappingDMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="maps" name="maps" namespace="http://regelkit.test/dmn">
  <decision id="single" name="single"><decisionTable id="t1">
    <input id="i1"><inputExpression id="ie1" typeRef="string"><text>kind</text></inputExpression></input>
    <output id="o1" name="x" typeRef="string"/>
    <rule id="r1"><inputEntry id="e1"><text></text></inputEntry><outputEntry id="oe1"><text>"een"</text></outputEntry></rule>
  </decisionTable></decision>
  <decision id="pair" name="pair"><decisionTable id="t2">
    <input id="i2"><inputExpression id="ie2" typeRef="string"><text>kind</text></inputExpression></input>
    <output id="o2" name="x" typeRef="string"/><output id="o3" name="y" typeRef="integer"/>
    <rule id="r2"><inputEntry id="e2"><text></text></inputEntry><outputEntry id="oe2"><text>"een"</text></outputEntry><outputEntry id="oe3"><text>2</text></outputEntry></rule>
  </decisionTable></decision>
  <decision id="multi" name="multi"><decisionTable id="t3" hitPolicy="COLLECT">
    <input id="i3"><inputExpression id="ie3" typeRef="string"><text>kind</text></inputExpression></input>
    <output id="o4" name="x" typeRef="string"/>
    <rule id="r3"><inputEntry id="e3"><text></text></inputEntry><outputEntry id="oe4"><text>"a"</text></outputEntry></rule>
    <rule id="r4"><inputEntry id="e4"><text></text></inputEntry><outputEntry id="oe5"><text>"b"</text></outputEntry></rule>
  </decisionTable></decision>
  <decision id="rows" name="rows"><decisionTable id="t4" hitPolicy="COLLECT">
    <input id="i4"><inputExpression id="ie4" typeRef="string"><text>kind</text></inputExpression></input>
    <output id="o5" name="x" typeRef="string"/><output id="o6" name="y" typeRef="integer"/>
    <rule id="r5"><inputEntry id="e5"><text></text></inputEntry><outputEntry id="oe6"><text>"a"</text></outputEntry><outputEntry id="oe7"><text>1</text></outputEntry></rule>
    <rule id="r6"><inputEntry id="e6"><text></text></inputEntry><outputEntry id="oe8"><text>"b"</text></outputEntry><outputEntry id="oe9"><text>2</text></outputEntry></rule>
  </decisionTable></decision>
</definitions>`

func ruleTask(id, decision, mapping, result, extra string) string {
	return `<bpmn:businessRuleTask id="` + id + `" camunda:decisionRef="` + decision + `" camunda:mapDecisionResult="` + mapping +
		`" camunda:resultVariable="` + result + `">` + extra + `</bpmn:businessRuleTask>`
}

func testResultMappings(t *testing.T, e engine.ProcessEngine) {
	getEntry := `<bpmn:extensionElements><camunda:inputOutput><camunda:outputParameter name="y2">${decisionResult.getSingleResult().getEntry("y")}</camunda:outputParameter></camunda:inputOutput></bpmn:extensionElements>`
	xml := bpmnDoc("", proc("Maps", `<bpmn:startEvent id="s"/>`+
		ruleTask("r1", "single", "singleEntry", "entry", "")+ruleTask("r2", "pair", "singleResult", "result", getEntry)+
		ruleTask("r3", "multi", "collectEntries", "entries", "")+ruleTask("r4", "rows", "resultList", "list", "")+
		`<bpmn:userTask id="wait"/><bpmn:endEvent id="end"/>`+chain("s", "r1", "r2", "r3", "r4", "wait", "end")))
	deployXML(t, e, "", "maps.bpmn", xml, "maps.dmn", mappingDMN)
	pi := start(t, e, engine.StartProcess{Key: "Maps", Variables: engine.Variables{"kind": engine.String("k")}})
	vs := vars(t, e, pi.ID)
	checkVar(t, vs, "entry", engine.String("een"))
	checkVar(t, vs, "result", jsonVar(t, `{"x":"een","y":2}`))
	checkVar(t, vs, "y2", engine.Integer(2))
	checkVar(t, vs, "entries", jsonVar(t, `["a","b"]`))
	checkVar(t, vs, "list", jsonVar(t, `[{"x":"a","y":1},{"x":"b","y":2}]`))
	ds, err := e.HistoricDecisions(ctx, engine.HistoricDecisionQuery{ProcessInstanceID: pi.ID, ActivityIDIn: []string{"r4"}, IncludeOutputs: true})
	if err != nil || len(ds) != 1 || len(ds[0].Outputs) != 4 {
		t.Fatalf("historic decision of r4 = %+v, %v; want 4 outputs", ds, err)
	}
	if o := ds[0].Outputs[3]; o.VariableName != "y" || o.RuleOrder != 2 || !o.Value.Equal(engine.Integer(2)) {
		t.Errorf("last output = %+v", o)
	}
	if ds[0].Inputs != nil {
		t.Errorf("inputs without IncludeInputs: %+v", ds[0].Inputs)
	}
}

func testFormBindings(t *testing.T, e engine.ProcessEngine) {
	xml := bpmnDoc("", proc("Forms", `<bpmn:startEvent id="s" camunda:formRef="f" camunda:formRefBinding="deployment"/>
<bpmn:userTask id="byDeployment" camunda:formRef="f" camunda:formRefBinding="deployment"/>
<bpmn:userTask id="byLatest" camunda:formRef="f"/>
<bpmn:userTask id="byVersion" camunda:formRef="f" camunda:formRefBinding="version" camunda:formRefVersion="1"/>
<bpmn:userTask id="embedded" camunda:formKey="embedded:deployment:forms/review.html"/>
<bpmn:userTask id="none"/>
<bpmn:endEvent id="end"/>`+chain("s", "byDeployment", "byLatest", "byVersion", "embedded", "none", "end")))
	dep := deployXML(t, e, "", "forms.bpmn", xml, "f.form", `{"id":"f","title":"v1","components":[]}`,
		"forms/review.html", `<form>review</form>`)
	deployXML(t, e, "", "f.form", `{"id":"f","title":"v2","components":[]}`)
	title := func(f engine.Form, err error) string {
		t.Helper()
		if err != nil {
			t.Fatalf("form: %v", err)
		}
		var x struct{ Title string }
		if err := json.Unmarshal(f.Data, &x); err != nil {
			t.Fatalf("form %q: %v", f.Data, err)
		}
		return x.Title
	}
	if got := title(e.StartForm(ctx, dep.DeployedProcessDefinitions[0].ID)); got != "v1" {
		t.Errorf("start form (deployment) = %s, want v1", got)
	}
	pi := start(t, e, engine.StartProcess{Key: "Forms"})
	for _, step := range []struct{ task, want string }{{"byDeployment", "v1"}, {"byLatest", "v2"}, {"byVersion", "v1"}} {
		task := onlyTask(t, e, pi.ID, step.task)
		if got := title(e.TaskForm(ctx, task.ID)); got != step.want {
			t.Errorf("%s: form %s, want %s", step.task, got, step.want)
		}
		complete(t, e, task.ID, nil)
	}
	task := onlyTask(t, e, pi.ID, "embedded")
	if task.FormKey != "embedded:deployment:forms/review.html" {
		t.Errorf("formKey = %q", task.FormKey)
	}
	f, err := e.TaskForm(ctx, task.ID)
	if err != nil || string(f.Data) != `<form>review</form>` {
		t.Errorf("embedded form = %q, %v", f.Data, err)
	}
	complete(t, e, task.ID, nil)
	task = onlyTask(t, e, pi.ID, "none")
	if _, err := e.TaskForm(ctx, task.ID); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("form of a task without one: %v, want not found", err)
	}
}

func tenantProcess(key, who, extra string) string {
	return bpmnDoc("", proc(key, `<bpmn:startEvent id="s"/><bpmn:scriptTask id="mark" scriptFormat="javascript"><bpmn:script>execution.setVariable("who", "`+who+`");</bpmn:script></bpmn:scriptTask>`+
		extra+`<bpmn:userTask id="wait"/><bpmn:endEvent id="end"/>`))
}

func testTenants(t *testing.T, e engine.ProcessEngine) {
	flows := chain("s", "mark", "wait", "end")
	for _, tenant := range []string{"", "a", "b"} {
		deployXML(t, e, tenant, "t.bpmn", tenantProcess("T", or(tenant, "none"), flows))
	}
	for _, tenant := range []string{"", "a", "b"} {
		d, err := e.LatestProcessDefinition(ctx, "T", tenant)
		if err != nil || d.TenantID != tenant || d.Version != 1 {
			t.Errorf("latest T of %q = %+v, %v", tenant, d, err)
		}
	}
	_, err := e.LatestProcessDefinition(ctx, "T", "c")
	engineError(t, err, 404, "RestException", "No matching process definition with key: T and tenant-id: c")
	_, err = e.StartProcess(ctx, engine.StartProcess{Key: "missing"})
	engineError(t, err, 404, "RestException", "No matching process definition with key: missing and no tenant-id")
	defs, err := e.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{Key: "T", LatestVersion: true, SortBy: "tenantId", SortOrder: "asc"})
	if err != nil || len(defs) != 3 {
		t.Errorf("latest versions of T = %+v, %v; want one per tenant", defs, err)
	}
	for _, tenant := range []string{"", "a", "b"} {
		pi := start(t, e, engine.StartProcess{Key: "T", TenantID: tenant})
		checkVar(t, vars(t, e, pi.ID), "who", engine.String(or(tenant, "none")))
	}
	// called process and decision: the caller's tenant first, then none
	deployXML(t, e, "", "sub.bpmn", tenantProcess("Sub", "sub-none", chain("s", "mark", "wait", "end")),
		"maps.dmn", mappingDMN)
	deployXML(t, e, "b", "sub.bpmn", tenantProcess("Sub", "sub-b", chain("s", "mark", "wait", "end")))
	caller := bpmnDoc("", proc("Caller", `<bpmn:startEvent id="s"/><bpmn:callActivity id="call" calledElement="Sub"/>`+
		ruleTask("rule", "single", "singleEntry", "entry", "")+
		`<bpmn:businessRuleTask id="ruleNull" camunda:decisionRef="single" camunda:decisionRefTenantId="${null}" camunda:mapDecisionResult="singleEntry" camunda:resultVariable="entryNull"/>`+
		`<bpmn:endEvent id="end"/>`+chain("s", "rule", "ruleNull", "call", "end")))
	for _, tc := range []struct{ tenant, want string }{{"a", "sub-none"}, {"b", "sub-b"}} {
		deployXML(t, e, tc.tenant, "caller.bpmn", caller)
		pi := start(t, e, engine.StartProcess{Key: "Caller", TenantID: tc.tenant, Variables: engine.Variables{"kind": engine.String("k")}})
		checkVar(t, vars(t, e, pi.ID), "entry", engine.String("een"))
		checkVar(t, vars(t, e, pi.ID), "entryNull", engine.String("een"))
		subs, err := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: pi.ID})
		if err != nil || len(subs) != 1 {
			t.Fatalf("called instances = %+v, %v", subs, err)
		}
		if subs[0].TenantID != tc.tenant && !(tc.want == "sub-none" && subs[0].TenantID == "") {
			t.Errorf("called instance tenant = %q", subs[0].TenantID)
		}
		checkVar(t, vars(t, e, subs[0].ID), "who", engine.String(tc.want))
	}
}

// waitProcess: start → user task "task" (candidate group g, assignee
// expression) → external task "ext" (topic x) → end.
const waitProcess = `<bpmn:startEvent id="s"/>
<bpmn:userTask id="task" name="Review" camunda:candidateGroups="g,${extraGroup}" camunda:candidateUsers="carol"/>
<bpmn:serviceTask id="ext" camunda:type="external" camunda:topic="x"/>
<bpmn:endEvent id="end"/>`

func testSuspension(t *testing.T, e engine.ProcessEngine) {
	deployXML(t, e, "", "wait.bpmn", bpmnDoc("", proc("Wait", waitProcess+chain("s", "task", "ext", "end"))))
	start1 := func() engine.ProcessInstance {
		return start(t, e, engine.StartProcess{Key: "Wait", Variables: engine.Variables{"extraGroup": engine.String("h")}})
	}
	pi := start1()
	if err := e.SuspendProcessInstance(ctx, pi.ID); err != nil {
		t.Fatal(err)
	}
	got, err := e.ProcessInstance(ctx, pi.ID)
	if err != nil || !got.Suspended {
		t.Errorf("instance after suspend = %+v, %v", got, err)
	}
	checkState(t, e, pi.ID, engine.StateSuspended)
	task := onlyTask(t, e, pi.ID, "task")
	if !task.Suspended {
		t.Errorf("task of a suspended instance is not suspended")
	}
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{Active: true}); n != 0 {
		t.Errorf("active tasks = %d, want 0", n)
	}
	err = e.CompleteTask(ctx, task.ID, nil)
	engineError(t, err, 500, "ProcessEngineException", "suspended")
	if err := e.ActivateProcessInstance(ctx, pi.ID); err != nil {
		t.Fatal(err)
	}
	checkState(t, e, pi.ID, engine.StateActive)
	// candidate groups from a list with an expression
	for _, g := range []string{"g", "h"} {
		if n, _ := e.TaskCount(ctx, engine.TaskQuery{CandidateGroup: g}); n != 1 {
			t.Errorf("tasks of group %s = %d, want 1", g, n)
		}
	}
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{CandidateUser: "carol"}); n != 1 {
		t.Errorf("tasks of candidate user carol = %d, want 1", n)
	}
	complete(t, e, task.ID, nil)
	if err := e.SuspendProcessInstance(ctx, pi.ID); err != nil {
		t.Fatal(err)
	}
	fetch := func() int {
		got, err := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w", MaxTasks: 1, Topics: []engine.FetchTopic{{TopicName: "x", LockDuration: time.Minute}}})
		if err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	if n := fetch(); n != 0 {
		t.Errorf("fetched %d external tasks of a suspended instance", n)
	}
	if err := e.ActivateProcessInstance(ctx, pi.ID); err != nil {
		t.Fatal(err)
	}
	if n := fetch(); n != 1 {
		t.Errorf("fetched %d external tasks after activation, want 1", n)
	}

	// cancellation
	pi2 := start1()
	if err := e.DeleteProcessInstance(ctx, pi2.ID, engine.DeleteProcessInstance{Reason: "Cancelled by user"}); err != nil {
		t.Fatal(err)
	}
	checkEnded(t, e, pi2.ID)
	checkState(t, e, pi2.ID, engine.StateExternallyTerminated)
	if h := history(t, e, pi2.ID); h.DeleteReason != "Cancelled by user" {
		t.Errorf("deleteReason = %q", h.DeleteReason)
	}
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{ProcessInstanceID: pi2.ID}); n != 0 {
		t.Errorf("%d tasks left of a cancelled instance", n)
	}
	hts, _ := e.HistoricTasks(ctx, engine.HistoricTaskQuery{ProcessInstanceID: pi2.ID})
	if len(hts) != 1 || hts[0].EndTime == nil || hts[0].DeleteReason != "Cancelled by user" {
		t.Errorf("historic task of a cancelled instance = %+v", hts)
	}
	checkStrings(t, "activities of a cancelled instance", activities(t, e, pi2.ID), []string{"s:startEvent", "task:userTask!"})
	err = e.DeleteProcessInstance(ctx, pi2.ID, engine.DeleteProcessInstance{})
	if !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("second cancellation: %v, want not found", err)
	}
	if hs, _ := e.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{State: engine.StateExternallyTerminated}); len(hs) != 1 {
		t.Errorf("history by state = %d instances, want 1", len(hs))
	}
}

func testClaim(t *testing.T, e engine.ProcessEngine) {
	deployXML(t, e, "", "wait.bpmn", bpmnDoc("", proc("Wait", waitProcess+chain("s", "task", "ext", "end"))))
	pi := start(t, e, engine.StartProcess{Key: "Wait", Variables: engine.Variables{"extraGroup": engine.String("h")}})
	task := onlyTask(t, e, pi.ID, "task")
	if err := e.Claim(ctx, task.ID, "anna"); err != nil {
		t.Fatal(err)
	}
	if err := e.Claim(ctx, task.ID, "anna"); err != nil {
		t.Errorf("claim by the assignee again: %v", err)
	}
	err := e.Claim(ctx, task.ID, "bert")
	engineError(t, err, 500, "TaskAlreadyClaimedException", "Task '"+task.ID+"' is already claimed by someone else.")
	got, _ := e.Task(ctx, task.ID)
	if got.Assignee != "anna" {
		t.Errorf("assignee = %q", got.Assignee)
	}
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{CandidateGroup: "g"}); n != 0 {
		t.Errorf("an assigned task is in the candidate list without includeAssignedTasks")
	}
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{CandidateGroup: "g", IncludeAssignedTasks: true}); n != 1 {
		t.Errorf("an assigned task is not in the candidate list with includeAssignedTasks")
	}
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{Assignee: "anna"}); n != 1 {
		t.Errorf("tasks of anna = %d", n)
	}
	if err := e.Unclaim(ctx, task.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.Task(ctx, task.ID); got.Assignee != "" {
		t.Errorf("assignee after unclaim = %q", got.Assignee)
	}
	_, err = e.Task(ctx, "no-such-task")
	if !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("unknown task: %v", err)
	}
	err = e.CompleteTask(ctx, "no-such-task", nil)
	engineError(t, err, 404, "RestException", "Cannot find task with id no-such-task")
	complete(t, e, task.ID, nil)
	err = e.CompleteTask(ctx, task.ID, nil)
	engineError(t, err, 404, "RestException", "Cannot find task with id "+task.ID)
}

func testTypedVariables(t *testing.T, e engine.ProcessEngine) {
	deployXML(t, e, "", "wait.bpmn", bpmnDoc("", proc("Wait", waitProcess+chain("s", "task", "ext", "end"))))
	when := time.Date(2025, 12, 24, 10, 30, 0, 0, time.UTC)
	in := engine.Variables{"s": engine.String("tekst"), "b": engine.Boolean(true), "i": engine.Integer(-42),
		"l": engine.Long(1 << 40), "d": engine.Double(2.5), "j": jsonVar(t, `{"a":[1,2,{"b":null}]}`), "n": engine.Null(),
		"t": engine.Date(when), "extraGroup": engine.String("h")}
	pi := start(t, e, engine.StartProcess{Key: "Wait", Variables: in})
	got := vars(t, e, pi.ID)
	for name, want := range in {
		checkVar(t, got, name, want)
	}
	task := onlyTask(t, e, pi.ID, "task")
	tv, err := e.TaskVariables(ctx, task.ID)
	if err != nil || len(tv) != len(in) {
		t.Errorf("task variables = %v, %v", tv, err)
	}
	if err := e.SetProcessInstanceVariables(ctx, pi.ID, engine.VariableModification{
		Modifications: engine.Variables{"s": engine.String("nieuw")}, Deletions: []string{"n"}}); err != nil {
		t.Fatal(err)
	}
	got = vars(t, e, pi.ID)
	checkVar(t, got, "s", engine.String("nieuw"))
	if _, ok := got["n"]; ok {
		t.Errorf("deleted variable n is still there")
	}
	hv, _ := e.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: pi.ID, VariableName: "s"})
	if len(hv) != 1 || !hv[0].Value.Equal(engine.String("nieuw")) || hv[0].State != "CREATED" {
		t.Errorf("historic s = %+v, want the latest value", hv)
	}
	if hv, _ := e.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: pi.ID, VariableName: "n"}); len(hv) != 0 {
		t.Errorf("a deleted variable is listed without includeDeleted: %+v", hv)
	}
	_, err = e.ProcessInstanceVariables(ctx, "no-such-instance")
	if !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("variables of an unknown instance: %v", err)
	}
}

func testParallelTerminate(t *testing.T, e engine.ProcessEngine) {
	child := bpmnDoc("", proc("Child", `<bpmn:startEvent id="cs"/><bpmn:userTask id="childTask"/><bpmn:endEvent id="ce"/>`+chain("cs", "childTask", "ce")))
	parent := bpmnDoc("", proc("Parent", `<bpmn:startEvent id="s"/><bpmn:parallelGateway id="fork"/>
<bpmn:callActivity id="call" calledElement="Child"/><bpmn:userTask id="b"/>
<bpmn:endEvent id="stop"><bpmn:terminateEventDefinition/></bpmn:endEvent><bpmn:endEvent id="end"/>`+
		flow("f1", "s", "fork", "")+flow("f2", "fork", "call", "")+flow("f3", "fork", "b", "")+flow("f4", "b", "stop", "")+flow("f5", "call", "end", "")))
	join := bpmnDoc("", proc("Join", `<bpmn:startEvent id="s"/><bpmn:parallelGateway id="fork"/><bpmn:userTask id="t1"/><bpmn:userTask id="t2"/>
<bpmn:parallelGateway id="join"/><bpmn:endEvent id="end"/>`+
		flow("f1", "s", "fork", "")+flow("f2", "fork", "t1", "")+flow("f3", "fork", "t2", "")+flow("f4", "t1", "join", "")+
		flow("f5", "t2", "join", "")+flow("f6", "join", "end", "")))
	deployXML(t, e, "", "child.bpmn", child, "parent.bpmn", parent, "join.bpmn", join)

	pj := start(t, e, engine.StartProcess{Key: "Join"})
	ts, _ := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: pj.ID, SortBy: "name"})
	if len(ts) != 2 {
		t.Fatalf("open tasks after the fork = %d, want 2", len(ts))
	}
	complete(t, e, ts[0].ID, nil)
	checkState(t, e, pj.ID, engine.StateActive)
	complete(t, e, ts[1].ID, nil)
	checkState(t, e, pj.ID, engine.StateCompleted)
	checkStrings(t, "join activities", activities(t, e, pj.ID), []string{"s:startEvent", "fork:parallelGateway",
		"t1:userTask", "t2:userTask", "join:parallelGateway", "join:parallelGateway", "end:noneEndEvent"})

	pp := start(t, e, engine.StartProcess{Key: "Parent"})
	subs, _ := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: pp.ID})
	if len(subs) != 1 {
		t.Fatalf("called instances = %d, want 1", len(subs))
	}
	b := onlyTask(t, e, pp.ID, "b")
	complete(t, e, b.ID, nil)
	checkEnded(t, e, pp.ID)
	checkState(t, e, pp.ID, engine.StateCompleted)
	checkEnded(t, e, subs[0].ID)
	checkState(t, e, subs[0].ID, engine.StateInternallyTerminated)
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{}); n != 0 {
		t.Errorf("%d tasks left after the terminate end event", n)
	}
	checkStrings(t, "parent activities", activities(t, e, pp.ID), []string{"s:startEvent", "fork:parallelGateway",
		"call:callActivity!", "b:userTask", "stop:terminateEndEvent"})
}

// testDeleteCalled: deleting a called instance does what Operaton does
// (it cancels the calling activity instance): the call activity is
// cancelled, with an embedded sub-process it leaves empty, and a caller
// left with nothing to do is cancelled too, up the call chain; a caller
// with another branch running goes on.
func testDeleteCalled(t *testing.T, e engine.ProcessEngine) {
	leaf := bpmnDoc("", proc("Leaf", `<bpmn:startEvent id="ls"/><bpmn:userTask id="leafTask"/><bpmn:endEvent id="le"/>`+chain("ls", "leafTask", "le")))
	mid := bpmnDoc("", proc("Mid", `<bpmn:startEvent id="ms"/><bpmn:callActivity id="callLeaf" calledElement="Leaf"/><bpmn:endEvent id="me"/>`+
		chain("ms", "callLeaf", "me")))
	top := bpmnDoc("", proc("Top", `<bpmn:startEvent id="ts"/><bpmn:subProcess id="wrap"><bpmn:startEvent id="ws"/>
<bpmn:callActivity id="callMid" calledElement="Mid"/><bpmn:endEvent id="we"/>`+chain("ws", "callMid", "we")+`</bpmn:subProcess>
<bpmn:endEvent id="te"/>`+chain("ts", "wrap", "te")))
	forked := bpmnDoc("", proc("Forked", `<bpmn:startEvent id="s"/><bpmn:parallelGateway id="fork"/>
<bpmn:callActivity id="call" calledElement="Leaf"/><bpmn:userTask id="b"/><bpmn:endEvent id="e1"/><bpmn:endEvent id="e2"/>`+
		flow("f1", "s", "fork", "")+flow("f2", "fork", "call", "")+flow("f3", "fork", "b", "")+flow("f4", "b", "e1", "")+flow("f5", "call", "e2", "")))
	deployXML(t, e, "", "leaf.bpmn", leaf, "mid.bpmn", mid, "top.bpmn", top, "forked.bpmn", forked)

	pt := start(t, e, engine.StartProcess{Key: "Top"})
	mids, _ := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: pt.ID})
	if len(mids) != 1 {
		t.Fatalf("instances called by Top = %d, want 1", len(mids))
	}
	leaves, _ := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: mids[0].ID})
	if len(leaves) != 1 {
		t.Fatalf("instances called by Mid = %d, want 1", len(leaves))
	}
	onlyTask(t, e, leaves[0].ID, "leafTask")
	if err := e.DeleteProcessInstance(ctx, leaves[0].ID, engine.DeleteProcessInstance{Reason: "withdrawn"}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{leaves[0].ID, mids[0].ID, pt.ID} {
		checkEnded(t, e, id)
		checkState(t, e, id, engine.StateExternallyTerminated)
		if h := history(t, e, id); h.DeleteReason != "withdrawn" {
			t.Errorf("delete reason of %s = %q, want withdrawn", id, h.DeleteReason)
		}
	}
	checkStrings(t, "Top's activities", activities(t, e, pt.ID), []string{"ts:startEvent", "wrap:subProcess!", "ws:startEvent", "callMid:callActivity!"})
	checkStrings(t, "Mid's activities", activities(t, e, mids[0].ID), []string{"ms:startEvent", "callLeaf:callActivity!"})
	if n, _ := e.TaskCount(ctx, engine.TaskQuery{}); n != 0 {
		t.Errorf("%d tasks left after deleting the called instance", n)
	}

	pf := start(t, e, engine.StartProcess{Key: "Forked"})
	subs, _ := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: pf.ID})
	if len(subs) != 1 {
		t.Fatalf("instances called by Forked = %d, want 1", len(subs))
	}
	if err := e.DeleteProcessInstance(ctx, subs[0].ID, engine.DeleteProcessInstance{}); err != nil {
		t.Fatal(err)
	}
	checkState(t, e, subs[0].ID, engine.StateExternallyTerminated)
	checkState(t, e, pf.ID, engine.StateActive)
	b := onlyTask(t, e, pf.ID, "b")
	complete(t, e, b.ID, nil)
	checkState(t, e, pf.ID, engine.StateCompleted)
	checkStrings(t, "Forked's activities", activities(t, e, pf.ID), []string{"s:startEvent", "fork:parallelGateway",
		"call:callActivity!", "b:userTask", "e1:noneEndEvent"})
}

func testScriptErrorBoundary(t *testing.T, e engine.ProcessEngine) {
	xml := bpmnDoc(`<bpmn:error id="Err" errorCode="E1"/>`, proc("Boundary", `<bpmn:startEvent id="s"/>
<bpmn:scriptTask id="risky" scriptFormat="javascript"><bpmn:script>if (fail) { throw {errorCode: "E1", message: "stuk"}; } execution.setVariable("ok", true);</bpmn:script></bpmn:scriptTask>
<bpmn:boundaryEvent id="caught" attachedToRef="risky"><bpmn:errorEventDefinition errorRef="Err"/></bpmn:boundaryEvent>
<bpmn:userTask id="fallback"/><bpmn:userTask id="normal"/><bpmn:endEvent id="e1"/><bpmn:endEvent id="e2"/>`+
		chain("s", "risky", "normal", "e1")+flow("fc", "caught", "fallback", "")+flow("fe", "fallback", "e2", "")))
	broken := bpmnDoc("", proc("Broken", `<bpmn:startEvent id="s"/><bpmn:scriptTask id="bad" scriptFormat="javascript"><bpmn:script>var x = null; x.y;</bpmn:script></bpmn:scriptTask><bpmn:endEvent id="e"/>`+chain("s", "bad", "e")))
	deployXML(t, e, "", "boundary.bpmn", xml, "broken.bpmn", broken)
	pi := start(t, e, engine.StartProcess{Key: "Boundary", Variables: engine.Variables{"fail": engine.Boolean(true)}})
	onlyTask(t, e, pi.ID, "fallback")
	checkStrings(t, "activities", activities(t, e, pi.ID), []string{"s:startEvent", "risky:scriptTask!", "caught:boundaryError", "fallback:userTask…"})
	pi2 := start(t, e, engine.StartProcess{Key: "Boundary", Variables: engine.Variables{"fail": engine.Boolean(false)}})
	onlyTask(t, e, pi2.ID, "normal")
	// a failing script fails the start, and nothing of it is kept
	_, err := e.StartProcess(ctx, engine.StartProcess{Key: "Broken"})
	engineError(t, err, 500, "ProcessEngineException", "bad")
	if hs, _ := e.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: "Broken"}); len(hs) != 0 {
		t.Errorf("a failed start left history: %+v", hs)
	}
}

func testUnsupported(t *testing.T, e engine.ProcessEngine) {
	xml := bpmnDoc(`<bpmn:signal id="Sig" name="go"/>`, proc("Signal", `<bpmn:startEvent id="s"/><bpmn:userTask id="first"/>
<bpmn:intermediateCatchEvent id="waitSignal"><bpmn:signalEventDefinition signalRef="Sig"/></bpmn:intermediateCatchEvent><bpmn:endEvent id="e"/>`+
		chain("s", "first", "waitSignal", "e"))+
		proc("Conditional", `<bpmn:startEvent id="cs"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">${x == 1}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:startEvent><bpmn:endEvent id="ce"/>`+chain("cs", "ce")))
	dep := deployXML(t, e, "", "unsupported.bpmn", xml)
	if len(dep.DeployedProcessDefinitions) != 2 {
		t.Fatalf("deployed %d definitions, want both (signal and conditional events deploy)", len(dep.DeployedProcessDefinitions))
	}
	pi := start(t, e, engine.StartProcess{Key: "Signal"})
	task := onlyTask(t, e, pi.ID, "first")
	err := e.CompleteTask(ctx, task.ID, engine.Variables{"v": engine.String("x")})
	engineError(t, err, 500, "ProcessEngineException", "waitSignal")
	// rolled back: the task is still open, the variable not set
	onlyTask(t, e, pi.ID, "first")
	if _, ok := vars(t, e, pi.ID)["v"]; ok {
		t.Errorf("a variable of a failed command was kept")
	}
	checkStrings(t, "activities", activities(t, e, pi.ID), []string{"s:startEvent", "first:userTask…"})
}

func testExternalRetries(t *testing.T, e engine.ProcessEngine) {
	deployXML(t, e, "", "ext.bpmn", bpmnDoc("", proc("Ext", `<bpmn:startEvent id="s"/><bpmn:serviceTask id="ext" camunda:type="external" camunda:topic="x"/><bpmn:endEvent id="end"/>`+chain("s", "ext", "end"))))
	pi := start(t, e, engine.StartProcess{Key: "Ext"})
	fetch := func() []engine.LockedExternalTask {
		got, err := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w", MaxTasks: 2, Topics: []engine.FetchTopic{{TopicName: "x", LockDuration: time.Minute}}})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	x := fetch()
	if len(x) != 1 || x[0].Retries != nil {
		t.Fatalf("fetched %+v, want one task without retries", x)
	}
	err := e.ExternalTaskFailure(ctx, x[0].ID, engine.ExternalTaskFailure{WorkerID: "other", Retries: 1})
	engineError(t, err, 400, "BadUserRequestException", "worker 'other'")
	if err := e.ExternalTaskFailure(ctx, x[0].ID, engine.ExternalTaskFailure{WorkerID: "w", ErrorMessage: "down", Retries: 2}); err != nil {
		t.Fatal(err)
	}
	x = fetch()
	if len(x) != 1 || x[0].Retries == nil || *x[0].Retries != 2 || x[0].ErrorMessage != "down" {
		t.Fatalf("after a failure: %+v, want the task again with 2 retries and the message", x)
	}
	if err := e.ExternalTaskFailure(ctx, x[0].ID, engine.ExternalTaskFailure{WorkerID: "w", Retries: 1, RetryTimeout: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if got := fetch(); len(got) != 0 {
		t.Errorf("fetched during the retry timeout: %+v", got)
	}
	// no retries left: an incident, never fetched
	pi2 := start(t, e, engine.StartProcess{Key: "Ext"})
	x = fetch()
	if len(x) != 1 || x[0].ProcessInstanceID != pi2.ID {
		t.Fatalf("fetched %+v, want the task of the second instance", x)
	}
	if err := e.ExternalTaskFailure(ctx, x[0].ID, engine.ExternalTaskFailure{WorkerID: "w", Retries: 0}); err != nil {
		t.Fatal(err)
	}
	if got := fetch(); len(got) != 0 {
		t.Errorf("fetched a task without retries: %+v", got)
	}
	checkState(t, e, pi.ID, engine.StateActive)
}

// testIncidents: an external task failing with no retries left opens a
// failedExternalTask incident; setting its retries resolves it and the task
// is fetched again; failing again opens a new one, which completing the
// task resolves.
func testIncidents(t *testing.T, e engine.ProcessEngine) {
	deployXML(t, e, "utrecht", "inc.bpmn", bpmnDoc("", proc("Inc", `<bpmn:startEvent id="s"/><bpmn:serviceTask id="mail" camunda:type="external" camunda:topic="mail"/><bpmn:endEvent id="end"/>`+chain("s", "mail", "end"))))
	pi := start(t, e, engine.StartProcess{Key: "Inc", TenantID: "utrecht"})
	other := start(t, e, engine.StartProcess{Key: "Inc", TenantID: "utrecht"})
	task := incidentsFailTwice(t, e, pi)
	in := incidentsCheckOpened(t, e, pi, other, task)
	incidentsResolveByRetries(t, e, task, in)
	incidentsResolveByCompleting(t, e, task)
	checkState(t, e, pi.ID, engine.StateCompleted)
}

// fetchMail fetches and locks up to 5 tasks of testIncidents' topic "mail".
func fetchMail(t *testing.T, e engine.ProcessEngine) []engine.LockedExternalTask {
	t.Helper()
	got, err := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w", MaxTasks: 5, Topics: []engine.FetchTopic{{TopicName: "mail", LockDuration: time.Minute}}})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// incidentsOf lists the incidents q matches and checks IncidentCount
// agrees with the list.
func incidentsOf(t *testing.T, e engine.ProcessEngine, q engine.IncidentQuery) []engine.Incident {
	t.Helper()
	is, err := e.Incidents(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	n, err := e.IncidentCount(ctx, q)
	if err != nil || n != len(is) {
		t.Errorf("IncidentCount(%+v) = %d, %v; the list has %d", q, n, err, len(is))
	}
	return is
}

// incidentsFailTwice fails pi's external task once with a retry left (no
// incident, fetched again) and once with none; it returns the task's id.
func incidentsFailTwice(t *testing.T, e engine.ProcessEngine, pi engine.ProcessInstance) string {
	t.Helper()
	x := fetchMail(t, e)
	if len(x) != 2 {
		t.Fatalf("fetched %d tasks, want 2", len(x))
	}
	var task string
	for _, lt := range x {
		if lt.ProcessInstanceID == pi.ID {
			task = lt.ID
		}
	}
	if err := e.ExternalTaskFailure(ctx, task, engine.ExternalTaskFailure{WorkerID: "w", ErrorMessage: "smtp down", Retries: 1}); err != nil {
		t.Fatal(err)
	}
	if is := incidentsOf(t, e, engine.IncidentQuery{}); len(is) != 0 {
		t.Fatalf("incidents with a retry left: %+v", is)
	}
	if x = fetchMail(t, e); len(x) != 1 || x[0].ID != task {
		t.Fatalf("fetched %+v, want the failed task again", x)
	}
	if err := e.ExternalTaskFailure(ctx, task, engine.ExternalTaskFailure{WorkerID: "w", ErrorMessage: "smtp still down", Retries: 0}); err != nil {
		t.Fatal(err)
	}
	return task
}

// incidentsCheckOpened checks the incident the second failure opened, the
// queries that do not match it, that the task is not fetched and that
// retries are checked; it returns the incident.
func incidentsCheckOpened(t *testing.T, e engine.ProcessEngine, pi, other engine.ProcessInstance, task string) engine.Incident {
	t.Helper()
	is := incidentsOf(t, e, engine.IncidentQuery{ProcessInstanceID: pi.ID, IncidentType: "failedExternalTask", TenantIDIn: []string{"utrecht"}})
	if len(is) != 1 {
		t.Fatalf("incidents of %s: %+v, want one", pi.ID, is)
	}
	in := is[0]
	if in.ID == "" || in.ProcessInstanceID != pi.ID || in.ProcessDefinitionID != pi.DefinitionID || in.Type != "failedExternalTask" ||
		in.ActivityID != "mail" || in.FailedActivityID != "mail" || in.Configuration != task || in.TenantID != "utrecht" ||
		in.Message != "smtp still down" || in.CauseIncidentID != in.ID || in.RootCauseIncidentID != in.ID ||
		in.ExecutionID == "" || in.JobDefinitionID != "" || time.Since(in.Timestamp) > time.Hour {
		t.Errorf("incident = %+v", in)
	}
	for _, q := range []engine.IncidentQuery{{ProcessInstanceID: other.ID}, {TenantIDIn: []string{"amsterdam"}}, {ActivityID: "other"}, {IncidentType: "failedJob"}} {
		if is := incidentsOf(t, e, q); len(is) != 0 {
			t.Errorf("Incidents(%+v) = %+v, want none", q, is)
		}
	}
	if got := fetchMail(t, e); len(got) != 0 {
		t.Errorf("fetched a task with an incident: %+v", got)
	}
	err := e.SetExternalTaskRetries(ctx, task, -1)
	engineError(t, err, 400, "InvalidRequestException", "negative")
	err = e.SetExternalTaskRetries(ctx, "nope", 1)
	if !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("retries of an unknown task: %v, want not found", err)
	}
	return in
}

// incidentsResolveByRetries sets retries again (resolved, fetched again),
// fails the task into a new incident and checks retries 0 keeps it.
func incidentsResolveByRetries(t *testing.T, e engine.ProcessEngine, task string, in engine.Incident) {
	t.Helper()
	if err := e.SetExternalTaskRetries(ctx, task, 2); err != nil {
		t.Fatal(err)
	}
	if is := incidentsOf(t, e, engine.IncidentQuery{}); len(is) != 0 {
		t.Fatalf("incidents after setting retries: %+v", is)
	}
	if x := fetchMail(t, e); len(x) != 1 || x[0].ID != task || x[0].Retries == nil || *x[0].Retries != 2 {
		t.Fatalf("fetched %+v, want the task with 2 retries", x)
	}
	// a new incident, resolved by completing the task
	if err := e.ExternalTaskFailure(ctx, task, engine.ExternalTaskFailure{WorkerID: "w", ErrorMessage: "again", Retries: 0}); err != nil {
		t.Fatal(err)
	}
	is := incidentsOf(t, e, engine.IncidentQuery{})
	if len(is) != 1 || is[0].ID == in.ID || is[0].Message != "again" {
		t.Fatalf("incidents after the second failure: %+v, want one new incident", is)
	}
	if err := e.SetExternalTaskRetries(ctx, task, 0); err != nil {
		t.Fatal(err)
	}
	if again := incidentsOf(t, e, engine.IncidentQuery{}); len(again) != 1 || again[0].ID != is[0].ID {
		t.Errorf("retries 0 on a task with an incident: %+v, want the same incident", again)
	}
}

// incidentsResolveByCompleting opens an incident while a worker holds the
// lock: completing the task resolves it.
func incidentsResolveByCompleting(t *testing.T, e engine.ProcessEngine, task string) {
	t.Helper()
	if err := e.SetExternalTaskRetries(ctx, task, 1); err != nil {
		t.Fatal(err)
	}
	if x := fetchMail(t, e); len(x) != 1 || x[0].ID != task {
		t.Fatalf("fetched %+v, want the task", x)
	}
	if err := e.SetExternalTaskRetries(ctx, task, 0); err != nil {
		t.Fatal(err)
	}
	if is := incidentsOf(t, e, engine.IncidentQuery{}); len(is) != 1 {
		t.Fatalf("incidents after retries 0 on a locked task: %+v, want one", is)
	}
	if err := e.CompleteExternalTask(ctx, task, engine.CompleteExternalTask{WorkerID: "w"}); err != nil {
		t.Fatal(err)
	}
	if is := incidentsOf(t, e, engine.IncidentQuery{}); len(is) != 0 {
		t.Errorf("incidents after completing: %+v", is)
	}
}

// testRecursiveIncidents: as in Operaton, an incident in a called
// instance has a copy in every caller, at the call activity, caused by
// the one below and rooted in the external task's; the copies carry no
// configuration and keep their ids; resolving the root resolves them all.
func testRecursiveIncidents(t *testing.T, e engine.ProcessEngine) {
	pt, mid, leaf, task := recursiveIncidentSetup(t, e)
	m := incidentsByInstance(t, e)
	root, inMid, inTop := m[leaf.ID], m[mid.ID], m[pt.ID]
	if len(m) != 3 || root.ID == "" || inMid.ID == "" || inTop.ID == "" {
		t.Fatalf("incidents by instance = %+v, want one in each of the three", m)
	}
	recursiveIncidentCopies(t, root, inMid, inTop, mid, task)
	if again := incidentsByInstance(t, e); again[pt.ID].ID != inTop.ID || again[mid.ID].ID != inMid.ID {
		t.Errorf("the copies' ids changed between reads: %+v then %+v", m, again)
	}
	recursiveIncidentQueries(t, e, pt, inTop, task)
}

// recursiveIncidentSetup deploys TopX calling MidX calling LeafX, starts
// TopX and fails LeafX's external task with no retries left. It returns
// the three instances and the task's id.
func recursiveIncidentSetup(t *testing.T, e engine.ProcessEngine) (pt, mid, leaf engine.ProcessInstance, task string) {
	t.Helper()
	leafXML := bpmnDoc("", proc("LeafX", `<bpmn:startEvent id="ls"/><bpmn:serviceTask id="mail" camunda:type="external" camunda:topic="mailx"/><bpmn:endEvent id="le"/>`+chain("ls", "mail", "le")))
	midXML := bpmnDoc("", proc("MidX", `<bpmn:startEvent id="ms"/><bpmn:callActivity id="callLeaf" calledElement="LeafX"/><bpmn:endEvent id="me"/>`+chain("ms", "callLeaf", "me")))
	topXML := bpmnDoc("", proc("TopX", `<bpmn:startEvent id="ts"/><bpmn:callActivity id="callMid" calledElement="MidX"/><bpmn:endEvent id="te"/>`+chain("ts", "callMid", "te")))
	deployXML(t, e, "", "leaf.bpmn", leafXML, "mid.bpmn", midXML, "top.bpmn", topXML)
	pt = start(t, e, engine.StartProcess{Key: "TopX"})
	mids, _ := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: pt.ID})
	if len(mids) != 1 {
		t.Fatalf("instances called by TopX = %d, want 1", len(mids))
	}
	leaves, _ := e.ProcessInstances(ctx, engine.ProcessInstanceQuery{SuperProcessInstance: mids[0].ID})
	if len(leaves) != 1 {
		t.Fatalf("instances called by MidX = %d, want 1", len(leaves))
	}
	x, err := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w", MaxTasks: 1, Topics: []engine.FetchTopic{{TopicName: "mailx", LockDuration: time.Minute}}})
	if err != nil || len(x) != 1 {
		t.Fatalf("fetched %+v, %v", x, err)
	}
	if err := e.ExternalTaskFailure(ctx, x[0].ID, engine.ExternalTaskFailure{WorkerID: "w", ErrorMessage: "down", Retries: 0}); err != nil {
		t.Fatal(err)
	}
	return pt, mids[0], leaves[0], x[0].ID
}

// incidentsByInstance reads all incidents by process instance, checking
// there is at most one per instance.
func incidentsByInstance(t *testing.T, e engine.ProcessEngine) map[string]engine.Incident {
	t.Helper()
	is, err := e.Incidents(ctx, engine.IncidentQuery{SortBy: "processInstanceId", SortOrder: "asc"})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]engine.Incident{}
	for _, in := range is {
		m[in.ProcessInstanceID] = in
	}
	if len(m) != len(is) {
		t.Errorf("incidents %+v: more than one per instance", is)
	}
	return m
}

// recursiveIncidentCopies checks the root incident and its copies in MidX
// and TopX: at the call activity, caused by the one below, rooted in the
// root, without configuration.
func recursiveIncidentCopies(t *testing.T, root, inMid, inTop engine.Incident, mid engine.ProcessInstance, task string) {
	t.Helper()
	if root.Configuration != task || root.CauseIncidentID != root.ID || root.RootCauseIncidentID != root.ID || root.ActivityID != "mail" || root.Message != "down" {
		t.Errorf("root incident = %+v", root)
	}
	if inMid.ActivityID != "callLeaf" || inMid.FailedActivityID != "callLeaf" || inMid.CauseIncidentID != root.ID ||
		inMid.RootCauseIncidentID != root.ID || inMid.Configuration != "" || inMid.Message != "" ||
		inMid.Type != "failedExternalTask" || inMid.ProcessDefinitionID != mid.DefinitionID || inMid.ExecutionID == "" {
		t.Errorf("MidX's incident = %+v", inMid)
	}
	if inTop.ActivityID != "callMid" || inTop.CauseIncidentID != inMid.ID || inTop.RootCauseIncidentID != root.ID || inTop.Configuration != "" {
		t.Errorf("TopX's incident = %+v", inTop)
	}
}

// recursiveIncidentQueries queries the copies by instance and activity,
// then resolves the root by setting retries: no incident stays.
func recursiveIncidentQueries(t *testing.T, e engine.ProcessEngine, pt engine.ProcessInstance, inTop engine.Incident, task string) {
	t.Helper()
	only, err := e.Incidents(ctx, engine.IncidentQuery{ProcessInstanceID: pt.ID})
	if err != nil || len(only) != 1 || only[0].ID != inTop.ID {
		t.Errorf("TopX's incidents = %+v, %v", only, err)
	}
	if n, err := e.IncidentCount(ctx, engine.IncidentQuery{ActivityID: "callLeaf"}); err != nil || n != 1 {
		t.Errorf("count at callLeaf = %d, %v; want 1", n, err)
	}
	if err := e.SetExternalTaskRetries(ctx, task, 1); err != nil {
		t.Fatal(err)
	}
	if n, err := e.IncidentCount(ctx, engine.IncidentQuery{}); err != nil || n != 0 {
		t.Errorf("incidents after setting retries = %d, %v; want 0", n, err)
	}
}

func testDeployErrors(t *testing.T, e engine.ProcessEngine) {
	for _, tc := range []struct{ name, xml, element, msg string }{
		{"timer.bpmn", bpmnDoc("", proc("Timer", `<bpmn:startEvent id="s"/><bpmn:intermediateCatchEvent id="sleep"><bpmn:timerEventDefinition/></bpmn:intermediateCatchEvent><bpmn:endEvent id="e"/>`+chain("s", "sleep", "e"))), "", "timerEventDefinition"},
		{"juel.bpmn", bpmnDoc("", proc("BadJuel", `<bpmn:startEvent id="s"/><bpmn:endEvent id="e1"/>`+flow("f1", "s", "e1", "${a ==}"))), "f1", "a =="},
		{"broken.bpmn", `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"><bpmn:process id="x">`, "", "malformed XML"},
	} {
		_, err := e.Deploy(ctx, engine.NewDeployment{Name: "bad", Resources: []engine.Resource{{Name: tc.name, Data: []byte(tc.xml)}}})
		var de *engine.DeploymentError
		if !errors.As(err, &de) {
			t.Errorf("%s: %v (%T), want a DeploymentError", tc.name, err, err)
			continue
		}
		if de.Resource != tc.name || de.ElementID != tc.element || de.Line == 0 || !strings.Contains(de.Msg, tc.msg) {
			t.Errorf("%s: %+v, want resource %s, element %q, a line and a message containing %q", tc.name, de, tc.name, tc.element, tc.msg)
		}
	}
	if defs, _ := e.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{}); len(defs) != 0 {
		t.Errorf("failed deployments left definitions: %+v", defs)
	}
	deployXML(t, e, "", "ok.bpmn", bpmnDoc("", proc("Ok", `<bpmn:startEvent id="s"/><bpmn:endEvent id="e"/>`+chain("s", "e"))))
	if pi := start(t, e, engine.StartProcess{Key: "Ok"}); !pi.Ended {
		t.Errorf("a process without wait states did not end")
	}
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func testDeployments(t *testing.T, e engine.ProcessEngine) {
	xml := bpmnDoc("", proc("Dep", `<bpmn:startEvent id="s"/><bpmn:userTask id="u"/><bpmn:endEvent id="e"/>`+chain("s", "u", "e")))
	dep := deployXML(t, e, "", "dep.bpmn", xml, "notes.document", "template")
	pd := dep.DeployedProcessDefinitions[0]
	got, err := e.ProcessDefinitionXML(ctx, pd.ID)
	if err != nil || got != xml {
		t.Errorf("definition XML differs from the deployed resource: %v", err)
	}
	if d, err := e.ProcessDefinition(ctx, pd.ID); err != nil || d.Key != "Dep" || d.DeploymentID != dep.ID || d.Resource != "dep.bpmn" {
		t.Errorf("definition = %+v, %v", d, err)
	}
	rs, err := e.DeploymentResources(ctx, dep.ID)
	if err != nil || len(rs) != 2 || rs[0].Name != "dep.bpmn" || rs[1].Name != "notes.document" {
		t.Fatalf("resources = %+v, %v", rs, err)
	}
	data, err := e.DeploymentResourceData(ctx, dep.ID, rs[1].ID)
	if err != nil || string(data) != "template" {
		t.Errorf("resource data = %q, %v", data, err)
	}
	// a second version
	dep2 := deployXML(t, e, "", "dep.bpmn", xml)
	if v := dep2.DeployedProcessDefinitions[0].Version; v != 2 {
		t.Errorf("second deployment: version %d, want 2", v)
	}
	pi := start(t, e, engine.StartProcess{DefinitionID: pd.ID})
	if pi.DefinitionID != pd.ID {
		t.Errorf("started %s, want version 1 by id", pi.DefinitionID)
	}
	err = e.DeleteDeployment(ctx, dep.ID, engine.DeleteDeployment{})
	engineError(t, err, 500, "ProcessEngineException", "dependent process instances")
	if err := e.DeleteDeployment(ctx, dep.ID, engine.DeleteDeployment{Cascade: true}); err != nil {
		t.Fatal(err)
	}
	checkEnded(t, e, pi.ID)
	if _, err := e.HistoricProcessInstance(ctx, pi.ID); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("history of a cascaded deletion: %v, want not found", err)
	}
	if _, err := e.ProcessDefinition(ctx, pd.ID); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("definition of a deleted deployment: %v, want not found", err)
	}
	if _, err := e.DeploymentResources(ctx, dep.ID); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("resources of a deleted deployment: %v, want not found", err)
	}
	latest, err := e.LatestProcessDefinition(ctx, "Dep", "")
	if err != nil || latest.Version != 2 {
		t.Errorf("latest after deleting version 1 = %+v, %v", latest, err)
	}
}

// testMunicipality: the task list's municipality filter follows the
// instance's variable as it changes, whatever its type.
func testMunicipality(t *testing.T, e engine.ProcessEngine) {
	deployXML(t, e, "", "wait.bpmn", bpmnDoc("", proc("Wait", waitProcess+chain("s", "task", "ext", "end"))))
	pi := start(t, e, engine.StartProcess{Key: "Wait", Variables: engine.Variables{"extraGroup": engine.String("h"), "municipality": engine.Integer(344)}})
	count := func(m string) int {
		t.Helper()
		n, err := e.TaskCount(ctx, engine.TaskQuery{ProcessVariables: municipality(m)})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count("344"); n != 1 {
		t.Errorf("tasks of municipality 344 (an Integer) = %d, want 1", n)
	}
	if err := e.SetProcessInstanceVariables(ctx, pi.ID, engine.VariableModification{Modifications: engine.Variables{"municipality": engine.String("utrecht")}}); err != nil {
		t.Fatal(err)
	}
	if a, b := count("344"), count("utrecht"); a != 0 || b != 1 {
		t.Errorf("after the change: %d tasks of 344, %d of utrecht; want 0 and 1", a, b)
	}
	task := onlyTask(t, e, pi.ID, "task")
	complete(t, e, task.ID, engine.Variables{"municipality": engine.String("amsterdam")})
	if n := count("amsterdam"); n != 0 {
		t.Errorf("a completed task is listed: %d", n)
	}
	hts, _ := e.HistoricTasks(ctx, engine.HistoricTaskQuery{Finished: true, ProcessVariables: municipality("amsterdam")})
	if len(hts) != 1 {
		t.Errorf("finished tasks of amsterdam (the latest value) = %d, want 1", len(hts))
	}
}
