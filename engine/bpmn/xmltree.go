package bpmn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// xnode is one XML element with its position, read in one pass of
// encoding/xml so that every model error can name a line and column.
type xnode struct {
	name      xml.Name
	attrs     []xml.Attr
	line, col int
	kids      []*xnode
	text      strings.Builder
}

func (n *xnode) attr(space, local string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value, true
		}
	}
	return "", false
}

// readTree reads data into a tree, iteratively, refusing documents deeper
// than maxDepth elements or with more than maxElements elements.
func readTree(data []byte, o ParseOptions) (*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var root *xnode
	var stack []*xnode
	count := 0
	for {
		line, col := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			msg := err.Error()
			if errors.As(err, &se) {
				msg = se.Msg
				line, col = se.Line, 0
			}
			return nil, &ParseError{Resource: o.Resource, Line: line, Column: col, Msg: "malformed XML: " + excerpt(msg, 300)}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			count++
			if count > o.MaxElements {
				return nil, &ParseError{Resource: o.Resource, Line: line, Column: col, Msg: fmt.Sprintf("more than %d elements", o.MaxElements)}
			}
			if len(stack) >= o.MaxDepth {
				return nil, &ParseError{Resource: o.Resource, Line: line, Column: col, Msg: fmt.Sprintf("elements nested deeper than %d", o.MaxDepth)}
			}
			n := &xnode{name: t.Name, attrs: t.Attr, line: line, col: col}
			if len(stack) == 0 {
				if root != nil {
					return nil, &ParseError{Resource: o.Resource, Line: line, Column: col, Msg: "more than one root element"}
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		case xml.Directive:
			return nil, &ParseError{Resource: o.Resource, Line: line, Column: col, Msg: "DOCTYPE and other directives are not allowed"}
		}
	}
	if root == nil {
		return nil, &ParseError{Resource: o.Resource, Line: 1, Msg: "no root element"}
	}
	return root, nil
}
