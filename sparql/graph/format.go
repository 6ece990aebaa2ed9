package graph

import (
	"mime"
	"strconv"
	"strings"
)

// Format is an RDF serialisation format.
type Format int

// The supported formats. The zero Format is not a format.
const (
	Turtle Format = iota + 1
	NTriples
	TriG
	NQuads
	RDFXML
	JSONLD
)

var formatInfo = [...]struct {
	name, mediaType, ext string
}{
	Turtle:   {"Turtle", "text/turtle", ".ttl"},
	NTriples: {"N-Triples", "application/n-triples", ".nt"},
	TriG:     {"TriG", "application/trig", ".trig"},
	NQuads:   {"N-Quads", "application/n-quads", ".nq"},
	RDFXML:   {"RDF/XML", "application/rdf+xml", ".rdf"},
	JSONLD:   {"JSON-LD", "application/ld+json", ".jsonld"},
}

func (f Format) valid() bool { return f >= Turtle && f <= JSONLD }

// String returns the format's name, e.g. "Turtle" or "N-Triples".
func (f Format) String() string {
	if !f.valid() {
		return "Format(" + strconv.Itoa(int(f)) + ")"
	}
	return formatInfo[f].name
}

// MediaType returns the format's registered media type, e.g. "text/turtle".
func (f Format) MediaType() string {
	if !f.valid() {
		return ""
	}
	return formatInfo[f].mediaType
}

// Extension returns the usual file extension with its dot, e.g. ".ttl".
func (f Format) Extension() string {
	if !f.valid() {
		return ""
	}
	return formatInfo[f].ext
}

// HasNamedGraphs reports whether the format can carry named graphs (TriG,
// N-Quads and JSON-LD).
func (f Format) HasNamedGraphs() bool { return f == TriG || f == NQuads || f == JSONLD }

var formatAliases = map[string]Format{
	// media types
	"text/turtle":           Turtle,
	"application/x-turtle":  Turtle,
	"text/n3":               Turtle,
	"application/n-triples": NTriples,
	"application/trig":      TriG,
	"application/x-trig":    TriG,
	"application/n-quads":   NQuads,
	"text/x-nquads":         NQuads,
	"application/rdf+xml":   RDFXML,
	"application/ld+json":   JSONLD,
	"application/json":      JSONLD,
	// extensions
	".ttl":    Turtle,
	".turtle": Turtle,
	".n3":     Turtle,
	".nt":     NTriples,
	".trig":   TriG,
	".nq":     NQuads,
	".rdf":    RDFXML,
	".owl":    RDFXML,
	".xml":    RDFXML,
	".jsonld": JSONLD,
	".json":   JSONLD,
	// names
	"turtle":    Turtle,
	"ttl":       Turtle,
	"n3":        Turtle,
	"ntriples":  NTriples,
	"n-triples": NTriples,
	"nt":        NTriples,
	"trig":      TriG,
	"nquads":    NQuads,
	"n-quads":   NQuads,
	"nq":        NQuads,
	"rdfxml":    RDFXML,
	"rdf/xml":   RDFXML,
	"xml":       RDFXML,
	"rdf":       RDFXML,
	"jsonld":    JSONLD,
	"json-ld":   JSONLD,
}

// FormatFor returns the format for a media type ("text/turtle", parameters
// such as "; charset=utf-8" are ignored), a file extension (".ttl"), a file
// name or path ("data/shapes.ttl"), or a short name ("turtle", "nt",
// "json-ld"). N3
// ("text/n3", ".n3") is read as Turtle, and plain JSON as JSON-LD.
func FormatFor(mediaTypeOrExtension string) (Format, bool) {
	s := strings.ToLower(strings.TrimSpace(mediaTypeOrExtension))
	if s == "" {
		return 0, false
	}
	if f, ok := formatAliases[s]; ok {
		return f, true
	}
	if strings.Contains(s, ";") {
		if mt, _, err := mime.ParseMediaType(s); err == nil {
			if f, ok := formatAliases[mt]; ok {
				return f, true
			}
		}
	}
	name := s[strings.LastIndexByte(s, '/')+1:] // a file name or path
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		if f, ok := formatAliases[name[i:]]; ok {
			return f, true
		}
	}
	return 0, false
}
