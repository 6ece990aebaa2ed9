package local

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/bpmn"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
)

const bpmnHead = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="D" targetNamespace="http://regelkit.test">
`

func deployBPMN(t testing.TB, e *Engine, files ...string) error {
	t.Helper()
	nd := engine.NewDeployment{Name: "hostile"}
	for i := 0; i+1 < len(files); i += 2 {
		nd.Resources = append(nd.Resources, engine.Resource{Name: files[i], Data: []byte(files[i+1])})
	}
	_, err := e.Deploy(context.Background(), nd)
	return err
}

// stillUsable deploys and runs a small process: the engine works after a
// refused or stopped command.
func stillUsable(t *testing.T, e *Engine) {
	t.Helper()
	ok := bpmnHead + `<bpmn:process id="Ok" isExecutable="true"><bpmn:startEvent id="s"/><bpmn:userTask id="u"/><bpmn:endEvent id="e"/>
<bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="u"/><bpmn:sequenceFlow id="f2" sourceRef="u" targetRef="e"/></bpmn:process></bpmn:definitions>`
	if err := deployBPMN(t, e, "ok.bpmn", ok); err != nil {
		t.Fatalf("deploy after the hostile input: %v", err)
	}
	pi, err := e.StartProcess(context.Background(), engine.StartProcess{Key: "Ok"})
	if err != nil || pi.Ended {
		t.Fatalf("start after the hostile input: %+v, %v", pi, err)
	}
}

func TestHostileDeployments(t *testing.T) {
	e := New(Options{})
	var deep strings.Builder
	deep.WriteString(bpmnHead + `<bpmn:process id="Deep" isExecutable="true">`)
	for i := range 150 {
		fmt.Fprintf(&deep, `<bpmn:subProcess id="sp%d">`, i)
	}
	for range 150 {
		deep.WriteString(`</bpmn:subProcess>`)
	}
	deep.WriteString(`</bpmn:process></bpmn:definitions>`)

	var wide strings.Builder
	wide.WriteString(bpmnHead + `<bpmn:process id="Wide" isExecutable="true">`)
	for i := range 100_000 {
		fmt.Fprintf(&wide, `<bpmn:task id="t%d"/>`, i)
	}
	wide.WriteString(`</bpmn:process></bpmn:definitions>`)

	for _, tc := range []struct{ name, xml, msg string }{
		{"deep.bpmn", deep.String(), "nested deeper than 100"},
		{"wide.bpmn", wide.String(), "more than 50000 elements"},
		{"juel.bpmn", bpmnHead + `<bpmn:process id="J" isExecutable="true"><bpmn:startEvent id="s"/><bpmn:endEvent id="e"/>
<bpmn:sequenceFlow id="f" sourceRef="s" targetRef="e"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${x ++ y}</bpmn:conditionExpression></bpmn:sequenceFlow></bpmn:process></bpmn:definitions>`, "x ++ y"},
		{"self.bpmn", bpmnHead + `<bpmn:process id="Self" isExecutable="true"><bpmn:startEvent id="s"/><bpmn:callActivity id="c" calledElement="Self"/><bpmn:endEvent id="e"/>
<bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="c"/><bpmn:sequenceFlow id="f2" sourceRef="c" targetRef="e"/></bpmn:process></bpmn:definitions>`, "Self"},
	} {
		err := deployBPMN(t, e, tc.name, tc.xml)
		var de *engine.DeploymentError
		if !errors.As(err, &de) || de.Resource != tc.name || !strings.Contains(de.Msg, tc.msg) {
			t.Errorf("%s: %v, want a DeploymentError containing %q", tc.name, err, tc.msg)
		}
	}
	if defs, _ := e.ProcessDefinitions(context.Background(), engine.ProcessDefinitionQuery{}); len(defs) != 0 {
		t.Errorf("refused deployments left %d definitions", len(defs))
	}
	stillUsable(t, e)
}

func TestHostileBudgets(t *testing.T) {
	ctx := context.Background()
	e := New(Options{ProcessLimits: Limits{Timeout: 200 * time.Millisecond, MaxDepth: 5, MaxSteps: 1000, MaxVariableBytes: 4096}})
	loop := bpmnHead + `<bpmn:process id="Loop" isExecutable="true"><bpmn:startEvent id="s"/><bpmn:exclusiveGateway id="gw" default="back"/>
