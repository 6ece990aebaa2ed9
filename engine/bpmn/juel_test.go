package bpmn

import (
	"errors"
	"strings"
	"testing"
)

// mapVars is a plain map scope with an execution identity.
type mapVars map[string]any

func (m mapVars) Variable(name string) (any, bool) { v, ok := m[name]; return v, ok }

func (m mapVars) ExecutionProperty(name string) (any, bool) {
	switch name {
	case "processBusinessKey", "businessKey":
		return "BK-1", true
	case "processInstanceId":
		return "pi-1", true
	}
	return nil, false
}

func TestExprEval(t *testing.T) {
	vars := mapVars{
		"approved":           true,
		"amount":             int64(1500),
		"rate":               0.5,
		"name":               "Jan",
		"blank":              "",
		"nothing":            nil,
		"list":               []any{"a", "b"},
		"completenessResult": map[string]any{"isComplete": true, "missing": []any{}},
		"decisionResult":     DecisionResult{{"eligible": true, "amount": int64(250)}},
		"rows":               DecisionResult{{"x": int64(1)}, {"x": int64(2)}},
		"count":              3, // a Go int, normalised
		"naïef":              "ja",
	}
	tests := []struct {
		src  string
		want any
	}{
		{"${approved}", true},
		{"${!approved}", false},
		{"${not approved}", false},
		{"${approved == true}", true},
		{"${approved eq false}", false},
		{"${amount > 1000}", true},
		{"${amount gt 1000 and amount lt 2000}", true},
		{"${amount >= 1500 && amount <= 1500}", true},
		{"${amount le 10 || name == 'Jan'}", true},
		{"${amount != 1500}", false},
		{"${amount ne 1}", true},
		{"${amount == '1500'}", true},
		{"${name == \"Jan\"}", true},
		{"${name != 'Piet'}", true},
		{"${name < 'Karel'}", true},
		{"${empty blank}", true},
		{"${empty nothing}", true},
		{"${empty name}", false},
		{"${empty list}", false},
		{"${not empty completenessResult.missing}", false},
		{"${completenessResult.isComplete}", true},
		{"${completenessResult['isComplete']}", true},
		{"${completenessResult.absent}", nil},
		{"${nothing.x}", nil},
		{"${list[1]}", "b"},
		{"${list[5]}", nil},
		{"${list.size()}", int64(2)},
		{"${amount + 1}", int64(1501)},
		{"${amount - 500 * 2}", int64(500)},
		{"${amount / 2}", 750.0},
		{"${amount div 4}", 375.0},
		{"${amount % 7}", int64(2)},
		{"${amount mod 7}", int64(2)},
		{"${amount * rate}", 750.0},
		{"${-amount}", int64(-1500)},
		{"${(amount + 500) * 2}", int64(4000)},
		{"${'2' + 3}", int64(5)},
		{"${'2.5' + 1}", 3.5},
		{"${nothing + nothing}", int64(0)},
		{"${count == 3}", true},
		{"${1.5e2}", 150.0},
		{"${null}", nil},
		{"${true}", true},
		{"${approved ? 'ja' : 'nee'}", "ja"},
		{"${execution.hasVariable('approved')}", true},
		{"${execution.hasVariable('absent')}", false},
		{"${execution.getVariable('name')}", "Jan"},
		{"${execution.getVariable('absent')}", nil},
		{"${execution.processBusinessKey}", "BK-1"},
		{"${execution.getProcessInstanceId()}", "pi-1"},
		{"${decisionResult.getSingleResult().getEntry(\"eligible\")}", true},
		{"${decisionResult.getSingleResult().amount}", int64(250)},
		{"${decisionResult.singleResult.amount > 100}", true},
		{"${decisionResult.getSingleResult().containsKey('amount')}", true},
		{"${decisionResult.getSingleResult().get('eligible')}", true},
		{"${decisionResult.getSingleResult().size()}", int64(2)},
		{"${decisionResult.size()}", int64(1)},
		{"${rows.collectEntries('x')[1]}", int64(2)},
		{"${rows.getFirstResult().x}", int64(1)},
		{"${rows.get(1).getEntry('x')}", int64(2)},
		{"${rows.getResultList().size()}", int64(2)},
		{"plain text", "plain text"},
		{"Hallo ${name}, bedrag ${amount}", "Hallo Jan, bedrag 1500"},
		{"${rate}", 0.5},
		{"rate ${rate} ${nothing}.", "rate 0.5 ."},
		{"price \\${amount}", "price ${amount}"},
		{"#{name}", "Jan"},
		{"${naïef}", "ja"},
	}
	for _, tc := range tests {
		e, err := CompileExpr(tc.src)
		if err != nil {
			t.Errorf("CompileExpr(%q): %v", tc.src, err)
			continue
		}
		got, err := e.Eval(vars)
		if err != nil {
			t.Errorf("Eval(%q): %v", tc.src, err)
			continue
		}
		if !equalAny(got, tc.want) {
			t.Errorf("Eval(%q) = %#v, want %#v", tc.src, got, tc.want)
		}
	}
}

func equalAny(a, b any) bool {
	switch a.(type) {
	case nil, bool, string, int64, float64:
		return a == b
	}
	return false
}

