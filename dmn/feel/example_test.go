package feel_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/regelkit/regelkit/dmn/feel"
)

func Example() {
	x, err := feel.CompileExpr(`Monthly Salary * 12 + bonus`, &feel.Scope{Names: []string{"Monthly Salary", "bonus"}})
	if err != nil {
		panic(err)
	}
	v := x.Eval(feel.NewEnv(nil, map[string]feel.Value{"Monthly Salary": feel.Number(3000), "bonus": feel.Number(500)}))
	fmt.Println(feel.String(v))
	// Output: 36500
}

func ExampleParseUnaryTests() {
	ut, err := feel.ParseUnaryTests(`< 18, [65..120]`, nil)
	if err != nil {
		panic(err)
	}
	for _, t := range ut.Tests {
		switch t := t.(type) {
		case *feel.UnaryCompare:
			fmt.Println("compare", t.Op, t.X.(*feel.NumberLit).Text)
		case *feel.RangeLit:
			fmt.Println("range", t.Low.(*feel.NumberLit).Text, t.High.(*feel.NumberLit).Text, t.LowIncluded, t.HighIncluded)
		}
	}
	// Output:
	// compare < 18
	// range 65 120 true true
}

func ExampleParseExpr_error() {
	_, err := feel.ParseExpr("if x then 1", nil)
	fmt.Println(err)
	// Output: 1:12: expected "else", found end of expression
}

func ExampleRuntime_Run() {
	// A recursive function, evaluated under a recursion budget of 50
	// nested calls: sum(49) makes 50 (sum(49) … sum(0)), sum(50) one more.
	x, err := feel.CompileExpr(`{sum: function(n) if n = 0 then 0 else n + sum(n - 1), r: sum(k)}.r`, &feel.Scope{Names: []string{"k"}})
	if err != nil {
		panic(err)
	}
	for _, k := range []int64{49, 50} {
		rt := &feel.Runtime{}
		env := feel.NewEnv(rt, map[string]feel.Value{"k": feel.Number(k)})
		var v feel.Value
		err := rt.Run(context.Background(), feel.Limits{MaxDepth: 50}, func() { v = x.Eval(env) })
		var le *feel.LimitError
		fmt.Println(feel.String(v), err, errors.As(err, &le))
	}
	// Output:
	// 1225 <nil> false
	// null feel: evaluation exceeded MaxDepth (50 nested function calls) true
}
