package validate

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The four namespaces of the specification; every layer-2…5 case runs on each.
var specNamespaces = []string{
	"https://www.omg.org/spec/DMN/20191111/MODEL/",
	"http://www.omg.org/spec/DMN/20180521/MODEL/",
	"http://www.omg.org/spec/DMN/20151101/dmn.xsd",
	"https://www.camunda.org/schema/1.0/dmn",
}

const ns13 = "https://www.omg.org/spec/DMN/20191111/MODEL/"

// doc wraps body in a definitions element of namespace ns with the cprmv
// and dct prefixes bound.
func doc(ns, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="` + ns + `" xmlns:cprmv="https://cprmv.open-regels.nl/0.3.0/" xmlns:dct="http://purl.org/dc/terms/" id="defs" name="Test" namespace="http://example.com/test">
` + body + `
</definitions>
`
}

// ageInput is the inputData the standard table reads.
const ageInput = `<inputData id="age" name="age"><variable id="age_v" name="age" typeRef="number"/></inputData>`

// ageTable builds decision d1 with a decision table on age (number) giving
// result (string). tableAttrs go on decisionTable; rules are raw XML.
func ageTable(tableAttrs string, rules ...string) string {
	return `<decision id="d1" name="D1">
  <informationRequirement id="ir1"><requiredInput href="#age"/></informationRequirement>
  <decisionTable id="dt1"` + tableAttrs + `>
    <input id="i1" label="Age"><inputExpression id="ie1" typeRef="number"><text>age</text></inputExpression></input>
    <output id="o1" name="result" typeRef="string"/>
    ` + strings.Join(rules, "\n    ") + `
  </decisionTable>
</decision>
` + ageInput
}

// rule builds a one-input one-output rule.
func rule(id, in, out string) string {
	return `<rule id="` + id + `"><inputEntry id="` + id + `_i"><text>` + in + `</text></inputEntry><outputEntry id="` + id + `_o"><text>` + out + `</text></outputEntry></rule>`
}

// goodRules are two disjoint rules.
var goodRules = []string{rule("r1", "&lt; 18", `"minor"`), rule("r2", "&gt;= 18", `"adult"`)}

// cprmvTable is a valid model carrying CPRMV attributes, to which the
// EXEC cases add or change attributes with repl.
func cprmvTable(ruleAttrs, cellAttrs string) string {
	return `<decision id="d1" name="D1" cprmv:rulesetType="decision-table" cprmv:implements="BWBR0015703">
  <informationRequirement id="ir1"><requiredInput href="#age"/></informationRequirement>
  <decisionTable id="dt1">
    <input id="i1" label="Age"><inputExpression id="ie1" typeRef="number"><text>age</text></inputExpression></input>
    <output id="o1" name="result" typeRef="string"/>
    <rule id="r1" ` + ruleAttrs + `><inputEntry id="r1_i" ` + cellAttrs + `><text>&lt; 18</text></inputEntry><outputEntry id="r1_o"><text>"minor"</text></outputEntry></rule>
    <rule id="r2"><inputEntry id="r2_i"><text>&gt;= 18</text></inputEntry><outputEntry id="r2_o"><text>"adult"</text></outputEntry></rule>
  </decisionTable>
</decision>
` + ageInput
}

type codeCase struct {
	name     string
	code     string
	severity Severity
	layer    LayerKey
	fail     string // body (inside definitions) that must report code
	pass     string // body that must not report code
	location string // exact location of the reported issue ("" = null)
	at       string // the issue's line/column is where this text starts in the document ("" = no position)
	contains string // the message contains this
}

var codeCases = []codeCase{
	{
		name: "hit policy unknown", code: "BIZ-001", severity: Error, layer: LayerBusiness,
		fail:     ageTable(` hitPolicy="SOMETIMES"`, goodRules...),
		pass:     ageTable(` hitPolicy="RULE ORDER"`, goodRules...),
		location: `<decision id="d1"> > <decisionTable id="dt1">`, at: `<decisionTable`, contains: `"SOMETIMES"`,
	},
	{
		name: "input expression without typeRef", code: "BIZ-002", severity: Warning, layer: LayerBusiness,
		fail:     strings.Replace(ageTable("", goodRules...), ` typeRef="number"><text>age`, `><text>age`, 1),
		pass:     ageTable("", goodRules...),
		location: `<decision id="d1"> > <input id="i1"> > <inputExpression id="ie1">`, at: `<inputExpression`, contains: `"Age"`,
	},
	{
		name: "input typeRef unknown", code: "BIZ-003", severity: Warning, layer: LayerBusiness,
		fail:     strings.Replace(ageTable("", goodRules...), `typeRef="number"><text>age`, `typeRef="dateTime"><text>age`, 1),
		pass:     `<itemDefinition id="tAge" name="tAge"><typeRef>number</typeRef></itemDefinition>` + strings.Replace(ageTable("", goodRules...), `typeRef="number"><text>age`, `typeRef="tAge"><text>age`, 1),
		location: `<decision id="d1"> > <input id="i1"> > <inputExpression id="ie1">`, at: `<inputExpression`, contains: `"dateTime"`,
	},
	{
		name: "output without typeRef", code: "BIZ-004", severity: Warning, layer: LayerBusiness,
		fail:     strings.Replace(ageTable("", goodRules...), ` typeRef="string"/>`, `/>`, 1),
		pass:     ageTable("", goodRules...),
		location: `<decision id="d1"> > <output id="o1">`, at: `<output`, contains: `"result"`,
	},
	{
		name: "output typeRef unknown", code: "BIZ-005", severity: Warning, layer: LayerBusiness,
		fail:     strings.Replace(ageTable("", goodRules...), `typeRef="string"/>`, `typeRef="text"/>`, 1),
		pass:     strings.Replace(ageTable("", goodRules...), `typeRef="string"/>`, `typeRef="String"/>`, 1),
		location: `<decision id="d1"> > <output id="o1">`, at: `<output`, contains: `"text"`,
	},
	{
		name: "input entry count", code: "BIZ-006", severity: Error, layer: LayerBusiness,
		fail: ageTable("", goodRules[0], `<rule id="r2"><inputEntry id="r2_a"><text>&gt;= 18</text></inputEntry><inputEntry id="r2_b"><text>1</text></inputEntry><outputEntry id="r2_o"><text>"adult"</text></outputEntry></rule>`),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <rule id="r2">`, at: `<rule id="r2"`, contains: "2 input entries",
	},
	{
		name: "output entry count", code: "BIZ-007", severity: Error, layer: LayerBusiness,
		fail: ageTable("", goodRules[0], `<rule id="r2"><inputEntry id="r2_i"><text>&gt;= 18</text></inputEntry></rule>`),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <rule id="r2">`, at: `<rule id="r2"`, contains: "0 output entries",
	},
	{
		name: "identical rules", code: "BIZ-008", severity: Error, layer: LayerBusiness,
		fail: ageTable("", goodRules[0], rule("r2", " &lt; 18 ", `"adult"`)),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <rule id="r2">`, at: `<rule id="r2"`, contains: `"r1" and "r2"`,
	},
	{
		name: "identical rules in ANY table", code: "BIZ-008", severity: Error, layer: LayerBusiness,
		fail:     ageTable(` hitPolicy="ANY"`, goodRules[0], rule("r2", "&lt; 18", `"minor"`)),
		pass:     ageTable(` hitPolicy="FIRST"`, goodRules[0], rule("r2", "&lt; 18", `"minor"`)),
		location: `<decision id="d1"> > <rule id="r2">`, at: `<rule id="r2"`,
	},
	{
		name: "catch-all beside specific rule", code: "BIZ-009", severity: Warning, layer: LayerBusiness,
		fail:     ageTable("", goodRules[0], rule("r2", "-", `"adult"`)),
		pass:     ageTable(` hitPolicy="FIRST"`, goodRules[0], rule("r2", "-", `"adult"`)),
		location: `<decision id="d1"> > <rule id="r2">`, at: `<rule id="r2"`, contains: `"r2"`,
	},
	{
		name: "input without id", code: "BIZ-010", severity: Error, layer: LayerBusiness,
		fail: strings.Replace(ageTable("", goodRules...), `<input id="i1" label="Age">`, `<input label="Age">`, 1),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <input>`, at: `<input label`,
	},
	{
		name: "output without id", code: "BIZ-011", severity: Error, layer: LayerBusiness,
		fail: strings.Replace(ageTable("", goodRules...), `<output id="o1" name="result"`, `<output name="result"`, 1),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <output name="result">`, at: `<output name`,
	},
	{
		name: "rule without id", code: "BIZ-012", severity: Error, layer: LayerBusiness,
		fail: ageTable("", goodRules[0], strings.Replace(goodRules[1], `<rule id="r2">`, `<rule>`, 1)),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <rule>`, at: `<rule>`, contains: "rule 2",
	},
	{
		name: "input entry without id", code: "BIZ-013", severity: Error, layer: LayerBusiness,
		fail: ageTable("", goodRules[0], strings.Replace(goodRules[1], `<inputEntry id="r2_i">`, `<inputEntry>`, 1)),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <rule id="r2"> > <inputEntry>`, at: `<inputEntry>`,
	},
	{
		name: "output entry without id", code: "BIZ-014", severity: Error, layer: LayerBusiness,
		fail: ageTable("", goodRules[0], strings.Replace(goodRules[1], `<outputEntry id="r2_o">`, `<outputEntry>`, 1)),
		pass: ageTable("", goodRules...), location: `<decision id="d1"> > <rule id="r2"> > <outputEntry>`, at: `<outputEntry>`,
	},
	{
		name: "no CPRMV attribute", code: "EXEC-001", severity: Info, layer: LayerExecution,
		fail: ageTable("", goodRules...), pass: cprmvTable("", ""),
	},
	{
		name: "rulesetType", code: "EXEC-002", severity: Error, layer: LayerExecution,
		fail:     strings.Replace(cprmvTable("", ""), `rulesetType="decision-table"`, `rulesetType="lookup-table"`, 1),
		pass:     strings.Replace(cprmvTable("", ""), `rulesetType="decision-table"`, `rulesetType="derivation-table"`, 1),
		location: `<decision id="d1">`, at: `<decision id="d1"`, contains: `"lookup-table"`,
	},
	{
		name: "implements", code: "EXEC-003", severity: Warning, layer: LayerExecution,
		fail:     strings.Replace(cprmvTable("", ""), `BWBR0015703`, `ABCD0015703`, 1),
		pass:     cprmvTable("", ""),
		location: `<decision id="d1">`, at: `<decision id="d1"`, contains: `"ABCD0015703"`,
	},
	{
		name: "implements with 6 digits", code: "EXEC-003", severity: Warning, layer: LayerExecution,
		fail:     strings.Replace(cprmvTable("", ""), `BWBR0015703`, `BWBR001570`, 1),
		pass:     strings.Replace(cprmvTable("", ""), `BWBR0015703`, `BWBR9999999`, 1),
		location: `<decision id="d1">`, at: `<decision id="d1"`,
	},
	{
		name: "ruleType", code: "EXEC-004", severity: Error, layer: LayerExecution,
		fail: cprmvTable(`cprmv:ruleType="guess"`, ""), pass: cprmvTable(`cprmv:ruleType="decision-rule"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`, contains: `"guess"`,
	},
	{
		name: "confidence", code: "EXEC-005", severity: Error, layer: LayerExecution,
		fail: cprmvTable(`cprmv:confidence="certain"`, ""), pass: cprmvTable(`cprmv:confidence="medium"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`,
	},
	{
		name: "validFrom format", code: "EXEC-006", severity: Error, layer: LayerExecution,
		fail: cprmvTable(`cprmv:validFrom="2024-13-01"`, ""), pass: cprmvTable(`cprmv:validFrom="2024-12-31"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`, contains: `"2024-13-01"`,
	},
	{
		name: "validUntil format", code: "EXEC-007", severity: Error, layer: LayerExecution,
		fail: cprmvTable(`cprmv:validUntil="1-1-2025"`, ""), pass: cprmvTable(`cprmv:validUntil="2025-01-01"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`,
	},
	{
		name: "validFrom not before validUntil", code: "EXEC-008", severity: Error, layer: LayerExecution,
		fail:     cprmvTable(`cprmv:validFrom="2025-01-01" cprmv:validUntil="2025-01-01"`, ""),
		pass:     cprmvTable(`cprmv:validFrom="2024-01-01" cprmv:validUntil="2025-01-01"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`,
	},
	{
		name: "temporal period without validFrom", code: "EXEC-009", severity: Warning, layer: LayerExecution,
		fail:     cprmvTable(`cprmv:ruleType="temporal-period" cprmv:validUntil="2025-01-01"`, ""),
		pass:     cprmvTable(`cprmv:ruleType="temporal-period" cprmv:validFrom="2024-01-01" cprmv:validUntil="2025-01-01"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`,
	},
	{
		name: "temporal period without validUntil", code: "EXEC-010", severity: Warning, layer: LayerExecution,
		fail:     cprmvTable(`cprmv:ruleType="temporal-period" cprmv:validFrom="2024-01-01"`, ""),
		pass:     cprmvTable(`cprmv:ruleType="conditional" cprmv:validFrom="2024-01-01"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`,
	},
	{
		name: "dct source", code: "EXEC-011", severity: Warning, layer: LayerExecution,
		fail:     cprmvTable("", `dct:source2="https://example.com/x"`),
		pass:     cprmvTable("", `dct:source="0f8fad5b-d9cb-469f-a165-70867728950e" dct:source1="https://www.pna-web.com/doc/1"`),
		location: `<decision id="d1"> > <rule id="r1"> > <inputEntry id="r1_i">`, at: `<inputEntry id="r1_i"`, contains: `dct:source2`,
	},
	{
		name: "isBasedOn", code: "EXEC-012", severity: Warning, layer: LayerExecution,
		fail:     cprmvTable("", `cprmv:isBasedOn="artikel 20"`),
		pass:     cprmvTable("", `cprmv:isBasedOn="jci1.3:c:BWBR0015703&amp;artikel=20&amp;lid=1" cprmv:isBasedOn2="https://wetten.overheid.nl/BWBR0015703"`),
		location: `<decision id="d1"> > <rule id="r1"> > <inputEntry id="r1_i">`, at: `<inputEntry id="r1_i"`,
	},
	{
		name: "extends", code: "EXEC-013", severity: Warning, layer: LayerExecution,
		fail: cprmvTable(`cprmv:extends="jci1.3:c:BWBR0015703&amp;artikel"`, ""), pass: cprmvTable(`cprmv:extends="JCI1.0:C:BWBR0015703&amp;ARTIKEL=20"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`,
	},
	{
		name: "requiredInput to nothing", code: "INT-001", severity: Error, layer: LayerInteraction,
		fail:     strings.Replace(ageTable("", goodRules...), `href="#age"`, `href="#agee"`, 1),
		pass:     ageTable("", goodRules...),
		location: `<decision id="d1"> > <informationRequirement id="ir1"> > <requiredInput>`, at: `<requiredInput`, contains: `"#agee"`,
	},
	{
		name: "requiredDecision to nothing", code: "INT-002", severity: Error, layer: LayerInteraction,
		fail:     ageTable("", goodRules...) + `<decision id="d2" name="D2"><informationRequirement id="ir2"><requiredDecision href="#d9"/></informationRequirement><literalExpression id="le2"><text>D1</text></literalExpression></decision>`,
		pass:     ageTable("", goodRules...) + `<decision id="d2" name="D2"><informationRequirement id="ir2"><requiredDecision href="#d1"/></informationRequirement><literalExpression id="le2"><text>D1</text></literalExpression></decision>`,
		location: `<decision id="d2"> > <informationRequirement id="ir2"> > <requiredDecision>`, at: `<requiredDecision`, contains: `"#d9"`,
	},
	{
		name: "decision requires itself", code: "INT-003", severity: Error, layer: LayerInteraction,
		fail:     ageTable("", goodRules...) + `<decision id="d2" name="D2"><informationRequirement id="ir2"><requiredDecision href="#d2"/></informationRequirement><literalExpression id="le2"><text>1</text></literalExpression></decision>`,
		pass:     ageTable("", goodRules...) + `<decision id="d2" name="D2"><informationRequirement id="ir2"><requiredDecision href="#d1"/></informationRequirement><literalExpression id="le2"><text>1</text></literalExpression></decision>`,
		location: `<decision id="d2"> > <informationRequirement id="ir2"> > <requiredDecision>`, at: `<requiredDecision`,
	},
	{
		name: "decision cycle", code: "INT-003", severity: Error, layer: LayerInteraction,
		fail: ageTable("", goodRules...) +
			`<decision id="d2" name="D2"><informationRequirement id="ir2"><requiredDecision href="#d3"/></informationRequirement><literalExpression id="le2"><text>D3</text></literalExpression></decision>` +
			`<decision id="d3" name="D3"><informationRequirement id="ir3"><requiredDecision href="#d2"/></informationRequirement><literalExpression id="le3"><text>D2</text></literalExpression></decision>`,
		pass: ageTable("", goodRules...) +
			`<decision id="d2" name="D2"><informationRequirement id="ir2"><requiredDecision href="#d3"/></informationRequirement><literalExpression id="le2"><text>D3</text></literalExpression></decision>` +
			`<decision id="d3" name="D3"><informationRequirement id="ir3"><requiredDecision href="#d1"/></informationRequirement><literalExpression id="le3"><text>D1</text></literalExpression></decision>`,
		location: `<decision id="d2">`, at: `<decision id="d2"`, contains: `"d2", "d3"`,
	},
	{
		name: "empty information requirement", code: "INT-004", severity: Warning, layer: LayerInteraction,
		fail:     strings.Replace(ageTable("", goodRules...), `</informationRequirement>`, `</informationRequirement><informationRequirement id="ir9"/>`, 1),
		pass:     ageTable("", goodRules...),
		location: `<decision id="d1"> > <informationRequirement id="ir9">`, at: `<informationRequirement id="ir9"`,
	},
	{
		name: "unreferenced input data in a DRD", code: "INT-005", severity: Warning, layer: LayerInteraction,
		fail:     ageTable("", goodRules...) + `<inputData id="x" name="x"><variable id="x_v" name="x" typeRef="number"/></inputData>`,
		pass:     strings.Replace(ageTable("", goodRules...), `<informationRequirement id="ir1"><requiredInput href="#age"/></informationRequirement>`, ``, 1),
		location: `<inputData id="x">`, at: `<inputData id="x"`,
	},
	{
		name: "input data name differs from variable", code: "INT-006", severity: Warning, layer: LayerInteraction,
		fail:     strings.Replace(ageTable("", goodRules...), `<variable id="age_v" name="age"`, `<variable id="age_v" name="leeftijd"`, 1),
		pass:     ageTable("", goodRules...),
		location: `<inputData id="age">`, at: `<inputData id="age"`, contains: `"leeftijd"`,
	},
	{
		name: "undeclared name in input expression", code: "INT-007", severity: Warning, layer: LayerInteraction,
		fail:     strings.Replace(ageTable("", goodRules...), `<text>age</text>`, `<text>date(dagVanAanvraag).year - age</text>`, 1),
		pass:     strings.Replace(ageTable("", goodRules...), `<text>age</text>`, `<text>age * 12 + string("x").months</text>`, 1),
		location: `<decision id="d1"> > <input id="i1"> > <inputExpression id="ie1">`, at: `<inputExpression`, contains: `"dagVanAanvraag"`,
	},
	{
		name: "empty decision title", code: "CON-001", severity: Warning, layer: LayerContent,
		fail:     strings.Replace(ageTable("", goodRules...), `<decision id="d1" name="D1">`, `<decision id="d1" name="D1" cprmv:title=" ">`, 1),
		pass:     strings.Replace(ageTable("", goodRules...), `<decision id="d1" name="D1">`, `<decision id="d1" name="D1" cprmv:title="Leeftijd" cprmv:description="Bepaalt de leeftijdsgroep">`, 1),
		location: `<decision id="d1">`, at: `<decision id="d1"`, contains: "cprmv:title",
	},
	{
		name: "empty decision description", code: "CON-001", severity: Warning, layer: LayerContent,
		fail:     strings.Replace(ageTable("", goodRules...), `<decision id="d1" name="D1">`, `<decision id="d1" name="D1" cprmv:description="">`, 1),
		pass:     ageTable("", goodRules...),
		location: `<decision id="d1">`, at: `<decision id="d1"`, contains: "cprmv:description",
	},
	{
		name: "empty input data description", code: "CON-002", severity: Warning, layer: LayerContent,
		fail:     strings.Replace(ageTable("", goodRules...), `<inputData id="age" name="age">`, `<inputData id="age" name="age" cprmv:description="">`, 1),
		pass:     strings.Replace(ageTable("", goodRules...), `<inputData id="age" name="age">`, `<inputData id="age" name="age" cprmv:description="Leeftijd in jaren">`, 1),
		location: `<inputData id="age">`, at: `<inputData id="age"`,
	},
	{
		name: "empty rule note", code: "CON-003", severity: Info, layer: LayerContent,
		fail: cprmvTable(`cprmv:note=""`, ""), pass: cprmvTable(`cprmv:note="Artikel 20 lid 1"`, ""),
		location: `<decision id="d1"> > <rule id="r1">`, at: `<rule id="r1"`,
	},
	{
		name: "variable without typeRef", code: "CON-004", severity: Info, layer: LayerContent,
		fail:     strings.Replace(ageTable("", goodRules...), ` name="age" typeRef="number"/>`, ` name="age"/>`, 1),
		pass:     ageTable("", goodRules...),
		location: `<inputData id="age"> > <variable id="age_v">`, at: `<variable`,
	},
	{
		name: "text annotation without text", code: "CON-005", severity: Info, layer: LayerContent,
		fail:     ageTable("", goodRules...) + `<textAnnotation id="ta1"><text>  </text></textAnnotation>`,
		pass:     ageTable("", goodRules...) + `<textAnnotation id="ta1"><text>Bron: Participatiewet</text></textAnnotation>`,
		location: `<textAnnotation id="ta1">`, at: `<textAnnotation`,
	},
}

// position returns the 1-based line and byte column where sub starts in s.
func position(t *testing.T, s, sub string) (int, int) {
	t.Helper()
	i := strings.Index(s, sub)
	if i < 0 {
		t.Fatalf("%q not in document", sub)
	}
	line := strings.Count(s[:i], "\n") + 1
	col := i - strings.LastIndexByte(s[:i], '\n')
	return line, col
}

func findCode(r Report, code string) []Issue {
	var out []Issue
	for _, is := range r.Issues() {
		if is.Code == code {
			out = append(out, is)
		}
	}
	return out
}

// layerOf finds the layer an issue was reported in.
func layerOf(r Report, code string) LayerKey {
	for _, k := range LayerKeys {
		for _, is := range r.Layers.Get(k).Issues {
			if is.Code == code {
				return k
			}
		}
	}
	return ""
}

func TestCodes(t *testing.T) {
	for _, ns := range specNamespaces {
		for _, c := range codeCases {
			t.Run(c.code+"/"+c.name+"/"+ns, func(t *testing.T) {
				src := doc(ns, c.fail)
				r := Validate([]byte(src))
				if r.ParseError != "" {
					t.Fatalf("fixture does not parse: %s", r.ParseError)
				}
				got := findCode(r, c.code)
				if len(got) != 1 {
					t.Fatalf("want one %s issue, got %d; all issues: %s", c.code, len(got), dump(r))
				}
				is := got[0]
				if is.Severity != c.severity {
					t.Errorf("severity %s, want %s", is.Severity, c.severity)
				}
				if l := layerOf(r, c.code); l != c.layer {
					t.Errorf("layer %s, want %s", l, c.layer)
				}
				if is.Location != c.location {
					t.Errorf("location %q, want %q", is.Location, c.location)
				}
				if c.at != "" {
					line, col := position(t, src, c.at)
					if is.Line != line || is.Column != col {
						t.Errorf("position %d:%d, want %d:%d", is.Line, is.Column, line, col)
					}
				} else if is.Line != 0 || is.Column != 0 {
					t.Errorf("position %d:%d, want none", is.Line, is.Column)
				}
				if !strings.Contains(is.Message, c.contains) {
					t.Errorf("message %q does not contain %q", is.Message, c.contains)
				}
				if c.severity == Error && r.Valid {
					t.Errorf("valid = true with an error: %s", dump(r))
				}

				pass := Validate([]byte(doc(ns, c.pass)))
				if pass.ParseError != "" {
					t.Fatalf("passing fixture does not parse: %s", pass.ParseError)
				}
				if got := findCode(pass, c.code); len(got) != 0 {
					t.Errorf("passing fixture reports %s: %s", c.code, dump(pass))
				}
			})
		}
	}
}

// TestEveryCodeHasACase keeps the table honest: each code of the code table
// needs a failing case (BASE-* and BIZ-015/016 are covered by their own tests).
func TestEveryCodeHasACase(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range codeCases {
		covered[c.code] = true
	}
	for _, c := range baseCases {
		covered[c.code] = true
	}
	covered["BASE-ERR"] = true // TestInternalFailure
	covered["BIZ-015"] = true  // TestFEELSyntaxErrors
	covered["BIZ-016"] = true  // TestSemanticOverlap
	for _, c := range Codes() {
		if !covered[c.Code] {
			t.Errorf("code %s has no test case", c.Code)
		}
	}
	if n := len(Codes()); n != 48 {
		t.Errorf("code table has %d codes, want 48 (7 BASE, 16 BIZ, 13 EXEC, 7 INT, 5 CON)", n)
	}
}

func dump(r Report) string {
	b, _ := json.MarshalIndent(r.Issues(), "", "  ")
	return string(b)
}

var baseCases = []struct {
	name, code string
	src        string
	location   string
	line, col  int
	contains   string
}{
	{"root element", "BASE-ROOT", `<model xmlns="` + ns13 + `" name="x" namespace="y"><decision id="d"/></model>`, `<model name="x">`, 1, 1, "<model>"},
	{"unknown namespace", "BASE-NS", `<definitions xmlns="http://www.omg.org/spec/DMN/20151101/MODEL/" name="x" namespace="y"><decision id="d"/></definitions>`,
		`<definitions name="x">`, 1, 1, "https://www.camunda.org/schema/1.0/dmn"},
	{"no namespace", "BASE-NS", "\n  <definitions id=\"defs\" name=\"x\" namespace=\"y\"><decision id=\"d\"/></definitions>", `<definitions id="defs">`, 2, 3, "no namespace"},
	{"definitions name", "BASE-NAME", `<definitions xmlns="` + ns13 + `" id="defs" name=" " namespace="y"><decision id="d"/></definitions>`, `<definitions id="defs">`, 1, 1, "name"},
	{"definitions namespace", "BASE-NSATTR", `<definitions xmlns="` + ns13 + `" id="defs" name="x"><decision id="d"/></definitions>`, `<definitions id="defs">`, 1, 1, "namespace attribute"},
	{"no decision", "BASE-EMPTY", `<definitions xmlns="` + ns13 + `" id="defs" name="x" namespace="y"><inputData id="i" name="i"/></definitions>`, `<definitions id="defs">`, 1, 1, "no <decision>"},
	{"not well-formed", "BASE-PARSE", "<definitions xmlns=\"" + ns13 + "\">\n  <decision id=\"d\">\n</definitions>", "", 3, 1, "closed by </definitions>"},
}

// TestStructure checks each layer-1 code, and that a layer-1 failure leaves
// layers 2–5 empty (upstream ran them anyway).
func TestStructure(t *testing.T) {
	for _, c := range baseCases {
		t.Run(c.code+"/"+c.name, func(t *testing.T) {
			r := Validate([]byte(c.src))
			got := findCode(r, c.code)
			if len(got) != 1 {
				t.Fatalf("want one %s, got %s", c.code, dump(r))
			}
			is := got[0]
			if is.Severity != Error || layerOf(r, c.code) != LayerBase {
				t.Errorf("severity %s layer %s, want error in base", is.Severity, layerOf(r, c.code))
			}
			if is.Location != c.location || is.Line != c.line || is.Column != c.col {
				t.Errorf("at %q %d:%d, want %q %d:%d", is.Location, is.Line, is.Column, c.location, c.line, c.col)
			}
			if !strings.Contains(is.Message, c.contains) {
				t.Errorf("message %q lacks %q", is.Message, c.contains)
			}
			if r.Valid {
				t.Error("valid = true")
			}
			if len(r.Layers.Base.Issues) != 1 {
				t.Errorf("base issues: %s", dump(r))
			}
			for _, k := range LayerKeys[1:] {
				if l := r.Layers.Get(k); len(l.Issues) != 0 {
					t.Errorf("layer %s not skipped: %s", k, dump(r))
				}
			}
			if (c.code == "BASE-PARSE") != (r.ParseError != "") {
				t.Errorf("parseError = %q for %s", r.ParseError, c.code)
			}
		})
	}
}

func TestStructurePasses(t *testing.T) {
	for _, ns := range AcceptedNamespaces() {
		r := Validate([]byte(doc(ns, ageTable("", goodRules...))))
		if !r.Valid || len(r.Layers.Base.Issues) != 0 || r.Summary.Errors != 0 || r.Summary.Warnings != 0 {
			t.Errorf("%s: want a valid model without warnings, got %s", ns, dump(r))
		}
		// The only finding of the standard model is that it carries no CPRMV metadata.
		if r.Summary.Infos != 1 || findCode(r, "EXEC-001") == nil {
			t.Errorf("%s: infos %s", ns, dump(r))
		}
	}
}

// TestSeveralBaseFailures: all structural failures of definitions are reported together.
func TestSeveralBaseFailures(t *testing.T) {
	r := Validate([]byte(`<definitions xmlns="` + ns13 + `"/>`))
	var codes []string
	for _, is := range r.Layers.Base.Issues {
		codes = append(codes, is.Code)
	}
	if got := strings.Join(codes, " "); got != "BASE-NAME BASE-NSATTR BASE-EMPTY" {
		t.Errorf("codes %q", got)
	}
	if r.Summary.Errors != 3 || r.Valid {
		t.Errorf("summary %+v valid %v", r.Summary, r.Valid)
	}
}

func TestInternalFailure(t *testing.T) {
	r := validate([]byte(doc(ns13, ageTable("", goodRules...))), func() { panic("boom") })
	if len(r.Layers.Base.Issues) != 1 || r.Layers.Base.Issues[0].Code != "BASE-ERR" || r.Layers.Base.Issues[0].Severity != Error {
		t.Fatalf("got %s", dump(r))
	}
	if r.Valid || r.Summary.Errors != 1 || !strings.Contains(r.Layers.Base.Issues[0].Message, "boom") {
		t.Errorf("report %+v", r)
	}
}

func TestJSONShape(t *testing.T) {
	r := Validate([]byte("<definitions"))
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["valid"] != false || got["parseError"] == nil {
		t.Errorf("valid/parseError: %s", b)
	}
	layers := got["layers"].(map[string]any)
	labels := map[string]string{"base": "Base DMN", "business": "Business Rules", "execution": "Execution Rules", "interaction": "Interaction Rules", "content": "Content"}
	for key, label := range labels {
		l, ok := layers[key].(map[string]any)
		if !ok {
			t.Fatalf("layer %s missing: %s", key, b)
		}
		if l["label"] != label {
			t.Errorf("label of %s = %v, want %s", key, l["label"], label)
		}
		issues, ok := l["issues"].([]any)
		if !ok {
			t.Errorf("issues of %s is not an array: %s", key, b)
		}
		if key != "base" && len(issues) != 0 {
			t.Errorf("layer %s has issues after a parse error", key)
		}
	}
	base := layers["base"].(map[string]any)["issues"].([]any)
	if len(base) != 1 {
		t.Fatalf("base issues %v", base)
	}
	is := base[0].(map[string]any)
	for _, k := range []string{"severity", "code", "message", "location", "line", "column"} {
		if _, ok := is[k]; !ok {
			t.Errorf("issue key %s missing: %s", k, b)
		}
	}
	if is["location"] != nil || is["code"] != "BASE-PARSE" || is["severity"] != "error" || is["line"] != float64(1) {
		t.Errorf("issue %v", is)
	}
	sum := got["summary"].(map[string]any)
	if sum["errors"] != float64(1) || sum["warnings"] != float64(0) || sum["infos"] != float64(0) {
		t.Errorf("summary %v", sum)
	}

	// A parsed document has parseError null and issues with locations.
	b, _ = json.Marshal(Validate([]byte(doc(ns13, ageTable(` hitPolicy="X"`, goodRules...)))))
	if !strings.Contains(string(b), `"parseError":null`) || !strings.Contains(string(b), `"location":"\u003cdecision id=\"d1\"\u003e \u003e \u003cdecisionTable id=\"dt1\"\u003e"`) {
		t.Errorf("json %s", b)
	}
}

// TestBIZ009OneIssuePerCatchAll: two catch-all rules give two warnings (and
// being identical, one BIZ-008).
func TestBIZ009OneIssuePerCatchAll(t *testing.T) {
	r := Validate([]byte(doc(ns13, ageTable("", goodRules[0], rule("r2", "-", `"a"`), rule("r3", "", `"b"`)))))
	got := findCode(r, "BIZ-009")
	if len(got) != 2 || got[0].Location != `<decision id="d1"> > <rule id="r2">` || got[1].Location != `<decision id="d1"> > <rule id="r3">` {
		t.Errorf("BIZ-009: %s", dump(r))
	}
	// "-" and "" differ as text: no BIZ-008.
	if n := len(findCode(r, "BIZ-008")); n != 0 {
		t.Errorf("BIZ-008 count %d", n)
	}
	// Only catch-all rules: nothing specific to overlap with.
	r = Validate([]byte(doc(ns13, ageTable("", rule("r1", "-", `"a"`)))))
	if n := len(findCode(r, "BIZ-009")); n != 0 {
		t.Errorf("lone catch-all: %s", dump(r))
	}
}

// TestTypeRefForms: DMN 1.1 writes FEEL types as QNames.
func TestTypeRefForms(t *testing.T) {
	for typeRef, ok := range map[string]bool{
		"feel:string": true, "f:number": true, "Date": true, "dateTime": false, "Any": false, "x:string": false,
	} {
		src := doc("http://www.omg.org/spec/DMN/20151101/dmn.xsd",
			strings.Replace(ageTable("", goodRules...), `typeRef="string"/>`, `typeRef="`+typeRef+`" xmlns:f="http://www.omg.org/spec/FEEL/20140401" xmlns:x="http://example.com/x"/>`, 1))
		r := Validate([]byte(src))
		if got := len(findCode(r, "BIZ-005")) == 0; got != ok {
			t.Errorf("typeRef %q accepted = %v, want %v", typeRef, got, ok)
		}
	}
}

func TestINT005OnlyInDRD(t *testing.T) {
	// A single decision without information requirements is no DRD: its
	// unreferenced inputData is not flagged.
	body := strings.Replace(ageTable("", goodRules...), `<informationRequirement id="ir1"><requiredInput href="#age"/></informationRequirement>`, "", 1)
	if got := findCode(Validate([]byte(doc(ns13, body))), "INT-005"); len(got) != 0 {
		t.Errorf("single decision: %v", got)
	}
	// Two decisions make a DRD.
	body += `<decision id="d2" name="D2"><literalExpression id="le"><text>1</text></literalExpression></decision>`
	if got := findCode(Validate([]byte(doc(ns13, body))), "INT-005"); len(got) != 1 || got[0].Location != `<inputData id="age">` {
		t.Errorf("two decisions: %v", got)
	}
}

func TestUndeclaredNames(t *testing.T) {
	declared := map[string]bool{"bijstandsNorm": true, "Leeftijd aanvrager": true}
	phrases := phraseNames(declared)
	cases := []struct {
		text string
		want []string
	}{
		{"date(dagVanAanvraag).year", []string{"dagVanAanvraag"}},
		{"maandelijksBrutoInkomenAanvrager <= 1.1 * bijstandsNorm", []string{"maandelijksBrutoInkomenAanvrager"}},
		{"(years and months duration(a, b)).years", []string{"a", "b"}},
		{`"tekst met woorden" + 'ook hier' + x`, []string{"x"}},
		{`if x > 1e5 then x else y . z`, []string{"x", "y"}},
		{"Leeftijd aanvrager >= 18 and partner", []string{"partner"}},
		{"NOT(True) or Null", nil},
		{"prijsÉén * 2", []string{"prijsÉén"}},
	}
	for _, c := range cases {
		got := undeclaredNames(c.text, phrases, declared)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}

// TestINT007RequiredDecisionOutputs: names of required decisions' outputs and
// whole-text names with spaces are declared.
func TestINT007RequiredDecisionOutputs(t *testing.T) {
	body := ageTable("", goodRules...) + `
<decision id="d2" name="D2">
  <variable id="d2_v" name="D2" typeRef="string"/>
  <informationRequirement id="ir2"><requiredDecision href="#d1"/></informationRequirement>
  <informationRequirement id="ir3"><requiredInput href="#p"/></informationRequirement>
  <decisionTable id="dt2">
    <input id="i2"><inputExpression id="ie2" typeRef="string"><text>result</text></inputExpression></input>
    <input id="i3"><inputExpression id="ie3" typeRef="number"><text>Leeftijd partner</text></inputExpression></input>
    <input id="i4"><inputExpression id="ie4" typeRef="number"><text>D1 + onbekend</text></inputExpression></input>
    <output id="o2" name="out" typeRef="string"/>
  </decisionTable>
</decision>
<inputData id="p" name="Leeftijd partner"><variable id="p_v" name="Leeftijd partner" typeRef="number"/></inputData>`
	r := Validate([]byte(doc(ns13, body)))
	got := findCode(r, "INT-007")
	if len(got) != 1 || !strings.Contains(got[0].Message, `"onbekend"`) || got[0].Location != `<decision id="d2"> > <input id="i4"> > <inputExpression id="ie4">` {
		t.Errorf("INT-007: %s", dump(r))
	}
}

// TestAuthorityRequirements: hrefs of authority requirements must resolve
// too, but do not count as using an inputData.
func TestAuthorityRequirements(t *testing.T) {
	body := strings.Replace(ageTable("", goodRules...), `<decisionTable`, `<authorityRequirement id="ar1"><requiredInput href="#nope"/></authorityRequirement><decisionTable`, 1)
	r := Validate([]byte(doc(ns13, body)))
	got := findCode(r, "INT-001")
	if len(got) != 1 || got[0].Location != `<decision id="d1"> > <requiredInput>` {
		t.Errorf("INT-001: %s", dump(r))
	}
	body = strings.Replace(ageTable("", goodRules...), `<informationRequirement id="ir1"><requiredInput href="#age"/></informationRequirement>`,
		`<authorityRequirement id="ar1"><requiredInput href="#age"/></authorityRequirement>`, 1) +
		`<decision id="d2" name="D2"><literalExpression id="le"><text>1</text></literalExpression></decision>`
	if got := findCode(Validate([]byte(doc(ns13, body))), "INT-005"); len(got) != 1 {
		t.Errorf("INT-005 with only an authority requirement: %v", got)
	}
}

func TestHrefToOtherModelIsNotChecked(t *testing.T) {
	body := strings.Replace(ageTable("", goodRules...), `href="#age"`, `href="other.dmn#age2"`, 1)
	if got := findCode(Validate([]byte(doc(ns13, body))), "INT-001"); len(got) != 0 {
		t.Errorf("INT-001 for an imported reference: %v", got)
	}
}
