package validate_test

import (
	"fmt"

	"github.com/regelkit/regelkit/dmn/validate"
)

func ExampleValidate() {
	model := `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="defs" name="Toeslag" namespace="http://example.com/toeslag">
  <decision id="toeslag" name="Toeslag">
    <decisionTable id="dt" hitPolicy="UNIQUE">
      <input id="inkomen" label="Inkomen"><inputExpression id="ie" typeRef="number"><text>inkomen</text></inputExpression></input>
      <output id="bedrag" name="bedrag" typeRef="number"/>
      <rule id="laag"><inputEntry id="l1"><text>[0..1500]</text></inputEntry><outputEntry id="l2"><text>300</text></outputEntry></rule>
      <rule id="midden"><inputEntry id="m1"><text>[1500..2500)</text></inputEntry><outputEntry id="m2"><text>150</text></outputEntry></rule>
    </decisionTable>
  </decision>
  <inputData id="in" name="inkomen"><variable id="inv" name="inkomen" typeRef="number"/></inputData>
</definitions>`
	report := validate.Validate([]byte(model))
	fmt.Println("valid:", report.Valid)
	for _, is := range report.Issues() {
		fmt.Printf("%s %s at %d:%d %q\n  %s\n", is.Severity, is.Code, is.Line, is.Column, is.Location, is.Message)
	}
	// Output:
	// valid: false
	// error BIZ-016 at 7:7 "<decision id=\"toeslag\"> > <rule id=\"midden\">"
	//   rules "laag" and "midden" of this UNIQUE table overlap: both match for example Inkomen = 1500
	// info EXEC-001 at 0:0 ""
	//   the model carries no CPRMV attribute (namespace https://cprmv.open-regels.nl/0.3.0/ or https://standaarden.open-regels.nl/standards/cprmv/0.4.1#); the CPRMV checks are skipped
}
