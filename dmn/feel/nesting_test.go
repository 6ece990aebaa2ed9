package feel

import (
	"errors"
	"strings"
	"testing"
)

// TestParseNestingLimit feeds expressions nested far deeper than
// MaxNesting (300,000 levels: such an expression once died of a stack
// overflow) and expects a positioned syntax error at the level that went
// too deep, never a crash.
func TestParseNestingLimit(t *testing.T) {
	const n = 300_000
	rep := strings.Repeat
	tests := []struct {
		name, src string
		col       int // column of the token that opened level MaxNesting+1
	}{
		{"parentheses", rep("(", n) + "1" + rep(")", n), 1001},
		{"lists", rep("[", n) + "1" + rep("]", n), 1001},
		{"contexts", rep("{a:", n) + "1" + rep("}", n), 3001},
		{"if", rep("if true then ", n) + "1" + rep(" else 2", n), 12991}, // the condition of the 1000th if
		{"for", rep("for i in [1] return ", n) + "i", 19971},             // the 1 in [1] of the 999th for
		{"some", rep("some i in [1] satisfies ", n) + "true", 23964},
		{"function", rep("function(a) ", n) + "1", 12001},
		{"calls", rep("f(", n) + "1" + rep(")", n), 1001}, // a call and its argument are a level each
		{"unary minus", rep("-", n) + "1", 1000},
		{"unary minus spaced", rep("- ", n) + "1", 1999},
		{"sum chain", "1" + rep("+1", n), 2001},
		{"or chain", "a" + rep(" or a", n), 5001},
		{"comparison chain", "1" + rep("<1", n), 2001},
		{"path chain", "a" + rep(".b", n), 2002},
		{"filter chain", "a" + rep("[1]", n), 3000},
		{"call chain", "f" + rep("()", n), 2000},
		{"unary tests", rep("<", n) + "1", 1000},
		{"type", "x instance of " + rep("list<", n) + "number" + rep(">", n), 5005},
		{"ranges", rep("[1..", n) + "1" + rep("]", n), 3998},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseExpr(tc.src, nil)
			var el ErrorList
			if !errors.As(err, &el) || len(el) != 1 {
				t.Fatalf("ParseExpr: got %v, want one positioned error", err)
			}
			if !strings.Contains(el[0].Msg, "nested deeper than 1000 levels") {
				t.Errorf("message %q does not name the limit", el[0].Msg)
			}
			if el[0].Pos.Line != 1 || el[0].Pos.Column != tc.col {
				t.Errorf("error at %d:%d, want 1:%d", el[0].Pos.Line, el[0].Pos.Column, tc.col)
			}
		})
	}
	// Unary tests (decision table cells) go through the same parser.
	if _, err := ParseUnaryTests(rep("(", n)+"1"+rep(")", n), nil); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("ParseUnaryTests: got %v, want the nesting error", err)
	}
	if _, err := CompileExpr(rep("[", n), nil); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("CompileExpr: got %v, want the nesting error", err)
	}
}

// TestParseNestingWithinLimit: nesting up to the limit still parses, compiles
// and evaluates.
func TestParseNestingWithinLimit(t *testing.T) {
	src := strings.Repeat("(", 999) + "1" + strings.Repeat(")", 999)
	v, err := Eval(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if String(v) != "1" {
		t.Errorf("got %s, want 1", String(v))
	}
	v, err = Eval("0"+strings.Repeat("+1", 999), nil)
	if err != nil {
		t.Fatal(err)
	}
	if String(v) != "999" {
		t.Errorf("got %s, want 999", String(v))
	}
}
