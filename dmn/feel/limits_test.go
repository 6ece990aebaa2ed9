package feel

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// runLimited evaluates src once under limits and ctx.
func runLimited(t *testing.T, ctx context.Context, src string, limits Limits) (Value, error) {
	t.Helper()
	x, err := CompileExpr(src, &Scope{Names: []string{"s", "long"}})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	rt := &Runtime{}
	env := NewEnv(rt, map[string]Value{"s": strings.Repeat("a", 1000) + "c", "long": strings.Repeat("x", 1<<20)})
	var v Value
	err = rt.Run(ctx, limits, func() { v = x.Eval(env) })
	return v, err
}

// TestLimits: every budget stops a hostile expression with a *LimitError
// naming the bound (not null with a warning), quickly and without
// building what it would have built.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name, src string
		limits    Limits
		limit     string
		max       int64
	}{
		// no Timeout: on a loaded machine a million elements can take seconds
		{"for over a billion", `for i in 1..1000000000 return i`, Limits{Timeout: -1}, "MaxRows", 1_000_000},
		{"for within MaxRows 100", `for i in 1..101 return i`, Limits{MaxRows: 100}, "MaxRows", 100},
		{"nested for", `for i in 1..1000, j in 1..1000 return 0`, Limits{MaxRows: 10_000}, "MaxRows", 10_000},
		{"list literal", `[1, 2, 3, 4]`, Limits{MaxRows: 3}, "MaxRows", 3},
		{"concatenate", `{a: for i in 1..1000 return i, b: concatenate(a, a, a, a, a, a, a, a, a, a)}.b`, Limits{MaxRows: 5000}, "MaxRows", 5000},
		{"flatten of shared lists", `{a: for j in 1..1000 return 1, b: for i in 1..1000 return a, c: flatten(b)}.c`, Limits{MaxRows: 5000}, "MaxRows", 5000},
		{"split", `split(string join(for i in 1..200 return "x", ","), ",")`, Limits{MaxRows: 300}, "MaxRows", 300},
		{"string doubling", `{f: function(x, k) if k = 0 then x else f(x + x, k - 1), r: f("ab", 40)}.r`, Limits{}, "MaxBytes", 64 << 20},
		{"string join of one long string", `string join(for i in 1..1000 return long, "")`, Limits{}, "MaxBytes", 64 << 20},
		{"string of a list", `string(for i in 1..1000 return long)`, Limits{}, "MaxBytes", 64 << 20},
		{"replace", `replace(s, "a", "bbbbbbbbbb")`, Limits{MaxBytes: 5000}, "MaxBytes", 5000},
		{"substring", `substring(long, 2)`, Limits{MaxBytes: 1000}, "MaxBytes", 1000},
		{"recursion", `{f: function(n) f(n + 1), r: f(1)}.r`, Limits{}, "MaxDepth", 500},
		{"recursion past 20", `{f: function(n) if n = 0 then 0 else f(n - 1), r: f(20)}.r`, Limits{MaxDepth: 20}, "MaxDepth", 20},
		{"quantifier over a trillion", `some i in 1..1000000000000 satisfies false`, Limits{Timeout: 20 * time.Millisecond}, "Timeout", int64(20 * time.Millisecond)},
		{"exponential recursion", `{f: function(n) if n < 2 then n else f(n - 1) + f(n - 2), r: f(50)}.r`, Limits{Timeout: 20 * time.Millisecond}, "Timeout", int64(20 * time.Millisecond)},
		{"back-reference backtracking", `matches(s, "^(a|aa)+\1b$")`, Limits{Timeout: 50 * time.Millisecond}, "Timeout", int64(50 * time.Millisecond)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			v, err := runLimited(t, ctx, tc.src, tc.limits)
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != tc.limit || le.Max != tc.max {
				t.Fatalf("%s = %.50s, %v; want a *LimitError for %s (%d)", tc.src, Literal(v), err, tc.limit, tc.max)
			}
			if le.LimitExceeded() != tc.limit || !strings.Contains(le.Error(), "exceeded "+tc.limit) {
				t.Errorf("LimitExceeded %q, message %q", le.LimitExceeded(), le.Error())
			}
			if d := time.Since(start); d > time.Minute { // a hang, not a slow machine
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestWithinLimits: the same kinds of expression evaluate when they stay
// within the bounds, exactly at them included.
func TestWithinLimits(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		src    string
		limits Limits
		want   string
	}{
		{`count(for i in 1..100 return i)`, Limits{MaxRows: 100}, `100`},
		{`count(for i in 1..1000000 return i)`, Limits{Timeout: -1}, `1000000`},
		{`string length({f: function(x, k) if k = 0 then x else f(x + x, k - 1), r: f("ab", 10)}.r)`, Limits{}, `2048`},
		{`{f: function(n) if n = 0 then 0 else f(n - 1), r: f(19)}.r`, Limits{MaxDepth: 20}, `0`}, // f(19) … f(0): 20 calls
		{`matches(substring(s, 1, 10), "^(a)\1+$")`, Limits{}, `true`},
	}
	for _, tc := range cases {
		v, err := runLimited(t, ctx, tc.src, tc.limits)
		if err != nil || Literal(v) != tc.want {
			t.Errorf("%s = %s, %v; want %s", tc.src, Literal(v), err, tc.want)
		}
	}
}

// TestContextCancels: the caller's context ends an evaluation with its
// own error.
func TestContextCancels(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := runLimited(t, ctx, `some i in 1..1000000000000 satisfies false`, Limits{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want context.DeadlineExceeded", err)
	}
}

// TestEvalOutsideRun: Expression.Eval outside Run is an evaluation of its
// own under DefaultLimits: a budget error makes it null and is recorded
// in the Runtime's Errors; the next Eval starts afresh.
func TestEvalOutsideRun(t *testing.T) {
	x, err := CompileExpr(`{f: function(n) if n = 0 then 0 else f(n - 1), r: f(k)}.r`, &Scope{Names: []string{"k"}})
	if err != nil {
		t.Fatal(err)
	}
	rt := &Runtime{}
	if v := x.Eval(NewEnv(rt, map[string]Value{"k": Number(500)})); v != nil { // 501 nested calls
		t.Errorf("got %.50s, want null", Literal(v))
	}
	var le *LimitError
	if len(rt.Errors) != 1 || !errors.As(rt.Errors[0], &le) || le.Limit != "MaxDepth" || le.Max != 500 {
		t.Errorf("Errors %v, want the MaxDepth *LimitError", rt.Errors)
	}
	if v := x.Eval(NewEnv(rt, map[string]Value{"k": Number(499)})); Literal(v) != "0" {
		t.Errorf("the next evaluation: %s, want 0", Literal(v))
	}
	// Tests and function calls outside Run likewise
	tests, err := CompileUnaryTests(`{f: function(n) f(n + 1), r: f(1)}.r`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tests.Match(Number(1), rt) {
		t.Error("a test stopped by its budget matched")
	}
	if len(rt.Errors) != 2 || !errors.As(rt.Errors[1], &le) || le.Limit != "MaxDepth" {
		t.Errorf("Errors %v, want a second MaxDepth error", rt.Errors)
	}
}

// TestDeepRecursionStack: the worst the two depth bounds allow together,
// MaxDepth (500) calls of a function whose body nests nearly MaxNesting
// levels, fits in a 64 MB goroutine stack (Go's default limit is 1 GB), so
// no hostile expression overflows the stack.
func TestDeepRecursionStack(t *testing.T) {
	old := debug.SetMaxStack(64 << 20)
	defer debug.SetMaxStack(old)
	body := strings.Repeat("1 + (", 495) + "f(n - 1)" + strings.Repeat(")", 495)
	_, err := runLimited(t, context.Background(), "{f: function(n) if n = 0 then 0 else "+body+", r: f(100000)}.r", Limits{})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MaxDepth" {
		t.Errorf("got %v, want the MaxDepth *LimitError", err)
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	many := make([]Value, 1_000_000)
	for i := range many {
		many[i] = long
	}
	ctx := NewContext(0)
	for i := 0; i < 25; i++ {
		ctx.Put(fmt.Sprintf("k%d", i), Number(int64(i)))
	}
	cases := []struct {
		v    Value
		want string
	}{
		{"short", `"short"`},
		{long, `"` + strings.Repeat("é", 100) + `"… (100 more bytes)`},
		{[]Value{Number(1), "a", nil}, `[1, "a", null]`},
		{many[:3], `[` + strings.Repeat(`"`+strings.Repeat("é", 100)+`"… (100 more bytes), `, 2) + `"` + strings.Repeat("é", 100) + `"… (100 more bytes)]`},
		{ctx, `{k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9, k10: 10, k11: 11, k12: 12, k13: 13, k14: 14, k15: 15, k16: 16, k17: 17, k18: 18, k19: 19, … (5 more)}`},
	}
	for _, tc := range cases {
		if got := Excerpt(tc.v); got != tc.want {
			t.Errorf("Excerpt:\n got %s\nwant %s", got, tc.want)
		}
	}
	// a million copies of a 300-byte string: five of 222 bytes each reach
	// the 1,000, then the count
	got := Excerpt(many)
	if len(got) > 1500 || !strings.HasSuffix(got, "… (999995 more)]") {
		t.Errorf("Excerpt of a million strings: %d bytes, ending %q", len(got), got[max(0, len(got)-40):])
	}
}
