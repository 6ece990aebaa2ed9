package bpmn

import (
	"context"
	"os"
	"testing"
)

// BenchmarkParse parses the all-elements test model (scripts compiled).
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("testdata/all-elements.bpmn")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, ParseOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunScript runs a small script task with three variables: the
// cost of a fresh goja runtime, the globals, the shims and the run.
func BenchmarkRunScript(b *testing.B) {
	p, err := compileJS("Task_1", `execution.setVariable("complete", java.lang.Boolean.valueOf(amount > 100 && name != null));`)
	if err != nil {
		b.Fatal(err)
	}
	s := &Script{program: p}
	scope := &memScope{vars: map[string]any{"amount": int64(150), "name": "Jan", "m": map[string]any{"a": int64(1)}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunScript(context.Background(), s, scope, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExprEval evaluates a typical gateway condition.
func BenchmarkExprEval(b *testing.B) {
	e, err := CompileExpr("${completenessResult.isComplete == true && execution.hasVariable('x') && amount gt 100}")
	if err != nil {
		b.Fatal(err)
	}
	vars := mapVars{"completenessResult": map[string]any{"isComplete": true}, "x": 1, "amount": int64(150)}
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := e.EvalBool(vars); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}
