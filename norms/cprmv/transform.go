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

// schema tells the streaming transformer what the elements of one document
// type mean. Names are local names; namespaces are ignored.
type schema struct {
	rule     map[string]string // element → the label of its id ("Artikel"; "" = the number alone)
	number   map[string]bool   // text is the number of the nearest rule (nr, lidnr, li.nr, TI.ART …)
	title    map[string]bool   // text is the nearest rule's comment (kop/titel, STI.ART)
	text     map[string]bool   // text holders whose content is a rule's definition (al, TXT …)
	list     map[string]bool   // enumerations: text after one is the post-definition
	skip     map[string]bool   // subtrees whose text is never used (meta-data, aanhef …)
	docTitle map[string]bool   // the citation title of the whole document
	row      string            // a table row: its cells become one line of text
	cell     string
	// trimNumber cuts a trailing dot from these rules' numbers ("lid 1").
	trimNumber map[string]bool
}

var bwbSchema = &schema{
	rule: map[string]string{
		"boek": "Boek", "deel": "Deel", "titeldeel": "Titeldeel", "hoofdstuk": "Hoofdstuk",
		"afdeling": "Afdeling", "paragraaf": "Paragraaf", "sub-paragraaf": "Sub-paragraaf",
		"artikel": "Artikel", "lid": "lid", "li": "onderdeel", "bijlage": "Bijlage",
	},
	number:     set("nr", "lidnr", "li.nr"),
	title:      set("titel"),
	text:       set("al", "entry"),
	list:       set("lijst"),
	skip:       set("meta-data", "meta", "aanhef", "considerans", "noot", "wij", "slotformulering", "ondertekening"),
	docTitle:   set("citeertitel"),
	row:        "row",
	cell:       "entry",
	trimNumber: set("lid"),
}

var fmx4Schema = &schema{
	rule:       map[string]string{"ARTICLE": "", "PARAG": "lid", "ITEM": "onderdeel"},
	number:     set("TI.ART", "NO.PARAG", "NO.P"),
	title:      set("STI.ART"),
	text:       set("ALINEA", "TXT", "P"),
	list:       set("LIST"),
	skip:       set("BIB.INSTANCE", "PREAMBLE", "FINAL", "NOTE", "SIGNATURE"),
	docTitle:   set("TITLE"),
	trimNumber: set("PARAG"),
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

type frame struct {
	name      string
	rule      *ruleFrame // set on the frame that opened a rule
	capturing bool       // chardata here belongs to the nearest rule's text
	into      *strings.Builder
}

type ruleFrame struct {
	rule    *Rule
	elem    string
	nr      strings.Builder
	titel   strings.Builder
	buf     strings.Builder
	defs    []string
	posts   []string
	sawList bool
	cells   []string
	inRow   bool
}

// transform streams doc into rs.Parts and rs.Comment. The nesting of the
// document is bounded by maxDepth.
func transform(ctx context.Context, doc []byte, sc *schema, rs *RuleSet, maxDepth int) error {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	root := &ruleFrame{rule: &Rule{}}
	tr := &transformer{sc: sc, rs: rs, rules: []*ruleFrame{root}}
	for n := 1; ; n++ {
		if n%ctxEvery == 0 && ctx.Err() != nil {
			return fmt.Errorf("%w: conversion stopped: %v", ErrUnavailable, ctx.Err())
		}
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				line, col := d.InputPos()
				return &SyntaxError{Line: line, Column: col, Msg: se.Msg}
			}
			return &SyntaxError{Msg: err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(tr.stack) >= maxDepth && maxDepth > 0 {
				line, col := d.InputPos()
				return &SyntaxError{Line: line, Column: col, Msg: "nesting deeper than " + strconv.Itoa(maxDepth)}
			}
			tr.start(t.Name.Local)
		case xml.EndElement:
			tr.end()
		case xml.CharData:
			tr.chars(t)
		}
	}
	rs.Parts = root.rule.Parts
	return nil
}

// transformer is the state of one transform: the open elements and the
// rules they are in.
type transformer struct {
	sc        *schema
	rs        *RuleSet
	rules     []*ruleFrame // the open rules, innermost last; the first is the root
	stack     []frame      // the open elements
	skip      int          // depth inside a skipped element
	docTitle  strings.Builder
	haveTitle bool
}

