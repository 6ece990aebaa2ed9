package graph

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// RDF/XML (RDF 1.1 XML Syntax) is read with encoding/xml, streaming: each
// triple is emitted as soon as its element is read.

const (
	xmlNS         = "http://www.w3.org/XML/1998/namespace"
	rdfXMLLiteral = RDF + "XMLLiteral"
)

type rxContext struct {
	base, lang string
}

type rxParser struct {
	dec      *xml.Decoder
	emitFn   func(Quad) error
	blanks   *blankLabels
	graph    Term
	ids      map[string]bool // rdf:ID values used, per base-resolved IRI
	prefixes *Prefixes       // receives the root element's namespace declarations
	depth    int
	// namespace prefixes in scope, for XML literals: one frame per element
	nsStack []map[string]string
}

func parseRDFXML(r io.Reader, opt ParseOptions, emit func(Quad) error) (err error) {
	p := &rxParser{
		dec:      xml.NewDecoder(r),
		emitFn:   emit,
		blanks:   newBlankLabels(opt.BlankScope),
		graph:    opt.Graph,
		ids:      map[string]bool{},
		prefixes: opt.Prefixes,
	}
	p.dec.Strict = true
	defer recoverBail(&err)
	p.document(rxContext{base: opt.Base})
	return nil
}

func (p *rxParser) fail(format string, args ...any) {
	line, col := p.dec.InputPos()
	panic(bail{&ParseError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}})
}

// token returns the next XML token, failing on XML errors and at the end
// of input.
func (p *rxParser) token() xml.Token { return p.tokenOr("unexpected end of input") }

func (p *rxParser) tokenOr(eofMsg string) xml.Token {
	tok, err := p.dec.Token()
	if err == io.EOF {
		p.fail("%s", eofMsg)
	}
	if err != nil {
		p.xmlError(err)
	}
	switch t := tok.(type) {
	case xml.StartElement:
		p.nsStack = append(p.nsStack, nsFrame(t))
	case xml.EndElement:
		p.nsStack = p.nsStack[:len(p.nsStack)-1]
	}
	return tok
}

func (p *rxParser) xmlError(err error) {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		_, col := p.dec.InputPos()
		panic(bail{&ParseError{Line: se.Line, Column: col, Msg: "XML: " + se.Msg}})
	}
	panic(bail{err})
}

func (p *rxParser) emit(s, pr, o Term) {
	if err := p.emitFn(Quad{s, pr, o, p.graph}); err != nil {
		panic(bail{err})
	}
}

func isSpace(s string) bool {
	return strings.TrimLeft(s, " \t\r\n") == ""
}

func (p *rxParser) document(ctx rxContext) {
	for {
		switch t := p.tokenOr("expected an RDF/XML element, found end of input").(type) {
		case xml.StartElement:
			if p.prefixes != nil {
				frame := p.nsStack[len(p.nsStack)-1]
				names := make([]string, 0, len(frame))
				for n := range frame {
					names = append(names, n)
				}
				slices.Sort(names)
				for _, n := range names {
					if n != "" && validPrefixName(n) {
						p.prefixes.Set(n, frame[n])
					}
				}
			}
			if t.Name.Space == RDF && t.Name.Local == "RDF" {
				p.rdfRoot(t, ctx)
			} else {
				p.nodeElement(t, ctx)
			}
			p.trailer()
			return
		case xml.CharData:
			if !isSpace(string(t)) {
				p.fail("expected an RDF/XML element, found text")
			}
		}
	}
}

func nsFrame(t xml.StartElement) map[string]string {
	frame := map[string]string{}
	for _, a := range t.Attr {
		switch {
		case a.Name.Space == "xmlns":
			frame[a.Name.Local] = a.Value
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			frame[""] = a.Value
		}
	}
	return frame
}

// trailer checks that nothing but white space, comments and processing
// instructions follows the root element.
func (p *rxParser) trailer() {
	for {
		tok, err := p.dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			p.xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			p.fail("unexpected element %s after the document element", t.Name.Local)
		case xml.CharData:
			if !isSpace(string(t)) {
				p.fail("unexpected text after the document element")
			}
		}
	}
}

