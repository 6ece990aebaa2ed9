package flint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// source is one Choppr document as RDF: its root IRI (also its graph name),
// its base (the document id snippets carry) and its sentences.
type source struct {
	root    string
	base    string
	g       *graph.Graph
	byID    map[string]string // choppr:originalId → element IRI
	idOfIRI map[string]string // element IRI → originalId
}

// parseChoppr reads a Choppr JSON-LD document into a graph. Remote contexts
// are refused by the parser (graph.ErrRemoteContext).
func parseChoppr(doc json.RawMessage, scope string) (*source, error) {
	if len(bytes.TrimSpace(doc)) == 0 || bytes.Equal(bytes.TrimSpace(doc), []byte("null")) {
		return nil, errors.New("missing Choppr JSON-LD document")
	}
	g, err := graph.ParseGraph(bytes.NewReader(doc), graph.JSONLD, graph.ParseOptions{BlankScope: scope})
	if err != nil {
		if errors.Is(err, graph.ErrRemoteContext) {
			return nil, errors.New("a remote @context is not loaded")
		}
		return nil, fmt.Errorf("invalid JSON-LD: %v", err)
	}
	var roots []string
	for s := range g.Subjects(rdfType, classSource) {
		if s.IsIRI() {
			roots = append(roots, s.Value)
		}
	}
	if len(roots) != 1 {
		return nil, fmt.Errorf("expected one src:Source root with an IRI, found %d", len(roots))
	}
	s := newSource(roots[0], g)
	if b := contextBase(doc); b != "" {
		s.base = b
	}
	return s, nil
}

func newSource(root string, g *graph.Graph) *source {
	s := &source{root: root, g: g, byID: map[string]string{}, idOfIRI: map[string]string{}}
	s.base = root[:strings.LastIndexByte(root, '/')+1]
	for t := range g.Match(graph.Term{}, pOriginalID, graph.Term{}) {
		if t.S.IsIRI() && t.O.IsLiteral() {
			if _, dup := s.byID[t.O.Value]; !dup {
				s.byID[t.O.Value] = t.S.Value
			}
			s.idOfIRI[t.S.Value] = t.O.Value
		}
	}
	return s
}

// contextBase returns the @base of a document's inline @context.
func contextBase(doc json.RawMessage) string {
	var top struct {
		Context json.RawMessage `json:"@context"`
	}
	if json.Unmarshal(doc, &top) != nil || top.Context == nil {
		return ""
	}
	var ctxs []json.RawMessage
	if json.Unmarshal(top.Context, &ctxs) != nil {
		ctxs = []json.RawMessage{top.Context}
	}
	base := ""
	for _, c := range ctxs {
		var m struct {
			Base *string `json:"@base"`
		}
		if json.Unmarshal(c, &m) == nil && m.Base != nil {
			base = *m.Base
		}
	}
	return base
}

// sentenceID is the id a sentence IRI is known by: its originalId, or else
// its last path segment.
func (s *source) sentenceID(iri string) string {
	if id, ok := s.idOfIRI[iri]; ok {
		return id
	}
	return iri[strings.LastIndexAny(iri, "/#")+1:]
}

// chopprContext is the JSON-LD context a rebuilt Choppr document uses
// (the same terms as the editor's documents).
func chopprContext(base string) map[string]any {
	return map[string]any{
		"@base":            base,
		"src":              NSSrc,
		"choppr":           NSChoppr,
		"IRI":              "@id",
		"id":               "choppr:originalId",
		"content":          "src:hasContent",
		"typelabel":        "src:hasTypeLabel",
		"numbering":        "src:hasNumbering",
		"containsAsHeader": map[string]any{"@id": "src:containsAsHeader", "@type": "@id"},
		"children":         map[string]any{"@id": "src:hasChildElementOrdering", "@type": "@id", "@container": "@list"},
		"title":            "src:hasTitle",
		"editedBy":         map[string]any{"@id": "src:editedBy", "@type": "@id"},
		"ends":             "src:ends",
		"hasOrigin":        map[string]any{"@id": "src:hasOrigin", "@type": "@id"},
	}
}

// chopprDocument writes a source graph back as a Choppr JSON-LD document.
func chopprDocument(s *source) (json.RawMessage, error) {
	var buf bytes.Buffer
	ctx := chopprContext(s.base)
	if err := graph.WriteGraph(&buf, graph.JSONLD, s.g, graph.WriteOptions{Context: map[string]any{"@context": ctx}, Base: s.base}); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}
