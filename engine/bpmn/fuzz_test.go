package bpmn

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no document makes Parse panic or hang, and that
// every failure is a positioned *ParseError or an ErrorList.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.bpmn")
	examples, _ := filepath.Glob(examplesDir + "/*/*.bpmn")
	files = append(files, examples...)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(proc(startEnd)))
	f.Add([]byte(proc(`<startEvent id="S"/><sequenceFlow id="f1" sourceRef="S" targetRef="A"/><task id="A"/><sequenceFlow id="f2" sourceRef="A" targetRef="A"/>`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data, ParseOptions{MaxElements: 5000})
		switch err.(type) {
		case nil:
			if d == nil {
				t.Fatal("nil definitions without error")
			}
		case *ParseError, ErrorList:
		default:
			t.Fatalf("error of type %T: %v", err, err)
		}
	})
}

// FuzzCompileExpr checks that no expression makes the compiler or the
// evaluator panic.
func FuzzCompileExpr(f *testing.F) {
	for _, s := range []string{
		"${a == b}", "${decisionResult.getSingleResult().getEntry(\"x\")}", "${null}",
		"${not empty x.y && (a + 1) * 2 ge 3 ? 'a' : \"b\"}", "Hallo ${name}!", "\\${x}", "#{execution.hasVariable('x')}",
		"${list[0].size()}", "${-1.5e3 mod 7 div 2}",
	} {
		f.Add(s)
	}
	vars := mapVars{"a": int64(1), "b": "x", "x": map[string]any{"y": []any{1.5}}, "list": []any{"s"},
		"decisionResult": DecisionResult{{"x": true}}, "name": nil}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := CompileExpr(src)
		if err != nil {
			if _, ok := err.(*ExprError); !ok {
				t.Fatalf("compile error of type %T", err)
			}
			return
		}
		_, _ = e.Eval(vars)
	})
}
