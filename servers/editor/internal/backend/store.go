package backend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// GraphStore is what the backend needs of a graph store.
type GraphStore interface {
	// Select runs a SELECT query over all named graphs.
	Select(ctx context.Context, query string) (*sparql.Results, error)
	// Graph returns the triples of a named graph; an empty graph means absent.
	Graph(ctx context.Context, name string) (*graph.Graph, error)
	// GraphNames lists the names of the non-empty named graphs.
	GraphNames(ctx context.Context) ([]string, error)
	// PutGraph creates or replaces a named graph.
	PutGraph(ctx context.Context, name string, g *graph.Graph) error
}

// ErrReadOnly is returned by PutGraph of a store that cannot be written.
var ErrReadOnly = errors.New("backend: graph store is read-only")

// EndpointStore is a GraphStore over SPARQL 1.1: queries through Query,
// writes through Update (an INSERT into a cleared graph) or, when
// GraphStoreURL is set, a Graph Store Protocol PUT per graph.
type EndpointStore struct {
	Query  sparql.Endpoint
	Update sparql.Endpoint // nil: read-only
	// GraphStoreURL, when set, receives PUT ?graph=<name> with a Turtle body.
	GraphStoreURL string
	HTTPClient    *http.Client
	BearerToken   string // for GraphStoreURL
}

func (s *EndpointStore) Select(ctx context.Context, query string) (*sparql.Results, error) {
	return s.Query.Select(ctx, query)
}

func (s *EndpointStore) Graph(ctx context.Context, name string) (*graph.Graph, error) {
	return s.Query.Construct(ctx, "CONSTRUCT { ?s ?p ?o } WHERE { GRAPH "+iriRef(name)+" { ?s ?p ?o } }")
}

func (s *EndpointStore) GraphNames(ctx context.Context) ([]string, error) {
	res, err := s.Query.Select(ctx, "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range res.Column("g") {
		if t.IsIRI() {
			out = append(out, t.Value)
		}
	}
	return out, nil
}

func (s *EndpointStore) PutGraph(ctx context.Context, name string, g *graph.Graph) error {
	if s.GraphStoreURL != "" {
		return s.put(ctx, name, g)
	}
	if s.Update == nil {
		return ErrReadOnly
	}
	// INSERT with an empty WHERE rather than INSERT DATA: Virtuoso 7.2
	// refuses blank nodes in INSERT DATA ("not allowed in a constant
	// clause"), and the one solution of {} mints the template's blank nodes
	// once, as INSERT DATA would.
	var buf bytes.Buffer
	buf.WriteString("CLEAR SILENT GRAPH " + iriRef(name) + " ;\nINSERT { GRAPH " + iriRef(name) + " {\n")
	if err := graph.WriteGraph(&buf, graph.NTriples, g, graph.WriteOptions{}); err != nil {
		return err
	}
	buf.WriteString("} } WHERE {}")
	return s.Update.Update(ctx, buf.String())
}

func (s *EndpointStore) put(ctx context.Context, name string, g *graph.Graph) error {
	var buf bytes.Buffer
	if err := graph.WriteGraph(&buf, graph.Turtle, g, graph.WriteOptions{}); err != nil {
		return err
	}
	u := s.GraphStoreURL + "?graph=" + url.QueryEscape(name)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, u, &buf)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/turtle; charset=utf-8")
	if s.BearerToken != "" {
		req.Header.Set("Authorization", "Bearer "+s.BearerToken)
	}
	c := s.HTTPClient
	if c == nil {
		c = putClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("graph store answered %d", resp.StatusCode)
	}
	return nil
}

// putClient bounds a Graph Store Protocol write that has no client of its own.
var putClient = &http.Client{Timeout: 60 * time.Second}

// iriRef writes an IRI for a query. Callers validate names (validIRI) first;
// the escape keeps a stray '>' from ending the reference anyway.
func iriRef(iri string) string {
	r := strings.NewReplacer(">", "%3E", "<", "%3C", " ", "%20", "\"", "%22", "{", "%7B", "}", "%7D", "\\", "%5C", "\n", "", "\r", "")
	return "<" + r.Replace(iri) + ">"
}

// validIRI accepts an absolute IRI without the characters SPARQL forbids in
// an IRI reference.
func validIRI(s string) bool {
	if len(s) == 0 || len(s) > 2048 || !graph.IsAbsoluteIRI(s) {
		return false
	}
	return !strings.ContainsAny(s, "<>\"{}|^`\\ \t\r\n")
}
