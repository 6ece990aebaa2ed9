package feel_test

import (
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
