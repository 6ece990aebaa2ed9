package sparql

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Media types of the result and graph formats this package reads or writes.
const (
	MediaResultsJSON = "application/sparql-results+json"
	MediaResultsXML  = "application/sparql-results+xml"
	MediaCSV         = "text/csv"
	MediaTSV         = "text/tab-separated-values"
	MediaQuery       = "application/sparql-query"
	MediaUpdate      = "application/sparql-update"
	MediaTurtle      = "text/turtle"
	MediaNTriples    = "application/n-triples"
	MediaJSONLD      = "application/ld+json"
	MediaForm        = "application/x-www-form-urlencoded"
)

// WriteJSON writes r in the SPARQL 1.1 Query Results JSON Format.
func WriteJSON(w io.Writer, r *Results) error {
	bw := bufio.NewWriter(w)
	writeJSONTo(bw, r)
	return bw.Flush()
}

// MarshalJSON encodes r in the SPARQL 1.1 Query Results JSON Format.
func (r *Results) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	writeJSONTo(bw, r)
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type byteWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

func writeJSONTo(w byteWriter, r *Results) {
	vars := r.varsOf()
	writeJSONHead(w, vars, r.Link, r.Boolean == nil)
	if r.Boolean != nil {
		fmt.Fprintf(w, `"boolean":%t}`, *r.Boolean)
		return
	}
	w.WriteString(`"results":{"bindings":[`)
	row := make([]graph.Term, len(vars))
	for i, s := range r.Solutions {
		if i > 0 {
			w.WriteByte(',')
		}
		writeJSONRow(w, vars, solutionRow(row, vars, s))
	}
	w.WriteString("]}}")
}

// solutionRow fills row with s's values of vars (zero Terms for unbound).
func solutionRow(row []graph.Term, vars []string, s Solution) []graph.Term {
	for i, v := range vars {
		row[i] = s[v]
	}
	return row
}

// writeJSONHead writes the document's start up to its "results" or
// "boolean" member; vars only for a SELECT result.
func writeJSONHead(w byteWriter, vars, link []string, selectResult bool) {
	w.WriteString(`{"head":{`)
	if selectResult {
		w.WriteString(`"vars":[`)
		for i, v := range vars {
			if i > 0 {
				w.WriteByte(',')
			}
			writeJSONString(w, v)
		}
		w.WriteByte(']')
		if len(link) > 0 {
			w.WriteByte(',')
		}
	}
	if len(link) > 0 {
		w.WriteString(`"link":[`)
		for i, l := range link {
			if i > 0 {
				w.WriteByte(',')
			}
			writeJSONString(w, l)
		}
		w.WriteByte(']')
	}
	w.WriteString("},")
}

// writeJSONRow writes one binding object; row[i] is the value of vars[i].
func writeJSONRow(w byteWriter, vars []string, row []graph.Term) {
	w.WriteByte('{')
	first := true
	for i, v := range vars {
		t := row[i]
		if t.IsZero() {
			continue
		}
		if !first {
			w.WriteByte(',')
		}
		first = false
		writeJSONString(w, v)
		w.WriteByte(':')
		writeJSONTerm(w, t)
	}
	w.WriteByte('}')
}

func writeJSONTerm(w byteWriter, t graph.Term) {
	switch t.Kind {
	case graph.KindIRI:
		w.WriteString(`{"type":"uri","value":`)
		writeJSONString(w, t.Value)
	case graph.KindBlank:
		w.WriteString(`{"type":"bnode","value":`)
		writeJSONString(w, t.Value)
	default:
		w.WriteString(`{"type":"literal","value":`)
		writeJSONString(w, t.Value)
		if t.Lang != "" {
			w.WriteString(`,"xml:lang":`)
			writeJSONString(w, t.Lang)
		} else if t.Datatype != "" && t.Datatype != graph.XSDString {
			w.WriteString(`,"datatype":`)
			writeJSONString(w, t.Datatype)
		}
	}
	w.WriteByte('}')
}

