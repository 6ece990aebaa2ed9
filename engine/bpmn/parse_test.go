package bpmn

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, path string) *Definitions {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(data, ParseOptions{Resource: path})
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	return d
}

func TestParseAllElements(t *testing.T) {
	for _, file := range []string{"testdata/all-elements.bpmn", "testdata/all-elements-operaton.bpmn"} {
		t.Run(file, func(t *testing.T) {
			d := parseFile(t, file)
			if d.ExecutionPlatform != "Camunda Platform" || d.ExecutionPlatformVersion != "7.21.0" {
				t.Errorf("execution platform = %q %q", d.ExecutionPlatform, d.ExecutionPlatformVersion)
			}
			if len(d.Processes) != 1 {
				t.Fatalf("%d processes, want 1 (the non-executable one is skipped)", len(d.Processes))
			}
			p := d.Process("AllElements")
			if p == nil {
				t.Fatal("no process AllElements")
			}
			if p.HistoryTimeToLive != "180" || p.VersionTag != "1.2" || p.Properties["boardOwner"] != "caseworker" {
				t.Errorf("process attributes: ttl %q, versionTag %q, properties %v", p.HistoryTimeToLive, p.VersionTag, p.Properties)
			}
			if len(d.Collaborations) != 1 || len(d.Collaborations[0].Participants) != 2 || d.Collaborations[0].Participants[0].ProcessRef != "AllElements" {
				t.Errorf("collaborations = %+v", d.Collaborations)
			}
			if len(p.Lanes) != 2 || p.ByID["Review"].Lane.Name != "Behandelaar" || p.ByID["Start"].Lane.ID != "Lane_Burger" {
				t.Errorf("lanes wrong: %d lanes", len(p.Lanes))
			}
			if len(p.StartEvents) != 2 {
				t.Errorf("%d start events, want 2", len(p.StartEvents))
			}

			checkStartEvents(t, p)
			checkScriptTask(t, p)
			checkDecisionTask(t, p)
			checkGateway(t, p)
			checkUserTask(t, p)
			checkOtherElements(t, p)
		})
	}
}

// checkStartEvents checks the start events of all-elements.bpmn.
func checkStartEvents(t *testing.T, p *Process) {
	t.Helper()
	start := p.ByID["Start"]
	if start.Kind != StartEvent || start.Form == nil || lit(start.Form.Ref) != "start-form" || start.Form.RefBinding != "deployment" || start.Event.Initiator != "initiator" {
		t.Errorf("start event = %+v form %+v", start, start.Form)
	}
	if cs := p.ByID["CondStart"]; cs.Event.Kind != ConditionalEvent || cs.Unsupported == "" || cs.Event.Condition == nil {
		t.Errorf("conditional start = %+v", cs)
	}
}

// checkScriptTask checks the script task of all-elements.bpmn.
func checkScriptTask(t *testing.T, p *Process) {
	t.Helper()
	prep := p.ByID["Prepare"]
	if prep.Kind != ScriptTask || prep.Script == nil || prep.Script.program == nil || prep.Script.ResultVariable != "prepared" || !strings.Contains(prep.Script.Source, "java.lang.Boolean.valueOf") {
		t.Errorf("script task = %+v", prep.Script)
	}
}

// checkDecisionTask checks the business rule task and its input/output mapping of all-elements.bpmn.
func checkDecisionTask(t *testing.T, p *Process) {
	t.Helper()
	dec := p.ByID["Decide"].Decision
	if dec == nil || lit(dec.Ref) != "RONL_LocalpassEindresultaat" || dec.MapResult != MapSingleResult || dec.ResultVariable != "decisionResult" || dec.Binding != "latest" {
		t.Fatalf("decision = %+v", dec)
	}
	if v, err := dec.TenantID.Eval(mapVars{}); err != nil || v != nil {
		t.Errorf("decisionRefTenantId ${null} = %v, %v", v, err)
	}
	io := p.ByID["Decide"].InputOutput
	if io == nil || len(io.Inputs) != 3 || len(io.Outputs) != 2 {
		t.Fatalf("inputOutput = %+v", io)
	}
	if !io.Inputs[1].Value.IsList || len(io.Inputs[1].Value.List) != 2 || lit(io.Inputs[1].Value.List[0].Text) != "a" {
		t.Errorf("list parameter = %+v", io.Inputs[1].Value)
	}
	if !io.Inputs[2].Value.IsMap || io.Inputs[2].Value.Map[0].Key != "mode" || lit(io.Inputs[2].Value.Map[0].Value.Text) != "strict" {
		t.Errorf("map parameter = %+v", io.Inputs[2].Value)
	}
	if io.Outputs[1].Value.Text != nil {
		t.Errorf("empty output parameter has a value")
	}
}

