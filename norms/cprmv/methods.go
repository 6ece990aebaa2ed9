package cprmv

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Namespaces of the emitted vocabulary.
const (
	NS        = "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#"
	MethodsNS = "https://cprmv.open-regels.nl/0.4.1/methods/"
	ServeNS   = "https://cprmv.open-regels.nl/0.4.1/serve-api/"
	// ExtNS holds the unformat fields and context keys.
	ExtNS = "http://cprmv.open-regels.nl/"
	// Version is the CPRMV vocabulary version emitted.
	Version = "0.4.1"

	provDerived = "http://www.w3.org/ns/prov#wasDerivedFrom"
	rdfsMember  = "http://www.w3.org/2000/01/rdf-schema#member"
	rdfsLabel   = "http://www.w3.org/2000/01/rdf-schema#label"
)

//go:embed vocab/cprmv.ttl vocab/cprmvmethods.ttl vocab/cprmv.shacl.ttl
var vocab embed.FS

// Files returns the vocabulary, methods and SHACL files (cprmv.ttl,
// cprmvmethods.ttl, cprmv.shacl.ttl) that the methods graph is read from, for
// serving beside the specification.
func Files() fs.FS {
	sub, _ := fs.Sub(vocab, "vocab")
	return sub
}

// Method is one publication or reference method as the methods graph
// describes it.
type Method struct {
	ID       string // bwb, cvdr, cellarfmx4, dmn13operaton, cprmvapi, juriconnect
	IRI      string
	Class    string // the RuleMethod subclass IRI(s) it is typed with, first one
	Format   string // normalized-id-format
	Location string // repository-publication-location-format
	SRU      string // frbr-repository-sru-url, a template with {rulesetid} and {date}
	Mapping  map[string]string
	ValidOn  string // reference-mapping-valid-on
	SeenOn   string // reference-mapping-seen-on

	pattern *regexp.Regexp
	fields  []string
}

// Methods is the parsed methods graph merged with the vocabulary.
type Methods struct {
	Graph       *graph.Graph
	Publication []*Method // detection order
	Reference   []*Method
}

// DefaultMethods parses the embedded vocabulary and methods files.
func DefaultMethods() (*Methods, error) {
	var docs [][]byte
	for _, name := range []string{"vocab/cprmv.ttl", "vocab/cprmvmethods.ttl"} {
		b, err := vocab.ReadFile(name)
		if err != nil {
			return nil, err
		}
		docs = append(docs, b)
	}
	return LoadMethods(docs...)
}

// LoadMethods reads Turtle documents (the vocabulary and a methods graph)
// into one graph and takes the publication and reference methods from its
// value lists.
func LoadMethods(turtle ...[]byte) (*Methods, error) {
	g := graph.NewGraph()
	for i, doc := range turtle {
		part, err := graph.ParseGraph(bytes.NewReader(doc), graph.Turtle, graph.ParseOptions{BlankScope: fmt.Sprintf("m%d", i)})
		if err != nil {
			return nil, fmt.Errorf("cprmv: methods graph: %w", err)
		}
		g.AddAll(part.Triples())
	}
	m := &Methods{Graph: g}
	var err error
	if m.Publication, err = readMethodList(g, "publicationmethods"); err != nil {
		return nil, err
	}
	if m.Reference, err = readMethodList(g, "referencemethods"); err != nil {
		return nil, err
	}
	if len(m.Publication) == 0 {
		return nil, fmt.Errorf("cprmv: methods graph lists no publication methods")
	}
	return m, nil
}

func readMethodList(g *graph.Graph, list string) ([]*Method, error) {
	head, ok := g.Object(graph.IRI(MethodsNS+list), graph.IRI(rdfsMember))
	if !ok {
		return nil, fmt.Errorf("cprmv: methods graph has no list %s", list)
	}
	items, ok := g.List(head)
	if !ok {
		return nil, fmt.Errorf("cprmv: methods graph: %s is not a well-formed list", list)
	}
	var out []*Method
	for _, it := range items {
		m := &Method{IRI: it.Value, Mapping: map[string]string{}}
		str := func(p string) string {
			o, _ := g.Object(it, graph.IRI(p))
			return o.Value
		}
		m.ID = str(NS + "id")
		if m.ID == "" {
			return nil, fmt.Errorf("cprmv: method %s has no cprmv:id", it.Value)
		}
		if t, ok := g.Object(it, graph.IRI(graph.RDF+"type")); ok {
			m.Class = t.Value
		}
		m.Format = str(ServeNS + "normalized-id-format")
		m.Location = str(ServeNS + "repository-publication-location-format")
		m.SRU = str(ServeNS + "frbr-repository-sru-url")
		m.ValidOn = str(ServeNS + "reference-mapping-valid-on")
		m.SeenOn = str(ServeNS + "reference-mapping-seen-on")
		for o := range g.Objects(it, graph.IRI(ServeNS+"reference-mapping")) {
			k, v, ok := strings.Cut(o.Value, "=")
			if !ok {
				return nil, fmt.Errorf("cprmv: method %s: reference-mapping %q is not key=Label", m.ID, o.Value)
			}
			m.Mapping[k] = v
		}
		if m.Format != "" {
			m.pattern, m.fields = compileFormat(m.Format)
		}
		out = append(out, m)
	}
	return out, nil
}

var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// compileFormat turns "BWB{rulesetid}_{date}_{index}" into an anchored
// expression whose placeholders match lazily.
func compileFormat(format string) (*regexp.Regexp, []string) {
	var b strings.Builder
	var fields []string
	b.WriteString("^")
	last := 0
	for _, loc := range placeholder.FindAllStringSubmatchIndex(format, -1) {
		b.WriteString(regexp.QuoteMeta(format[last:loc[0]]))
		b.WriteString("(.+?)")
		fields = append(fields, format[loc[2]:loc[3]])
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(format[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String()), fields
}

// fill substitutes {name} placeholders of a template.
func fill(template string, values map[string]string) string {
	return placeholder.ReplaceAllStringFunc(template, func(p string) string {
		if v, ok := values[p[1:len(p)-1]]; ok {
			return v
		}
		return p
	})
}

func (m *Methods) publication(id string) *Method {
	for _, p := range m.Publication {
		if p.ID == id {
			return p
		}
	}
	return nil
}