func TestExprEvalBool(t *testing.T) {
	vars := mapVars{"s": "TRUE", "n": nil, "x": "nope"}
	for src, want := range map[string]bool{"${s}": true, "${n}": false, "${x}": false, "${null}": false} {
		e, err := CompileExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.EvalBool(vars)
		if err != nil || got != want {
			t.Errorf("EvalBool(%q) = %v, %v; want %v", src, got, err, want)
		}
	}
}

func TestExprCompileErrors(t *testing.T) {
	deep := strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300)
	tests := []struct{ src, want string }{
		{"${", "column 1: unterminated ${…}"},
		{"${}", "empty expression"},
		{"${a = 1}", "unsupported character '='"},
		{"${a; b}", "unsupported character ';'"},
		{"${x -> x}", "unsupported operator ->"},
		{"${fn:upper(a)}", "functions (fn:…) are not supported"},
		{"${execution.setVariable('a', 1)}", "column 13: unsupported method setVariable()"},
		{"${a.toString()}", "unsupported method toString()"},
		{"${a b}", "column 5: unexpected 'b'"},
		{"${'open}", "unterminated ${…}"},
		{"${a == }", "unexpected end of expression"},
		{"${1e}", "malformed number exponent"},
		{"${99999999999999999999}", "out of range"},
		{"${" + deep + "}", "nesting deeper than 100"},
		{"${a instanceof b}", "unexpected 'instanceof'"},
		{"${{1, 2}}", "unsupported character '{'"},
	}
	for _, tc := range tests {
		_, err := CompileExpr(tc.src)
		var ee *ExprError
		if !errors.As(err, &ee) {
			t.Errorf("CompileExpr(%q) = %v, want an *ExprError", tc.src, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CompileExpr(%q) = %v, want it to contain %q", tc.src, err, tc.want)
		}
		if len(ee.Expr) > 204 {
			t.Errorf("CompileExpr(%q): the error quotes %d bytes", tc.src[:20], len(ee.Expr))
		}
	}
}

func TestExprEvalErrors(t *testing.T) {
	vars := mapVars{"s": "abc", "m": map[string]any{}, "rows": DecisionResult{{"a": 1}, {"a": 2}}, "one": DecisionResult{{"a": 1, "b": 2}}, "list": []any{"x"}}
	tests := []struct{ src, want string }{
		{"${unknown}", "Cannot resolve identifier 'unknown'"},
		{"${s > 1}", `cannot coerce "abc" to Long`},
		{"${s + 1}", `cannot coerce "abc" to Long`},
		{"${m && true}", "cannot coerce Map to Boolean"},
		{"${s.length}", "Property 'length' not found on type String"},
		{"${rows.getSingleResult()}", "expected a single result but found 2"},
		{"${one.getSingleEntry()}", "expected a single entry but found 2: a, b"},
		{"${1 % 0}", "division by zero"},
		{"${execution.getVariable()}", "getVariable() takes 1 argument(s), not 0"},
		{"${execution.tenantId}", "Property 'tenantId' not found on execution"},
		{"${s.size()}", "Method 'size' not found on type String"},
		{"${rows.get(2)}", "index 2 out of bounds for a result of 2 rows"},
		{"${list.get(-1)}", "index -1 out of bounds for a list of 1"},
		{"${list.size(1)}", "size() takes 0 argument(s), not 1"},
		{"${list.getEntry(0)}", "Method 'getEntry' not found on type"},
	}
	for _, tc := range tests {
		e, err := CompileExpr(tc.src)
		if err != nil {
			t.Errorf("CompileExpr(%q): %v", tc.src, err)
			continue
		}
		_, err = e.Eval(vars)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Eval(%q) = %v, want an error containing %q", tc.src, err, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), tc.src) {
			t.Errorf("Eval(%q): error %q does not name the expression", tc.src, err)
		}
	}
}

func TestMapDecisionResult(t *testing.T) {
	one := DecisionResult{{"eligible": true}}
	two := DecisionResult{{"eligible": true}, {"eligible": false}}
	wide := DecisionResult{{"eligible": true, "amount": int64(5)}}
	if v, err := MapDecisionResult(MapSingleEntry, one); err != nil || v != true {
		t.Errorf("singleEntry = %v, %v", v, err)
	}
	if v, err := MapDecisionResult(MapSingleEntry, nil); err != nil || v != nil {
		t.Errorf("singleEntry of no rows = %v, %v", v, err)
	}
	if _, err := MapDecisionResult(MapSingleEntry, wide); err == nil {
		t.Error("singleEntry of a row with two outputs: no error")
	}
	if _, err := MapDecisionResult(MapSingleResult, two); err == nil {
		t.Error("singleResult of two rows: no error")
	}
	if v, err := MapDecisionResult(MapSingleResult, wide); err != nil || v.(map[string]any)["amount"] != int64(5) {
		t.Errorf("singleResult = %v, %v", v, err)
	}
	if v, err := MapDecisionResult(MapCollectEntries, two); err != nil || len(v.([]any)) != 2 || v.([]any)[1] != false {
		t.Errorf("collectEntries = %v, %v", v, err)
	}
	if v, err := MapDecisionResult(MapCollectEntries, nil); err != nil || len(v.([]any)) != 0 {
		t.Errorf("collectEntries of no rows = %v, %v", v, err)
	}
	if v, err := MapDecisionResult(MapResultList, two); err != nil || len(v.([]any)) != 2 {
		t.Errorf("resultList = %v, %v", v, err)
	}
	if _, err := MapDecisionResult("everything", one); err == nil {
		t.Error("unknown mapping: no error")
	}
}
