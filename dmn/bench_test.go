package dmn

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchTable is a UNIQUE decision table with 10 rules over 3 inputs
// (a number range, a string enumeration and a boolean).
func benchTable() string {
	var b strings.Builder
	b.WriteString(`<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:bench" name="bench">
  <inputData id="age" name="Age"><variable name="Age" typeRef="number"/></inputData>
  <inputData id="risk" name="Risk Category"><variable name="Risk Category" typeRef="string"/></inputData>
  <inputData id="aff" name="Is Affordable"><variable name="Is Affordable" typeRef="boolean"/></inputData>
  <decision id="d" name="Eligibility">
    <informationRequirement><requiredInput href="#age"/></informationRequirement>
    <informationRequirement><requiredInput href="#risk"/></informationRequirement>
    <informationRequirement><requiredInput href="#aff"/></informationRequirement>
    <decisionTable hitPolicy="UNIQUE">
      <input><inputExpression typeRef="number"><text>Age</text></inputExpression></input>
      <input><inputExpression typeRef="string"><text>Risk Category</text></inputExpression></input>
      <input><inputExpression typeRef="boolean"><text>Is Affordable</text></inputExpression></input>
      <output typeRef="string"/>
`)
	risks := []string{`"Low"`, `"Medium"`, `"High"`, `"Low","Medium"`, `"High"`}
	for i := 0; i < 10; i++ {
		lo, hi := i*10, i*10+10
		fmt.Fprintf(&b, `      <rule id="r%d"><inputEntry><text>[%d..%d)</text></inputEntry><inputEntry><text>%s</text></inputEntry><inputEntry><text>%v</text></inputEntry><outputEntry><text>"result %d"</text></outputEntry></rule>
`, i, lo, hi, risks[i%len(risks)], i%2 == 0, i)
	}
	b.WriteString(`    </decisionTable>
  </decision>
</definitions>`)
	return b.String()
}

func BenchmarkDecisionTable(b *testing.B) {
	m := mustCompile(b, Options{}, benchTable())
	inputs := map[string]any{"Age": ToValue(95), "Risk Category": "High", "Is Affordable": false}
	ctx := context.Background()
	res, err := m.Evaluate(ctx, "Eligibility", inputs)
	if err != nil || res.Main().Value != "result 9" {
		b.Fatalf("got %v %v", res.Main().Value, err)
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		m.Evaluate(ctx, "Eligibility", inputs)
	}
	reportCPU(b, start)
}

const benchDRD = `<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:drd4" name="drd4">
  <inputData id="inc" name="Monthly Income"><variable name="Monthly Income" typeRef="number"/></inputData>
  <inputData id="dob" name="Date of Birth"><variable name="Date of Birth" typeRef="date"/></inputData>
  <decision id="d1" name="Annual Income"><informationRequirement><requiredInput href="#inc"/></informationRequirement>
    <literalExpression><text>Monthly Income * 12</text></literalExpression></decision>
  <decision id="d2" name="Age"><informationRequirement><requiredInput href="#dob"/></informationRequirement>
    <literalExpression><text>years and months duration(Date of Birth, date("2024-06-01")).years</text></literalExpression></decision>
  <decision id="d3" name="Band"><informationRequirement><requiredDecision href="#d1"/></informationRequirement>
    <decisionTable hitPolicy="FIRST"><input><inputExpression><text>Annual Income</text></inputExpression></input><output/>
      <rule><inputEntry><text>&lt; 20000</text></inputEntry><outputEntry><text>"low"</text></outputEntry></rule>
      <rule><inputEntry><text>&lt; 60000</text></inputEntry><outputEntry><text>"middle"</text></outputEntry></rule>
      <rule><inputEntry><text>-</text></inputEntry><outputEntry><text>"high"</text></outputEntry></rule>
    </decisionTable></decision>
  <decision id="d4" name="Allowance">
    <informationRequirement><requiredDecision href="#d2"/></informationRequirement>
    <informationRequirement><requiredDecision href="#d3"/></informationRequirement>
    <literalExpression><text>if Band = "low" and Age &gt;= 18 then 150 else 0</text></literalExpression></decision>
</definitions>`

func BenchmarkDRD(b *testing.B) {
	m := mustCompile(b, Options{}, benchDRD)
	inputs := map[string]any{"Monthly Income": ToValue(1500), "Date of Birth": "1990-05-17"}
	ctx := context.Background()
	res, err := m.Evaluate(ctx, "Allowance", inputs)
	if err != nil || len(res.Decisions) != 4 {
		b.Fatalf("got %+v %v", res, err)
	}
	if v, _ := res.Value("Allowance"); fmt.Sprint(v) != "150" {
		b.Fatalf("Allowance = %v", v)
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		m.Evaluate(ctx, "Allowance", inputs)
	}
	reportCPU(b, start)
}

// cpuTime is the process's user+system CPU time; benchmarks report CPU
// nanoseconds per operation because wall time on a shared machine is noisy.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	per := float64(cpuTime()-start) / float64(b.N)
	b.ReportMetric(per, "cpu-ns/op")
	b.ReportMetric(1e9/per, "evals/cpu-s")
}
