package cprmv

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// transformDMN maps a DMN model: each decision,
// businessKnowledgeModel and inputData becomes a Rule whose id is the
// element's id and whose definition is its name followed by its expression
// text; each literalExpression or decisionTable with an id becomes a child
// Rule holding that text, so upstream's segment "LiteralExpression_2021"
// resolves.
func transformDMN(ctx context.Context, doc []byte, rs *RuleSet, maxDepth int) error {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	type open struct {
		rule  *Rule
		texts []string
		name  string
	}
	var stack []string
	var elems []*open // the decision-level rule, then an expression rule
	var text *strings.Builder
	for n := 1; ; n++ {
		if n%ctxEvery == 0 && ctx.Err() != nil {
			return fmt.Errorf("%w: conversion stopped: %v", ErrUnavailable, ctx.Err())
		}
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			line, col := d.InputPos()
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return &SyntaxError{Line: line, Column: col, Msg: se.Msg}
			}
			return &SyntaxError{Line: line, Column: col, Msg: err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if maxDepth > 0 && len(stack) >= maxDepth {
				line, col := d.InputPos()
				return &SyntaxError{Line: line, Column: col, Msg: "nesting deeper than " + strconv.Itoa(maxDepth)}
			}
			name := t.Name.Local
			stack = append(stack, name)
			attr := func(k string) string {
				for _, a := range t.Attr {
					if a.Name.Local == k {
						return a.Value
					}
				}
				return ""
			}
			switch {
			case name == "definitions" && len(stack) == 1:
				rs.Comment = attr("name")
			case (name == "decision" || name == "businessKnowledgeModel" || name == "inputData") && len(elems) == 0:
				r := &Rule{ID: attr("id")}
				rs.Parts = append(rs.Parts, r)
				elems = append(elems, &open{rule: r, name: name})
				r.Definition = attr("name")
			case (name == "literalExpression" || name == "decisionTable") && len(elems) == 1 && attr("id") != "":
				r := &Rule{ID: attr("id")}
				elems[0].rule.Parts = append(elems[0].rule.Parts, r)
				elems = append(elems, &open{rule: r, name: name})
			case name == "text" && len(elems) > 0:
				text = &strings.Builder{}
			}
		case xml.EndElement:
			name := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if name == "text" && text != nil {
				if s := collapse(text.String()); s != "" {
					for _, e := range elems {
						e.texts = append(e.texts, s)
					}
				}
				text = nil
			}
			if n := len(elems); n > 0 && elems[n-1].name == name {
				e := elems[n-1]
				elems = elems[:n-1]
				parts := e.texts
				if e.rule.Definition != "" {
					parts = append([]string{e.rule.Definition}, parts...)
				}
				e.rule.Definition = strings.Join(parts, "\n")
			}
		case xml.CharData:
			if text != nil {
				text.Write(t)
			}
		}
	}
	return nil
}
