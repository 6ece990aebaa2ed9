package bpmn

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func flowIDs(fs []*Flow) []string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return ids
}

func TestNext(t *testing.T) {
	src := proc(`<startEvent id="S"/><sequenceFlow id="f0" sourceRef="S" targetRef="X"/>
<exclusiveGateway id="X" default="xd"/>
<sequenceFlow id="x1" sourceRef="X" targetRef="A"><conditionExpression>${n &gt; 10}</conditionExpression></sequenceFlow>
<sequenceFlow id="x2" sourceRef="X" targetRef="A"><conditionExpression>${n &gt; 5}</conditionExpression></sequenceFlow>
<sequenceFlow id="xd" sourceRef="X" targetRef="A"/>
<exclusiveGateway id="Y"/><sequenceFlow id="fy" sourceRef="A" targetRef="Y"/>
<sequenceFlow id="y1" sourceRef="Y" targetRef="E"><conditionExpression>${n == 1}</conditionExpression></sequenceFlow>
<task id="A"/>
<sequenceFlow id="a1" sourceRef="A" targetRef="Par"><conditionExpression>${n &gt; 100}</conditionExpression></sequenceFlow>
<sequenceFlow id="a2" sourceRef="A" targetRef="Par"><conditionExpression>${bad + 1}</conditionExpression></sequenceFlow>
<parallelGateway id="Par"/>
<sequenceFlow id="p1" sourceRef="Par" targetRef="E"/>
<sequenceFlow id="p2" sourceRef="Par" targetRef="E"><conditionExpression>${false}</conditionExpression></sequenceFlow>
<endEvent id="E"/>`)
	d, err := Parse([]byte(src), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Processes[0]
	next := func(id string, vars mapVars) ([]string, error) {
		fs, err := p.ByID[id].Next(vars)
		return flowIDs(fs), err
	}
	for _, tc := range []struct {
		id   string
		n    int64
		want []string
	}{
		{"X", 20, []string{"x1"}}, // the first that holds, in document order
		{"X", 7, []string{"x2"}},
		{"X", 1, []string{"xd"}},
		{"Y", 1, []string{"y1"}},
		{"Par", 0, []string{"p1", "p2"}},
		{"S", 0, []string{"f0"}},
		{"E", 0, nil},
	} {
		got, err := next(tc.id, mapVars{"n": tc.n, "bad": "x"})
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s with n=%d: %v, %v; want %v", tc.id, tc.n, got, err, tc.want)
		}
	}
	var nf *NoFlowError
	if _, err := next("Y", mapVars{"n": int64(2)}); !errors.As(err, &nf) || nf.ElementID != "Y" {
		t.Errorf("Y with n=2: err = %v, want a NoFlowError", err)
	}
	var ee *ExprError
	if _, err := next("A", mapVars{"n": int64(200), "bad": "x"}); !errors.As(err, &ee) {
		t.Errorf("A: err = %v, want the condition's ExprError", err)
	}
}

func TestEvalList(t *testing.T) {
	for _, tc := range []struct {
		src  string
		vars mapVars
		want []string
	}{
		{"caseworker, hr-medewerker ,,", nil, []string{"caseworker", "hr-medewerker"}},
		{"${groups}", mapVars{"groups": "a,b"}, []string{"a", "b"}},
		{"${groups}", mapVars{"groups": []any{"a", "b, c"}}, []string{"a", "b", "c"}},
		{"team-${municipality}", mapVars{"municipality": "utrecht"}, []string{"team-utrecht"}},
		{"${null}", nil, nil},
	} {
		e, err := CompileExpr(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := EvalList(e, tc.vars)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("EvalList(%q) = %v, %v; want %v", tc.src, got, err, tc.want)
		}
	}
}

func TestParamValueEval(t *testing.T) {
	d := parseFile(t, "testdata/all-elements.bpmn")
	io := d.Process("AllElements").ByID["Decide"].InputOutput
	scope := &memScope{vars: map[string]any{"name": "Jan", "decisionResult": map[string]any{"eligible": true}}}
	want := map[string]any{"threshold": int64(1000), "labels": []any{"a", "Jan"}, "settings": map[string]any{"mode": "strict"}}
	for _, in := range io.Inputs {
		v, err := in.Value.Eval(context.Background(), scope, Limits{})
		if err != nil || !deepEqual(v, want[in.Name]) {
			t.Errorf("input %s = %#v, %v; want %#v", in.Name, v, err, want[in.Name])
		}
	}
	for _, out := range io.Outputs {
		v, err := out.Value.Eval(context.Background(), scope, Limits{})
		wantOut := map[string]any{"eligible": true, "empty": nil}[out.Name]
		if err != nil || v != wantOut {
			t.Errorf("output %s = %#v, %v; want %#v", out.Name, v, err, wantOut)
		}
	}
}