// checkGateway checks the exclusive gateway and its conditional flow of all-elements.bpmn.
func checkGateway(t *testing.T, p *Process) {
	t.Helper()
	gw := p.ByID["Gw"]
	if gw.Kind != ExclusiveGateway || gw.Default == nil || gw.Default.ID != "F_No" || len(gw.Outgoing) != 2 {
		t.Fatalf("gateway = %+v", gw)
	}
	yes := gw.Outgoing[0]
	if yes.ID != "F_Yes" || yes.Condition == nil || yes.Target.ID != "Split" {
		t.Fatalf("flow F_Yes = %+v", yes)
	}
	ok, err := yes.Condition.EvalBool(mapVars{"eligible": true, "complete": false})
	if err != nil || !ok {
		t.Errorf("F_Yes condition = %v, %v", ok, err)
	}
}

// checkUserTask checks the user task, its form, listeners and boundary events of all-elements.bpmn.
func checkUserTask(t *testing.T, p *Process) {
	t.Helper()
	rev := p.ByID["Review"]
	if rev.User == nil || lit(rev.User.CandidateGroups) != "caseworker" || lit(rev.User.CandidateUsers) != "jan,piet" || rev.User.Assignee.String() != "${initiator}" {
		t.Errorf("user task = %+v", rev.User)
	}
	if rev.Form == nil || lit(rev.Form.Ref) != "review-form" || rev.Form.RefBinding != "latest" || rev.DocumentRef() != "decision-letter" {
		t.Errorf("user task form %+v, documentRef %q", rev.Form, rev.DocumentRef())
	}
	if len(rev.Listeners) != 1 || !rev.Listeners[0].Task || rev.Listeners[0].EventName != "create" || rev.Listeners[0].Script == nil {
		t.Errorf("listeners = %+v", rev.Listeners)
	}
	if len(rev.Boundary) != 2 {
		t.Fatalf("%d boundary events on Review, want 2", len(rev.Boundary))
	}
	be := p.ByID["ReviewError"]
	if be.AttachedTo != rev || be.Event.Kind != ErrorEvent || be.Event.Error.ErrorCode != "INCOMPLETE" || !be.CancelActivity || be.Unsupported != "" {
		t.Errorf("error boundary = %+v", be)
	}
	if bs := p.ByID["ReviewSignal"]; bs.Event.Kind != SignalEvent || bs.CancelActivity || bs.Event.Signal.Name != "stop" || !strings.Contains(bs.Unsupported, "signal events are not supported") {
		t.Errorf("signal boundary = %+v", bs)
	}
}

// checkOtherElements checks the external, manual and call activities, the gateways, the sub-process and the end events of all-elements.bpmn.
func checkOtherElements(t *testing.T, p *Process) {
	t.Helper()
	if a := p.ByID["Archive"]; a.Kind != ServiceTask || lit(a.External.Topic) != "archive-document" {
		t.Errorf("external task = %+v", a.External)
	}
	if p.ByID["Sign"].Kind != ManualTask || p.ByID["Split"].Kind != ParallelGateway || len(p.ByID["Join"].Incoming) != 2 {
		t.Error("manual task or parallel gateways wrong")
	}
	call := p.ByID["Call"].Call
	if call == nil || lit(call.CalledElement) != "SubProcessKey" || call.BusinessKey == nil || len(call.In) != 2 || !call.In[0].All || call.In[1].Source != "a" || call.In[1].Target != "b" || len(call.Out) != 1 || !call.Out[0].All {
		t.Errorf("call activity = %+v", call)
	}
	if bk, err := call.BusinessKey.Eval(mapVars{}); err != nil || bk != "BK-1" {
		t.Errorf("call businessKey = %v, %v", bk, err)
	}
	sub := p.ByID["Sub"]
	if sub.Sub == nil || len(sub.Sub.Elements) != 3 || len(sub.Sub.StartEvents) != 1 || sub.Sub.ByID["SubTask"].Parent != sub || p.ByID["SubTask"] == nil {
		t.Errorf("sub-process = %+v", sub.Sub)
	}
	if th := p.ByID["Throw"]; th.Unsupported == "" {
		t.Error("signal throw event not marked unsupported")
	}
	if end := p.ByID["End"]; end.Event.Kind != TerminateEvent || end.Line != 113 || end.Column != 5 {
		t.Errorf("terminate end = %+v (line %d, column %d)", end.Event, end.Line, end.Column)
	}
}

