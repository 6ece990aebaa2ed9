package bpmn

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/dmn"
)

const examplesDir = "../../examples/processes"

// exampleBundle is one directory of examples/processes: a deployment's
// worth of BPMN, DMN, forms and document templates.
type exampleBundle struct {
	dir       string
	processes map[string]*Definitions // by file name
	forms     map[string]map[string]any
	documents map[string]map[string]any
	decisions map[string]bool
}

func loadBundle(t *testing.T, dir string) *exampleBundle {
	t.Helper()
	b := &exampleBundle{dir: dir, processes: map[string]*Definitions{}, forms: map[string]map[string]any{},
		documents: map[string]map[string]any{}, decisions: map[string]bool{}}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The local-pass decisions are deployed beside the application process.
	dmnFiles, _ := filepath.Glob("../../examples/models/localpass/*.dmn")
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f.Name()) {
		case ".bpmn":
			d, err := Parse(data, ParseOptions{Resource: f.Name()})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			b.processes[f.Name()] = d
		case ".form", ".document":
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			id := strings.TrimSuffix(f.Name(), filepath.Ext(f.Name()))
			if v["id"] != id {
				t.Errorf("%s: id %v, want %q (the file name)", path, v["id"], id)
			}
			if filepath.Ext(f.Name()) == ".form" {
				b.forms[id] = v
			} else {
				b.documents[id] = v
			}
		case ".dmn":
			dmnFiles = append(dmnFiles, path)
		default:
			t.Errorf("unexpected file %s", path)
		}
	}
	for _, path := range dmnFiles {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := dmn.ParseBytes(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, d := range defs.Decisions {
			b.decisions[d.ID] = true
		}
	}
	return b
}

// TestExamples parses every example process and checks that each form,
// document template, decision and called process it names is in its
// bundle, as one deployment needs them.
func TestExamples(t *testing.T) {
	dirs, err := os.ReadDir(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dirs {
		if d.IsDir() {
			names = append(names, d.Name())
		}
	}
	if want := []string{"localpass", "onboarding", "projectphase", "subprocess"}; !slices.Equal(names, want) {
		t.Fatalf("example bundles %v, want %v", names, want)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			b := loadBundle(t, filepath.Join(examplesDir, name))
			keys := map[string]bool{}
			for _, d := range b.processes {
				for _, p := range d.Processes {
					keys[p.ID] = true
				}
			}
			for file, d := range b.processes {
				for _, p := range d.Processes {
					for _, e := range p.ByID {
						if e.Form != nil && e.Form.Ref != nil {
							ref := lit(e.Form.Ref)
							f, ok := b.forms[ref]
							if !ok {
								t.Errorf("%s %s: form %q not in the bundle", file, e.ID, ref)
							} else if c, ok := f["components"].([]any); !ok || len(c) == 0 || f["schemaVersion"] != 16.0 {
								t.Errorf("form %s: no components or wrong schemaVersion", ref)
							}
						}
						if ref := e.DocumentRef(); ref != "" {
							doc, ok := b.documents[ref]
							if !ok {
								t.Errorf("%s %s: document %q not in the bundle", file, e.ID, ref)
							} else {
								checkDocument(t, ref, doc)
							}
						}
						if e.Decision != nil && !b.decisions[lit(e.Decision.Ref)] {
							t.Errorf("%s %s: decision %q not in the bundle", file, e.ID, lit(e.Decision.Ref))
						}
						if e.Call != nil && !keys[lit(e.Call.CalledElement)] {
							t.Errorf("%s %s: called process %q not in the bundle", file, e.ID, lit(e.Call.CalledElement))
						}
					}
				}
			}
			for id, doc := range b.documents {
				checkDocument(t, id, doc)
			}
		})
	}
}

func checkDocument(t *testing.T, id string, doc map[string]any) {
	t.Helper()
	zones, ok := doc["zones"].(map[string]any)
	if !ok || doc["schemaVersion"] != 1.0 {
		t.Errorf("document %s: no zones or wrong schemaVersion", id)
		return
	}
	var got []string
	for k := range zones {
		got = append(got, k)
	}
	sort.Strings(got)
	if want := []string{"annex", "body", "closing", "contactInfo", "letterhead", "reference", "signoff"}; !slices.Equal(got, want) {
		t.Errorf("document %s: zones %v, want %v", id, got, want)
	}
}

func exampleProcess(t *testing.T, dir, file, key string) *Process {
	t.Helper()
	d := parseFile(t, filepath.Join(examplesDir, dir, file))
	p := d.Process(key)
	if p == nil {
		t.Fatalf("%s: no process %s", file, key)
	}
	return p
}

