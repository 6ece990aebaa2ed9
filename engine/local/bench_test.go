package local

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
)

// BenchmarkEvaluate10Rules evaluates the 10-rule table through the engine:
// key lookup, variable conversion, evaluation, result rows.
func BenchmarkEvaluate10Rules(b *testing.B) {
	e := New(Options{})
	deploy(b, e, engine.NewDeployment{Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()}}})
	vars := enginetest.TenRuleLastRule()
	ctx := context.Background()
	res, err := e.Evaluate(ctx, enginetest.TenRuleKey, "", vars)
	if err != nil || !res[0]["result"].Equal(engine.String("result 9")) {
		b.Fatalf("%v %v", res, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.Evaluate(ctx, enginetest.TenRuleKey, "", vars)
	}
}

// BenchmarkDMN10Rules is the baseline: the same table evaluated by dmn
// directly (Operaton mode), the way a caller without the engine would:
// build the input map from plain Go values, evaluate, read the value.
func BenchmarkDMN10Rules(b *testing.B) {
	defs, err := dmn.ParseBytes(enginetest.TenRuleTable())
	if err != nil {
		b.Fatal(err)
	}
	m, err := dmn.CompileWith(dmn.Options{Operaton: true}, defs)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	eval := func(age int, risk string, affordable bool) any {
		res, _ := m.Evaluate(ctx, enginetest.TenRuleKey, map[string]any{"age": age, "riskCategory": risk, "isAffordable": affordable})
		return res.Main().Value
	}
	if v := eval(95, "High", false); v != "result 9" {
		b.Fatalf("got %v", v)
	}
	b.ReportAllocs()
	for b.Loop() {
		eval(95, "High", false)
	}
}

// BenchmarkLocalPassStep2 evaluates the 4-decision DRD of step 2 by key.
func BenchmarkLocalPassStep2(b *testing.B) {
	e := New(Options{})
	deployLocalPass(b, e)
	vars := variables(b, step2Inputs())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeployLocalPass deploys the three local-pass models (parse and
// compile; a fresh engine each time, so nothing is cached).
func BenchmarkDeployLocalPass(b *testing.B) {
	rs, err := enginetest.LocalPass()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Options{}).Deploy(ctx, engine.NewDeployment{Resources: rs}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOverheadVsDMN alternates the two evaluations above, one of each
// per iteration, so both see the same machine load, and reports their
// median times and the engine's overhead over dmn in percent.
func BenchmarkOverheadVsDMN(b *testing.B) {
	e := New(Options{})
	deploy(b, e, engine.NewDeployment{Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()}}})
	vars := enginetest.TenRuleLastRule()
	defs, err := dmn.ParseBytes(enginetest.TenRuleTable())
	if err != nil {
		b.Fatal(err)
	}
	m, err := dmn.CompileWith(dmn.Options{Operaton: true}, defs)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var viaEngine, viaDMN []time.Duration
	for b.Loop() {
		t0 := time.Now()
		e.Evaluate(ctx, enginetest.TenRuleKey, "", vars)
		t1 := time.Now()
		res, _ := m.Evaluate(ctx, enginetest.TenRuleKey, map[string]any{"age": 95, "riskCategory": "High", "isAffordable": false})
		_ = dmn.FromValue(res.Main().Value)
		t2 := time.Now()
		viaEngine = append(viaEngine, t1.Sub(t0))
		viaDMN = append(viaDMN, t2.Sub(t1))
	}
	reportOverhead(b, viaEngine, viaDMN)
}

func reportOverhead(b *testing.B, viaEngine, viaDMN []time.Duration) {
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Nanoseconds())
	}
	me, md := median(viaEngine), median(viaDMN)
	b.ReportMetric(me, "engine-ns")
	b.ReportMetric(md, "dmn-ns")
	b.ReportMetric(100*(me-md)/md, "overhead-%")
}

