package bpmn

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// memScope is an in-memory ScriptScope.
type memScope struct{ vars map[string]any }

func (s *memScope) Variable(name string) (any, bool) { v, ok := s.vars[name]; return v, ok }
func (s *memScope) VariableNames() []string {
	var ns []string
	for k := range s.vars {
		ns = append(ns, k)
	}
	sort.Strings(ns)
	return ns
}
func (s *memScope) SetVariable(name string, v any) error { s.vars[name] = v; return nil }
func (s *memScope) RemoveVariable(name string) error     { delete(s.vars, name); return nil }
func (s *memScope) ExecutionProperty(name string) (any, bool) {
	if name == "processBusinessKey" {
		return "BK-7", true
	}
	return nil, false
}

func script(t *testing.T, src string) *Script {
	t.Helper()
	p, err := compileJS("Task_1", src)
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	return &Script{Format: "javascript", Source: src, program: p}
}

func TestRunScript(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, src string
		vars      map[string]any
		want      any            // the result
		after     map[string]any // variables expected afterwards (nil value: removed)
	}{
		{"globals and setVariable", `execution.setVariable("total", amount * 2); amount > 100`,
			map[string]any{"amount": int64(150)}, true, map[string]any{"total": int64(300)}},
		{"getVariable and hasVariable", `execution.hasVariable("x") + ":" + execution.hasVariable("nope") + ":" + execution.getVariable("x") + ":" + execution.getVariable("nope")`,
			map[string]any{"x": "a"}, "true:false:a:null", nil},
		{"removeVariable", `execution.removeVariable("x"); execution.hasVariable("x")`,
			map[string]any{"x": "a"}, false, map[string]any{"x": nil}},
		{"global assignment does not store", `x = 5; x`, map[string]any{"x": int64(1)}, int64(5), map[string]any{"x": int64(1)}},
		{"Boolean.valueOf", `[java.lang.Boolean.valueOf("TRUE"), java.lang.Boolean.valueOf("ja"), java.lang.Boolean.valueOf(true), java.lang.Boolean.valueOf(null)]`,
			nil, []any{true, false, true, false}, nil},
		{"Integer, Long, Double, String", `[java.lang.Integer.valueOf("42"), java.lang.Long.parseLong("9007199254740993") > 0, java.lang.Double.valueOf("2.5"), java.lang.String.valueOf(null), java.lang.String.valueOf(7)]`,
			nil, []any{int64(42), true, 2.5, "null", "7"}, nil},
		{"Java shape of a decision result", `decisionResult.getSingleResult().getEntry("eligible") && decisionResult.getSingleResult().containsKey("amount") && decisionResult.getSingleResult().get("amount") == 250 && decisionResult.size() == 1`,
			map[string]any{"decisionResult": DecisionResult{{"eligible": true, "amount": int64(250)}}}, true, nil},
		{"JS shape of a decision result", `decisionResult[0].amount + decisionResult.length`,
			map[string]any{"decisionResult": DecisionResult{{"eligible": true, "amount": int64(250)}}}, int64(251), nil},
		{"collectEntries and getSingleEntry", `rows.collectEntries("x").join(",") + "/" + rows.get(1).getSingleEntry()`,
			map[string]any{"rows": DecisionResult{{"x": int64(1)}, {"x": int64(2)}}}, "1,2/2", nil},
		{"map and list as Java and JS", `m.get("a") + m.b.length + m.b.size() + m.size() + JSON.stringify(m)`,
			map[string]any{"m": map[string]any{"a": int64(1), "b": []any{"x", "y"}}}, `7{"a":1,"b":["x","y"]}`, nil},
		{"objects stored", `execution.setVariable("o", {n: 1, l: [true, "s", 1.5], nested: {z: null}}); null`,
			nil, nil, map[string]any{"o": map[string]any{"n": int64(1), "l": []any{true, "s", 1.5}, "nested": map[string]any{"z": nil}}}},
		{"script copies, never aliases", `m.a = 99; execution.getVariable("m").a`,
			map[string]any{"m": map[string]any{"a": int64(1)}}, int64(1), map[string]any{"m": map[string]any{"a": int64(1)}}},
		{"business key", `execution.getProcessBusinessKey() + execution.processBusinessKey`, nil, "BK-7BK-7", nil},
		{"undefined result", `var a = 1;`, nil, nil, nil},
		{"no require", `typeof require + typeof process + typeof fetch`, nil, "undefinedundefinedundefined", nil},
		{"no binary buffers", `typeof ArrayBuffer + typeof Uint8Array + typeof DataView`, nil, "undefinedundefinedundefined", nil},
		{"guarded builtins still work", `[3, 1, 2].sort().join("") + "ab".repeat(2) + "x".padStart(3, "-") + [1, 2, 3].indexOf(2) + JSON.stringify(Array.from([1]))`,
			nil, "123abab--x1[1]", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]any{}
			for k, v := range tc.vars {
				vars[k] = v
			}
			scope := &memScope{vars: vars}
			got, err := RunScript(ctx, script(t, tc.src), scope, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !deepEqual(got, tc.want) {
				t.Errorf("result = %#v, want %#v", got, tc.want)
			}
			for k, want := range tc.after {
				v, ok := scope.vars[k]
				if want == nil && ok {
					t.Errorf("variable %s = %#v, want it removed", k, v)
				}
				if want != nil && !deepEqual(v, want) {
					t.Errorf("variable %s = %#v, want %#v", k, v, want)
				}
			}
		})
	}
}

