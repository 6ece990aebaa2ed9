package memstore

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// The SPARQL 1.1 Graph Store HTTP Protocol and the service description,
// served by the same handler as the query protocol.

// graphTarget is the graph a Graph Store request names: the default
// graph, a named graph, or (zero) a new graph the store names itself.
type graphTarget struct {
	def bool
	iri string
}

func (t graphTarget) term() graph.Term {
	if t.def {
		return graph.Term{}
	}
	return graph.IRI(t.iri)
}

// graphTarget reads the graph a request names: ?default, ?graph=<iri>, or
// a path below MountPath (direct identification). ok is false for a
// request that names no graph; msg is a 400 message for a request that
// names one badly.
func (h *handler) graphTarget(r *http.Request, params url.Values) (t graphTarget, ok bool, msg string) {
	_, hasDefault := params["default"]
	graphs, hasGraph := params["graph"]
	direct := false
	if mp := h.opts.MountPath; mp != "" && strings.HasPrefix(r.URL.Path, mp+"/") && len(r.URL.Path) > len(mp)+1 {
		direct = true
	}
	switch {
	case direct && (hasDefault || hasGraph):
		return t, false, "a graph path takes neither ?default nor ?graph="
	case hasDefault && hasGraph:
		return t, false, "send ?default or ?graph=, not both"
	case direct:
		return graphTarget{iri: requestURL(r)}, true, ""
	case hasDefault:
		return graphTarget{def: true}, true, ""
	case hasGraph:
		if len(graphs) != 1 {
			return t, false, "send one graph parameter, not several"
		}
		if !absoluteIRI(graphs[0]) {
			return t, false, "the graph parameter must be an absolute IRI, got " + excerpt(graphs[0])
		}
		return graphTarget{iri: graphs[0]}, true, ""
	}
	return t, false, ""
}

// absoluteIRI reports whether s is an absolute IRI without the characters
// IRIs exclude.
func absoluteIRI(s string) bool {
	if strings.ContainsAny(s, " <>\"{}|\\^`\t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.IsAbs()
}

// payloadFormats are the media types of Graph Store request bodies; plain
// JSON and text/plain are left out, so that a mistaken POST of those to
// the endpoint stays an error (415) instead of creating a graph.
var payloadFormats = map[string]graph.Format{
	"text/turtle":           graph.Turtle,
	"application/x-turtle":  graph.Turtle,
	"application/n-triples": graph.NTriples,
	"application/rdf+xml":   graph.RDFXML,
	"application/ld+json":   graph.JSONLD,
	"application/trig":      graph.TriG,
	"application/n-quads":   graph.NQuads,
}

// rdfPayloadFormat is the RDF format of a Graph Store request body;
// multipart/form-data (a document per part) reports ok with format 0.
func rdfPayloadFormat(mediaType string) (graph.Format, bool) {
	if mediaType == "multipart/form-data" {
		return 0, true
	}
	f, ok := payloadFormats[mediaType]
	return f, ok
}

func (h *handler) serveGraph(w http.ResponseWriter, r *http.Request, t graphTarget) {
	isNew := !t.def && t.iri == ""
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if isNew {
			break
		}
		g, ok := h.s.graphCopy(t.term())
		if !ok {
			h.fail(w, r, http.StatusNotFound, "no graph "+excerpt(t.iri))
			return
		}
		h.writeGraph(w, r, r.Header.Get("Accept"), g, true)
		return
	case http.MethodPut, http.MethodPost, http.MethodDelete:
		if isNew && r.Method != http.MethodPost {
			break
		}
		if h.opts.ReadOnly {
			h.fail(w, r, http.StatusForbidden, "this endpoint is read-only: graph writes are refused")
			return
		}
		if r.Method == http.MethodDelete {
			if !h.s.dropGraph(t.term()) {
				h.fail(w, r, http.StatusNotFound, "no graph "+excerpt(t.iri))
				return
			}
			w.WriteHeader(http.StatusOK)
			return
		}
		base := t.iri
		if t.def || isNew {
			base = h.endpointURL(r)
		}
		triples, status, msg := h.readPayload(w, r, base)
		if status != 0 {
			if msg != "" {
				h.fail(w, r, status, msg)
			}
			return
		}
		if isNew {
			iri := h.s.putNewGraph(h.endpointURL(r)+"/graphs/", triples)
			w.Header().Set("Location", iri)
			w.WriteHeader(http.StatusCreated)
			return
		}
		created := h.s.putGraph(t.term(), triples, r.Method == http.MethodPut)
		switch {
		case created:
			w.WriteHeader(http.StatusCreated)
		case r.Method == http.MethodPut:
			w.WriteHeader(http.StatusNoContent)
		default:
			w.WriteHeader(http.StatusOK)
		}
		return
	}
	w.Header().Set("Allow", "GET, HEAD, PUT, POST, DELETE")
	h.fail(w, r, http.StatusMethodNotAllowed, "method not allowed on a graph")
}