// TestExampleLocalpass walks the application process's logic by hand:
// the three local-pass decisions in order, the script that lifts the age
// outputs, and the gateway on the final decision.
func TestExampleLocalpass(t *testing.T) {
	p := exampleProcess(t, "localpass", "LocalpassAanvraag.bpmn", "LocalpassAanvraagProcess")
	var refs []string
	for e := p.StartEvents[0]; len(e.Outgoing) == 1; e = e.Outgoing[0].Target {
		if e.Decision != nil {
			refs = append(refs, lit(e.Decision.Ref)+"/"+e.Decision.MapResult)
			if v, err := e.Decision.TenantID.Eval(mapVars{}); err != nil || v != nil {
				t.Errorf("%s: decisionRefTenantId = %v, %v; want nil (untenanted)", e.ID, v, err)
			}
		}
	}
	want := []string{"SVB_LeeftijdsInformatie/singleResult", "SZW_BijstandsnormInformatie/singleResult", "RONL_LocalpassEindresultaat/singleResult"}
	if !slices.Equal(refs, want) {
		t.Errorf("decisions %v, want %v", refs, want)
	}
	if len(p.Lanes) != 2 || p.ByID["Activity_Beoordelen"].Lane.Name != "Behandelaar" {
		t.Error("lanes wrong")
	}

	scope := &memScope{vars: map[string]any{
		"leeftijd": map[string]any{"aanvragerIs181920": false, "aanvragerIsTenminste21": true, "aanvragerHeeftAOWLeeftijd": false,
			"partnerIs181920": nil, "partnerIsTenminste21": false, "partnerHeeftAOWLeeftijd": false, "aanvragerLeeftijd": int64(45)},
		"geboortedatumPartner": nil,
	}}
	if _, err := RunScript(context.Background(), p.ByID["Activity_LeeftijdOvernemen"].Script, scope, Limits{}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]any{"aanvragerIsTenminste21": true, "aanvragerIs181920": false, "partnerIs181920": false, "aanvragerAlleenstaand": true} {
		if got := scope.vars[name]; got != want {
			t.Errorf("after the script, %s = %#v, want %#v", name, got, want)
		}
	}

	gw := p.ByID["Gateway_Aanmerking"]
	for _, tc := range []struct {
		eindresultaat map[string]any
		want          bool
	}{
		{map[string]any{"aanmerkingLocalPass": true, "aanmerkingKindPakket": true}, true},
		{map[string]any{"aanmerkingLocalPass": false, "aanmerkingKindPakket": false}, false},
	} {
		ok, err := gw.Outgoing[0].Condition.EvalBool(mapVars{"eindresultaat": tc.eindresultaat})
		if err != nil || ok != tc.want {
			t.Errorf("Flow_Ja with %v = %v, %v; want %v", tc.eindresultaat, ok, err, tc.want)
		}
	}
	if gw.Default.Target.ID != "EndEvent_Afgewezen" {
		t.Errorf("default flow goes to %s", gw.Default.Target.ID)
	}
	review := p.ByID["Activity_Beoordelen"]
	if review.DocumentRef() != "localpass-besluit" || lit(review.User.CandidateGroups) != "caseworker" || review.Form.RefBinding != "deployment" {
		t.Errorf("review task: documentRef %q, groups %q, binding %q", review.DocumentRef(), lit(review.User.CandidateGroups), review.Form.RefBinding)
	}
	ok, err := p.ByID["Gateway_Besluit"].Outgoing[0].Condition.EvalBool(mapVars{})
	if err != nil || ok {
		t.Errorf("Flow_Toegekend without besluit = %v, %v; want false (execution.hasVariable guards it)", ok, err)
	}
}

