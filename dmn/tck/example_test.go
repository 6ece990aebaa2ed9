package tck_test

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn/tck"
)

func ExampleParseTestCases() {
	tcs, err := tck.ParseTestCases(strings.NewReader(`<testCases xmlns="http://www.omg.org/spec/DMN/20160719/testcase"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <modelName>0004-simpletable-U.dmn</modelName>
  <testCase id="001">
    <inputNode name="Age"><value xsi:type="xsd:decimal">18</value></inputNode>
    <resultNode name="Approval Status"><expected><value xsi:type="xsd:string">Approved</value></expected></resultNode>
  </testCase>
</testCases>`))
	if err != nil {
		panic(err)
	}
	c := tcs.Cases[0]
	fmt.Println(tcs.ModelName, c.ID, c.Inputs[0].Name, c.Inputs[0].Value.FEEL(), c.Results[0].Expected.FEEL())
	fmt.Println(tck.Equal(c.Results[0].Expected.FEEL(), "Approved"))
	// Output:
	// 0004-simpletable-U.dmn 001 Age 18 Approved
	// true
}
