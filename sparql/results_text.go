package sparql

import (
	"bufio"
	"io"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// WriteCSV writes r in the SPARQL 1.1 Query Results CSV Format: a header of
// variable names, then one line per solution with IRIs, blank nodes (_:x)
// and literal lexical forms, quoted per RFC 4180 where needed. Lines end in
// CRLF. An ASK result is written as a single "_askResult" column.
func WriteCSV(w io.Writer, r *Results) error {
	bw := bufio.NewWriter(w)
	if r.Boolean != nil {
		bw.WriteString("_askResult\r\n")
		if *r.Boolean {
			bw.WriteString("true\r\n")
		} else {
			bw.WriteString("false\r\n")
		}
		return bw.Flush()
	}
	vars := r.varsOf()
	for i, v := range vars {
		if i > 0 {
			bw.WriteByte(',')
		}
		writeCSVField(bw, v)
	}
	bw.WriteString("\r\n")
	for _, s := range r.Solutions {
		for i, v := range vars {
			if i > 0 {
				bw.WriteByte(',')
			}
			t, ok := s[v]
			if !ok || t.IsZero() {
				continue
			}
			if t.IsBlank() {
				writeCSVField(bw, "_:"+t.Value)
			} else {
				writeCSVField(bw, t.Value)
			}
		}
		bw.WriteString("\r\n")
	}
	return bw.Flush()
}

func writeCSVField(w *bufio.Writer, s string) {
	if !strings.ContainsAny(s, "\",\r\n") {
		w.WriteString(s)
		return
	}
	w.WriteByte('"')
	w.WriteString(strings.ReplaceAll(s, `"`, `""`))
	w.WriteByte('"')
}

// WriteTSV writes r in the SPARQL 1.1 Query Results TSV Format: a header of
// ?variables, then one line per solution with terms in Turtle syntax
// (integers, decimals and doubles in their short form).
func WriteTSV(w io.Writer, r *Results) error {
	bw := bufio.NewWriter(w)
	if r.Boolean != nil {
		bw.WriteString("?_askResult\n")
		if *r.Boolean {
			bw.WriteString("true\n")
		} else {
			bw.WriteString("false\n")
		}
		return bw.Flush()
	}
	vars := r.varsOf()
	for i, v := range vars {
		if i > 0 {
			bw.WriteByte('\t')
		}
		bw.WriteByte('?')
		bw.WriteString(v)
	}
	bw.WriteByte('\n')
	for _, s := range r.Solutions {
		for i, v := range vars {
			if i > 0 {
				bw.WriteByte('\t')
			}
			t, ok := s[v]
			if !ok || t.IsZero() {
				continue
			}
			bw.WriteString(tsvTerm(t))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func tsvTerm(t graph.Term) string {
	if t.IsLiteral() && t.Lang == "" {
		switch t.Datatype {
		case graph.XSDInteger:
			if isShortInteger(t.Value) {
				return t.Value
			}
		case graph.XSDDecimal:
			if isShortDecimal(t.Value) {
				return t.Value
			}
		case graph.XSDDouble:
			if isShortDouble(t.Value) {
				return t.Value
			}
		}
	}
	// N-Triples escapes tabs and newlines, as TSV requires.
	return t.String()
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

func isShortInteger(s string) bool {
	s = trimSign(s)
	return s != "" && digits(s) == len(s)
}

func isShortDecimal(s string) bool {
	s = trimSign(s)
	n := digits(s)
	if n == len(s) || s[n] != '.' {
		return false
	}
	m := digits(s[n+1:])
	return m > 0 && n+1+m == len(s)
}

func isShortDouble(s string) bool {
	s = trimSign(s)
	e := strings.IndexAny(s, "eE")
	if e < 0 {
		return false
	}
	mant, exp := s[:e], trimSign(s[e+1:])
	if exp == "" || digits(exp) != len(exp) {
		return false
	}
	n := digits(mant)
	if n == len(mant) {
		return n > 0
	}
	if mant[n] != '.' {
		return false
	}
	m := digits(mant[n+1:])
	return n+1+m == len(mant) && n+m > 0
}
