package sparql

import (
	"bufio"
	"fmt"
	"io"

	"github.com/regelkit/regelkit/sparql/graph"
)

// streamBuffer is what a RowWriter holds before passing bytes on: rows
// leave in chunks of this size, so memory stays bounded however many rows
// a result has.
const streamBuffer = 32 << 10

// RowWriter encodes a SELECT result in one of the result formats
// (MediaResultsJSON, MediaResultsXML, MediaCSV, MediaTSV) row by row as the
// rows are produced, so a result of any length is written with bounded
// buffering: a server streams evaluation straight to the client.
//
//	rw, err := sparql.NewRowWriter(w, sparql.MediaResultsJSON, vars)
//	for each solution { rw.WriteRow(terms) }
//	rw.Close()
//
// Its output is byte for byte what WriteJSON, WriteXML, WriteCSV and
// WriteTSV write for the same Results.
type RowWriter struct {
	bw   *bufio.Writer
	mt   string
	vars []string
	rows int
	err  error
}

// NewRowWriter starts a SELECT result for vars in the format mediaType
// ("application/json" and "application/xml" are taken as the SPARQL
// formats) and writes its head. Nothing reaches w before the buffer fills
// or Flush or Close is called.
func NewRowWriter(w io.Writer, mediaType string, vars []string) (*RowWriter, error) {
	switch mediaType {
	case "application/json":
		mediaType = MediaResultsJSON
	case "application/xml":
		mediaType = MediaResultsXML
	case MediaResultsJSON, MediaResultsXML, MediaCSV, MediaTSV:
	default:
		return nil, fmt.Errorf("sparql: no row writer for %q", mediaType)
	}
	rw := &RowWriter{bw: bufio.NewWriterSize(w, streamBuffer), mt: mediaType, vars: vars}
	switch mediaType {
	case MediaResultsJSON:
		writeJSONHead(rw.bw, vars, nil, true)
		rw.bw.WriteString(`"results":{"bindings":[`)
	case MediaResultsXML:
		writeXMLHead(rw.bw, vars, nil, true)
		rw.bw.WriteString("<results>\n")
	case MediaCSV:
		writeCSVHead(rw.bw, vars)
	case MediaTSV:
		writeTSVHead(rw.bw, vars)
	}
	return rw, nil
}

// WriteRow encodes one solution: row[i] is the value of vars[i], a zero
// Term an unbound variable. It returns the first error met writing to w;
// after one every call returns it.
func (rw *RowWriter) WriteRow(row []graph.Term) error {
	if rw.err != nil {
		return rw.err
	}
	switch rw.mt {
	case MediaResultsJSON:
		if rw.rows > 0 {
			rw.bw.WriteByte(',')
		}
		writeJSONRow(rw.bw, rw.vars, row)
	case MediaResultsXML:
		writeXMLRow(rw.bw, rw.vars, row)
	case MediaCSV:
		writeCSVRow(rw.bw, row)
	case MediaTSV:
		writeTSVRow(rw.bw, row)
	}
	rw.rows++
	_, rw.err = rw.bw.Write(nil) // bufio keeps the first write error
	return rw.err
}

// Rows returns the number of rows written.
func (rw *RowWriter) Rows() int { return rw.rows }

// Buffered returns the bytes held and not yet passed to w.
func (rw *RowWriter) Buffered() int { return rw.bw.Buffered() }

// Flush passes the held bytes on to w.
func (rw *RowWriter) Flush() error {
	if rw.err == nil {
		rw.err = rw.bw.Flush()
	}
	return rw.err
}

// Close ends the document and flushes it.
func (rw *RowWriter) Close() error {
	if rw.err != nil {
		return rw.err
	}
	switch rw.mt {
	case MediaResultsJSON:
		rw.bw.WriteString("]}}")
	case MediaResultsXML:
		rw.bw.WriteString("</results>\n</sparql>\n")
	}
	return rw.Flush()
}
