package graph

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// writeRDFXML writes g as RDF/XML: one rdf:Description per subject, one
// property element per triple. Predicates are split into a namespace and a
// local XML name; a predicate that has no such split (it ends in a
// character that cannot end an XML name) cannot be written in RDF/XML, nor
// can a literal holding a character XML 1.0 excludes; both give an error
// wrapping ErrUnsupported.
func writeRDFXML(w io.Writer, g *Graph, opt WriteOptions) error {
	prefixOf := map[string]string{RDF: "rdf"}
	taken := map[string]bool{"rdf": true}
	var order []string
	for n, ns := range opt.Prefixes.All() {
		if _, ok := prefixOf[ns]; ok || taken[n] || !isNCName(n) || strings.HasPrefix(strings.ToLower(n), "xml") {
			continue
		}
		prefixOf[ns], taken[n] = n, true
	}
	qnames := map[Term]string{}
	for t := range g.Triples() {
		if err := checkQuad(Quad{t.S, t.P, t.O, Term{}}, true); err != nil {
			return err
		}
		if _, ok := qnames[t.P]; ok {
			continue
		}
		ns, local, ok := splitQName(t.P.Value)
		if !ok {
			return fmt.Errorf("%w: predicate %v cannot be written as an RDF/XML element name", ErrUnsupported, t.P)
		}
		pfx, ok := prefixOf[ns]
		if !ok {
			for i := len(prefixOf); ; i++ {
				pfx = "ns" + strconv.Itoa(i)
				if !taken[pfx] {
					break
				}
			}
			prefixOf[ns], taken[pfx] = pfx, true
		}
		qnames[t.P] = pfx + ":" + local
	}
	for ns, pfx := range prefixOf {
		if pfx != "rdf" {
			order = append(order, ns)
		}
	}
	slices.SortFunc(order, func(a, b string) int { return strings.Compare(prefixOf[a], prefixOf[b]) })

	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	b = append(b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rdf:RDF xmlns:rdf=\""...)
	b = append(b, RDF...)
	b = append(b, '"')
	for _, ns := range order {
		b = append(b, "\n    xmlns:"...)
		b = append(b, prefixOf[ns]...)
		b = append(b, "=\""...)
		b = appendXMLEscaped(b, ns, true)
		b = append(b, '"')
	}
	b = append(b, ">\n"...)
	names := blankNamer{}
	node := func(attr string, t Term) {
		if t.Kind == KindBlank {
			b = append(b, " rdf:nodeID=\""...)
			b = append(b, names.label(t)...)
		} else {
			b = append(b, " rdf:"+attr+"=\""...)
			b = appendXMLEscaped(b, t.Value, true)
		}
		b = append(b, '"')
	}
	for s := range g.AllSubjects() {
		b = append(b, "  <rdf:Description"...)
		node("about", s)
		b = append(b, ">\n"...)
		for t := range g.Match(s, Term{}, Term{}) {
			qn := qnames[t.P]
			b = append(b, "    <"...)
			b = append(b, qn...)
			if t.O.Kind != KindLiteral {
				node("resource", t.O)
				b = append(b, "/>\n"...)
				continue
			}
			if !validXMLText(t.O.Value) {
				return fmt.Errorf("%w: literal %v holds a character XML 1.0 cannot hold", ErrUnsupported, t.O)
			}
			switch {
			case t.O.Lang != "":
				b = append(b, " xml:lang=\""...)
				b = appendXMLEscaped(b, t.O.Lang, true)
				b = append(b, '"')
			case t.O.Datatype != XSDString:
				b = append(b, " rdf:datatype=\""...)
				b = appendXMLEscaped(b, t.O.Datatype, true)
				b = append(b, '"')
			}
			b = append(b, '>')
			b = appendXMLEscaped(b, t.O.Value, false)
			b = append(b, "</"...)
			b = append(b, qn...)
			b = append(b, ">\n"...)
		}
		b = append(b, "  </rdf:Description>\n"...)
		if len(b) > 32<<10 {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, "</rdf:RDF>\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// splitQName splits iri into a namespace and the longest suffix that is an
// XML NCName.
func splitQName(iri string) (ns, local string, ok bool) {
	runes := []rune(iri)
	i := len(runes)
	for i > 0 && isNameChar(runes[i-1]) {
		i--
	}
	for i < len(runes) && !isNameStart(runes[i]) {
		i++
	}
	if i >= len(runes) || i == 0 {
		return "", "", false
	}
	return string(runes[:i]), string(runes[i:]), true
}

func validXMLText(s string) bool {
	for _, r := range s {
		if !isXMLChar(r) {
			return false
		}
	}
	return true
}

// appendXMLEscaped escapes s for element content or (attr) an attribute
// value in double quotes. Carriage returns, and in attributes tabs and line
// feeds, are written as character references so they survive parsing.
func appendXMLEscaped(b []byte, s string, attr bool) []byte {
	for _, r := range s {
		switch r {
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '"':
			if attr {
				b = append(b, "&quot;"...)
			} else {
				b = append(b, '"')
			}
		case '\r':
			b = append(b, "&#xD;"...)
		case '\n', '\t':
			if attr {
				b = append(b, "&#x"+strconv.FormatInt(int64(r), 16)+";"...)
			} else {
				b = append(b, byte(r))
			}
		default:
			b = append(b, string(r)...)
		}
	}
	return b
}