// scope applies xml:base and xml:lang.
func (p *rxParser) scope(t xml.StartElement, ctx rxContext) rxContext {
	for _, a := range t.Attr {
		if a.Name.Space == xmlNS {
			switch a.Name.Local {
			case "base":
				ctx.base = ResolveIRI(ctx.base, a.Value)
				if i := strings.IndexByte(ctx.base, '#'); i >= 0 {
					ctx.base = ctx.base[:i]
				}
			case "lang":
				if a.Value != "" && !validLangTag(a.Value) {
					p.fail("xml:lang %q is not a well-formed language tag", a.Value)
				}
				ctx.lang = a.Value
			}
		}
	}
	return ctx
}

func (p *rxParser) rdfRoot(t xml.StartElement, ctx rxContext) {
	ctx = p.scope(t, ctx)
	for _, a := range t.Attr {
		if !ignorableAttr(a) {
			p.fail("unexpected attribute %s on rdf:RDF", attrName(a))
		}
	}
	for {
		switch t := p.token().(type) {
		case xml.StartElement:
			p.nodeElement(t, ctx)
		case xml.EndElement:
			return
		case xml.CharData:
			if !isSpace(string(t)) {
				p.fail("expected a node element, found text")
			}
		}
	}
}

// ignorableAttr reports whether a is a namespace declaration or an xml:
// attribute (xml:base and xml:lang are applied by scope).
func ignorableAttr(a xml.Attr) bool {
	return a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" ||
		a.Name.Space == xmlNS || strings.HasPrefix(strings.ToLower(a.Name.Local), "xml") && a.Name.Space == ""
}

func attrName(a xml.Attr) string {
	if a.Name.Space == RDF {
		return "rdf:" + a.Name.Local
	}
	return a.Name.Space + a.Name.Local
}

// rdfAttr returns the local name when a is in the rdf: namespace (or is
// one of the unqualified names RDF/XML accepts as such).
func rdfAttr(a xml.Attr) (string, bool) {
	if a.Name.Space == RDF {
		return a.Name.Local, true
	}
	if a.Name.Space == "" {
		switch a.Name.Local {
		case "about", "ID", "resource", "parseType", "type", "nodeID", "datatype":
			return a.Name.Local, true
		}
	}
	return "", false
}

var (
	coreSyntaxTerms = map[string]bool{"RDF": true, "ID": true, "about": true, "parseType": true,
		"resource": true, "nodeID": true, "datatype": true}
	oldTerms = map[string]bool{"aboutEach": true, "aboutEachPrefix": true, "bagID": true}
)

func (p *rxParser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.fail("elements nested deeper than %d levels", maxNesting)
	}
}

// resolve resolves ref against the base in scope.
func (p *rxParser) resolve(ctx rxContext, ref string) Term {
	iri := ResolveIRI(ctx.base, ref)
	if !iriCharsValid(iri) {
		p.fail("%q is not a valid IRI", ref)
	}
	return IRI(iri)
}

// nameIRI returns the IRI an element or attribute name stands for.
func (p *rxParser) nameIRI(n xml.Name) Term {
	if n.Space == "" {
		p.fail("%s has no namespace", n.Local)
	}
	declared := false
	for _, frame := range p.nsStack {
		for _, ns := range frame {
			if ns == n.Space {
				declared = true
			}
		}
	}
	if !declared {
		// encoding/xml leaves an undeclared prefix in Space.
		p.fail("namespace prefix %q is not declared", n.Space)
	}
	iri := n.Space + n.Local
	if !IsAbsoluteIRI(iri) || !iriCharsValid(iri) {
		p.fail("namespace %q and name %q do not make an absolute IRI", n.Space, n.Local)
	}
	return IRI(iri)
}

func (p *rxParser) idIRI(ctx rxContext, id string) Term {
	if !isNCName(id) {
		p.fail("rdf:ID %q is not an XML name", id)
	}
	iri := ResolveIRI(ctx.base, "#"+id)
	if p.ids[iri] {
		p.fail("rdf:ID %q used twice", id)
	}
	p.ids[iri] = true
	return IRI(iri)
}

