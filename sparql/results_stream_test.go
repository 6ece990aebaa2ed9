package sparql

import (
	"bytes"
	"errors"
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
)

// The streamed writer produces exactly the documents the whole-result
// writers produce (whose shapes the other tests fix by hand).
func TestRowWriterMatchesWholeResultWriters(t *testing.T) {
	writers := map[string]func(*bytes.Buffer, *Results) error{
		MediaResultsJSON: func(b *bytes.Buffer, r *Results) error { return WriteJSON(b, r) },
		MediaResultsXML:  func(b *bytes.Buffer, r *Results) error { return WriteXML(b, r) },
		MediaCSV:         func(b *bytes.Buffer, r *Results) error { return WriteCSV(b, r) },
		MediaTSV:         func(b *bytes.Buffer, r *Results) error { return WriteTSV(b, r) },
	}
	for mt, whole := range writers {
		for _, r := range []*Results{sample(), {Vars: []string{"x"}, Solutions: []Solution{}}} {
			var want, got bytes.Buffer
			if err := whole(&want, r); err != nil {
				t.Fatal(err)
			}
			rw, err := NewRowWriter(&got, mt, r.Vars)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range r.Solutions {
				row := make([]graph.Term, len(r.Vars))
				if err := rw.WriteRow(solutionRow(row, r.Vars, s)); err != nil {
					t.Fatal(err)
				}
			}
			if err := rw.Close(); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%s, %d rows:\n got %q\nwant %q", mt, len(r.Solutions), got.String(), want.String())
			}
		}
	}
	if _, err := NewRowWriter(&bytes.Buffer{}, "text/turtle", nil); err == nil {
		t.Error("a row writer for Turtle, want an error")
	}
}

// Bytes leave in bounded chunks: after many rows the writer holds less
// than its buffer, and a write error stops it.
func TestRowWriterBoundedAndStopsOnError(t *testing.T) {
	var out bytes.Buffer
	rw, _ := NewRowWriter(&out, MediaCSV, []string{"s"})
	row := []graph.Term{graph.IRI("http://example.org/a-fairly-long-subject-iri")}
	for range 10_000 {
		if err := rw.WriteRow(row); err != nil {
			t.Fatal(err)
		}
	}
	if rw.Buffered() >= 32<<10 || out.Len() < 400_000 {
		t.Errorf("holds %d bytes with %d passed on; want under 32 KB held and ~480 KB passed", rw.Buffered(), out.Len())
	}
	fail := errors.New("client went away")
	rw, _ = NewRowWriter(failingWriter{fail}, MediaCSV, []string{"s"})
	var err error
	for i := 0; i < 10_000 && err == nil; i++ {
		err = rw.WriteRow(row)
	}
	if !errors.Is(err, fail) || !errors.Is(rw.Close(), fail) {
		t.Errorf("WriteRow: %v; want the writer's error, also from Close", err)
	}
}

type failingWriter struct{ err error }

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }
