package local

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/engine"
)

// TestHostileFEEL: a deployed model whose input expression nests 300,000
// parentheses fails on evaluation with the positioned nesting error (no
// stack overflow), and one that builds a billion-element list fails with
// the *feel.LimitError inside the *engine.EvaluationError, which servers
// map through LimitExceeded.
func TestHostileFEEL(t *testing.T) {
	e := New(Options{Limits: feel.Limits{MaxRows: 1000}})
	ctx := context.Background()
	deep := strings.Repeat("(", 300_000) + "x" + strings.Repeat(")", 300_000)
	deploy(t, e, one("deep", model("deep", `<decision id="deep" name="deep"><decisionTable>
      <input><inputExpression><text>`+deep+`</text></inputExpression></input><output name="o"/>
      <rule><inputEntry><text>-</text></inputEntry><outputEntry><text>1</text></outputEntry></rule>
    </decisionTable></decision>`)))
	_, err := e.Evaluate(ctx, "deep", "", engine.Variables{"x": engine.Integer(1)})
	var ee *engine.EvaluationError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "1:1001: expression nested deeper than 1000 levels") {
		t.Errorf("deep input expression: %.300v", err)
	}

	deploy(t, e, one("rows", model("rows", `<decision id="rows" name="rows"><literalExpression><text>count(for i in 1..1000000000 return i)</text></literalExpression></decision>`)))
	_, err = e.Evaluate(ctx, "rows", "", nil)
	var le *feel.LimitError
	if !errors.As(err, &ee) || !errors.As(err, &le) || le.Limit != "MaxRows" || le.Max != 1000 {
		t.Fatalf("billion rows: %v, want an *engine.EvaluationError wrapping the MaxRows *feel.LimitError", err)
	}
	var lim interface{ LimitExceeded() string }
	if !errors.As(err, &lim) || lim.LimitExceeded() != "MaxRows" {
		t.Errorf("billion rows: LimitExceeded not reachable through %T", err)
	}
}