func (p *rxParser) nodeID(id string) Term {
	if !isNCName(id) {
		p.fail("rdf:nodeID %q is not an XML name", id)
	}
	return p.blanks.labelled([]byte(id))
}

// nodeElement parses a node element (its start tag already read) and
// returns its subject.
func (p *rxParser) nodeElement(t xml.StartElement, ctx rxContext) Term {
	p.enter()
	defer func() { p.depth-- }()
	ctx = p.scope(t, ctx)
	if t.Name.Space == "" {
		p.fail("element %s has no namespace", t.Name.Local)
	}
	if t.Name.Space == RDF && (coreSyntaxTerms[t.Name.Local] || oldTerms[t.Name.Local] || t.Name.Local == "li") {
		p.fail("rdf:%s is not allowed as a node element", t.Name.Local)
	}
	var subj Term
	set := 0
	for _, a := range t.Attr {
		name, ok := rdfAttr(a)
		if !ok {
			continue
		}
		switch name {
		case "ID":
			subj = p.idIRI(ctx, a.Value)
			set++
		case "nodeID":
			subj = p.nodeID(a.Value)
			set++
		case "about":
			subj = p.resolve(ctx, a.Value)
			set++
		}
	}
	if set > 1 {
		p.fail("a node element may have only one of rdf:ID, rdf:nodeID and rdf:about")
	}
	if set == 0 {
		subj = p.blanks.fresh()
	}
	if !(t.Name.Space == RDF && t.Name.Local == "Description") {
		p.emit(subj, IRI(RDFType), p.nameIRI(t.Name))
	}
	for _, a := range t.Attr {
		if ignorableAttr(a) {
			continue
		}
		name, isRDF := rdfAttr(a)
		switch {
		case isRDF && (name == "ID" || name == "nodeID" || name == "about"):
		case isRDF && name == "type":
			p.emit(subj, IRI(RDFType), p.resolve(ctx, a.Value))
		case isRDF && (coreSyntaxTerms[name] || oldTerms[name] || name == "li" || name == "Description"):
			p.fail("rdf:%s is not allowed on a node element", name)
		case a.Name.Space == "":
			p.fail("attribute %s has no namespace", a.Name.Local)
		default:
			p.emit(subj, p.nameIRI(a.Name), LangLiteral(a.Value, ctx.lang))
		}
	}
	li := 1
	for {
		switch c := p.token().(type) {
		case xml.StartElement:
			p.propertyElement(c, subj, ctx, &li)
		case xml.EndElement:
			return subj
		case xml.CharData:
			if !isSpace(string(c)) {
				p.fail("expected a property element, found text %q", truncate(string(c)))
			}
		}
	}
}

func truncate(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 30 {
		r := []rune(s)
		return string(r[:27]) + "..."
	}
	return s
}

// propertyElement parses a property element of subject s.
func (p *rxParser) propertyElement(t xml.StartElement, s Term, ctx rxContext, li *int) {
	p.enter()
	defer func() { p.depth-- }()
	ctx = p.scope(t, ctx)
	pred := p.propertyPredicate(t, li)
	a := p.propertyAttrs(t)
	if a.parseType != nil {
		if a.datatype != nil || a.resource != nil || a.nodeID != nil || len(a.props) > 0 {
			p.fail("rdf:parseType cannot be combined with rdf:datatype, rdf:resource, rdf:nodeID or property attributes")
		}
		switch *a.parseType {
		case "Resource":
			n := p.blanks.fresh()
			p.emit(s, pred, n)
			p.reify(ctx, a.id, s, pred, n)
			p.resourceContent(n, ctx)
		case "Collection":
			head := p.collection(ctx, s, pred)
			p.reify(ctx, a.id, s, pred, head)
		default: // "Literal" and any other value
			lit := Literal(p.xmlLiteral(), rdfXMLLiteral)
			p.emit(s, pred, lit)
			p.reify(ctx, a.id, s, pred, lit)
		}
		return
	}
	obj, text, hasNode := p.propertyContent(ctx, a)
	switch {
	case hasNode:
	case text != "" || a.datatype != nil || a.resource == nil && a.nodeID == nil && len(a.props) == 0:
		if a.resource != nil || a.nodeID != nil || len(a.props) > 0 {
			p.fail("a property element with text cannot have rdf:resource, rdf:nodeID or property attributes")
		}
		if a.datatype != nil {
			obj = Literal(text, p.resolve(ctx, *a.datatype).Value)
		} else {
			obj = LangLiteral(text, ctx.lang)
		}
	default:
		obj = p.emptyPropertyObject(ctx, a)
	}
	p.emit(s, pred, obj)
	p.reify(ctx, a.id, s, pred, obj)
}

