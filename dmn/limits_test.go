package dmn

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/dmn/feel"
)

// recursionModel has business knowledge models that call themselves (as
// the DMN TCK's non-compliant 0088-recursion and 0019-flight-rebooking
// do) and decisions that use them.
const recursionModel = `<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:rec" name="rec">
  <inputData id="n" name="n"><variable name="n" typeRef="number"/></inputData>
  <businessKnowledgeModel id="fact" name="Factorial">
    <knowledgeRequirement><requiredKnowledge href="#fact"/></knowledgeRequirement>
    <encapsulatedLogic><formalParameter name="k" typeRef="number"/>
      <literalExpression><text>if k &lt;= 1 then 1 else k * Factorial(k - 1)</text></literalExpression></encapsulatedLogic>
  </businessKnowledgeModel>
  <businessKnowledgeModel id="rebook" name="Rebook">
    <knowledgeRequirement><requiredKnowledge href="#rebook"/></knowledgeRequirement>
    <encapsulatedLogic><formalParameter name="waiting" typeRef="Any"/><formalParameter name="seats" typeRef="number"/><formalParameter name="booked" typeRef="Any"/>
      <literalExpression><text>if count(waiting) = 0 or seats = 0 then booked else Rebook(remove(waiting, 1), seats - 1, append(booked, waiting[1]))</text></literalExpression></encapsulatedLogic>
  </businessKnowledgeModel>
  <businessKnowledgeModel id="forever" name="Forever">
    <knowledgeRequirement><requiredKnowledge href="#forever"/></knowledgeRequirement>
    <encapsulatedLogic><formalParameter name="k" typeRef="number"/>
      <literalExpression><text>Forever(k + 1)</text></literalExpression></encapsulatedLogic>
  </businessKnowledgeModel>
  <businessKnowledgeModel id="fib" name="Fib">
    <knowledgeRequirement><requiredKnowledge href="#fib"/></knowledgeRequirement>
    <encapsulatedLogic><formalParameter name="k" typeRef="number"/>
      <literalExpression><text>if k &lt; 2 then k else Fib(k - 1) + Fib(k - 2)</text></literalExpression></encapsulatedLogic>
  </businessKnowledgeModel>
  <decision id="d_fact" name="Factorial of n">
    <informationRequirement><requiredInput href="#n"/></informationRequirement>
    <knowledgeRequirement><requiredKnowledge href="#fact"/></knowledgeRequirement>
    <literalExpression><text>Factorial(n)</text></literalExpression>
  </decision>
  <decision id="d_rebook" name="Rebooked">
    <knowledgeRequirement><requiredKnowledge href="#rebook"/></knowledgeRequirement>
    <literalExpression><text>Rebook(["Ann", "Bob", "Cas", "Dee"], 3, [])</text></literalExpression>
  </decision>
  <decision id="d_forever" name="Forever">
    <knowledgeRequirement><requiredKnowledge href="#forever"/></knowledgeRequirement>
    <literalExpression><text>Forever(1)</text></literalExpression>
  </decision>
  <decision id="d_fib" name="Fib of n">
    <informationRequirement><requiredInput href="#n"/></informationRequirement>
    <knowledgeRequirement><requiredKnowledge href="#fib"/></knowledgeRequirement>
    <literalExpression><text>Fib(n)</text></literalExpression>
  </decision>
  <decision id="d_rows" name="Many rows"><literalExpression><text>for i in 1..1000000000 return i</text></literalExpression></decision>
  <decision id="d_bytes" name="Long string">
    <context>
      <contextEntry><variable name="s0"/><literalExpression><text>"0123456789abcdef"</text></literalExpression></contextEntry>
      <contextEntry><variable name="s"/><literalExpression><text>for i in 1..30 return s0</text></literalExpression></contextEntry>
      <contextEntry><literalExpression><text>string join(for x in s return string join(s, x), "")</text></literalExpression></contextEntry>
    </context>
  </decision>
  <decision id="d_double" name="Doubling">
    <literalExpression><text>{f: function(s, k) if k = 0 then s else f(s + s, k - 1), r: f("ab", 40)}.r</text></literalExpression>
  </decision>
</definitions>`

