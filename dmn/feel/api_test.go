package feel

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// The host API: environments, compiled expressions and tests, functions
// called from Go.
func TestEnvAPI(t *testing.T) {
	rt := &Runtime{}
	x, err := CompileExpr(`a + b`, &Scope{Names: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if x.Source() != `a + b` {
		t.Errorf("Source() = %q", x.Source())
	}
	if _, ok := x.AST().(*Binary); !ok {
		t.Errorf("AST() = %T, want *Binary", x.AST())
	}
	c := NewContext(2)
	c.Put("a", Number(1))
	c.Put("b", Number(2))
	if got := slices.Clone(c.Keys()); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Keys() = %v", got)
	}
	envs := []struct {
		name string
		env  *Env
		want string
	}{
		{"NewContextEnv", NewContextEnv(rt, c), `3`},
		{"NewFrameEnv", NewFrameEnv(rt, []string{"a", "b"}, []Value{Number(10), Number(20)}), `30`},
		{"WithVars", NewEnv(rt, nil).WithVars(map[string]Value{"a": Number(5), "b": Number(6)}), `11`},
		{"WithFrame", NewEnv(rt, map[string]Value{"a": Number(1)}).WithFrame([]string{"b"}, []Value{Number(7)}), `8`},
		{"With", NewEnv(rt, map[string]Value{"a": Number(1)}).With("b", Number(1)), `2`},
		{"WithContext", NewEnv(rt, map[string]Value{"a": Number(100)}).WithContext(c), `3`},
		{"missing", NewEnv(rt, nil), `null`},
	}
	for _, tc := range envs {
		if tc.env.Runtime() != rt {
			t.Errorf("%s: Runtime() is not the runtime given", tc.name)
		}
		if got := Literal(x.Eval(tc.env)); got != tc.want {
			t.Errorf("%s: a + b = %s, want %s", tc.name, got, tc.want)
		}
	}
	if _, ok := NewEnv(rt, nil).Lookup("a"); ok {
		t.Error("Lookup of an unbound name succeeded")
	}
}

func TestFunctionAPI(t *testing.T) {
	twice := NewFunction("twice", []Param{{Name: "n", Type: NumberType}}, NumberType, func(rt *Runtime, args []Value) Value {
		d, ok := args[0].(interface{ String() string })
		if !ok {
			return nil
		}
		v, _ := Eval(d.String()+" * 2", nil)
		return v
	})
	rt := &Runtime{}
	if got := Literal(twice.Call(rt, []Value{Number(21)})); got != `42` {
		t.Errorf("Call = %s, want 42", got)
	}
	if got := Literal(twice.CallNamed(rt, []string{"n"}, []Value{Number(4)})); got != `8` {
		t.Errorf("CallNamed = %s, want 8", got)
	}
	if got := Literal(twice.CallNamed(rt, []string{"m"}, []Value{Number(4)})); got != `null` {
		t.Errorf("CallNamed with an unknown name = %s, want null", got)
	}
	x, err := CompileExpr(`twice(5) + 1`, &Scope{Names: []string{"twice"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := Literal(x.Eval(NewEnv(rt, map[string]Value{"twice": twice}))); got != `11` {
		t.Errorf("twice(5) + 1 = %s, want 11", got)
	}
	names := BuiltinFunctions()
	for _, want := range []string{"abs", "string join", "week of year", "overlaps before", "context put"} {
		if !slices.Contains(names, want) {
			t.Errorf("BuiltinFunctions() lacks %q", want)
		}
	}
	if !slices.IsSorted(names) {
		t.Error("BuiltinFunctions() not sorted")
	}
	def := mustEval(t, `{java: {class: "java.lang.Math", method signature: "max(long, long)"}}`)
	f, ok := ExternalFunction(rt, []Param{{Name: "a"}, {Name: "b"}}, def).(*Function)
	if !ok {
		t.Fatal("ExternalFunction gave no function")
	}
	if got := Literal(f.Call(rt, []Value{Number(3), Number(9)})); got != `9` {
		t.Errorf("Math.max(3, 9) = %s", got)
	}
	if got := Literal(f.Call(rt, []Value{Number(3)})); got != `null` {
		t.Errorf("Math.max(3) = %s, want null", got)
	}
	if got := Literal(f.Call(rt, []Value{"a", Number(3)})); got != `null` {
		t.Errorf(`Math.max("a", 3) = %s, want null`, got)
	}
	rt = &Runtime{}
	if v := rt.Warnf("custom %d", 1); v != nil {
		t.Errorf("Warnf = %v, want null", v)
	}
	if len(rt.Warnings) == 0 {
		t.Error("Warnf recorded no warning")
	}
}

func TestTestsAPI(t *testing.T) {
	rt := &Runtime{}
	tests := []struct {
		src   string
		in    string
		match bool
		index int
	}{
		{`-`, `1`, true, -1},
		{`< 10, > 20`, `25`, true, 1},
		{`< 10, > 20`, `15`, false, -1},
		{`not(1, 2)`, `3`, true, -1},
		{`not(1, 2)`, `2`, false, -1},
		{`[1..5)`, `5`, false, -1},
		{`(1..5]`, `5`, true, 0},
		{`"a", "b"`, `"b"`, true, 1},
		{`!= "a"`, `"b"`, true, 0},
		{`= "a"`, `"b"`, false, -1},
		{`>= date("2024-01-01")`, `date("2024-06-01")`, true, 0},
		{`? > 3`, `4`, true, 0},
		{`null`, `null`, true, 0},
		{`-1`, `-1`, true, 0},
		{`[1, 2]`, `2`, true, 0},
		{`true`, `true`, true, 0},
		{`>= 1`, `null`, false, -1},
		{`>= 1`, `"a"`, false, -1},
		{`< @"P1D"`, `duration("PT1H")`, true, 0},
	}
	for _, tc := range tests {
		ts, err := CompileUnaryTests(tc.src, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if ts.Source() != tc.src || ts.AST() == nil {
			t.Errorf("%s: Source() = %q", tc.src, ts.Source())
		}
		if ts.IsAny() != (tc.src == "-") {
			t.Errorf("%s: IsAny() = %v", tc.src, ts.IsAny())
		}
		in := mustEval(t, tc.in)
		if got := ts.MatchEnv(NewEnv(rt, nil), in); got != tc.match {
			t.Errorf("%s matches %s = %v, want %v", tc.src, tc.in, got, tc.match)
		}
		if got := ts.Match(in, nil); got != tc.match {
			t.Errorf("%s Match %s = %v, want %v", tc.src, tc.in, got, tc.match)
		}
		if !ts.IsAny() && !ts.AST().Not {
			if got := ts.Index(NewEnv(rt, nil), in); got != tc.index {
				t.Errorf("%s Index(%s) = %d, want %d", tc.src, tc.in, got, tc.index)
			}
		}
	}
	ts, err := CompileUnaryTests(`1, 2, 3`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ts.Len() != 3 {
		t.Errorf("Len() = %d, want 3", ts.Len())
	}
}

// Comments are white space (DMN 1.5 10.3.1.2).
func TestComments(t *testing.T) {
	checkEval(t, []evalCase{
		{"1 + // one\n 2", `3`},
		{"1 /* a\n comment */ + 2", `3`},
		{"/* leading */ 4", `4`},
	})
	if _, err := ParseExpr("1 + /* unterminated", nil); err == nil {
		t.Error("an unterminated comment parsed")
	}
}

// Spend counts host work against the budget inside Run, and does nothing
// outside it.
func TestSpend(t *testing.T) {
	rt := &Runtime{}
	rt.Spend(1<<40, 1<<40) // outside Run: no effect
	if rt.Context() == nil {
		t.Fatal("Context() is nil outside Run")
	}
	err := rt.Run(context.Background(), Limits{MaxRows: 10}, func() {
		if rt.Context() == nil {
			t.Error("Context() is nil inside Run")
		}
		rt.Spend(1, 5)
		rt.Spend(1, 6)
		t.Error("Spend did not stop the evaluation at MaxRows")
	})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MaxRows" || le.Max != 10 {
		t.Errorf("Run = %v, want MaxRows 10", err)
	}
}
