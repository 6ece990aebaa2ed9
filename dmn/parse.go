package dmn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/beevik/etree"
)

// DMN model namespaces by version.
const (
	NamespaceDMN11         = "http://www.omg.org/spec/DMN/20151101/dmn.xsd"
	NamespaceDMN12         = "http://www.omg.org/spec/DMN/20180521/MODEL/"
	NamespaceDMN13         = "https://www.omg.org/spec/DMN/20191111/MODEL/"
	NamespaceDMN14         = "https://www.omg.org/spec/DMN/20211108/MODEL/"
	NamespaceDMN15         = "https://www.omg.org/spec/DMN/20230324/MODEL/"
	NamespaceCamundaLegacy = "https://www.camunda.org/schema/1.0/dmn"
	// NamespaceCamundaExt is the namespace of camunda: extension attributes.
	// They are kept as Extensions; evaluation ignores them except
	// camunda:inputVariable in Operaton mode.
	NamespaceCamundaExt = "http://camunda.org/schema/1.0/dmn"
)

var versions = map[string]string{
	NamespaceDMN11: "1.1", NamespaceDMN12: "1.2", NamespaceDMN13: "1.3", NamespaceDMN14: "1.4", NamespaceDMN15: "1.5",
	NamespaceCamundaLegacy: "camunda",
}

// ParseError is an error in a DMN XML document, with the position of the
// offending element's start tag and its id when it has one.
type ParseError struct {
	ElementID string
	Element   string
	Line      int
	Column    int
	Msg       string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", e.Line, e.Column)
	}
	if e.Element != "" {
		b.WriteString("<" + e.Element)
		if e.ElementID != "" {
			b.WriteString(` id="` + e.ElementID + `"`)
		}
		b.WriteString(">: ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Parse reads a DMN 1.1–1.5 (or legacy Camunda namespace) XML document.
func Parse(r io.Reader) (*Definitions, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return ParseBytes(data)
}

// ParseBytes is Parse on a byte slice.
func ParseBytes(data []byte) (defs *Definitions, err error) {
	positions, perr := scanXML(data)
	if perr != nil {
		return nil, perr
	}
	doc := etree.NewDocument()
	doc.ReadSettings.Permissive = false
	if err := doc.ReadFromBytes(data); err != nil {
		// scanXML accepted the document, so this is not expected; keep
		// whatever position there is
		pe := &ParseError{Line: 1, Column: 1, Msg: "invalid XML: " + err.Error()}
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			pe.Line, pe.Msg = se.Line, "invalid XML: "+se.Msg
		}
		return nil, pe
	}
	p := &xmlParser{positions: positions}
	p.index(doc.Root())
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*ParseError)
			if !ok {
				panic(r)
			}
			defs, err = nil, pe
		}
	}()
	return p.definitions(doc.Root()), nil
}

type xmlParser struct {
	positions []Pos // start positions of elements in document order
	order     map[*etree.Element]int
	ns        string
}

// lineIndex maps byte offsets to 1-based lines and columns.
type lineIndex []int // offsets at which lines start

func newLineIndex(data []byte) lineIndex {
	li := lineIndex{0}
	for i, c := range data {
		if c == '\n' {
			li = append(li, i+1)
		}
	}
	return li
}

func (li lineIndex) pos(off int) Pos {
	line := sort.Search(len(li), func(i int) bool { return li[i] > off })
	return Pos{Line: line, Column: off - li[line-1] + 1}
}

