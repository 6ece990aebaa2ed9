package layered

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Source reads published triples with SPARQL CONSTRUCT. Every
// sparql.Endpoint is one; merged mode asks for nothing else, so it cannot
// write to the knowledge graph.
type Source interface {
	Construct(ctx context.Context, query string) (*graph.Graph, error)
}

// ErrNoEndpoint is returned by CheckMerged when the upload has subjects to
// look up but no Source was given.
var ErrNoEndpoint = errors.New("no SPARQL endpoint configured")

// QueryError is a failure to read or parse the published triples.
type QueryError struct {
	Err error
}

func (e *QueryError) Error() string { return "reading the published triples failed: " + e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

// IRIError reports a subject IRI of the upload that cannot be written in a
// SPARQL query (it holds a space, a control character or one of <>"{}|^`\).
type IRIError struct {
	IRI string
}

func (e *IRIError) Error() string {
	return fmt.Sprintf("subject IRI %q cannot be written in a SPARQL query", e.IRI)
}

// SubjectsPerQuery is how many subjects one CONSTRUCT asks for.
const SubjectsPerQuery = 200

// CheckMerged simulates publishing: it parses content, reads from src the
// triples already published for the file's IRI subjects (their direct
// triples plus one level of blank-node closure, with read-only CONSTRUCT
// queries of at most SubjectsPerQuery subjects), adds them to the file's
// triples and validates the union. Remote blank nodes are renamed so they
// never coincide with the file's.
//
// A syntax error gives a Result with ParseError, as CheckTurtle. A file
// without IRI subjects is validated as it is, without queries. Otherwise a
// nil src gives ErrNoEndpoint, an IRI that cannot be queried an *IRIError
// and a failing query a *QueryError.
func (c *Checker) CheckMerged(ctx context.Context, content string, src Source) (*Result, error) {
	g, err := parseTurtle(content)
	if err != nil {
		return c.parseFailure(err), nil
	}
	subjects := iriSubjects(g)
	if len(subjects) == 0 {
		return c.Check(ctx, g)
	}
	if src == nil {
		return nil, ErrNoEndpoint
	}
	queries := make([]string, 0, (len(subjects)+SubjectsPerQuery-1)/SubjectsPerQuery)
	for batch := range slices.Chunk(subjects, SubjectsPerQuery) {
		q, err := publishedQuery(batch)
		if err != nil {
			return nil, err
		}
		queries = append(queries, q)
	}
	rename := newBlankRenamer(g)
	for _, q := range queries {
		published, err := src.Construct(ctx, q)
		if err != nil {
			return nil, &QueryError{Err: err}
		}
		if published == nil {
			continue
		}
		for t := range published.Triples() {
			g.Add(graph.Triple{S: rename.term(t.S), P: t.P, O: rename.term(t.O)})
		}
	}
	return c.Check(ctx, g)
}

// iriSubjects returns the distinct IRI subjects of g, sorted.
func iriSubjects(g *graph.Graph) []string {
	var out []string
	for s := range g.AllSubjects() {
		if s.Kind == graph.KindIRI {
			out = append(out, s.Value)
		}
	}
	slices.Sort(out)
	return out
}

// publishedQuery builds the CONSTRUCT for one batch of subjects: each
// subject's triples, and for a blank-node object that node's triples.
func publishedQuery(subjects []string) (string, error) {
	var b strings.Builder
	b.WriteString("CONSTRUCT { ?s ?p ?o . ?o ?bp ?bo . }\nWHERE {\n  VALUES ?s {")
	for _, s := range subjects {
		if !writableIRI(s) {
			return "", &IRIError{IRI: s}
		}
		b.WriteString(" <")
		b.WriteString(s)
		b.WriteString(">")
	}
	b.WriteString(" }\n  { ?s ?p ?o . }\n  UNION\n  { ?s ?p ?o . FILTER(isBlank(?o)) ?o ?bp ?bo . }\n}\n")
	return b.String(), nil
}

// writableIRI reports whether iri can stand between < and > in SPARQL
// (IRIREF excludes the characters below and control characters).
func writableIRI(iri string) bool {
	if iri == "" {
		return false
	}
	for _, r := range iri {
		if r <= 0x20 || strings.ContainsRune("<>\"{}|^`\\", r) {
			return false
		}
	}
	return true
}

// blankRenamer gives the remote graph's blank nodes labels the file's
// graph does not use.
type blankRenamer struct {
	taken map[string]bool
	names map[string]graph.Term
	n     int
}

func newBlankRenamer(file *graph.Graph) *blankRenamer {
	taken := map[string]bool{}
	for t := range file.Triples() {
		if t.S.Kind == graph.KindBlank {
			taken[t.S.Value] = true
		}
		if t.O.Kind == graph.KindBlank {
			taken[t.O.Value] = true
		}
	}
	return &blankRenamer{taken: taken, names: map[string]graph.Term{}}
}

func (r *blankRenamer) term(t graph.Term) graph.Term {
	if t.Kind != graph.KindBlank {
		return t
	}
	if b, ok := r.names[t.Value]; ok {
		return b
	}
	for {
		r.n++
		label := "published" + strconv.Itoa(r.n)
		if !r.taken[label] {
			b := graph.Blank(label)
			r.names[t.Value] = b
			return b
		}
	}
}