// BenchmarkOverheadVsDMNDRD compares the engine with dmn's own Operaton
// mode on the 4-decision DRD of local-pass step 2, alternating as above.
func BenchmarkOverheadVsDMNDRD(b *testing.B) {
	e := New(Options{})
	deployLocalPass(b, e)
	vars := variables(b, step2Inputs())
	plain := step2Inputs()
	rs, err := enginetest.LocalPass()
	if err != nil {
		b.Fatal(err)
	}
	defs, err := dmn.ParseBytes(rs[1].Data)
	if err != nil {
		b.Fatal(err)
	}
	m, err := dmn.CompileWith(dmn.Options{Operaton: true}, defs)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var viaEngine, viaDMN []time.Duration
	for b.Loop() {
		t0 := time.Now()
		e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
		t1 := time.Now()
		in := make(map[string]any, len(plain))
		for k, v := range plain {
			in[k] = v
		}
		res, err := m.Evaluate(ctx, "SZW_BijstandsnormInformatie", in)
		if err != nil {
			b.Fatal(err)
		}
		_ = dmn.FromValue(res.Main().Value)
		t2 := time.Now()
		viaEngine = append(viaEngine, t1.Sub(t0))
		viaDMN = append(viaDMN, t2.Sub(t1))
	}
	reportOverhead(b, viaEngine, viaDMN)
}

// threeStep is the benchmark process: start → user task → business-rule
// task (the 10-rule table) → end.
const threeStep = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="D" targetNamespace="http://regelkit.test">
<bpmn:process id="ThreeStep" isExecutable="true" camunda:historyTimeToLive="30">
<bpmn:startEvent id="s"/><bpmn:userTask id="review" camunda:candidateGroups="caseworker"/>
<bpmn:businessRuleTask id="decide" camunda:decisionRef="eligibility" camunda:mapDecisionResult="singleEntry" camunda:resultVariable="result"/>
<bpmn:endEvent id="e"/>
<bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="review"/><bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="decide"/>
<bpmn:sequenceFlow id="f3" sourceRef="decide" targetRef="e"/>
</bpmn:process></bpmn:definitions>`

// BenchmarkStartComplete3Step starts the 3-step process and completes its
// user task, which runs the business-rule task and ends the instance:
// two commands, each one Commit to the memory store. Target: ≥ 5,000/s.
func BenchmarkStartComplete3Step(b *testing.B) {
	ctx := context.Background()
	e := New(Options{MaxInstances: -1, MaxTasks: -1})
	deploy(b, e, engine.NewDeployment{Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()},
		{Name: "three.bpmn", Data: []byte(threeStep)}}})
	vars := enginetest.TenRuleLastRule()
	vars["municipality"] = engine.String("utrecht")
	run := func() {
		pi, err := e.StartProcess(ctx, engine.StartProcess{Key: "ThreeStep", Variables: vars})
		if err != nil {
			b.Fatal(err)
		}
		ts, err := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: pi.ID})
		if err != nil || len(ts) != 1 {
			b.Fatalf("tasks %v %v", ts, err)
		}
		if err := e.CompleteTask(ctx, ts[0].ID, nil); err != nil {
			b.Fatal(err)
		}
	}
	run()
	hv, _ := e.HistoricVariables(ctx, engine.HistoricVariableQuery{VariableName: "result"})
	if len(hv) != 1 || !hv[0].Value.Equal(engine.String("result 9")) {
		b.Fatalf("result = %+v", hv)
	}
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
}

// BenchmarkTaskListMunicipality queries the task list of one
// municipality (1,000 tasks, newest first) among 100,000 open tasks of
// 100 municipalities, as the business API does. Target: < 50 ms.
func BenchmarkTaskListMunicipality(b *testing.B) {
	ctx := context.Background()
	e := New(Options{MaxInstances: -1, MaxTasks: -1})
	deploy(b, e, engine.NewDeployment{Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()},
		{Name: "three.bpmn", Data: []byte(threeStep)}}})
	for i := range 100_000 {
		_, err := e.StartProcess(ctx, engine.StartProcess{Key: "ThreeStep", Variables: engine.Variables{
			"municipality": engine.String(fmt.Sprintf("gemeente-%d", i%100))}})
		if err != nil {
			b.Fatal(err)
		}
	}
	q := engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "gemeente-42"}},
		CandidateGroups: []string{"caseworker"}, IncludeAssignedTasks: true, SortBy: "created", SortOrder: "desc"}
	ts, err := e.Tasks(ctx, q)
	if err != nil || len(ts) != 1000 {
		b.Fatalf("tasks = %d, %v; want 1000", len(ts), err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.Tasks(ctx, q)
	}
}