// scanXML checks that data is well-formed XML with one root element and
// records the start-tag position of every element in document order
// (etree keeps no positions). A well-formedness error is a *ParseError
// positioned at the tag that does not match (end tags, a second root) or
// where the decoder stopped reading (everything else; the end of the
// input for a document cut short).
func scanXML(data []byte) ([]Pos, *ParseError) {
	li := newLineIndex(data)
	fail := func(off int, format string, args ...any) ([]Pos, *ParseError) {
		p := li.pos(min(max(off, 0), len(data)))
		return nil, &ParseError{Line: p.Line, Column: p.Column, Msg: "invalid XML: " + fmt.Sprintf(format, args...)}
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	// as etree reads it: a declared encoding is taken as it is
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var out []Pos
	var open []xml.Name // elements not yet closed
	roots := 0
	for {
		off := int(dec.InputOffset())
		tok, err := dec.RawToken()
		if err == io.EOF {
			if len(open) > 0 {
				return fail(len(data), "unexpected end of input: <%s> is not closed", qname(open[len(open)-1]))
			}
			break
		}
		if err != nil {
			end := int(dec.InputOffset())
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				msg := se.Msg
				if end < len(data) || msg != "unexpected EOF" {
					end-- // the last byte read
				}
				return fail(end, "%s", msg)
			}
			return fail(end, "%v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 {
				roots++
				if roots > 1 {
					return fail(off, "<%s> after the root element", qname(t.Name))
				}
			}
			open = append(open, t.Name)
			out = append(out, li.pos(off))
		case xml.EndElement:
			if len(open) == 0 {
				return fail(off, "unexpected end tag </%s>", qname(t.Name))
			}
			if top := open[len(open)-1]; top != t.Name {
				return fail(off, "element <%s> closed by </%s>", qname(top), qname(t.Name))
			}
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) == 0 && len(bytes.Trim(t, " \t\r\n\uFEFF")) > 0 { // white space or a byte order mark
				return fail(off, "text outside the root element")
			}
		}
	}
	if roots == 0 {
		p := li.pos(len(data))
		return nil, &ParseError{Line: p.Line, Column: p.Column, Msg: "empty document"}
	}
	return out, nil
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

func (p *xmlParser) index(root *etree.Element) {
	p.order = map[*etree.Element]int{}
	n := 0
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		p.order[e] = n
		n++
		for _, c := range e.ChildElements() {
			walk(c)
		}
	}
	if root != nil {
		walk(root)
	}
}

func (p *xmlParser) pos(e *etree.Element) Pos {
	if i, ok := p.order[e]; ok && i < len(p.positions) {
		return p.positions[i]
	}
	return Pos{}
}

func (p *xmlParser) fail(e *etree.Element, format string, args ...any) {
	pos := p.pos(e)
	panic(&ParseError{ElementID: e.SelectAttrValue("id", ""), Element: e.Tag, Line: pos.Line, Column: pos.Column, Msg: fmt.Sprintf(format, args...)})
}

// children returns the child elements in the model namespace with the given local name.
func (p *xmlParser) children(e *etree.Element, tag string) []*etree.Element {
	var out []*etree.Element
	for _, c := range e.ChildElements() {
		if c.Tag == tag && p.inModel(c) {
			out = append(out, c)
		}
	}
	return out
}

func (p *xmlParser) child(e *etree.Element, tag string) *etree.Element {
	for _, c := range e.ChildElements() {
		if c.Tag == tag && p.inModel(c) {
			return c
		}
	}
	return nil
}

func (p *xmlParser) inModel(e *etree.Element) bool {
	ns := e.NamespaceURI()
	return ns == p.ns || ns == ""
}

func attr(e *etree.Element, name string) string {
	for _, a := range e.Attr {
		if a.Key == name && (a.Space == "" || a.Space == e.Space && e.Space != "") {
			return a.Value
		}
	}
	return ""
}

// extensions returns e's attributes outside the model namespace.
func (p *xmlParser) extensions(e *etree.Element) Extensions {
	var out Extensions
	for _, a := range e.Attr {
		if a.Space == "" || a.Space == "xmlns" {
			continue // DMN's own attributes and namespace declarations
		}
		ns := a.NamespaceURI()
		if ns == p.ns || ns == "" {
			continue
		}
		out = append(out, xml.Attr{Name: xml.Name{Space: ns, Local: a.Key}, Value: a.Value})
	}
	return out
}

// textOf returns the content of the <text> child of e.
func (p *xmlParser) textOf(e *etree.Element) string {
	if e == nil {
		return ""
	}
	t := p.child(e, "text")
	if t == nil {
		return ""
	}
	return t.Text()
}

