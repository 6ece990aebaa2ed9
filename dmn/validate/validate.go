package validate

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn/feel"
)

// Namespaces of the root definitions element that Validate accepts. The
// specification recognises four (DMN 1.1, 1.2, 1.3 and the legacy
// process-engine schema); DMN 1.4 and 1.5 are accepted as well because
// regelkit's engine runs them.
var acceptedNamespaces = []struct{ iri, name string }{
	{"https://www.omg.org/spec/DMN/20191111/MODEL/", "DMN 1.3"},
	{"http://www.omg.org/spec/DMN/20180521/MODEL/", "DMN 1.2"},
	{"http://www.omg.org/spec/DMN/20151101/dmn.xsd", "DMN 1.1"},
	{"https://www.camunda.org/schema/1.0/dmn", "legacy process-engine DMN"},
	{"https://www.omg.org/spec/DMN/20211108/MODEL/", "DMN 1.4"},
	{"https://www.omg.org/spec/DMN/20230324/MODEL/", "DMN 1.5"},
}

// AcceptedNamespaces returns the root namespaces Validate accepts, the four
// of the specification first.
func AcceptedNamespaces() []string {
	out := make([]string, len(acceptedNamespaces))
	for i, ns := range acceptedNamespaces {
		out[i] = ns.iri
	}
	return out
}

func isDMNNamespace(iri string) bool {
	for _, ns := range acceptedNamespaces {
		if ns.iri == iri {
			return true
		}
	}
	return false
}

// CPRMV attribute namespaces: the specification's 0.3.0 and, as an alias,
// the 0.4.1 standard. Attributes are matched by namespace IRI, never by prefix.
var cprmvNamespaces = [...]string{
	"https://cprmv.open-regels.nl/0.3.0/",
	"https://standaarden.open-regels.nl/standards/cprmv/0.4.1#",
}

const dctNamespace = "http://purl.org/dc/terms/"

func isCPRMV(space string) bool {
	return space == cprmvNamespaces[0] || space == cprmvNamespaces[1]
}

// Validate checks a DMN XML document in five layers: structure, decision
// tables, CPRMV attributes, the decision requirements diagram and metadata
// quality. A structural failure (layer 1) skips the other layers. Validate
// never panics: an internal failure is reported as a BASE-ERR issue.
func Validate(xml []byte) Report { return validate(xml, nil) }

// validate is Validate with a hook run after parsing, for tests of the
// internal-failure path.
func validate(xml []byte, hook func()) (report Report) {
	v := &validator{hook: hook, issues: map[string]int{}}
	defer func() {
		if r := recover(); r != nil {
			v.report = Report{}
			clear(v.issues)
			v.add(LayerBase, "BASE-ERR", nil, "internal validator failure: %v", r)
			report = v.finish()
		}
	}()
	v.run(xml)
	return v.finish()
}

type validator struct {
	hook   func()
	report Report
	// issues counts the findings per code; past MaxIssuesPerCode they are
	// counted, not listed.
	issues map[string]int
	m      *model
	scopes map[*element]*feel.Scope // FEEL parser scope per top-level element
}

func (v *validator) run(src []byte) {
	root, perr := parseTree(src)
	if perr != nil {
		v.report.ParseError = perr.Error()
		v.issues["BASE-PARSE"]++
		v.report.Layers.Base.Issues = append(v.report.Layers.Base.Issues, Issue{
			Severity: Error, Code: "BASE-PARSE", Message: "XML is not well-formed: " + perr.Error(),
			Line: perr.line, Column: perr.col,
		})
		return
	}
	if v.hook != nil {
		v.hook()
	}
	v.m = newModel(root)
	if !v.checkStructure() {
		return
	}
	v.checkDecisionTables()
	v.checkCPRMV()
	v.checkDRD()
	v.checkMetadata()
}

func (v *validator) finish() Report {
	r := v.report
	for _, k := range LayerKeys {
		l := r.Layers.Get(k)
		l.Label = k.Label()
		if l.Issues == nil {
			l.Issues = []Issue{}
		}
	}
	// Summary counts every finding, the unlisted ones too; the note that
	// says how many of a code are unlisted is no finding of its own.
	for _, c := range codeTable {
		n := v.issues[c.Code]
		switch c.Severity {
		case Error:
			r.Summary.Errors += n
		case Warning:
			r.Summary.Warnings += n
		case Info:
			r.Summary.Infos += n
		}
		if n > MaxIssuesPerCode {
			l := r.Layers.Get(c.Layer)
			l.Issues = append(l.Issues, Issue{Severity: c.Severity, Code: c.Code,
				Message: fmt.Sprintf("%d further %s issues are not listed (a report lists at most %d per code)", n-MaxIssuesPerCode, c.Code, MaxIssuesPerCode)})
		}
	}
	r.Valid = r.ParseError == "" && r.Summary.Errors == 0
	return r
}