func deepEqual(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !deepEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !deepEqual(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func TestRunScriptLimits(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, src string
		lim       Limits
		want      string // Limit
	}{
		{"endless loop", `while(true){}`, Limits{Timeout: 200 * time.Millisecond}, "Timeout"},
		{"endless loop caught", `while(true){ try { while(true){} } catch (e) {} }`, Limits{Timeout: 200 * time.Millisecond}, "Timeout"},
		{"recursion", `function f(n) { return f(n + 1) + 1; } f(0)`, Limits{MaxDepth: 100}, "MaxDepth"},
		{"big string stored", `execution.setVariable("s", "x".repeat(2000))`, Limits{MaxBytes: 1000}, "MaxBytes"},
		{"big string returned", `"x".repeat(2000)`, Limits{MaxBytes: 1000}, "MaxBytes"},
		{"long array stored", `var a = []; for (var i = 0; i < 200; i++) a.push(i); execution.setVariable("a", a)`, Limits{MaxRows: 100}, "MaxRows"},
		{"limit not swallowed by catch", `try { execution.setVariable("s", "x".repeat(2000)) } catch (e) {} ; 1`, Limits{MaxBytes: 1000}, "MaxBytes"},
		{"repeat", `"x".repeat(5000); 1`, Limits{MaxBytes: 1000}, "MaxBytes"},
		{"padEnd", `"x".padEnd(5000, "y"); 1`, Limits{MaxBytes: 1000}, "MaxBytes"},
		{"join of a long array", `Array(1e6).join("x"); 1`, Limits{MaxRows: 1000}, "MaxRows"},
		{"stringify of a long array", `var a = []; a.length = 5000; JSON.stringify(a); 1`, Limits{MaxRows: 1000}, "MaxRows"},
		{"Array.from", `Array.from({length: 5000}); 1`, Limits{MaxRows: 1000}, "MaxRows"},
		{"heap growth", `var a = []; while (true) a.push("y".repeat(1000) + a.length);`, Limits{MaxBytes: 64 << 10, Timeout: 20 * time.Second}, "MaxBytes"},
		{"deep object", `var o = {}; var p = o; for (var i = 0; i < 50; i++) { p.c = {}; p = p.c } execution.setVariable("o", o)`, Limits{MaxDepth: 20}, "MaxDepth"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := RunScript(ctx, script(t, tc.src), &memScope{vars: map[string]any{}}, tc.lim)
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LimitError", err)
			}
			if le.LimitExceeded() != tc.want {
				t.Errorf("limit = %s, want %s (%v)", le.LimitExceeded(), tc.want, err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
	t.Run("timeout message", func(t *testing.T) {
		_, err := RunScript(ctx, script(t, `while(true){}`), &memScope{vars: map[string]any{}}, Limits{Timeout: 50 * time.Millisecond})
		if err == nil || err.Error() != "bpmn: script exceeded Timeout (50ms)" {
			t.Errorf("err = %v", err)
		}
	})
}

func TestRunScriptContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := RunScript(ctx, script(t, `while(true){}`), &memScope{vars: map[string]any{}}, Limits{Timeout: -1})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestRunScriptErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`undefinedThing + 1`, "ReferenceError: undefinedThing is not defined"},
		{`throw new Error("kapot")`, "kapot"},
		{`java.lang.Integer.valueOf("abc")`, `NumberFormatException: For input string: "abc"`},
		{`java.lang.Integer.valueOf("3000000000")`, "NumberFormatException"},
		{`execution.setVariable("f", function() {})`, `variable "f": a func`},
		{`rows.getSingleResult()`, "expected a single result but found 2"},
		{`execution.setVariable(null, 1)`, "variable name is null"},
		{`"abc".repeat(-1)`, "RangeError: Invalid count value"},
	}
	for _, tc := range tests {
		scope := &memScope{vars: map[string]any{"rows": DecisionResult{{"x": 1}, {"x": 2}}}}
		_, err := RunScript(context.Background(), script(t, tc.src), scope, Limits{})
		var se *ScriptError
		if !errors.As(err, &se) || se.ElementID != "Task_1" {
			t.Errorf("%s: err = %v, want a *ScriptError of Task_1", tc.src, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func TestParsedScriptRuns(t *testing.T) {
	d := parseFile(t, "testdata/all-elements.bpmn")
	s := d.Process("AllElements").ByID["Prepare"].Script
	scope := &memScope{vars: map[string]any{"aanvraag": "x"}}
	got, err := RunScript(context.Background(), s, scope, Limits{})
	if err != nil || got != true || scope.vars["complete"] != true {
		t.Fatalf("result %v, err %v, complete %v", got, err, scope.vars["complete"])
	}
}

// TestRunScriptConcurrent runs one compiled script in several goroutines:
// a goja program is shared, each run has its own runtime (go test -race).
func TestRunScriptConcurrent(t *testing.T) {
	s := script(t, `execution.setVariable("twice", n * 2); n`)
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			scope := &memScope{vars: map[string]any{"n": int64(i)}}
			got, err := RunScript(context.Background(), s, scope, Limits{})
			if err == nil && (got != int64(i) || scope.vars["twice"] != int64(2*i)) {
				err = fmt.Errorf("run %d: result %v, twice %v", i, got, scope.vars["twice"])
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
