package validate

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn/feel"
)

var hitPolicies = map[string]bool{
	"UNIQUE": true, "FIRST": true, "ANY": true, "COLLECT": true,
	"RULE ORDER": true, "OUTPUT ORDER": true, "PRIORITY": true,
}

var knownTypes = map[string]bool{
	"string": true, "boolean": true, "integer": true, "long": true, "double": true, "number": true, "date": true,
	"String": true, "Boolean": true, "Integer": true, "Long": true, "Double": true, "Number": true, "Date": true,
}

// table is a decision table with its columns and rules.
type table struct {
	el        *element
	hitPolicy string
	inputs    []*element
	outputs   []*element
	rules     []*element
	// tests holds the parsed input entries per rule and column; nil where
	// the text is no valid FEEL or not FEEL at all.
	tests [][]*feel.UnaryTests
}

func newTable(el *element) *table {
	t := &table{el: el, hitPolicy: "UNIQUE"}
	if hp, ok := el.attr("hitPolicy"); ok {
		t.hitPolicy = hp
	}
	t.inputs = children(el, "input")
	t.outputs = children(el, "output")
	t.rules = children(el, "rule")
	return t
}

// checkDecisionTables runs layer 2 on every decision table of the model.
func (v *validator) checkDecisionTables() {
	for _, el := range v.m.dmn["decisionTable"] {
		t := newTable(el)
		v.checkTable(t)
	}
}

func (v *validator) checkTable(t *table) {
	if !hitPolicies[t.hitPolicy] {
		v.add(LayerBusiness, "BIZ-001", t.el, "hitPolicy %s is not one of UNIQUE, FIRST, ANY, COLLECT, RULE ORDER, OUTPUT ORDER, PRIORITY", excerpt(t.hitPolicy))
	}
	for i, in := range t.inputs {
		if id, _ := in.attr("id"); blank(id) {
			v.add(LayerBusiness, "BIZ-010", in, "input column %d has no id", i+1)
		}
		if expr := child(in, "inputExpression"); expr != nil {
			v.checkTypeRef(expr, "BIZ-002", "BIZ-003", fmt.Sprintf("input column %d (%s)", i+1, columnName(in, expr)))
		}
	}
	for i, out := range t.outputs {
		if id, _ := out.attr("id"); blank(id) {
			v.add(LayerBusiness, "BIZ-011", out, "output column %d has no id", i+1)
		}
		v.checkTypeRef(out, "BIZ-004", "BIZ-005", fmt.Sprintf("output column %d (%s)", i+1, columnName(out, nil)))
	}
	// complete lists the indices of the rules whose entry counts fit the
	// columns; only they take part in the comparisons between rules.
	var complete []int
	for i, r := range t.rules {
		if id, _ := r.attr("id"); blank(id) {
			v.add(LayerBusiness, "BIZ-012", r, "rule %d has no id", i+1)
		}
		ins := children(r, "inputEntry")
		outs := children(r, "outputEntry")
		if len(ins) != len(t.inputs) {
			v.add(LayerBusiness, "BIZ-006", r, "rule %s has %d input entries, the table has %d input columns", ruleName(r, i), len(ins), len(t.inputs))
		}
		if len(outs) != len(t.outputs) {
			v.add(LayerBusiness, "BIZ-007", r, "rule %s has %d output entries, the table has %d output columns", ruleName(r, i), len(outs), len(t.outputs))
		}
		for j, e := range ins {
			if id, _ := e.attr("id"); blank(id) {
				v.add(LayerBusiness, "BIZ-013", e, "input entry %d of rule %s has no id", j+1, ruleName(r, i))
			}
		}
		for j, e := range outs {
			if id, _ := e.attr("id"); blank(id) {
				v.add(LayerBusiness, "BIZ-014", e, "output entry %d of rule %s has no id", j+1, ruleName(r, i))
			}
		}
		if len(ins) == len(t.inputs) {
			complete = append(complete, i)
		}
	}
	v.checkFEELCells(t)
	if t.hitPolicy == "UNIQUE" || t.hitPolicy == "ANY" {
		groups := v.checkDuplicateRules(t, complete)
		if t.hitPolicy == "UNIQUE" {
			v.checkOverlaps(t, complete, groups)
		}
	}
}