func lit(e *Expr) string {
	if e == nil {
		return "<nil>"
	}
	s, _ := e.Literal()
	return s
}

// doc wraps process content in a definitions element; the content starts
// on line 3.
func doc(content string) string {
	return `<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d">
` + content + `
</definitions>`
}

func proc(body string) string {
	return doc(`<process id="P" isExecutable="true">` + body + `</process>`)
}

const startEnd = `<startEvent id="S"/><sequenceFlow id="f0" sourceRef="S" targetRef="E"/><endEvent id="E"/>`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the error
	}{
		{"malformed", `<definitions`, []string{"line 1", "malformed XML"}},
		{"not bpmn", `<definitions xmlns="urn:x"/>`, []string{"not a BPMN 2.0 document"}},
		{"doctype", `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><definitions/>`, []string{"DOCTYPE"}},
		{"unknown target", proc(`<startEvent id="S"/><sequenceFlow id="f1" sourceRef="S" targetRef="Nowhere"/>`),
			[]string{"line 3", `element "f1"`, `unknown targetRef "Nowhere"`}},
		{"missing source", proc(`<startEvent id="S"/><endEvent id="E"/><sequenceFlow id="f1" targetRef="E"/>`),
			[]string{`element "f1"`, "missing sourceRef"}},
		{"gateway without outgoing", proc(`<startEvent id="S"/><sequenceFlow id="f1" sourceRef="S" targetRef="G"/><exclusiveGateway id="G"/>`),
			[]string{`element "G"`, "exclusiveGateway has no outgoing sequence flow"}},
		{"default not outgoing", proc(startEnd + `<exclusiveGateway id="G" default="f0"/><sequenceFlow id="f1" sourceRef="S" targetRef="G"/><sequenceFlow id="f2" sourceRef="G" targetRef="E"/>`),
			[]string{`element "G"`, `default flow "f0" is not an outgoing sequence flow of "G"`}},
		{"unconditional branch", proc(startEnd + `<exclusiveGateway id="G"/><sequenceFlow id="f1" sourceRef="S" targetRef="G"/><sequenceFlow id="f2" sourceRef="G" targetRef="E"/><sequenceFlow id="f3" sourceRef="G" targetRef="E"/>`),
			[]string{`outgoing sequence flow "f2" of exclusive gateway has no condition`}},
		{"inclusive gateway", proc(startEnd + `<inclusiveGateway id="IG"/>`), []string{`element "IG"`, "inclusive gateways are not supported"}},
		{"unknown element", proc(startEnd + "\n" + `<choreographyTask id="C"/>`), []string{"line 4", `element "C"`, "unsupported element <choreographyTask>"}},
		{"timer", proc(startEnd + `<intermediateCatchEvent id="T"><timerEventDefinition id="TD"/></intermediateCatchEvent>`), []string{`element "TD"`, "timerEventDefinition is not supported"}},
		{"message start", proc(`<startEvent id="S"><messageEventDefinition/></startEvent>`), []string{"messageEventDefinition is not supported"}},
		{"java delegate", proc(startEnd + `<serviceTask id="J" camunda:class="nl.Foo"/>`), []string{`element "J"`, `camunda:class="nl.Foo" cannot run in the embedded engine`}},
		{"service not external", proc(startEnd + `<serviceTask id="J"/>`), []string{"only external tasks"}},
		{"external without topic", proc(startEnd + `<serviceTask id="J" camunda:type="external"/>`), []string{"external task without camunda:topic"}},
		{"bad mapping", proc(startEnd + `<businessRuleTask id="B" camunda:decisionRef="d" camunda:mapDecisionResult="everything"/>`), []string{`camunda:mapDecisionResult "everything"`}},
		{"no decisionRef", proc(startEnd + `<businessRuleTask id="B"/>`), []string{"without camunda:decisionRef"}},
		{"bad juel", proc(startEnd + `<userTask id="U" camunda:assignee="${fn:user()}"/>`), []string{`element "U"`, "camunda:assignee", "functions (fn:…) are not supported"}},
		{"bad condition", proc(`<startEvent id="S"/><endEvent id="E"/><sequenceFlow id="f1" sourceRef="S" targetRef="E"><conditionExpression>${a = 1}</conditionExpression></sequenceFlow>`),
			[]string{`element "f1"`, `condition: expression "${a = 1}"`}},
		{"script language", proc(startEnd + `<scriptTask id="G" scriptFormat="groovy"><script>x</script></scriptTask>`), []string{`scriptFormat "groovy" is not supported`}},
		{"script syntax", proc(startEnd + `<scriptTask id="G" scriptFormat="javascript"><script>var = ;</script></scriptTask>`), []string{`element "G"`, "script does not compile"}},
		{"external script", proc(startEnd + `<scriptTask id="G" scriptFormat="javascript" camunda:resource="deployment://x.js"/>`), []string{"external script resource"}},
		{"multi-instance", proc(startEnd + `<userTask id="U"><multiInstanceLoopCharacteristics/></userTask>`), []string{"multi-instance"}},
		{"formData", proc(startEnd + `<userTask id="U"><extensionElements><camunda:formData/></extensionElements></userTask>`), []string{"camunda:formData"}},
		{"call without element", proc(startEnd + `<callActivity id="C"/>`), []string{"call activity without calledElement"}},
		{"self call", proc(startEnd + `<callActivity id="C" calledElement="P"/>`), []string{`element "C"`, `calls its own process "P"`}},
		{"in without target", proc(startEnd + `<callActivity id="C" calledElement="Q"><extensionElements><camunda:in source="a"/></extensionElements></callActivity>`), []string{"camunda:in without target"}},
		{"duplicate id", proc(startEnd + `<task id="S"/>`), []string{`element "S"`, "duplicate id"}},
		{"no start", proc(`<endEvent id="E"/>`), []string{`process "P" has no start event`}},
		{"sub without start", proc(startEnd + `<subProcess id="Sub"><endEvent id="SE"/></subProcess>`), []string{`element "Sub"`, "exactly one start event"}},
		{"cross-scope flow", proc(startEnd + `<subProcess id="Sub"><startEvent id="SS"/></subProcess><sequenceFlow id="fx" sourceRef="SS" targetRef="E"/>`), []string{`element "fx"`, `sourceRef "SS" is in another (sub-)process`}},
		{"boundary on gateway", proc(startEnd + `<boundaryEvent id="B" attachedToRef="S"><errorEventDefinition/></boundaryEvent>`), []string{"not an activity"}},
		{"unknown errorRef", proc(startEnd + `<task id="T"/><boundaryEvent id="B" attachedToRef="T"><errorEventDefinition errorRef="nope"/></boundaryEvent>`), []string{`unknown errorRef "nope"`}},
		{"loop", proc(`<startEvent id="S"/><sequenceFlow id="f1" sourceRef="S" targetRef="A"/><task id="A"/><sequenceFlow id="f2" sourceRef="A" targetRef="B"/><scriptTask id="B" scriptFormat="javascript"><script>1</script></scriptTask><sequenceFlow id="f3" sourceRef="B" targetRef="A"/>`),
			[]string{"loop through A → B without a wait state"}},
		{"form binding", proc(`<startEvent id="S" camunda:formRef="f" camunda:formRefBinding="sometimes"/>`), []string{`camunda:formRefBinding "sometimes"`}},
		{"event sub-process", proc(startEnd + `<subProcess id="ES" triggeredByEvent="true"/>`), []string{"event sub-processes are not supported"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src), ParseOptions{Resource: "x.bpmn"})
			if err == nil {
				t.Fatal("no error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "bpmn: x.bpmn: ") {
				t.Errorf("error %q does not name the resource", err)
			}
		})
	}
}