// readPayload reads the RDF document of a PUT or POST (or, for
// multipart/form-data, one document per part). On failure status is set,
// with msg to answer, or msg "" when the request has been answered.
func (h *handler) readPayload(w http.ResponseWriter, r *http.Request, base string) (triples []graph.Triple, status int, msg string) {
	ct, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return nil, http.StatusUnsupportedMediaType, "missing or invalid Content-Type; send an RDF document (text/turtle, application/n-triples, application/ld+json, application/rdf+xml)"
	}
	format, ok := rdfPayloadFormat(ct)
	if !ok {
		return nil, http.StatusUnsupportedMediaType, "unsupported Content-Type " + excerpt(ct) + "; send an RDF document (text/turtle, application/n-triples, application/ld+json, application/rdf+xml)"
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return nil, http.StatusUnsupportedMediaType, "unsupported charset " + excerpt(cs) + "; RDF documents are UTF-8"
	}
	body, ok := h.readBody(w, r)
	if !ok {
		return nil, http.StatusBadRequest, "" // answered
	}
	if format != 0 {
		triples, err = parsePayload(body, format, base)
		if err != nil {
			return nil, http.StatusBadRequest, err.Error()
		}
		return triples, 0, ""
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for n := 1; ; n++ {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, http.StatusBadRequest, "malformed multipart body: " + clipMessage(err.Error())
		}
		pt, _, err := mime.ParseMediaType(part.Header.Get("Content-Type"))
		f, ok := rdfPayloadFormat(pt)
		if err != nil || !ok || f == 0 {
			if f, ok = graph.FormatFor(part.FileName()); !ok {
				return nil, http.StatusUnsupportedMediaType, "part " + strconv.Itoa(n) + " is not an RDF document (give it an RDF Content-Type)"
			}
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, http.StatusBadRequest, "malformed multipart body: " + clipMessage(err.Error())
		}
		ts, err := parsePayload(data, f, base)
		if err != nil {
			return nil, http.StatusBadRequest, "part " + strconv.Itoa(n) + ": " + err.Error()
		}
		triples = append(triples, ts...)
	}
	return triples, 0, ""
}

// parsePayload parses one graph; a document that names graphs (TriG,
// N-Quads, JSON-LD) is refused, since a Graph Store request is about one.
func parsePayload(data []byte, f graph.Format, base string) ([]graph.Triple, error) {
	var out []graph.Triple
	err := graph.Parse(bytes.NewReader(data), f, graph.ParseOptions{Base: base}, func(q graph.Quad) error {
		if !q.G.IsZero() {
			return errors.New("the document names the graph " + excerpt(q.G.Value) + "; the Graph Store Protocol takes the triples of one graph")
		}
		out = append(out, graph.Triple{S: q.S, P: q.P, O: q.O})
		return nil
	})
	if err != nil {
		return nil, errors.New(f.String() + ": " + clipMessage(err.Error()))
	}
	return out, nil
}

