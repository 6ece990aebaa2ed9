package engine_test

import (
	"encoding/json"
	"fmt"

	"github.com/regelkit/regelkit/engine"
)

// Plain values are typed the way regelkit sends them to Operaton.
func ExampleInfer() {
	for _, v := range []any{1500, 3000000000, 1369.06, "2025-12-24", true, nil, map[string]any{"a": 1}} {
		x, _ := engine.Infer(v)
		b, _ := json.Marshal(x)
		fmt.Println(string(b))
	}
	// Output:
	// {"type":"Integer","value":1500}
	// {"type":"Long","value":3000000000}
	// {"type":"Double","value":1369.06}
	// {"type":"String","value":"2025-12-24"}
	// {"type":"Boolean","value":true}
	// {"type":"Null","value":null}
	// {"type":"Json","value":"{\"a\":1}"}
}

// ParseVariables reads the variables of an evaluation request; numbers
// keep every digit.
func ExampleParseVariables() {
	vs, err := engine.ParseVariables([]byte(`{"amount": {"value": 12345678901234567890.12, "type": "Double"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(vs["amount"].Value)
	_, err = engine.ParseVariables([]byte(`{"age": {"value": "old", "type": "Integer"}}`))
	fmt.Println(err)
	// Output:
	// 12345678901234567890.12
	// engine: variable "age": cannot convert value "old" to type Integer: not a number
}

// Values collapses result rows the way the explorer reports them.
func ExampleResult_Values() {
	rows := engine.Result{
		{"rate": engine.String("Basic"), "approved": engine.Boolean(true)},
		{"rate": engine.String("Standard"), "approved": engine.Boolean(true)},
	}
	b, _ := json.Marshal(rows.Values())
	fmt.Println(string(b))
	b, _ = json.Marshal(rows[:1].Values())
	fmt.Println(string(b))
	fmt.Println(rows[:0].NoRuleMatched())
	// Output:
	// {"approved":[true,true],"rate":["Basic","Standard"]}
	// {"approved":true,"rate":"Basic"}
	// true
}
