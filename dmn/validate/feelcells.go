package validate

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn/feel"
)

// isFEEL reports whether an expressionLanguage names FEEL ("" is the default).
func isFEEL(lang string) bool {
	lang = strings.TrimSpace(lang)
	return lang == "" || strings.Contains(strings.ToLower(lang), "feel")
}

// language returns the expression language in force for e: its own
// expressionLanguage, else the nearest decision table's, else the
// definitions' one.
func (v *validator) language(e *element) string {
	for x := e; x != nil; x = x.parent {
		if x.local == "decisionTable" || x.parent == nil || x == e {
			if lang, ok := x.attr("expressionLanguage"); ok {
				return lang
			}
		}
	}
	return ""
}

// scope returns the names visible to expressions of a table: every
// inputData name and what the owning decision's requirements declare. The
// FEEL parser needs them to read names with spaces.
func (v *validator) scope(t *table) *feel.Scope {
	own := owner(t.el)
	if s, ok := v.scopes[own]; ok {
		return s
	}
	var names []string
	for _, in := range v.m.inputData {
		if n, _ := in.attr("name"); n != "" {
			names = append(names, n)
		}
	}
	for n := range v.ownerNames(own) {
		names = append(names, n)
	}
	s := &feel.Scope{Names: names}
	if v.scopes == nil {
		v.scopes = map[*element]*feel.Scope{}
	}
	v.scopes[own] = s
	return s
}

// checkFEELCells reports FEEL syntax errors in the input expressions, input
// entries and output entries of t (BIZ-015) and keeps the parsed input
// entries in t.tests for the overlap check.
func (v *validator) checkFEELCells(t *table) {
	scope := v.scope(t)
	// Decision tables repeat cell texts ("-", "true", "[18..65)") many
	// times: each distinct text of a kind is parsed once per table.
	type parsed struct {
		n   any
		err error
	}
	cache := map[[2]string]parsed{}
	parse := func(kind, text string) (any, error) {
		key := [2]string{kind, text}
		if p, ok := cache[key]; ok {
			return p.n, p.err
		}
		n, err := parseFEEL(func() (any, error) {
			if kind == "tests" {
				return feel.ParseUnaryTests(text, scope)
			}
			return feel.ParseExpr(text, scope)
		})
		cache[key] = parsed{n, err}
		return n, err
	}
	for i, in := range t.inputs {
		expr := child(in, "inputExpression")
		if expr == nil || !isFEEL(v.language(expr)) {
			continue
		}
		text := textOf(expr)
		if blank(text) {
			continue
		}
		if _, err := parse("expr", text); err != nil {
			v.add(LayerBusiness, "BIZ-015", expr, "input expression of input column %d (%s): FEEL syntax error in %s at %s",
				i+1, columnName(in, expr), clip(text), clipText(err.Error(), MaxExcerpt))
		}
	}
	t.tests = make([][]*feel.UnaryTests, len(t.rules))
	for ri, r := range t.rules {
		ins := children(r, "inputEntry")
		row := make([]*feel.UnaryTests, len(ins))
		for j, e := range ins {
			if !isFEEL(v.language(e)) {
				continue
			}
			text := textOf(e)
			ut, err := parse("tests", text)
			if err != nil {
				v.add(LayerBusiness, "BIZ-015", e, "rule %s, input entry %d%s: FEEL syntax error in %s at %s",
					ruleName(r, ri), j+1, columnSuffix(t.inputs, j), clip(text), clipText(err.Error(), MaxExcerpt))
				continue
			}
			row[j], _ = ut.(*feel.UnaryTests)
		}
		t.tests[ri] = row
		for j, e := range children(r, "outputEntry") {
			text := textOf(e)
			if blank(text) || !isFEEL(v.language(e)) {
				continue // an empty output entry yields null
			}
			if _, err := parse("expr", text); err != nil {
				v.add(LayerBusiness, "BIZ-015", e, "rule %s, output entry %d%s: FEEL syntax error in %s at %s",
					ruleName(r, ri), j+1, columnSuffix(t.outputs, j), clip(text), clipText(err.Error(), MaxExcerpt))
			}
		}
	}
}

// parseFEEL runs a FEEL parse and turns a panic of the parser into an
// error, so a parser bug costs one cell, not the report.
func parseFEEL(parse func() (any, error)) (n any, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("the FEEL parser failed on this text (%v)", r)
		}
	}()
	return parse()
}

// columnSuffix names column j of cols, if it exists, for a cell message.
func columnSuffix(cols []*element, j int) string {
	if j >= len(cols) {
		return ""
	}
	return " (" + columnName(cols[j], child(cols[j], "inputExpression")) + ")"
}

// clip quotes a cell text for a message, shortened to 80 characters.
func clip(s string) string {
	return quoted(strings.TrimSpace(s), 80)
}