// TestExampleOnboarding evaluates the onboarding decision with dmn and
// reads it back the way the output parameters do.
func TestExampleOnboarding(t *testing.T) {
	p := exampleProcess(t, "onboarding", "HrOnboarding.bpmn", "HrOnboardingProcess")
	if p.HistoryTimeToLive != "P180D" || p.StartEvents[0].Form.RefBinding != "deployment" {
		t.Errorf("ttl %q, start form binding %q", p.HistoryTimeToLive, p.StartEvents[0].Form.RefBinding)
	}
	data, err := os.ReadFile(filepath.Join(examplesDir, "onboarding", "HrOnboardingItAccess.dmn"))
	if err != nil {
		t.Fatal(err)
	}
	defs, err := dmn.ParseBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	model, err := dmn.CompileWith(dmn.Options{Operaton: true}, defs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := model.Evaluate(context.Background(), "HrOnboardingItAccess", map[string]any{"role": "behandelaar"})
	if err != nil {
		t.Fatal(err)
	}
	v, ok := res.Value("HrOnboardingItAccess")
	if !ok {
		t.Fatal("no result")
	}
	row, _ := dmn.FromValue(v).(map[string]any)
	if row["laptopType"] != "standaard" || row["accessLevel"] != "zaaksysteem" {
		t.Fatalf("decision result = %#v", row)
	}
	task := p.ByID["Activity_ItToegang"]
	out := map[string]any{}
	for _, param := range task.InputOutput.Outputs {
		v, err := param.Value.Text.Eval(mapVars{"itMiddelen": row})
		if err != nil {
			t.Fatal(err)
		}
		out[param.Name] = v
	}
	if out["laptopType"] != "standaard" || out["accessLevel"] != "zaaksysteem" {
		t.Errorf("output parameters = %v", out)
	}
	if got := p.ByID["Activity_Informeren"].DocumentRef(); got != "hr-it-handover" {
		t.Errorf("documentRef = %q", got)
	}
}

// TestExampleProjectPhase checks the external tasks that file the three
// phase documents: topic rip-edocs-document and the documentTemplateId
// input.
func TestExampleProjectPhase(t *testing.T) {
	p := exampleProcess(t, "projectphase", "RipPhase1.bpmn", "RipPhase1Process")
	filed := map[string]string{}
	for _, e := range p.Elements {
		if e.External == nil || lit(e.External.Topic) != "rip-edocs-document" {
			continue
		}
		for _, in := range e.InputOutput.Inputs {
			if in.Name == "documentTemplateId" {
				filed[lit(in.Value.Text)] = e.ID
			}
		}
	}
	want := map[string]string{"rip-intake-report": "Activity_IntakeArchiveren", "rip-psu-report": "Activity_PsuArchiveren", "rip-pdp": "Activity_PdpArchiveren"}
	if len(filed) != len(want) {
		t.Errorf("filed documents %v, want %v", filed, want)
	}
	for k, v := range want {
		if filed[k] != v {
			t.Errorf("template %s filed by %q, want %q", k, filed[k], v)
		}
	}
	ws := p.ByID["Activity_Werkruimte"]
	if lit(ws.External.Topic) != "rip-edocs-workspace" || len(ws.Boundary) != 1 || ws.Boundary[0].Event.Error.ErrorCode != "DOCMGMT_UNAVAILABLE" {
		t.Errorf("workspace task: topic %q, %d boundary events", lit(ws.External.Topic), len(ws.Boundary))
	}
	name, err := ws.InputOutput.Inputs[0].Value.Text.Eval(mapVars{"projectNumber": "RIP-2026-014", "projectName": "Herinrichting Marktplein"})
	if err != nil || name != "RIP-2026-014 Herinrichting Marktplein" {
		t.Errorf("workspaceName = %v, %v", name, err)
	}
}

// TestExampleCallActivity checks the parent's call with variables="all"
// both ways and the child's embedded sub-process and parallel branches.
func TestExampleCallActivity(t *testing.T) {
	parent := exampleProcess(t, "subprocess", "Kapvergunning.bpmn", "KapvergunningProcess")
	call := parent.ByID["Activity_Inspectie"].Call
	if lit(call.CalledElement) != "BoomInspectieProcess" || len(call.In) != 1 || !call.In[0].All || len(call.Out) != 1 || !call.Out[0].All || call.BusinessKey == nil {
		t.Fatalf("call = %+v", call)
	}
	child := exampleProcess(t, "subprocess", "BoomInspectie.bpmn", "BoomInspectieProcess")
	if child.HistoryTimeToLive != "" {
		t.Errorf("child historyTimeToLive = %q, want absent", child.HistoryTimeToLive)
	}
	sub := child.ByID["Activity_Bezoek"]
	if sub.Kind != SubProcess || len(sub.Sub.Elements) != 4 || child.ByID["Gateway_Split"].Kind != ParallelGateway || len(child.ByID["Gateway_Join"].Incoming) != 2 {
		t.Errorf("child structure wrong")
	}
	scope := &memScope{vars: map[string]any{}}
	res, err := RunScript(context.Background(), child.ByID["Activity_Verslag"].Script, scope, Limits{})
	if err != nil || res != true || scope.vars["inspectieDatum"] != "onbekend" {
		t.Errorf("script: %v, %v, %v", res, err, scope.vars)
	}
}