<bpmn:scriptTask id="inc" scriptFormat="javascript"><bpmn:script>execution.setVariable("i", i + 1);</bpmn:script></bpmn:scriptTask><bpmn:endEvent id="e"/>
<bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="gw"/><bpmn:sequenceFlow id="out" sourceRef="gw" targetRef="e"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${i &lt; 0}</bpmn:conditionExpression></bpmn:sequenceFlow>
<bpmn:sequenceFlow id="back" sourceRef="gw" targetRef="inc"/><bpmn:sequenceFlow id="f3" sourceRef="inc" targetRef="gw"/></bpmn:process>
<bpmn:process id="Spin" isExecutable="true"><bpmn:startEvent id="s2"/><bpmn:scriptTask id="spin" scriptFormat="javascript"><bpmn:script>while (true) {}</bpmn:script></bpmn:scriptTask><bpmn:endEvent id="e2"/>
<bpmn:sequenceFlow id="g1" sourceRef="s2" targetRef="spin"/><bpmn:sequenceFlow id="g2" sourceRef="spin" targetRef="e2"/></bpmn:process>
<bpmn:process id="PingA" isExecutable="true"><bpmn:startEvent id="a1"/><bpmn:callActivity id="callB" calledElement="PingB"/><bpmn:endEvent id="a2"/>
<bpmn:sequenceFlow id="h1" sourceRef="a1" targetRef="callB"/><bpmn:sequenceFlow id="h2" sourceRef="callB" targetRef="a2"/></bpmn:process>
<bpmn:process id="PingB" isExecutable="true"><bpmn:startEvent id="b1"/><bpmn:callActivity id="callA" calledElement="PingA"/><bpmn:endEvent id="b2"/>
<bpmn:sequenceFlow id="k1" sourceRef="b1" targetRef="callA"/><bpmn:sequenceFlow id="k2" sourceRef="callA" targetRef="b2"/></bpmn:process>
</bpmn:definitions>`
	if err := deployBPMN(t, e, "loop.bpmn", loop); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key   string
		vars  engine.Variables
		limit string
	}{
		{"Loop", engine.Variables{"i": engine.Integer(0)}, "MaxSteps"},
		{"Spin", nil, "Timeout"},
		{"PingA", nil, "MaxDepth"},
		{"Loop", engine.Variables{"i": engine.Integer(-5), "big": engine.String(strings.Repeat("x", 5000))}, "MaxVariableBytes"},
	} {
		began := time.Now()
		_, err := e.StartProcess(ctx, engine.StartProcess{Key: tc.key, Variables: tc.vars})
		var le interface{ LimitExceeded() string }
		if !errors.As(err, &le) || le.LimitExceeded() != tc.limit {
			t.Errorf("%s: %v, want a limit error on %s", tc.key, err, tc.limit)
		}
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("%s took %v to stop", tc.key, d)
		}
		if tc.limit == "Timeout" {
			var be *bpmn.LimitError
			if !errors.As(err, &be) {
				t.Errorf("Spin: %T, want *bpmn.LimitError", err)
			}
		}
	}
	// nothing of the stopped commands is kept
	if n, _ := e.store.InstanceCount(ctx, ""); n != 0 {
		t.Errorf("%d instances kept after stopped starts", n)
	}
	if hs, _ := e.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{}); len(hs) != 0 {
		t.Errorf("%d historic instances kept after stopped starts", len(hs))
	}
	stillUsable(t, e)
}

func TestMaxInstances(t *testing.T) {
	ctx := context.Background()
	e := New(Options{MaxInstances: 2})
	stillUsable(t, e)
	if _, err := e.StartProcess(ctx, engine.StartProcess{Key: "Ok"}); err != nil {
		t.Fatal(err)
	}
	_, err := e.StartProcess(ctx, engine.StartProcess{Key: "Ok"})
	var sf *engine.StorageFullError
	if !errors.As(err, &sf) || sf.Limit != "MaxInstances" || sf.Max != 2 {
		t.Fatalf("third instance: %v, want StorageFullError MaxInstances 2", err)
	}
	// completing one makes room
	ts, _ := e.Tasks(ctx, engine.TaskQuery{})
	if err := e.CompleteTask(ctx, ts[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.StartProcess(ctx, engine.StartProcess{Key: "Ok"}); err != nil {
		t.Fatalf("start after one ended: %v", err)
	}
}

// TestDecisionsAcrossEngines: a decision deployed through one engine is
// evaluated by another on the same store.
func TestDecisionsAcrossEngines(t *testing.T) {
	ctx := context.Background()
	store := NewMemoryStore(MemoryOptions{})
	e1, e2 := New(Options{Store: store}), New(Options{Store: store})
	if _, err := e1.Deploy(ctx, engine.NewDeployment{Name: "t", Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()}}}); err != nil {
		t.Fatal(err)
	}
	res, err := e2.Evaluate(ctx, enginetest.TenRuleKey, "", enginetest.TenRuleLastRule())
	if err != nil || len(res) != 1 || !res[0]["result"].Equal(engine.String("result 9")) {
		t.Fatalf("evaluate on the second engine: %v, %v", res, err)
	}
	deps, _ := e2.Deployments(ctx, engine.DeploymentQuery{})
	if len(deps) != 1 || deps[0].Name != "t" {
		t.Errorf("deployments seen by the second engine = %+v", deps)
	}
}