// clipMessage bounds a parser's message, which may quote the input.
func clipMessage(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// graphCopy returns a copy of the named graph (the default graph for the
// zero term); ok is false when it does not exist.
func (s *Store) graphCopy(name graph.Term) (*graph.Graph, bool) {
	sn := s.current()
	var id uint32
	if !name.IsZero() {
		if id = s.dict.lookup(name); id == 0 {
			return nil, false
		}
	}
	gi, ok := sn.graphs[id]
	if !ok {
		return nil, false
	}
	g := graph.NewGraph()
	if gi != nil {
		for _, k := range gi.spo {
			g.Add(graph.Triple{S: sn.dv.term(k[0]), P: sn.dv.term(k[1]), O: sn.dv.term(k[2])})
		}
	}
	return g, true
}

// putGraph replaces (replace) or extends a graph with triples in one
// write. created reports a named graph that did not exist, or a default
// graph that was empty.
func (s *Store) putGraph(name graph.Term, triples []graph.Triple, replace bool) (created bool) {
	s.write(func(w *writer) error {
		id := w.graphID(name)
		gi, ok := w.graphs[id]
		created = !ok || (id == 0 && (gi == nil || gi.len() == 0))
		if replace || !ok {
			w.graphs[id] = &gindex{}
		}
		for _, t := range triples {
			w.addIDs(id, key{w.s.dict.intern(t.S), w.s.dict.intern(t.P), w.s.dict.intern(t.O)})
		}
		return nil
	})
	return created
}

// putNewGraph stores triples in a new graph named prefix plus a random
// suffix and returns its IRI.
func (s *Store) putNewGraph(prefix string, triples []graph.Triple) string {
	var iri string
	s.write(func(w *writer) error {
		for {
			var b [12]byte
			rand.Read(b[:])
			iri = prefix + hex.EncodeToString(b[:])
			if id := w.s.dict.lookup(graph.IRI(iri)); id == 0 || !w.exists(id) {
				break
			}
		}
		id := w.graphID(graph.IRI(iri))
		w.graphs[id] = &gindex{}
		for _, t := range triples {
			w.addIDs(id, key{w.s.dict.intern(t.S), w.s.dict.intern(t.P), w.s.dict.intern(t.O)})
		}
		return nil
	})
	return iri
}

// dropGraph drops a named graph, or empties the default graph (which
// always exists); it reports whether the graph existed.
func (s *Store) dropGraph(name graph.Term) (existed bool) {
	s.write(func(w *writer) error {
		if name.IsZero() {
			existed = true
			w.graphs[0] = &gindex{}
			return nil
		}
		id := w.s.dict.lookup(name)
		if id == 0 || !w.exists(id) {
			return nil
		}
		existed = true
		delete(w.graphs, id)
		return nil
	})
	return existed
}

const (
	sdNS      = "http://www.w3.org/ns/sparql-service-description#"
	formatsNS = "http://www.w3.org/ns/formats/"
	voidNS    = "http://rdfs.org/ns/void#"
	// maxDescribedGraphs bounds the named graphs a service description
	// lists, so that its size does not follow the store's.
	maxDescribedGraphs = 1000
)

// serviceDescription answers a GET of the endpoint without a query with
// the SPARQL 1.1 Service Description of the endpoint: languages, formats,
// features and the default dataset (graph sizes included).
func (h *handler) serviceDescription(w http.ResponseWriter, r *http.Request) {
	g := graph.NewGraph()
	add := func(s, p, o graph.Term) { g.Add(graph.Triple{S: s, P: p, O: o}) }
	a := graph.IRI(graph.RDFType)
	sd := func(local string) graph.Term { return graph.IRI(sdNS + local) }
	svc := graph.Blank("service")
	add(svc, a, sd("Service"))
	add(svc, sd("endpoint"), graph.IRI(h.endpointURL(r)))
	add(svc, sd("supportedLanguage"), sd("SPARQL10Query"))
	add(svc, sd("supportedLanguage"), sd("SPARQL11Query"))
	if !h.opts.ReadOnly {
		add(svc, sd("supportedLanguage"), sd("SPARQL11Update"))
		for _, f := range []string{"Turtle", "N-Triples", "JSON-LD", "RDF_XML"} {
			add(svc, sd("inputFormat"), graph.IRI(formatsNS+f))
		}
	}
	for _, f := range []string{"SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV", "Turtle", "N-Triples", "JSON-LD", "RDF_XML"} {
		add(svc, sd("resultFormat"), graph.IRI(formatsNS+f))
	}
	add(svc, sd("feature"), sd("EmptyGraphs"))
	if h.s.opts.UnionDefaultGraph {
		add(svc, sd("feature"), sd("UnionDefaultGraph"))
	}
	sn := h.s.current()
	ds, dg := graph.Blank("dataset"), graph.Blank("default")
	add(svc, sd("defaultDataset"), ds)
	add(ds, a, sd("Dataset"))
	add(ds, sd("defaultGraph"), dg)
	add(dg, a, sd("Graph"))
	add(dg, graph.IRI(voidNS+"triples"), graph.Literal(strconv.Itoa(sn.graphs[0].len()), graph.XSDInteger))
	for i, id := range sn.namedGraphs() {
		if i == maxDescribedGraphs {
			break
		}
		ng, gg := graph.Blank("named"+strconv.Itoa(i)), graph.Blank("graph"+strconv.Itoa(i))
		add(ds, sd("namedGraph"), ng)
		add(ng, a, sd("NamedGraph"))
		add(ng, sd("name"), sn.dv.term(id))
		add(ng, sd("graph"), gg)
		add(gg, a, sd("Graph"))
		add(gg, graph.IRI(voidNS+"triples"), graph.Literal(strconv.Itoa(sn.graphs[id].len()), graph.XSDInteger))
	}
	h.writeGraph(w, r, r.Header.Get("Accept"), g, false)
}