// add records an issue with code's severity at element e (nil: the whole
// document). Past MaxIssuesPerCode issues of the code it only counts.
func (v *validator) add(layer LayerKey, code string, e *element, format string, args ...any) {
	c, ok := codeIndex[code]
	if !ok || c.Layer != layer {
		panic("validate: code " + code + " is not in layer " + string(layer))
	}
	v.issues[code]++
	if v.issues[code] > MaxIssuesPerCode {
		return
	}
	is := Issue{Severity: c.Severity, Code: code, Message: clipBytes(fmt.Sprintf(format, args...), maxMessageBytes)}
	if e != nil {
		is.Location = clipBytes(location(e), maxMessageBytes)
		is.Line, is.Column = e.line, e.col
	}
	l := v.report.Layers.Get(layer)
	l.Issues = append(l.Issues, is)
}

// model indexes the parsed tree for the checks.
type model struct {
	root *element
	// dmn lists the elements of a DMN namespace by local name, in document order.
	dmn map[string][]*element
	// top-level elements of definitions by local name.
	decisions, inputData, itemDefinitions []*element
	decisionByID, inputDataByID           map[string]*element
	hasCPRMV                              bool
}

func newModel(root *element) *model {
	m := &model{root: root, dmn: map[string][]*element{}}
	var walk func(e *element)
	walk = func(e *element) {
		if isDMNNamespace(e.space) {
			m.dmn[e.local] = append(m.dmn[e.local], e)
		}
		if !m.hasCPRMV {
			for _, a := range e.attrs {
				if isCPRMV(a.space) {
					m.hasCPRMV = true
					break
				}
			}
		}
		for _, c := range e.children {
			walk(c)
		}
	}
	walk(root)
	m.decisionByID = map[string]*element{}
	m.inputDataByID = map[string]*element{}
	for _, c := range root.children {
		if !isDMNNamespace(c.space) {
			continue
		}
		id, _ := c.attr("id")
		switch c.local {
		case "decision":
			m.decisions = append(m.decisions, c)
			if id != "" {
				m.decisionByID[id] = c
			}
		case "inputData":
			m.inputData = append(m.inputData, c)
			if id != "" {
				m.inputDataByID[id] = c
			}
		case "itemDefinition":
			m.itemDefinitions = append(m.itemDefinitions, c)
		}
	}
	return m
}

// children returns e's children in a DMN namespace with the given local name.
func children(e *element, local string) []*element {
	var out []*element
	for _, c := range e.children {
		if c.local == local && isDMNNamespace(c.space) {
			out = append(out, c)
		}
	}
	return out
}

// child returns e's first DMN child with the given local name, or nil.
func child(e *element, local string) *element {
	for _, c := range e.children {
		if c.local == local && isDMNNamespace(c.space) {
			return c
		}
	}
	return nil
}

// textOf returns the content of e's <text> child ("" when there is none).
func textOf(e *element) string {
	if t := child(e, "text"); t != nil {
		return t.text
	}
	return ""
}

// owner returns the top-level element (a child of definitions) e belongs to.
func owner(e *element) *element {
	for x := e; x != nil && x.parent != nil; x = x.parent {
		if x.parent.parent == nil {
			return x
		}
	}
	return nil
}

// pathElements are the intermediate elements a location names besides the
// top-level element and the element itself.
var pathElements = map[string]bool{"input": true, "output": true, "rule": true, "informationRequirement": true}

// location renders the path of e: `<decision id="d1"> > <rule id="r1">`.
func location(e *element) string {
	var parts []*element
	for x := e; x != nil; x = x.parent {
		top := x.parent != nil && x.parent.parent == nil
		if x == e || top || (pathElements[x.local] && isDMNNamespace(x.space)) {
			parts = append(parts, x)
		}
		if top {
			break
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(tag(parts[i]))
		if i > 0 {
			b.WriteString(" > ")
		}
	}
	return b.String()
}

// tag renders an element as <local id="…">, falling back to name, then to the bare tag.
func tag(e *element) string {
	if id, ok := e.attr("id"); ok && id != "" {
		return fmt.Sprintf("<%s id=%s>", e.local, quoted(id, maxIDExcerpt))
	}
	if name, ok := e.attr("name"); ok && name != "" {
		return fmt.Sprintf("<%s name=%s>", e.local, quoted(name, maxIDExcerpt))
	}
	return "<" + e.local + ">"
}

// describe names an element in a message: its id in quotes, or its tag and position.
func describe(e *element) string {
	if id, ok := e.attr("id"); ok && id != "" {
		return quoted(id, maxIDExcerpt)
	}
	return fmt.Sprintf("at line %d, column %d", e.line, e.col)
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }
