package dmn_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn"
)

const exampleModel = `<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:example" name="example">
  <inputData id="age" name="Applicant Age"><variable name="Applicant Age" typeRef="number"/></inputData>
  <decision id="cat" name="Age Category">
    <informationRequirement><requiredInput href="#age"/></informationRequirement>
    <decisionTable hitPolicy="UNIQUE">
      <input><inputExpression typeRef="number"><text>Applicant Age</text></inputExpression></input>
      <output typeRef="string"/>
      <rule id="minor"><inputEntry><text>&lt; 18</text></inputEntry><outputEntry><text>"minor"</text></outputEntry></rule>
      <rule id="adult"><inputEntry><text>&gt;= 18</text></inputEntry><outputEntry><text>"adult"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`

func Example() {
	defs, err := dmn.Parse(strings.NewReader(exampleModel))
	if err != nil {
		panic(err)
	}
	model, err := dmn.Compile(defs)
	if err != nil {
		panic(err)
	}
	res, err := model.Evaluate(context.Background(), "Age Category", map[string]any{"Applicant Age": 42})
	if err != nil {
		panic(err)
	}
	d := res.Main()
	fmt.Println(d.Value, d.Rules[0].ID)
	// Output: adult adult
}

func ExampleParse_error() {
	_, err := dmn.Parse(strings.NewReader(`<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" namespace="urn:x">
  <decision id="d1"/>
</definitions>`))
	fmt.Println(err)
	// Output: 2:3: <decision id="d1">: missing name
}