// propertyPredicate is the predicate a property element names; rdf:li
// takes the next member number.
func (p *rxParser) propertyPredicate(t xml.StartElement, li *int) Term {
	if t.Name.Space == "" {
		p.fail("element %s has no namespace", t.Name.Local)
	}
	pred := p.nameIRI(t.Name)
	if t.Name.Space == RDF {
		switch {
		case t.Name.Local == "li":
			pred = IRI(RDF + "_" + strconv.Itoa(*li))
			*li++
		case coreSyntaxTerms[t.Name.Local] || oldTerms[t.Name.Local] || t.Name.Local == "Description":
			p.fail("rdf:%s is not allowed as a property element", t.Name.Local)
		}
	}
	return pred
}

// propAttrs are the attributes of a property element; nil when absent.
type propAttrs struct {
	id, datatype, parseType, resource, nodeID *string
	props                                     []xml.Attr // property attributes and rdf:type
}

func (p *rxParser) propertyAttrs(t xml.StartElement) propAttrs {
	var pa propAttrs
	for _, a := range t.Attr {
		if ignorableAttr(a) {
			continue
		}
		name, isRDF := rdfAttr(a)
		v := a.Value
		switch {
		case isRDF && name == "ID":
			pa.id = &v
		case isRDF && name == "datatype":
			pa.datatype = &v
		case isRDF && name == "parseType":
			pa.parseType = &v
		case isRDF && name == "resource":
			pa.resource = &v
		case isRDF && name == "nodeID":
			pa.nodeID = &v
		case isRDF && name == "type":
			pa.props = append(pa.props, a)
		case isRDF && (coreSyntaxTerms[name] || oldTerms[name] || name == "li" || name == "Description"):
			p.fail("rdf:%s is not allowed on a property element", name)
		case a.Name.Space == "":
			p.fail("attribute %s has no namespace", a.Name.Local)
		default:
			pa.props = append(pa.props, a)
		}
	}
	return pa
}

// reify states the triple (s, pred, o) as the rdf:Statement named by the
// property element's rdf:ID, when it has one.
func (p *rxParser) reify(ctx rxContext, id *string, s, pred, o Term) {
	if id == nil {
		return
	}
	st := p.idIRI(ctx, *id)
	p.emit(st, IRI(RDFType), IRI(RDF+"Statement"))
	p.emit(st, IRI(RDF+"subject"), s)
	p.emit(st, IRI(RDF+"predicate"), pred)
	p.emit(st, IRI(RDF+"object"), o)
}

// resourceContent parses the property elements of rdf:parseType="Resource"
// about the blank node n.
func (p *rxParser) resourceContent(n Term, ctx rxContext) {
	nli := 1
	for {
		switch c := p.token().(type) {
		case xml.StartElement:
			p.propertyElement(c, n, ctx, &nli)
		case xml.EndElement:
			return
		case xml.CharData:
			if !isSpace(string(c)) {
				p.fail("expected a property element, found text %q", truncate(string(c)))
			}
		}
	}
}

