package validate

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/ianaindex"
)

// Bounds on the input. A DMN model nests a handful of levels deep; the depth
// bound stops stack-exhausting input long before it matters, the size bound
// is the specification's request limit for DMN validation.
const (
	MaxDocumentBytes = 10 << 20
	MaxDepth         = 256
)

// element is one XML element with the position of its start tag. The tree is
// built by this package's own pass over encoding/xml's raw tokens because
// etree keeps no positions and every issue points at a line and column.
type element struct {
	space, local string // resolved namespace IRI and local name
	prefix       string // the prefix as written (for messages)
	attrs        []attr
	children     []*element
	parent       *element
	text         string // character data of <text> elements only
	textBuf      []byte // text while the element is open
	line, col    int
	ns           map[string]string // namespace declarations made on this element (prefix → IRI); nil if none
}

type attr struct {
	space, local string // resolved namespace IRI ("" for unprefixed attributes) and local name
	value        string
}

// attr returns the value of the unprefixed attribute name and whether it is present.
func (e *element) attr(name string) (string, bool) {
	for _, a := range e.attrs {
		if a.space == "" && a.local == name {
			return a.value, true
		}
	}
	return "", false
}

// attrNS returns the value of attribute {space}name.
func (e *element) attrNS(space, name string) (string, bool) {
	for _, a := range e.attrs {
		if a.space == space && a.local == name {
			return a.value, true
		}
	}
	return "", false
}

// lookupPrefix resolves a namespace prefix in scope at e ("" is the default namespace).
func (e *element) lookupPrefix(prefix string) (string, bool) {
	for x := e; x != nil; x = x.parent {
		if iri, ok := x.ns[prefix]; ok {
			return iri, true
		}
	}
	switch prefix {
	case "xml":
		return xmlNamespace, true
	case "":
		return "", true
	}
	return "", false
}

const (
	xmlNamespace   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
)

// parseError is a well-formedness or safety failure at a position.
type parseError struct {
	line, col int
	msg       string
}

func (e *parseError) Error() string {
	if e.line == 0 {
		return e.msg
	}
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

// parseTree reads a whole document into an element tree. It refuses DTDs
// (so no entity is ever declared or expanded; encoding/xml resolves only the
// five predefined entities and character references), nesting beyond
// MaxDepth, documents over MaxDocumentBytes, duplicate attributes, unbound
// namespace prefixes and anything but one root element.
func parseTree(src []byte) (*element, *parseError) {
	if len(src) > MaxDocumentBytes {
		return nil, &parseError{msg: fmt.Sprintf("document is %d bytes, more than the limit of %d MB", len(src), MaxDocumentBytes>>20)}
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, &parseError{line: 1, col: 1, msg: "document is empty"}
	}
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	d.CharsetReader = charsetReader
	b := treeBuilder{d: d}
	return b.run()
}

// charsetReader converts the encodings IANA names (ISO-8859-1, windows-1252,
// UTF-16, …) to UTF-8.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	enc, err := ianaindex.IANA.Encoding(label)
	if err != nil || enc == nil {
		return nil, fmt.Errorf("unsupported encoding %s", quoted(label, maxIDExcerpt))
	}
	return enc.NewDecoder().Reader(input), nil
}

type treeBuilder struct {
	d     *xml.Decoder
	root  *element
	cur   *element // innermost open element
	depth int
	// names of the open elements as written (prefix:local), for end-tag matching
	open []xml.Name
}

func (b *treeBuilder) fail(line, col int, format string, args ...any) *parseError {
	// encoding/xml reports column 0 after stepping back over a newline.
	col = max(col, 1)
	// The message may quote names from the input: bounded like any message.
	return &parseError{line: line, col: col, msg: clipBytes(fmt.Sprintf(format, args...), maxMessageBytes)}
}

func (b *treeBuilder) run() (*element, *parseError) {
	for {
		line, col := b.d.InputPos()
		tok, err := b.d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, b.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if perr := b.start(t, line, col); perr != nil {
				return nil, perr
			}
		case xml.EndElement:
			if perr := b.end(t, line, col); perr != nil {
				return nil, perr
			}
		case xml.CharData:
			if b.cur == nil {
				if len(bytes.TrimSpace(t)) != 0 {
					return nil, b.fail(line, col, "text outside the root element")
				}
				continue
			}
			if b.cur.local == "text" {
				b.cur.textBuf = append(b.cur.textBuf, t...)
			}
		case xml.Directive:
			return nil, b.fail(line, col, "DOCTYPE and other <!...> declarations are not allowed (no DTD or entity is processed)")
		case xml.ProcInst, xml.Comment:
		}
	}
	if b.cur != nil {
		line, col := b.d.InputPos()
		return nil, b.fail(line, col, "unexpected end of document: element <%s> (line %d, column %d) is not closed",
			qname(b.open[len(b.open)-1]), b.cur.line, b.cur.col)
	}
	if b.root == nil {
		line, col := b.d.InputPos()
		return nil, b.fail(line, col, "document has no root element")
	}
	return b.root, nil
}