// start opens the element name: it may start a rule, a list, a number, a
// title, a table row or text, or be skipped.
func (tr *transformer) start(name string) {
	sc := tr.sc
	var parent frame
	if len(tr.stack) > 0 {
		parent = tr.stack[len(tr.stack)-1]
	}
	f := frame{name: name, into: parent.into}
	cur := tr.rules[len(tr.rules)-1]
	switch {
	case tr.skip > 0 || sc.skip[name]:
		tr.skip++
	case sc.docTitle[name] && !tr.haveTitle && parent.into == nil && len(tr.rules) == 1:
		f.into = &tr.docTitle
	case parent.into != nil:
		// inside a number, title or document title: flattened,
		// with a space so that <P>a</P><P>b</P> reads "a b"
		parent.into.WriteByte(' ')
	case hasKey(sc.rule, name):
		flush(cur, parent.capturing)
		rf := &ruleFrame{rule: &Rule{}, elem: name}
		cur.rule.Parts = append(cur.rule.Parts, rf.rule)
		tr.rules = append(tr.rules, rf)
		f.rule = rf
	case sc.list[name]:
		flush(cur, parent.capturing)
		cur.sawList = true
	case sc.number[name]:
		if cur.nr.Len() == 0 {
			f.into = &cur.nr
		} else {
			f.into = &strings.Builder{}
		}
	case sc.title[name]:
		f.into = &cur.titel
	case name == sc.row && sc.row != "":
		cur.inRow, cur.cells = true, cur.cells[:0]
	case sc.text[name]:
		if parent.capturing {
			cur.buf.WriteByte(' ')
		}
		f.capturing = true
	default:
		f.capturing = parent.capturing
	}
	tr.stack = append(tr.stack, f)
}

// end closes the innermost element: a document title, a rule, a table
// cell or row, or a text.
func (tr *transformer) end() {
	sc := tr.sc
	f := tr.stack[len(tr.stack)-1]
	tr.stack = tr.stack[:len(tr.stack)-1]
	if tr.skip > 0 {
		tr.skip--
		return
	}
	cur := tr.rules[len(tr.rules)-1]
	var parentCapturing bool
	if len(tr.stack) > 0 {
		parentCapturing = tr.stack[len(tr.stack)-1].capturing
	}
	switch {
	case f.into == &tr.docTitle && (len(tr.stack) == 0 || tr.stack[len(tr.stack)-1].into != &tr.docTitle):
		if s := collapse(tr.docTitle.String()); s != "" {
			tr.rs.Comment, tr.haveTitle = s, true
		}
		tr.docTitle.Reset()
	case f.rule != nil:
		finish(f.rule, sc)
		tr.rules = tr.rules[:len(tr.rules)-1]
	case f.name == sc.cell && sc.cell != "" && cur.inRow && !parentCapturing:
		cur.cells = append(cur.cells, collapse(cur.buf.String()))
		cur.buf.Reset()
	case f.name == sc.row && sc.row != "" && cur.inRow:
		cur.inRow = false
		line := strings.Join(cur.cells, " | ")
		if strings.Trim(line, " |") != "" {
			appendText(cur, line)
		}
	case f.capturing && !parentCapturing:
		flush(cur, true)
	}
}

// chars adds text to the number, title or rule text it belongs to.
func (tr *transformer) chars(t xml.CharData) {
	if tr.skip > 0 || len(tr.stack) == 0 {
		return
	}
	top := tr.stack[len(tr.stack)-1]
	switch {
	case top.into != nil:
		top.into.Write(t)
	case top.capturing:
		tr.rules[len(tr.rules)-1].buf.Write(t)
	}
}

// ctxEvery is how many tokens pass between looks at the context: a
// 50 MiB document is converted in about two seconds, and the request's
// deadline holds for the conversion too.
const ctxEvery = 1024

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

// flush moves a rule's captured text into its definition or, after an
// enumeration, its post-definition.
func flush(rf *ruleFrame, capturing bool) {
	if !capturing && rf.buf.Len() == 0 {
		return
	}
	s := collapse(rf.buf.String())
	rf.buf.Reset()
	if s == "" || rf.inRow {
		if rf.inRow && s != "" {
			rf.cells = append(rf.cells, s)
		}
		return
	}
	appendText(rf, s)
}

func appendText(rf *ruleFrame, s string) {
	if rf.sawList {
		rf.posts = append(rf.posts, s)
	} else {
		rf.defs = append(rf.defs, s)
	}
}

func finish(rf *ruleFrame, sc *schema) {
	flush(rf, false)
	nr := collapse(rf.nr.String())
	if sc.trimNumber[rf.elem] {
		nr = strings.TrimSuffix(nr, ".")
	}
	label := sc.rule[rf.elem]
	switch {
	case label == "":
		rf.rule.ID = nr
	case nr == "":
		rf.rule.ID = label
	default:
		rf.rule.ID = label + " " + nr
	}
	rf.rule.Comment = collapse(rf.titel.String())
	rf.rule.Definition = strings.Join(rf.defs, "\n")
	rf.rule.PostDefinition = strings.Join(rf.posts, "\n")
}

// collapse turns non-breaking spaces and runs of white space into one space
// and trims the result.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
