package enginetest

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/examples"
)

// LocalPass returns the three local-pass models of the examples package
// as resources named <identifier>.dmn.
func LocalPass() ([]engine.Resource, error) {
	var rs []engine.Resource
	for _, m := range examples.LocalPass {
		data, err := examples.FS.ReadFile(m.Path)
		if err != nil {
			return nil, err
		}
		rs = append(rs, engine.Resource{Name: m.Identifier + ".dmn", Data: data})
	}
	return rs, nil
}

// TenRuleKey is the decision key of TenRuleTable.
const TenRuleKey = "eligibility"

// TenRuleTable is a UNIQUE decision table with 10 rules over three inputs
// (age: a number range, riskCategory: a string list, isAffordable: a
// boolean) and one output, in the Camunda Modeler style.
func TenRuleTable() []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:camunda="http://camunda.org/schema/1.0/dmn" id="bench" name="bench" namespace="http://camunda.org/schema/1.0/dmn">
  <decision id="eligibility" name="Eligibility">
    <decisionTable id="t" hitPolicy="UNIQUE">
      <input id="i1"><inputExpression id="e1" typeRef="integer"><text>age</text></inputExpression></input>
      <input id="i2"><inputExpression id="e2" typeRef="string"><text>riskCategory</text></inputExpression></input>
      <input id="i3"><inputExpression id="e3" typeRef="boolean"><text>isAffordable</text></inputExpression></input>
      <output id="o1" name="result" typeRef="string"/>
`)
	risks := []string{`"Low"`, `"Medium"`, `"High"`, `"Low","Medium"`, `"High"`}
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, `      <rule id="r%d"><inputEntry><text>[%d..%d)</text></inputEntry><inputEntry><text>%s</text></inputEntry><inputEntry><text>%v</text></inputEntry><outputEntry><text>"result %d"</text></outputEntry></rule>
`, i, i*10, i*10+10, risks[i%len(risks)], i%2 == 0, i)
	}
	b.WriteString("    </decisionTable>\n  </decision>\n</definitions>\n")
	return []byte(b.String())
}

// TenRuleLastRule are variables that match the table's last rule
// ("result 9"), so that every rule is tested.
func TenRuleLastRule() engine.Variables {
	return engine.Variables{"age": engine.Integer(95), "riskCategory": engine.String("High"), "isAffordable": engine.Boolean(false)}
}

// Bundle returns an example process bundle (examples.Processes) as a
// deployment named after it, its resources named by their file names.
func Bundle(name string) (engine.NewDeployment, error) {
	for _, b := range examples.Processes {
		if b.Name != name {
			continue
		}
		nd := engine.NewDeployment{Name: b.Name, Source: "enginetest"}
		for _, p := range b.Files {
			data, err := examples.FS.ReadFile(p)
			if err != nil {
				return nd, err
			}
			nd.Resources = append(nd.Resources, engine.Resource{Name: p[strings.LastIndexByte(p, '/')+1:], Data: data})
		}
		return nd, nil
	}
	return engine.NewDeployment{}, fmt.Errorf("enginetest: no example bundle %q", name)
}