func writeJSONString(w byteWriter, s string) {
	const hex = "0123456789abcdef"
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				w.WriteString(s[start:i])
				w.WriteString(`\ufffd`)
				i += size
				start = i
				continue
			}
			if r == '\u2028' || r == '\u2029' {
				w.WriteString(s[start:i])
				fmt.Fprintf(w, `\u%04x`, r)
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		w.WriteString(s[start:i])
		switch c {
		case '"':
			w.WriteString(`\"`)
		case '\\':
			w.WriteString(`\\`)
		case '\n':
			w.WriteString(`\n`)
		case '\r':
			w.WriteString(`\r`)
		case '\t':
			w.WriteString(`\t`)
		default:
			w.WriteString(`\u00`)
			w.WriteByte(hex[c>>4])
			w.WriteByte(hex[c&0xF])
		}
		i++
		start = i
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// FormatError reports a result document that is not valid in its format.
type FormatError struct {
	Format string // "JSON", "XML", "TSV"
	Msg    string
}

func (e *FormatError) Error() string {
	return "sparql: malformed " + e.Format + " results: " + e.Msg
}

type jsonTerm struct {
	Type     string `json:"type"`
	Value    string `json:"value"`
	Lang     string `json:"xml:lang"`
	Datatype string `json:"datatype"`
}

type jsonDoc struct {
	Head *struct {
		Vars []string `json:"vars"`
		Link []string `json:"link"`
	} `json:"head"`
	Boolean *bool `json:"boolean"`
	Results *struct {
		Bindings []map[string]jsonTerm `json:"bindings"`
	} `json:"results"`
}

// ReadJSON reads a SPARQL 1.1 Query Results JSON document (a SELECT or an
// ASK result).
func ReadJSON(r io.Reader) (*Results, error) {
	var doc jsonDoc
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return nil, &FormatError{Format: "JSON", Msg: err.Error()}
	}
	return doc.results()
}

// UnmarshalJSON decodes a SPARQL 1.1 Query Results JSON document into r.
func (r *Results) UnmarshalJSON(data []byte) error {
	var doc jsonDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return &FormatError{Format: "JSON", Msg: err.Error()}
	}
	res, err := doc.results()
	if err != nil {
		return err
	}
	*r = *res
	return nil
}

func (doc *jsonDoc) results() (*Results, error) {
	if doc.Head == nil {
		return nil, &FormatError{Format: "JSON", Msg: `missing "head"`}
	}
	res := &Results{Vars: doc.Head.Vars, Link: doc.Head.Link}
	if doc.Boolean != nil {
		res.Boolean = doc.Boolean
		return res, nil
	}
	if doc.Results == nil {
		return nil, &FormatError{Format: "JSON", Msg: `missing "results" or "boolean"`}
	}
	res.Solutions = make([]Solution, 0, len(doc.Results.Bindings))
	for i, b := range doc.Results.Bindings {
		s := make(Solution, len(b))
		for name, jt := range b {
			t, err := jt.term()
			if err != nil {
				return nil, &FormatError{Format: "JSON", Msg: "binding " + strconv.Itoa(i) + " variable " + name + ": " + err.Error()}
			}
			s[name] = t
		}
		res.Solutions = append(res.Solutions, s)
	}
	return res, nil
}

func (jt jsonTerm) term() (graph.Term, error) {
	switch jt.Type {
	case "uri":
		return graph.IRI(jt.Value), nil
	case "bnode":
		return graph.Blank(jt.Value), nil
	case "literal", "typed-literal":
		if jt.Lang != "" {
			return graph.LangLiteral(jt.Value, jt.Lang), nil
		}
		return graph.Literal(jt.Value, jt.Datatype), nil
	}
	return graph.Term{}, fmt.Errorf("unknown term type %q", jt.Type)
}