func recursion(t *testing.T) *Model {
	t.Helper()
	return mustCompile(t, Options{}, recursionModel)
}

// TestRecursiveBKM: business knowledge models calling themselves evaluate
// (within the recursion budget), and the budget bounds them.
func TestRecursiveBKM(t *testing.T) {
	m := recursion(t)
	ctx := context.Background()
	res, err := m.Evaluate(ctx, "Factorial of n", map[string]any{"n": 20})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := res.Value("Factorial of n"); feel.Literal(v) != "2432902008176640000" {
		t.Errorf("Factorial(20) = %s, want 2432902008176640000", feel.Literal(v))
	}
	res, err = m.Evaluate(ctx, "Rebooked", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := res.Value("Rebooked"); feel.Literal(v) != `["Ann", "Bob", "Cas"]` {
		t.Errorf("Rebooked = %s, want the first three", feel.Literal(v))
	}

	// MaxDepth 10: Factorial(10) needs 10 nested calls, Factorial(11) 11.
	opts := EvalOptions{Limits: feel.Limits{MaxDepth: 10}}
	if _, err := m.EvaluateWith(ctx, "Factorial of n", map[string]any{"n": 10}, opts); err != nil {
		t.Errorf("Factorial(10) under MaxDepth 10: %v", err)
	}
	_, err = m.EvaluateWith(ctx, "Factorial of n", map[string]any{"n": 11}, opts)
	checkLimit(t, err, "MaxDepth", 10)

	// A BKM invoked directly (the TCK's "bkm" test cases) has the same budget.
	v, _, err := m.Invoke(ctx, "Factorial", map[string]any{"k": 5}, opts)
	if err != nil || feel.Literal(v) != "120" {
		t.Errorf("Invoke Factorial(5) = %s, %v; want 120", feel.Literal(v), err)
	}
	_, _, err = m.Invoke(ctx, "Factorial", map[string]any{"k": 11}, opts)
	checkLimit(t, err, "MaxDepth", 10)
}

// TestEvaluationBudgets: each budget stops a hostile model with a
// *feel.LimitError that dmn returns (not null with a warning).
func TestEvaluationBudgets(t *testing.T) {
	m := recursion(t)
	ctx := context.Background()
	cases := []struct {
		decision string
		opts     EvalOptions
		limit    string
		max      int64
	}{
		{"Forever", EvalOptions{}, "MaxDepth", 500},
		{"Many rows", EvalOptions{Limits: feel.Limits{Timeout: -1}}, "MaxRows", 1_000_000}, // no Timeout: slow on a loaded machine
		{"Many rows", EvalOptions{Limits: feel.Limits{MaxRows: 1000}}, "MaxRows", 1000},
		{"Doubling", EvalOptions{}, "MaxBytes", 64 << 20},
		{"Long string", EvalOptions{Limits: feel.Limits{MaxBytes: 10_000}}, "MaxBytes", 10_000},
		{"Fib of n", EvalOptions{Limits: feel.Limits{Timeout: 50 * time.Millisecond}}, "Timeout", int64(50 * time.Millisecond)},
	}
	for _, tc := range cases {
		start := time.Now()
		res, err := m.EvaluateWith(ctx, tc.decision, map[string]any{"n": 40}, tc.opts)
		checkLimit(t, err, tc.limit, tc.max)
		if len(res.Decisions) != 0 {
			t.Errorf("%s: results %v beside the error", tc.decision, res.Decisions)
		}
		if d := time.Since(start); d > time.Minute { // a hang, not a slow machine
			t.Errorf("%s took %v", tc.decision, d)
		}
	}
	// The same models within their budgets.
	res, err := m.EvaluateWith(ctx, "Long string", nil, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := res.Value("Long string"); len(feel.String(v)) != 28320 { // 30 joins of 30 parts and 29 separators of 16 bytes
		t.Errorf("Long string: %d bytes, want 28320", len(feel.String(v)))
	}
	res, err = m.EvaluateWith(ctx, "Fib of n", map[string]any{"n": 15}, EvalOptions{})
	if v, _ := res.Value("Fib of n"); err != nil || feel.Literal(v) != "610" {
		t.Errorf("Fib(15) = %s, %v; want 610", feel.Literal(v), err)
	}

	// The caller's context ends an evaluation too, with its own error.
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = m.EvaluateWith(cctx, "Fib of n", map[string]any{"n": 40}, EvalOptions{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Fib(40) under a 50ms context: %v, want context.DeadlineExceeded", err)
	}
}

// TestBudgetsInOperatonMode: Operaton mode evaluates under the same budgets.
func TestBudgetsInOperatonMode(t *testing.T) {
	m := mustCompile(t, Options{Operaton: true}, `<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:op" name="op">
  <decision id="d" name="d"><literalExpression><text>count(for i in 1..1000000000 return i)</text></literalExpression></decision>
</definitions>`)
	_, err := m.EvaluateWith(context.Background(), "d", nil, EvalOptions{Limits: feel.Limits{MaxRows: 100}})
	checkLimit(t, err, "MaxRows", 100)
}

// TestBoxedIteratorsCount: DMN's boxed for (and some, every, filter)
// count against the budget as FEEL's own for does: two nested boxed for
// over 2,000 items would build four million elements.
func TestBoxedIteratorsCount(t *testing.T) {
	m := mustCompile(t, Options{}, `<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:box" name="box">
  <inputData id="L" name="L"/>
  <decision id="d" name="d">
    <informationRequirement><requiredInput href="#L"/></informationRequirement>
    <for iteratorVariable="i"><in><literalExpression><text>L</text></literalExpression></in>
      <return><for iteratorVariable="j"><in><literalExpression><text>L</text></literalExpression></in>
        <return><literalExpression><text>i * j</text></literalExpression></return></for></return></for>
  </decision>
  <decision id="small" name="small">
    <for iteratorVariable="i"><in><literalExpression><text>[1, 2, 3]</text></literalExpression></in>
      <return><literalExpression><text>i * 2</text></literalExpression></return></for>
  </decision>
</definitions>`)
	l := make([]any, 2000) // inputs are not counted: only what the iterators build
	for i := range l {
		l[i] = i
	}
	_, err := m.EvaluateWith(context.Background(), "d", map[string]any{"L": l}, EvalOptions{Limits: feel.Limits{MaxRows: 100_000}})
	checkLimit(t, err, "MaxRows", 100_000)
	// three elements of the list literal and three of the for: six
	res, err := m.EvaluateWith(context.Background(), "small", nil, EvalOptions{Limits: feel.Limits{MaxRows: 6}})
	if v, _ := res.Value("small"); err != nil || feel.Literal(v) != "[2, 4, 6]" {
		t.Errorf("small = %s, %v; want [2, 4, 6]", feel.Literal(v), err)
	}
}

func checkLimit(t *testing.T, err error, limit string, max int64) {
	t.Helper()
	var le *feel.LimitError
	if !errors.As(err, &le) || le.Limit != limit || le.Max != max {
		t.Errorf("error %v, want a *feel.LimitError for %s (%d)", err, limit, max)
		return
	}
	// servers find it through the method, whatever wraps it
	var lim interface{ LimitExceeded() string }
	if !errors.As(err, &lim) || lim.LimitExceeded() != limit {
		t.Errorf("error %v: LimitExceeded not found through the wrapping", err)
	}
	if !strings.Contains(err.Error(), "exceeded "+limit) {
		t.Errorf("message %q does not name %s", err, limit)
	}
}
