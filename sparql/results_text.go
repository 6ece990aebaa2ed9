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
	writeCSVHead(bw, vars)
	row := make([]graph.Term, len(vars))
	for _, s := range r.Solutions {
		writeCSVRow(bw, solutionRow(row, vars, s))
	}
	return bw.Flush()
}

func writeCSVHead(bw *bufio.Writer, vars []string) {
	for i, v := range vars {
		if i > 0 {
			bw.WriteByte(',')
		}
		writeCSVField(bw, v)
	}
	bw.WriteString("\r\n")
}

func writeCSVRow(bw *bufio.Writer, row []graph.Term) {
	for i, t := range row {
		if i > 0 {
			bw.WriteByte(',')
		}
		if t.IsZero() {
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
	writeTSVHead(bw, vars)
	row := make([]graph.Term, len(vars))
	for _, s := range r.Solutions {
		writeTSVRow(bw, solutionRow(row, vars, s))
	}
	return bw.Flush()
}

func writeTSVHead(bw *bufio.Writer, vars []string) {
	for i, v := range vars {
		if i > 0 {
			bw.WriteByte('\t')
		}
		bw.WriteByte('?')
		bw.WriteString(v)
	}
	bw.WriteByte('\n')
}

func writeTSVRow(bw *bufio.Writer, row []graph.Term) {
	for i, t := range row {
		if i > 0 {
			bw.WriteByte('\t')
		}
		if t.IsZero() {
			continue
		}
		bw.WriteString(tsvTerm(t))
	}
	bw.WriteByte('\n')
}

func tsvTerm(t graph.Term) string {
	if graph.IsNumericToken(t) {
		return t.Value
	}
	// N-Triples escapes tabs and newlines, as TSV requires.
	return t.String()
}