func (p *xmlParser) definitions(root *etree.Element) *Definitions {
	if root == nil {
		panic(&ParseError{Msg: "empty document"})
	}
	if root.Tag != "definitions" {
		p.fail(root, "root element must be definitions")
	}
	p.ns = root.NamespaceURI()
	v, ok := versions[p.ns]
	if !ok {
		p.fail(root, "unknown DMN namespace %q", p.ns)
	}
	d := &Definitions{
		ID: attr(root, "id"), Name: attr(root, "name"), Namespace: attr(root, "namespace"), Version: v,
		ExpressionLanguage: attr(root, "expressionLanguage"), TypeLanguage: attr(root, "typeLanguage"),
		Extensions: p.extensions(root), Pos: p.pos(root),
	}
	for _, c := range root.ChildElements() {
		if !p.inModel(c) {
			continue
		}
		switch c.Tag {
		case "import":
			d.Imports = append(d.Imports, &Import{Name: attr(c, "name"), Namespace: attr(c, "namespace"),
				LocationURI: attr(c, "locationURI"), ImportType: attr(c, "importType"), Pos: p.pos(c)})
		case "itemDefinition":
			d.ItemDefinitions = append(d.ItemDefinitions, p.itemDefinition(c))
		case "inputData":
			d.InputData = append(d.InputData, &InputData{ID: attr(c, "id"), Name: p.requireName(c), Variable: p.variable(c), Extensions: p.extensions(c), Pos: p.pos(c)})
		case "decision":
			d.Decisions = append(d.Decisions, p.decision(c))
		case "businessKnowledgeModel":
			d.BKMs = append(d.BKMs, p.bkm(c))
		case "decisionService":
			d.DecisionServices = append(d.DecisionServices, p.decisionService(c))
		case "knowledgeSource":
			d.KnowledgeSources = append(d.KnowledgeSources, &KnowledgeSource{ID: attr(c, "id"), Name: attr(c, "name"), Pos: p.pos(c)})
		}
	}
	return d
}

func (p *xmlParser) requireName(e *etree.Element) string {
	n := attr(e, "name")
	if strings.TrimSpace(n) == "" {
		p.fail(e, "missing name")
	}
	return n
}

func (p *xmlParser) variable(e *etree.Element) *InformationItem {
	v := p.child(e, "variable")
	if v == nil {
		return &InformationItem{Name: attr(e, "name")}
	}
	return p.infoItem(v)
}

func (p *xmlParser) infoItem(v *etree.Element) *InformationItem {
	tr := attr(v, "typeRef")
	if tr == "" {
		if t := p.child(v, "typeRef"); t != nil {
			tr = strings.TrimSpace(t.Text())
		}
	}
	return &InformationItem{ID: attr(v, "id"), Name: attr(v, "name"), TypeRef: tr}
}

func (p *xmlParser) itemDefinition(e *etree.Element) *ItemDefinition {
	it := &ItemDefinition{ID: attr(e, "id"), Name: attr(e, "name"), Label: attr(e, "label"), Pos: p.pos(e)}
	it.TypeRef = attr(e, "typeRef")
	if t := p.child(e, "typeRef"); t != nil {
		it.TypeRef = strings.TrimSpace(t.Text())
	}
	it.IsCollection = attr(e, "isCollection") == "true"
	if av := p.child(e, "allowedValues"); av != nil {
		it.AllowedValues = p.textOf(av)
	}
	if tc := p.child(e, "typeConstraint"); tc != nil {
		it.TypeConstraint = p.textOf(tc)
	}
	for _, c := range p.children(e, "itemComponent") {
		it.Components = append(it.Components, p.itemDefinition(c))
	}
	if fi := p.child(e, "functionItem"); fi != nil {
		f := &FunctionItem{OutputTypeRef: attr(fi, "outputTypeRef")}
		for _, prm := range p.children(fi, "parameters") {
			f.Parameters = append(f.Parameters, p.infoItem(prm))
		}
		it.Function = f
	}
	return it
}

func hrefs(p *xmlParser, e *etree.Element, reqTag, refTag string) []string {
	var out []string
	for _, r := range p.children(e, reqTag) {
		for _, c := range p.children(r, refTag) {
			out = append(out, attr(c, "href"))
		}
	}
	return out
}

func (p *xmlParser) decision(e *etree.Element) *Decision {
	d := &Decision{ID: attr(e, "id"), Name: p.requireName(e), Variable: p.variable(e), Extensions: p.extensions(e), Pos: p.pos(e)}
	d.RequiredDecisions = hrefs(p, e, "informationRequirement", "requiredDecision")
	d.RequiredInputs = hrefs(p, e, "informationRequirement", "requiredInput")
	d.RequiredKnowledge = hrefs(p, e, "knowledgeRequirement", "requiredKnowledge")
	d.Logic = p.findExpression(e)
	return d
}