// checkTypeRef reports a missing (codeMissing) or unknown (codeUnknown)
// typeRef on e, the type-carrying element of the column named col.
func (v *validator) checkTypeRef(e *element, codeMissing, codeUnknown, col string) {
	typeRef, ok := e.attr("typeRef")
	switch {
	case !ok || blank(typeRef):
		v.add(LayerBusiness, codeMissing, e, "%s has no typeRef", col)
	case !v.knownType(e, typeRef):
		v.add(LayerBusiness, codeUnknown, e, "%s has typeRef %s, which is not a known FEEL type (%s) or an itemDefinition of the model",
			col, excerpt(typeRef), knownTypeList)
	}
}

const knownTypeList = "string, boolean, integer, long, double, number, date"

// knownType accepts the FEEL types of the specification, optionally with a
// prefix bound to a FEEL namespace (DMN 1.1 writes feel:string), and the
// names of the model's item definitions (with any prefix).
func (v *validator) knownType(e *element, typeRef string) bool {
	typeRef = strings.TrimSpace(typeRef)
	local := typeRef
	if i := strings.IndexByte(typeRef, ':'); i >= 0 {
		prefix := typeRef[:i]
		local = typeRef[i+1:]
		iri, _ := e.lookupPrefix(prefix)
		if (prefix == "feel" || strings.Contains(iri, "FEEL")) && knownTypes[local] {
			return true
		}
	} else if knownTypes[typeRef] {
		return true
	}
	for _, it := range v.m.itemDefinitions {
		if name, _ := it.attr("name"); name != "" && name == local {
			return true
		}
	}
	return false
}

// columnName names a column by its label, name, or input expression text.
func columnName(col, expr *element) string {
	for _, a := range []string{"label", "name"} {
		if s, _ := col.attr(a); !blank(s) {
			return quote(s)
		}
	}
	if expr != nil {
		if s := strings.TrimSpace(textOf(expr)); s != "" {
			return quote(s)
		}
	}
	if id, _ := col.attr("id"); id != "" {
		return quote(id)
	}
	return "unnamed"
}

// ruleName names the i-th rule (0-based) of a table: its id or its number.
func ruleName(r *element, i int) string {
	if id, _ := r.attr("id"); !blank(id) {
		return quote(id)
	}
	return "#" + itoa(i+1)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// isCatchAll reports whether an input entry text matches anything.
func isCatchAll(text string) bool {
	s := strings.TrimSpace(text)
	return s == "" || s == "-"
}

// checkDuplicateRules reports BIZ-008 for rules whose input entries have
// identical trimmed text and BIZ-009 for catch-all rules beside specific
// ones; idx holds the indices of the rules to compare. It returns for each
// rule the index of the first rule with the same input text, so the
// semantic overlap check does not report those pairs again.
func (v *validator) checkDuplicateRules(t *table, idx []int) map[int]int {
	groups := make(map[int]int, len(idx))
	first := make(map[string]int, len(idx))
	var catchAll []int
	specific := false
	var key strings.Builder
	for _, i := range idx {
		r := t.rules[i]
		key.Reset()
		all := true
		for _, e := range children(r, "inputEntry") {
			s := strings.TrimSpace(textOf(e))
			key.WriteString(s)
			key.WriteByte(0)
			if !isCatchAll(s) {
				all = false
			}
		}
		if all {
			catchAll = append(catchAll, i)
		} else {
			specific = true
		}
		k := key.String()
		if j, ok := first[k]; ok {
			groups[i] = j
			v.add(LayerBusiness, "BIZ-008", r, "rules %s and %s have identical input entries; in a %s table at most one rule may match",
				ruleName(t.rules[j], j), ruleName(r, i), t.hitPolicy)
			continue
		}
		first[k] = i
		groups[i] = i
	}
	if specific && len(t.inputs) > 0 {
		for _, i := range catchAll {
			v.add(LayerBusiness, "BIZ-009", t.rules[i], "rule %s matches every input (all entries empty or -) and so overlaps the specific rules of this %s table",
				ruleName(t.rules[i], i), t.hitPolicy)
		}
	}
	return groups
}
