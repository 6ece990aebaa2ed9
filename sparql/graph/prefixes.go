package graph

import (
	"iter"
	"strings"
)

// Prefixes is an ordered map from prefix names to namespace IRIs, as declared
// by Turtle's @prefix. The zero value is not usable; call NewPrefixes.
// Declaration order is kept (a redeclared prefix keeps its first place), so
// serialisers write prefixes in the order a document or caller gave them.
type Prefixes struct {
	names []string
	ns    map[string]string
}

// NewPrefixes returns a prefix map holding the given prefix, namespace pairs,
// e.g. NewPrefixes("dct", "http://purl.org/dc/terms/"). A trailing unpaired
// argument is ignored.
func NewPrefixes(pairs ...string) *Prefixes {
	p := &Prefixes{ns: make(map[string]string)}
	for i := 0; i+1 < len(pairs); i += 2 {
		p.Set(pairs[i], pairs[i+1])
	}
	return p
}

// CommonPrefixes returns a new map with rdf, rdfs, xsd and owl.
func CommonPrefixes() *Prefixes {
	return NewPrefixes("rdf", RDF, "rdfs", RDFS, "xsd", XSD, "owl", "http://www.w3.org/2002/07/owl#")
}

// Set declares prefix (without the colon) for namespace, replacing an
// earlier declaration of the same prefix.
func (p *Prefixes) Set(prefix, namespace string) {
	if _, ok := p.ns[prefix]; !ok {
		p.names = append(p.names, prefix)
	}
	p.ns[prefix] = namespace
}

// Namespace returns the namespace declared for prefix.
func (p *Prefixes) Namespace(prefix string) (string, bool) {
	if p == nil {
		return "", false
	}
	ns, ok := p.ns[prefix]
	return ns, ok
}

// Len returns the number of declared prefixes.
func (p *Prefixes) Len() int {
	if p == nil {
		return 0
	}
	return len(p.names)
}

// All yields prefix, namespace pairs in declaration order.
func (p *Prefixes) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		if p == nil {
			return
		}
		for _, n := range p.names {
			if !yield(n, p.ns[n]) {
				return
			}
		}
	}
}

// Clone returns an independent copy of p.
func (p *Prefixes) Clone() *Prefixes {
	c := NewPrefixes()
	if p != nil {
		for n, ns := range p.All() {
			c.Set(n, ns)
		}
	}
	return c
}

// Expand turns a prefixed name such as "dct:title" into the full IRI. It
// reports false when the name has no colon or its prefix is not declared.
// The local part is appended as written (no unescaping).
func (p *Prefixes) Expand(pname string) (string, bool) {
	i := strings.IndexByte(pname, ':')
	if i < 0 || p == nil {
		return "", false
	}
	ns, ok := p.ns[pname[:i]]
	if !ok {
		return "", false
	}
	return ns + pname[i+1:], true
}

// Compact writes iri as a prefixed name using the longest namespace that
// leaves a local part that is valid Turtle without escapes. It reports false
// when no declared namespace fits.
func (p *Prefixes) Compact(iri string) (string, bool) {
	if p == nil {
		return "", false
	}
	best, bestNS := "", -1
	for _, n := range p.names {
		ns := p.ns[n]
		if len(ns) > bestNS && strings.HasPrefix(iri, ns) && validLocalName(iri[len(ns):]) {
			best, bestNS = n, len(ns)
		}
	}
	if bestNS < 0 {
		return "", false
	}
	return best + ":" + iri[bestNS:], true
}
