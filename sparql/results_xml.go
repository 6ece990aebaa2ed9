package sparql

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

const resultsNS = "http://www.w3.org/2005/sparql-results#"

// WriteXML writes r in the SPARQL Query Results XML Format.
func WriteXML(w io.Writer, r *Results) error {
	bw := bufio.NewWriter(w)
	vars := r.varsOf()
	writeXMLHead(bw, vars, r.Link, r.Boolean == nil)
	if r.Boolean != nil {
		fmt.Fprintf(bw, "<boolean>%t</boolean>\n</sparql>\n", *r.Boolean)
		return bw.Flush()
	}
	bw.WriteString("<results>\n")
	row := make([]graph.Term, len(vars))
	for _, s := range r.Solutions {
		writeXMLRow(bw, vars, solutionRow(row, vars, s))
	}
	bw.WriteString("</results>\n</sparql>\n")
	return bw.Flush()
}

// writeXMLHead writes the document's start through </head>; variables
// only for a SELECT result.
func writeXMLHead(bw *bufio.Writer, vars, link []string, selectResult bool) {
	bw.WriteString(`<?xml version="1.0"?>` + "\n" + `<sparql xmlns="` + resultsNS + `">` + "\n<head>\n")
	if selectResult {
		for _, v := range vars {
			bw.WriteString(`<variable name="`)
			xmlEscape(bw, v)
			bw.WriteString("\"/>\n")
		}
	}
	for _, l := range link {
		bw.WriteString(`<link href="`)
		xmlEscape(bw, l)
		bw.WriteString("\"/>\n")
	}
	bw.WriteString("</head>\n")
}

// writeXMLRow writes one <result>; row[i] is the value of vars[i].
func writeXMLRow(bw *bufio.Writer, vars []string, row []graph.Term) {
	bw.WriteString("<result>")
	for i, v := range vars {
		t := row[i]
		if t.IsZero() {
			continue
		}
		bw.WriteString(`<binding name="`)
		xmlEscape(bw, v)
		bw.WriteString(`">`)
		switch t.Kind {
		case graph.KindIRI:
			bw.WriteString("<uri>")
			xmlEscape(bw, t.Value)
			bw.WriteString("</uri>")
		case graph.KindBlank:
			bw.WriteString("<bnode>")
			xmlEscape(bw, t.Value)
			bw.WriteString("</bnode>")
		default:
			bw.WriteString("<literal")
			if t.Lang != "" {
				bw.WriteString(` xml:lang="`)
				xmlEscape(bw, t.Lang)
				bw.WriteString(`"`)
			} else if t.Datatype != "" && t.Datatype != graph.XSDString {
				bw.WriteString(` datatype="`)
				xmlEscape(bw, t.Datatype)
				bw.WriteString(`"`)
			}
			bw.WriteString(">")
			xmlEscape(bw, t.Value)
			bw.WriteString("</literal>")
		}
		bw.WriteString("</binding>")
	}
	bw.WriteString("</result>\n")
}

func xmlEscape(w *bufio.Writer, s string) {
	// xml.EscapeText also escapes newlines as &#xA;, which keeps values
	// exact when read back.
	_ = xml.EscapeText(w, []byte(s))
}

// ReadXML reads a SPARQL Query Results XML document (a SELECT or an ASK
// result).
func ReadXML(r io.Reader) (*Results, error) {
	dec := xml.NewDecoder(r)
	res := &Results{}
	var (
		cur       Solution
		bindName  string
		termKind  string
		termAttrs []xml.Attr
		text      strings.Builder
		inBoolean bool
		sawRoot   bool
	)
	fail := func(msg string) error {
		line, col := dec.InputPos()
		return &FormatError{Format: "XML", Msg: fmt.Sprintf("%d:%d: %s", line, col, msg)}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &FormatError{Format: "XML", Msg: err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "sparql":
				sawRoot = true
			case "variable":
				res.Vars = append(res.Vars, attr(t.Attr, "name"))
			case "link":
				res.Link = append(res.Link, attr(t.Attr, "href"))
			case "results":
				res.Solutions = []Solution{}
			case "result":
				cur = Solution{}
			case "binding":
				bindName = attr(t.Attr, "name")
			case "uri", "bnode", "literal":
				termKind, termAttrs = t.Name.Local, t.Attr
				text.Reset()
			case "boolean":
				inBoolean = true
				text.Reset()
			}
		case xml.CharData:
			if termKind != "" || inBoolean {
				text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "result":
				if cur == nil {
					return nil, fail("</result> without <result>")
				}
				res.Solutions = append(res.Solutions, cur)
				cur = nil
			case "uri", "bnode", "literal":
				if cur == nil || bindName == "" {
					return nil, fail("term outside a binding")
				}
				var term graph.Term
				switch termKind {
				case "uri":
					term = graph.IRI(text.String())
				case "bnode":
					term = graph.Blank(text.String())
				default:
					if lang := xmlLang(termAttrs); lang != "" {
						term = graph.LangLiteral(text.String(), lang)
					} else {
						term = graph.Literal(text.String(), attr(termAttrs, "datatype"))
					}
				}
				cur[bindName] = term
				termKind = ""
			case "binding":
				bindName = ""
			case "boolean":
				inBoolean = false
				switch strings.TrimSpace(text.String()) {
				case "true":
					b := true
					res.Boolean = &b
				case "false":
					b := false
					res.Boolean = &b
				default:
					return nil, fail("boolean must be true or false")
				}
			}
		}
	}
	if !sawRoot {
		return nil, &FormatError{Format: "XML", Msg: "no <sparql> element"}
	}
	if res.Boolean == nil && res.Solutions == nil {
		return nil, &FormatError{Format: "XML", Msg: "no <results> or <boolean> element"}
	}
	return res, nil
}

func attr(attrs []xml.Attr, name string) string {
	for _, a := range attrs {
		if a.Name.Local == name && (a.Name.Space == "" || a.Name.Space == resultsNS) {
			return a.Value
		}
	}
	return ""
}

func xmlLang(attrs []xml.Attr) string {
	for _, a := range attrs {
		if a.Name.Local == "lang" && (a.Name.Space == "xml" || a.Name.Space == "http://www.w3.org/XML/1998/namespace") {
			return a.Value
		}
	}
	return ""
}