func (p *xmlParser) bkm(e *etree.Element) *BKM {
	b := &BKM{ID: attr(e, "id"), Name: p.requireName(e), Variable: p.variable(e), Extensions: p.extensions(e), Pos: p.pos(e)}
	b.RequiredKnowledge = hrefs(p, e, "knowledgeRequirement", "requiredKnowledge")
	if el := p.child(e, "encapsulatedLogic"); el != nil {
		b.Logic = p.functionDefinition(el)
	}
	return b
}

func (p *xmlParser) decisionService(e *etree.Element) *DecisionService {
	ds := &DecisionService{ID: attr(e, "id"), Name: p.requireName(e), Variable: p.variable(e), Extensions: p.extensions(e), Pos: p.pos(e)}
	refs := func(tag string) []string {
		var out []string
		for _, c := range p.children(e, tag) {
			out = append(out, attr(c, "href"))
		}
		return out
	}
	ds.OutputDecisions = refs("outputDecision")
	ds.EncapsulatedDecisions = refs("encapsulatedDecision")
	ds.InputDecisions = refs("inputDecision")
	ds.InputData = refs("inputData")
	return ds
}

var expressionTags = map[string]bool{
	"literalExpression": true, "decisionTable": true, "context": true, "invocation": true, "list": true,
	"relation": true, "functionDefinition": true, "conditional": true, "for": true, "some": true, "every": true,
	"filter": true,
}

// findExpression returns the first boxed expression child of e, or nil.
func (p *xmlParser) findExpression(e *etree.Element) Expression {
	if e == nil {
		return nil
	}
	for _, c := range e.ChildElements() {
		if p.inModel(c) && expressionTags[c.Tag] {
			return p.expression(c)
		}
	}
	return nil
}

func (p *xmlParser) base(e *etree.Element) ExprBase {
	return ExprBase{ID: attr(e, "id"), TypeRef: attr(e, "typeRef"), Extensions: p.extensions(e), Pos: p.pos(e)}
}

func (p *xmlParser) expression(e *etree.Element) Expression {
	switch e.Tag {
	case "literalExpression":
		return &LiteralExpression{ExprBase: p.base(e), Text: p.textOf(e)}
	case "decisionTable":
		return p.decisionTable(e)
	case "context":
		c := &Context{ExprBase: p.base(e)}
		for _, ce := range p.children(e, "contextEntry") {
			entry := &ContextEntry{Value: p.findExpression(ce)}
			if v := p.child(ce, "variable"); v != nil {
				entry.Variable = p.infoItem(v)
			}
			c.Entries = append(c.Entries, entry)
		}
		return c
	case "invocation":
		inv := &Invocation{ExprBase: p.base(e), Called: p.findExpression(e)}
		for _, b := range p.children(e, "binding") {
			bd := &Binding{Value: p.findExpression(b)}
			if prm := p.child(b, "parameter"); prm != nil {
				bd.Parameter = p.infoItem(prm)
			} else {
				p.fail(b, "binding without parameter")
			}
			inv.Bindings = append(inv.Bindings, bd)
		}
		return inv
	case "list":
		l := &List{ExprBase: p.base(e)}
		for _, c := range e.ChildElements() {
			if p.inModel(c) && expressionTags[c.Tag] {
				l.Items = append(l.Items, p.expression(c))
			}
		}
		return l
	case "relation":
		r := &Relation{ExprBase: p.base(e)}
		for _, c := range p.children(e, "column") {
			r.Columns = append(r.Columns, p.infoItem(c))
		}
		for _, row := range p.children(e, "row") {
			var cells []Expression
			for _, c := range row.ChildElements() {
				if p.inModel(c) && expressionTags[c.Tag] {
					cells = append(cells, p.expression(c))
				}
			}
			r.Rows = append(r.Rows, cells)
		}
		return r
	case "functionDefinition":
		return p.functionDefinition(e)
	case "conditional":
		return &Conditional{ExprBase: p.base(e), If: p.findExpression(p.child(e, "if")),
			Then: p.findExpression(p.child(e, "then")), Else: p.findExpression(p.child(e, "else"))}
	case "for", "some", "every":
		it := &Iterator{ExprBase: p.base(e), Kind: e.Tag, Variable: attr(e, "iteratorVariable"), In: p.findExpression(p.child(e, "in"))}
		if e.Tag == "for" {
			it.Body = p.findExpression(p.child(e, "return"))
		} else {
			it.Body = p.findExpression(p.child(e, "satisfies"))
		}
		return it
	case "filter":
		return &Filter{ExprBase: p.base(e), In: p.findExpression(p.child(e, "in")), Match: p.findExpression(p.child(e, "match"))}
	}
	p.fail(e, "unsupported expression")
	return nil
}