func (b *treeBuilder) syntaxError(err error) *parseError {
	line, col := b.d.InputPos()
	var syn *xml.SyntaxError
	if errors.As(err, &syn) {
		return b.fail(line, col, "%s", syn.Msg)
	}
	return b.fail(line, col, "%s", strings.TrimPrefix(err.Error(), "xml: "))
}

func (b *treeBuilder) start(t xml.StartElement, line, col int) *parseError {
	if b.cur == nil && b.root != nil {
		return b.fail(line, col, "second root element <%s>: a document has exactly one root element", qname(t.Name))
	}
	if b.depth >= MaxDepth {
		return b.fail(line, col, "elements nest more than %d levels deep", MaxDepth)
	}
	e := &element{local: t.Name.Local, prefix: t.Name.Space, parent: b.cur, line: line, col: col}
	// Namespace declarations first: they apply to the element's own name and attributes.
	for _, a := range t.Attr {
		switch {
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			e.declare("", a.Value)
		case a.Name.Space == "xmlns":
			if a.Value == "" {
				return b.fail(line, col, "namespace prefix %q is bound to an empty IRI", a.Name.Local)
			}
			e.declare(a.Name.Local, a.Value)
		}
	}
	if err := checkName(t.Name); err != "" {
		return b.fail(line, col, "%s", err)
	}
	iri, ok := e.lookupPrefix(t.Name.Space)
	if !ok {
		return b.fail(line, col, "namespace prefix %q of element <%s> is not declared", t.Name.Space, qname(t.Name))
	}
	e.space = iri
	e.attrs = make([]attr, 0, len(t.Attr))
	var seen map[xml.Name]bool
	if len(t.Attr) > 8 {
		seen = make(map[xml.Name]bool, len(t.Attr))
	}
	for i, a := range t.Attr {
		if err := checkName(a.Name); err != "" {
			return b.fail(line, col, "%s", err)
		}
		if seen != nil {
			if seen[a.Name] {
				return b.fail(line, col, "attribute %s appears twice on <%s>", qname(a.Name), qname(t.Name))
			}
			seen[a.Name] = true
		} else {
			for _, prev := range t.Attr[:i] {
				if prev.Name == a.Name {
					return b.fail(line, col, "attribute %s appears twice on <%s>", qname(a.Name), qname(t.Name))
				}
			}
		}
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue
		}
		space := ""
		if a.Name.Space != "" {
			iri, ok := e.lookupPrefix(a.Name.Space)
			if !ok {
				return b.fail(line, col, "namespace prefix %q of attribute %s is not declared", a.Name.Space, qname(a.Name))
			}
			space = iri
		}
		e.attrs = append(e.attrs, attr{space: space, local: a.Name.Local, value: a.Value})
	}
	if b.cur == nil {
		b.root = e
	} else {
		b.cur.children = append(b.cur.children, e)
	}
	b.cur = e
	b.depth++
	b.open = append(b.open, t.Name)
	return nil
}

func (e *element) declare(prefix, iri string) {
	if e.ns == nil {
		e.ns = map[string]string{}
	}
	e.ns[prefix] = iri
}

// checkName rejects names encoding/xml lets through in raw mode but XML
// namespaces forbid, such as "a:b:c" (the decoder splits at the first colon).
func checkName(n xml.Name) string {
	if n.Local == "" || strings.Contains(n.Local, ":") {
		return fmt.Sprintf("malformed name %q", qname(n))
	}
	if !utf8.ValidString(n.Local) {
		return "name is not valid UTF-8"
	}
	return ""
}

func (b *treeBuilder) end(t xml.EndElement, line, col int) *parseError {
	if b.cur == nil {
		return b.fail(line, col, "unexpected end tag </%s>", qname(t.Name))
	}
	want := b.open[len(b.open)-1]
	if t.Name != want {
		return b.fail(line, col, "element <%s> (line %d, column %d) closed by </%s>", qname(want), b.cur.line, b.cur.col, qname(t.Name))
	}
	b.open = b.open[:len(b.open)-1]
	if b.cur.textBuf != nil {
		b.cur.text, b.cur.textBuf = string(b.cur.textBuf), nil
	}
	b.cur = b.cur.parent
	b.depth--
	return nil
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}
