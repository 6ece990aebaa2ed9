package bpmn_test

import (
	"context"
	"fmt"

	"github.com/regelkit/regelkit/engine/bpmn"
)

const approval = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d">
  <bpmn:process id="Approval" isExecutable="true">
    <bpmn:startEvent id="Start" />
    <bpmn:sequenceFlow id="f1" sourceRef="Start" targetRef="Check" />
    <bpmn:scriptTask id="Check" scriptFormat="javascript" camunda:resultVariable="checked">
      <bpmn:script>execution.setVariable("large", amount > 1000); true</bpmn:script>
    </bpmn:scriptTask>
    <bpmn:sequenceFlow id="f2" sourceRef="Check" targetRef="Gw" />
    <bpmn:exclusiveGateway id="Gw" default="auto" />
    <bpmn:sequenceFlow id="manual" sourceRef="Gw" targetRef="Review">
      <bpmn:conditionExpression>${large}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="auto" sourceRef="Gw" targetRef="End" />
    <bpmn:userTask id="Review" camunda:candidateGroups="caseworker" />
    <bpmn:sequenceFlow id="f3" sourceRef="Review" targetRef="End" />
    <bpmn:endEvent id="End" />
  </bpmn:process>
</bpmn:definitions>`

// vars is a plain variable scope for the example.
type vars map[string]any

func (v vars) Variable(name string) (any, bool) { x, ok := v[name]; return x, ok }
func (v vars) VariableNames() []string {
	var names []string
	for k := range v {
		names = append(names, k)
	}
	return names
}
func (v vars) SetVariable(name string, x any) error { v[name] = x; return nil }
func (v vars) RemoveVariable(name string) error     { delete(v, name); return nil }

// Parse a process, run its script task and choose the gateway's flow.
func ExampleParse() {
	defs, err := bpmn.Parse([]byte(approval), bpmn.ParseOptions{Resource: "approval.bpmn"})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := defs.Process("Approval")
	scope := vars{"amount": int64(1500)}
	if _, err := bpmn.RunScript(context.Background(), p.ByID["Check"].Script, scope, bpmn.Limits{}); err != nil {
		fmt.Println(err)
		return
	}
	gw := p.ByID["Gw"]
	next := gw.Default
	for _, f := range gw.Outgoing {
		if f.Condition == nil {
			continue
		}
		if ok, err := f.Condition.EvalBool(scope); err == nil && ok {
			next = f
			break
		}
	}
	fmt.Println(next.Target.ID, next.Target.Kind)
	// Output: Review userTask
}

// An unsupported element is refused at deployment, naming line and id.
func ExampleParse_unsupported() {
	_, err := bpmn.Parse([]byte(`<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">
<process id="P"><startEvent id="S"/><inclusiveGateway id="Or"/></process></definitions>`), bpmn.ParseOptions{Resource: "p.bpmn"})
	fmt.Println(err)
	// Output: bpmn: p.bpmn: line 2, column 37: element "Or": inclusive gateways are not supported
}

// Expressions are compiled once and evaluated against any Variables.
func ExampleCompileExpr() {
	e, err := bpmn.CompileExpr(`${decisionResult.getSingleResult().getEntry("eligible") and not empty name}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := e.Eval(vars{"decisionResult": bpmn.DecisionResult{{"eligible": true}}, "name": "Jan"})
	fmt.Println(v, err)
	// Output: true <nil>
}