func (p *xmlParser) functionDefinition(e *etree.Element) *FunctionDefinition {
	f := &FunctionDefinition{ExprBase: p.base(e), Kind: attr(e, "kind")}
	if f.Kind == "" {
		f.Kind = "FEEL"
	}
	for _, prm := range p.children(e, "formalParameter") {
		f.Parameters = append(f.Parameters, p.infoItem(prm))
	}
	f.Body = p.findExpression(e)
	return f
}

var hitPolicies = map[string]HitPolicy{
	"UNIQUE": HitUnique, "ANY": HitAny, "PRIORITY": HitPriority, "FIRST": HitFirst,
	"RULE ORDER": HitRuleOrder, "OUTPUT ORDER": HitOutputOrder, "COLLECT": HitCollect,
}

func (p *xmlParser) decisionTable(e *etree.Element) *DecisionTable {
	dt := &DecisionTable{ExprBase: p.base(e), OutputLabel: attr(e, "outputLabel")}
	hp := attr(e, "hitPolicy")
	if hp == "" {
		hp = "UNIQUE"
	}
	h, ok := hitPolicies[hp]
	if !ok {
		p.fail(e, "unknown hit policy %q", hp)
	}
	dt.HitPolicy = h
	dt.Aggregation = attr(e, "aggregation")
	switch dt.Aggregation {
	case "", "SUM", "COUNT", "MIN", "MAX":
	default:
		p.fail(e, "unknown aggregation %q", dt.Aggregation)
	}
	for _, in := range p.children(e, "input") {
		ic := &InputClause{ID: attr(in, "id"), Label: attr(in, "label"), Extensions: p.extensions(in), Pos: p.pos(in)}
		if ie := p.child(in, "inputExpression"); ie != nil {
			ic.Expression = p.textOf(ie)
			ic.TypeRef = attr(ie, "typeRef")
		} else {
			p.fail(in, "input without inputExpression")
		}
		if iv := p.child(in, "inputValues"); iv != nil {
			ic.InputValues = p.textOf(iv)
		}
		dt.Inputs = append(dt.Inputs, ic)
	}
	for _, out := range p.children(e, "output") {
		oc := &OutputClause{ID: attr(out, "id"), Name: attr(out, "name"), Label: attr(out, "label"), TypeRef: attr(out, "typeRef"), Extensions: p.extensions(out), Pos: p.pos(out)}
		if ov := p.child(out, "outputValues"); ov != nil {
			oc.OutputValues = p.textOf(ov)
		}
		if de := p.child(out, "defaultOutputEntry"); de != nil {
			oc.DefaultOutputEntry = p.textOf(de)
		}
		dt.Outputs = append(dt.Outputs, oc)
	}
	if len(dt.Outputs) == 0 {
		p.fail(e, "decision table without output")
	}
	for _, r := range p.children(e, "rule") {
		rule := &Rule{ID: attr(r, "id"), Extensions: p.extensions(r), Pos: p.pos(r)}
		for _, ie := range p.children(r, "inputEntry") {
			rule.InputEntries = append(rule.InputEntries, p.textOf(ie))
		}
		for _, oe := range p.children(r, "outputEntry") {
			rule.OutputEntries = append(rule.OutputEntries, p.textOf(oe))
		}
		for _, an := range p.children(r, "annotationEntry") {
			rule.Annotations = append(rule.Annotations, p.textOf(an))
		}
		if len(rule.InputEntries) != len(dt.Inputs) {
			p.fail(r, "rule has %d input entries, the table has %d inputs", len(rule.InputEntries), len(dt.Inputs))
		}
		if len(rule.OutputEntries) != len(dt.Outputs) {
			p.fail(r, "rule has %d output entries, the table has %d outputs", len(rule.OutputEntries), len(dt.Outputs))
		}
		dt.Rules = append(dt.Rules, rule)
	}
	return dt
}
