package graph

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"strconv"
)

// WriteOptions configures Write.
type WriteOptions struct {
	// Prefixes are declared, in order, at the top of Turtle and TriG
	// output and used to abbreviate IRIs. Prefixes with names that are not
	// valid Turtle are skipped. Other formats ignore them.
	Prefixes *Prefixes

	// Base, when set, is declared with @base in Turtle and TriG output, and
	// IRIs that resolve back to themselves from a shorter relative
	// reference are written relative to it. JSON-LD output uses it as the
	// compaction base.
	Base string

	// Context is the JSON-LD context for compacted JSON-LD output: a
	// map[string]any (with or without an "@context" key), or JSON text as a
	// string or []byte. Nil gives expanded JSON-LD. Remote contexts are never
	// fetched.
	Context any
}

// Write serialises quads in format f. Each call writes one document, and
// blank nodes are relabelled per document (_:b0, _:b1, ... in order of
// first appearance), so every label written is valid in the syntax; write
// graphs that share blank nodes in one call. Triple formats (Turtle,
// N-Triples, RDF/XML) reject quads in a named graph. N-Triples and N-Quads
// are streamed; the other formats collect the quads first.
//
// What the output cannot carry faithfully is an error wrapping
// ErrUnsupported, never silently changed: IRIs holding characters no IRI
// may contain (spaces, '<', ...), relative IRIs in N-Triples, N-Quads,
// JSON-LD and RDF/XML (Turtle and TriG may hold them), malformed language
// tags. Literal values must be valid UTF-8.
func Write(w io.Writer, f Format, quads iter.Seq[Quad], opt WriteOptions) error {
	switch f {
	case NTriples, NQuads:
		return writeLines(w, f, quads)
	case Turtle, TriG, JSONLD, RDFXML:
		d := NewDataset()
		for q := range quads {
			if !q.G.IsZero() && !f.HasNamedGraphs() {
				return fmt.Errorf("%w: %v cannot hold the named graph %v", ErrUnsupported, f, q.G)
			}
			d.Add(q)
		}
		return WriteDataset(w, f, d, opt)
	}
	return fmt.Errorf("%w: writing format %v", ErrUnsupported, f)
}

// WriteGraph serialises g in format f (for quad formats, as the default
// graph).
func WriteGraph(w io.Writer, f Format, g *Graph, opt WriteOptions) error {
	d := &Dataset{def: g, named: map[Term]*Graph{}}
	return WriteDataset(w, f, d, opt)
}

// WriteDataset serialises d in format f. Triple formats accept a dataset
// whose named graphs are all empty.
func WriteDataset(w io.Writer, f Format, d *Dataset, opt WriteOptions) error {
	if !f.HasNamedGraphs() {
		for _, n := range d.Names() {
			if d.named[n].Len() > 0 {
				return fmt.Errorf("%w: %v cannot hold the named graph %v", ErrUnsupported, f, n)
			}
		}
	}
	switch f {
	case NTriples, NQuads:
		return writeLines(w, f, d.Quads())
	case Turtle, TriG:
		return writeTurtle(w, f, d, opt)
	case JSONLD:
		return writeJSONLD(w, d, opt)
	case RDFXML:
		return writeRDFXML(w, d.Default(), opt)
	}
	return fmt.Errorf("%w: writing format %v", ErrUnsupported, f)
}

// blankNamer relabels blank nodes _:b0, _:b1, ... per document.
type blankNamer map[Term]string

func (n blankNamer) label(t Term) string {
	if l, ok := n[t]; ok {
		return l
	}
	l := "b" + strconv.Itoa(len(n))
	n[t] = l
	return l
}

// writeLines writes N-Triples or N-Quads, one statement per line.
func writeLines(w io.Writer, f Format, quads iter.Seq[Quad]) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	names := blankNamer{}
	var line []byte
	for q := range quads {
		if !q.G.IsZero() && f == NTriples {
			return fmt.Errorf("%w: N-Triples cannot hold the named graph %v", ErrUnsupported, q.G)
		}
		if q.S.IsZero() || q.P.IsZero() || q.O.IsZero() {
			return fmt.Errorf("graph: cannot write a quad with a missing term: %v", q)
		}
		if err := checkQuad(q, true); err != nil {
			return err
		}
		line = line[:0]
		for i, t := range [4]Term{q.S, q.P, q.O, q.G} {
			if t.IsZero() {
				continue
			}
			if i > 0 {
				line = append(line, ' ')
			}
			line = appendTermNT(line, t, blankLabel(names, t))
		}
		line = append(line, " .\n"...)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func blankLabel(names blankNamer, t Term) string {
	if t.Kind != KindBlank {
		return ""
	}
	return names.label(t)
}