// collection parses the node elements of rdf:parseType="Collection",
// emits (s, pred, the list) and the list, and returns the list's head.
func (p *rxParser) collection(ctx rxContext, s, pred Term) Term {
	var items []Term
	for done := false; !done; {
		switch c := p.token().(type) {
		case xml.StartElement:
			items = append(items, p.nodeElement(c, ctx))
		case xml.EndElement:
			done = true
		case xml.CharData:
			if !isSpace(string(c)) {
				p.fail("expected a node element in the collection, found text %q", truncate(string(c)))
			}
		}
	}
	head := IRI(RDFNil)
	nodes := make([]Term, len(items))
	for i := range items {
		nodes[i] = p.blanks.fresh()
	}
	if len(nodes) > 0 {
		head = nodes[0]
	}
	p.emit(s, pred, head)
	for i, it := range items {
		p.emit(nodes[i], IRI(RDFFirst), it)
		next := IRI(RDFNil)
		if i+1 < len(nodes) {
			next = nodes[i+1]
		}
		p.emit(nodes[i], IRI(RDFRest), next)
	}
	return head
}

// propertyContent reads the content of a property element: text, or one
// node element (then obj is it and hasNode true).
func (p *rxParser) propertyContent(ctx rxContext, a propAttrs) (obj Term, text string, hasNode bool) {
	var b strings.Builder
	for {
		switch c := p.token().(type) {
		case xml.StartElement:
			if hasNode {
				p.fail("a property element may contain only one node element")
			}
			if !isSpace(b.String()) {
				p.fail("a property element cannot mix text and elements")
			}
			if a.datatype != nil || a.resource != nil || a.nodeID != nil || len(a.props) > 0 {
				p.fail("a property element with a node element cannot have rdf:datatype, rdf:resource, rdf:nodeID or property attributes")
			}
			obj = p.nodeElement(c, ctx)
			hasNode = true
		case xml.CharData:
			if hasNode && !isSpace(string(c)) {
				p.fail("a property element cannot mix text and elements")
			}
			b.Write(c)
		case xml.EndElement:
			return obj, b.String(), hasNode
		}
	}
}

// emptyPropertyObject is the object of an empty property element: its
// rdf:resource, rdf:nodeID or a fresh blank node, described by its
// property attributes.
func (p *rxParser) emptyPropertyObject(ctx rxContext, a propAttrs) Term {
	var obj Term
	switch {
	case a.resource != nil && a.nodeID != nil:
		p.fail("a property element may not have both rdf:resource and rdf:nodeID")
	case a.resource != nil:
		obj = p.resolve(ctx, *a.resource)
	case a.nodeID != nil:
		obj = p.nodeID(*a.nodeID)
	default:
		obj = p.blanks.fresh()
	}
	for _, at := range a.props {
		if name, isRDF := rdfAttr(at); isRDF && name == "type" {
			p.emit(obj, IRI(RDFType), p.resolve(ctx, at.Value))
			continue
		}
		p.emit(obj, p.nameIRI(at.Name), LangLiteral(at.Value, ctx.lang))
	}
	return obj
}