func TestParseWithoutHistoryTimeToLive(t *testing.T) {
	d, err := Parse([]byte(proc(startEnd)), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Processes[0].HistoryTimeToLive != "" {
		t.Errorf("historyTimeToLive = %q, want empty", d.Processes[0].HistoryTimeToLive)
	}
}

func TestParseBounds(t *testing.T) {
	t.Run("100,000 elements", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P">`)
		for i := range 100_000 {
			fmt.Fprintf(&b, `<task id="t%d"/>`, i)
		}
		b.WriteString(`</process></definitions>`)
		_, err := Parse([]byte(b.String()), ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), "more than 50000 elements") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("deep nesting", func(t *testing.T) {
		src := `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">` + strings.Repeat("<subProcess>", 1000) + strings.Repeat("</subProcess>", 1000) + `</definitions>`
		_, err := Parse([]byte(src), ParseOptions{})
		if err == nil || !strings.Contains(err.Error(), "nested deeper than 100") || !strings.Contains(err.Error(), "line 1, column") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("size", func(t *testing.T) {
		_, err := Parse([]byte(proc(startEnd)), ParseOptions{MaxBytes: 100})
		if err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("error count", func(t *testing.T) {
		var b strings.Builder
		for i := range 100 {
			fmt.Fprintf(&b, `<inclusiveGateway id="g%d"/>`, i)
		}
		_, err := Parse([]byte(proc(startEnd+b.String())), ParseOptions{})
		var l ErrorList
		if !errors.As(err, &l) || len(l) != maxErrors {
			t.Fatalf("err = %v (%d errors)", err, len(l))
		}
	})
}

func TestParseFormKeyAndMappings(t *testing.T) {
	src := doc(`<process id="P" isExecutable="true" camunda:candidateStarterGroups="caseworker,burger">
<extensionElements><camunda:executionListener event="start" expression="${execution.hasVariable('x')}"/></extensionElements>
<startEvent id="S" camunda:formKey="embedded:deployment:forms/start.html"/>
<sequenceFlow id="f1" sourceRef="S" targetRef="U"/>
<userTask id="U" camunda:formKey="camunda-forms:deployment:review.form" camunda:asyncBefore="true" camunda:dueDate="${due}" camunda:priority="60">
  <extensionElements><camunda:properties><camunda:property name="zaaktype" value="localpass"/></camunda:properties></extensionElements>
</userTask>
<sequenceFlow id="f2" sourceRef="U" targetRef="C"/>
<callActivity id="C" calledElement="${childKey}" camunda:calledElementBinding="deployment" camunda:calledElementTenantId="${null}">
  <extensionElements>
    <camunda:in sourceExpression="${amount * 2}" target="double" local="true"/>
    <camunda:out source="result" target="childResult"/>
  </extensionElements>
</callActivity>
<sequenceFlow id="f3" sourceRef="C" targetRef="E"/>
<endEvent id="E"/>
</process>`)
	d, err := Parse([]byte(src), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Processes[0]
	if lit(p.CandidateStarterGroups) != "caseworker,burger" || len(p.Listeners) != 1 || p.Listeners[0].Expression == nil || p.Listeners[0].EventName != "start" {
		t.Errorf("process: starters %q, listeners %+v", lit(p.CandidateStarterGroups), p.Listeners)
	}
	if f := p.ByID["S"].Form; f == nil || lit(f.Key) != "embedded:deployment:forms/start.html" || f.Ref != nil {
		t.Errorf("start form = %+v", f)
	}
	u := p.ByID["U"]
	if lit(u.Form.Key) != "camunda-forms:deployment:review.form" || !u.AsyncBefore || u.Properties["zaaktype"] != "localpass" || u.User.DueDate.String() != "${due}" || lit(u.User.Priority) != "60" {
		t.Errorf("user task = %+v, %+v", u.Form, u.User)
	}
	c := p.ByID["C"].Call
	if c.Binding != "deployment" || c.CalledElement.String() != "${childKey}" || len(c.In) != 1 || !c.In[0].Local || c.In[0].Target != "double" || c.Out[0].Source != "result" {
		t.Fatalf("call = %+v", c)
	}
	if v, err := c.In[0].SourceExpression.Eval(mapVars{"amount": int64(21)}); err != nil || v != int64(42) {
		t.Errorf("sourceExpression = %v, %v", v, err)
	}
}

func TestParseErrorsAreBounded(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	src := proc(`<startEvent id="S"/><sequenceFlow id="` + long + `" sourceRef="S" targetRef="` + long + `"/>`)
	_, err := Parse([]byte(src), ParseOptions{})
	if err == nil {
		t.Fatal("no error")
	}
	if n := len(err.Error()); n > 1000 {
		t.Errorf("error of %d bytes", n)
	}
}