// xmlLiteral reads the content of a parseType="Literal" element and
// returns it in exclusive canonical XML form: namespaces declared where
// they are first used, attributes sorted, empty elements written out.
func (p *rxParser) xmlLiteral() string {
	var b strings.Builder
	// declared[i]: prefix -> namespace declared at output depth i;
	// names[i]: the element's qualified name there
	var declared []map[string]string
	var names []string
	lookup := func(prefix string) (string, bool) {
		for i := len(declared) - 1; i >= 0; i-- {
			if ns, ok := declared[i][prefix]; ok {
				return ns, true
			}
		}
		return "", false
	}
	// prefixFor finds the prefix bound to ns in the source document.
	prefixFor := func(ns string) string {
		for i := len(p.nsStack) - 1; i >= 0; i-- {
			for pfx, v := range p.nsStack[i] {
				if v == ns {
					return pfx
				}
			}
		}
		return "ns"
	}
	for depth := 0; ; {
		switch t := p.token().(type) {
		case xml.StartElement:
			depth++
			frame := map[string]string{}
			type nsDecl struct{ prefix, ns string }
			var decls []nsDecl
			qname := func(n xml.Name, isAttr bool) string {
				if n.Space == "" {
					if !isAttr {
						if ns, ok := lookup(""); ok && ns != "" {
							decls = append(decls, nsDecl{"", ""})
							frame[""] = ""
						}
					}
					return n.Local
				}
				pfx := prefixFor(n.Space)
				if isAttr && pfx == "" {
					pfx = "ns"
				}
				if ns, ok := frame[pfx]; ok && ns == n.Space {
					return qualify(pfx, n.Local)
				}
				if _, ok := frame[pfx]; !ok {
					if ns, ok := lookup(pfx); !ok || ns != n.Space {
						decls = append(decls, nsDecl{pfx, n.Space})
						frame[pfx] = n.Space
					}
				}
				return qualify(pfx, n.Local)
			}
			name := qname(t.Name, false)
			type attr struct{ ns, local, qname, value string }
			var attrs []attr
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				qn := a.Name.Local
				if a.Name.Space == xmlNS {
					qn = "xml:" + a.Name.Local
				} else if a.Name.Space != "" {
					qn = qname(a.Name, true)
				}
				attrs = append(attrs, attr{a.Name.Space, a.Name.Local, qn, a.Value})
			}
			declared = append(declared, frame)
			names = append(names, name)
			slices.SortFunc(decls, func(x, y nsDecl) int { return strings.Compare(x.prefix, y.prefix) })
			slices.SortFunc(attrs, func(x, y attr) int {
				if c := strings.Compare(x.ns, y.ns); c != 0 {
					return c
				}
				return strings.Compare(x.local, y.local)
			})
			b.WriteByte('<')
			b.WriteString(name)
			for _, d := range decls {
				if d.prefix == "" {
					b.WriteString(` xmlns="`)
				} else {
					b.WriteString(` xmlns:` + d.prefix + `="`)
				}
				writeC14N(&b, d.ns, true)
				b.WriteByte('"')
			}
			for _, a := range attrs {
				b.WriteString(" " + a.qname + `="`)
				writeC14N(&b, a.value, true)
				b.WriteByte('"')
			}
			b.WriteByte('>')
		case xml.EndElement:
			if depth == 0 {
				return b.String()
			}
			depth--
			b.WriteString("</" + names[len(names)-1] + ">")
			declared = declared[:len(declared)-1]
			names = names[:len(names)-1]
		case xml.CharData:
			writeC14N(&b, string(t), false)
		case xml.Comment:
			// Comments are dropped, as in canonical XML without comments.
		case xml.ProcInst:
			b.WriteString("<?" + t.Target)
			if len(t.Inst) > 0 {
				b.WriteString(" " + string(t.Inst))
			}
			b.WriteString("?>")
		}
	}
}

func qualify(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// writeC14N escapes s as canonical XML does in text or (attr) attribute
// values.
func writeC14N(b *strings.Builder, s string, attr bool) {
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>' && !attr:
			b.WriteString("&gt;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case r == '\t' && attr:
			b.WriteString("&#x9;")
		case r == '\n' && attr:
			b.WriteString("&#xA;")
		case r == '\r':
			b.WriteString("&#xD;")
		default:
			b.WriteRune(r)
		}
	}
}

// isNCName reports whether s is an XML NCName (a name without colons).
func isNCName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if i == 0 {
			if !isNameStart(r) {
				return false
			}
			continue
		}
		if !isNameChar(r) {
			return false
		}
	}
	return true
}

func isNameStart(r rune) bool {
	return r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' ||
		r >= 0xC0 && r <= 0xD6 || r >= 0xD8 && r <= 0xF6 || r >= 0xF8 && r <= 0x2FF ||
		r >= 0x370 && r <= 0x37D || r >= 0x37F && r <= 0x1FFF || r >= 0x200C && r <= 0x200D ||
		r >= 0x2070 && r <= 0x218F || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF ||
		r >= 0xF900 && r <= 0xFDCF || r >= 0xFDF0 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF
}

func isNameChar(r rune) bool {
	return isNameStart(r) || r == '-' || r == '.' || r >= '0' && r <= '9' || r == 0xB7 ||
		r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// isXMLChar reports whether r may appear in an XML 1.0 document.
func isXMLChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
