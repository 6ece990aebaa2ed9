package catalog

import (
	"bufio"
	"fmt"
	"io"
	"iter"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Namespaces used by the generated data.
const (
	CPRMV    = "https://cprmv.open-regels.nl/0.3.0/"
	CPRMV041 = "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#"
	CPSV     = "http://purl.org/vocab/cpsv#"
	DCT      = "http://purl.org/dc/terms/"
	RONL     = "https://regels.overheid.nl/termen/"
	CV       = "http://data.europa.eu/m8g/"
	SKOS     = "http://www.w3.org/2004/02/skos/core#"
	Base     = "https://regels.example.org/"
	// RONLOntology is the second namespace behind the ronl: prefix.
	RONLOntology = "https://regels.overheid.nl/ontology#"
)

// Options size the catalogue.
type Options struct {
	// Models is the number of decision models; zero means 10,000.
	Models int
}

var varTypes = []string{"String", "Integer", "Double", "Boolean", "Date"}

// Quads yields the catalogue's triples (all in the default graph).
//
// Model i has three inputs and two outputs. Input 0 takes output 0 of
// model i-1 (same identifier and type), input 1 takes output 1 of model
// 7i mod n, and every 50th model's input 2 takes output 1 of model i+2,
// which closes a three-model cycle. Half of the variables have a SKOS
// concept; concepts of linked variables share their skos:exactMatch
// target. Every fifth model uses the CPRMV 0.4.1 class; every third has a
// service with a competent authority (one of 50 organisations).
func Quads(opts Options) iter.Seq[graph.Quad] {
	n := opts.Models
	if n <= 0 {
		n = 10000
	}
	return func(yield func(graph.Quad) bool) {
		g := generator{n: n, yield: yield}
		if !g.organisations() {
			return
		}
		for i := 0; i < n; i++ {
			if !g.model(i) {
				return
			}
		}
	}
}

// generator emits the catalogue of n models; every method reports false
// when the consumer stopped.
type generator struct {
	n     int
	yield func(graph.Quad) bool
}

var rdfType = graph.IRI(graph.RDFType)

func iri(format string, args ...any) graph.Term {
	return graph.IRI(Base + fmt.Sprintf(format, args...))
}

func term(ns, local string) graph.Term { return graph.IRI(ns + local) }

func (g *generator) emit(s, p, o graph.Term) bool { return g.yield(graph.Quad{S: s, P: p, O: o}) }

func (g *generator) outID(i, j int) string { return fmt.Sprintf("out_%d_%d", (i+g.n)%g.n, j) }

func (g *generator) outType(i, j int) string { return varTypes[((i+g.n)%g.n*2+j)%len(varTypes)] }

func (g *generator) organisations() bool {
	for k := 0; k < 50; k++ {
		org := iri("org/%d", k)
		if !g.emit(org, rdfType, term(CV, "PublicOrganisation")) || !g.emit(org, term(SKOS, "prefLabel"), graph.LangLiteral(fmt.Sprintf("Organisatie %d", k), "nl")) {
			return false
		}
	}
	return true
}

// model emits model i: its metadata, its service, its outputs and inputs.
func (g *generator) model(i int) bool {
	m := iri("model/%d", i)
	class := term(CPRMV, "DecisionModel")
	if i%5 == 0 {
		class = term(CPRMV041, "DecisionModel")
	}
	ok := g.emit(m, rdfType, class) &&
		g.emit(m, term(DCT, "identifier"), graph.String(fmt.Sprintf("RONL_Model_%05d", i))) &&
		g.emit(m, term(DCT, "title"), graph.LangLiteral(fmt.Sprintf("Beslismodel %d", i), "nl"))
	if i%2 == 0 {
		ok = ok && g.emit(m, term(DCT, "description"), graph.LangLiteral(fmt.Sprintf("Beschrijving van beslismodel %d", i), "nl"))
	}
	if i%4 == 0 {
		ok = ok && g.emit(m, term(RONL, "implementedBy"), graph.IRI(fmt.Sprintf("https://engine.example.org/engine-rest/decision-definition/key/RONL_Model_%05d/evaluate", i))) &&
			g.emit(m, term(CPRMV, "deploymentId"), graph.String(fmt.Sprintf("dep-%d", i))) &&
			g.emit(m, term(CPRMV, "deployedAt"), graph.Literal(fmt.Sprintf("2025-%02d-%02dT10:00:00Z", i%12+1, i%28+1), graph.XSDDateTime))
	}
	status := []string{"validated", "in-review", "not-validated"}[i%3]
	ok = ok && g.emit(m, graph.IRI(RONLOntology+"validationStatus"), graph.String(status))
	if i%3 == 0 {
		svc := iri("service/%d", i)
		ok = ok && g.emit(m, term(RONL, "implements"), svc) &&
			g.emit(svc, rdfType, term(CPSV, "PublicService")) &&
			g.emit(svc, term(DCT, "title"), graph.LangLiteral(fmt.Sprintf("Dienst %d", i), "nl")) &&
			g.emit(svc, term(CV, "hasCompetentAuthority"), iri("org/%d", i%50))
	}
	if !ok {
		return false
	}
	// outputs: concept shared with the inputs that take them
	for j := 0; j < 2; j++ {
		concept := -1
		if (i+j)%2 == 0 {
			concept = i*2 + j
		}
		if !g.variable(i, m, "output", j, g.outID(i, j), g.outType(i, j), concept) {
			return false
		}
	}
	for j, in := range g.inputs(i) {
		if !g.variable(i, m, "input", j, in.id, in.typ, in.concept) {
			return false
		}
	}
	return true
}

type input struct {
	id, typ string
	concept int
}

// inputs are model i's three inputs.
func (g *generator) inputs(i int) []input {
	n := g.n
	src1 := (i * 7) % n
	inputs := []input{
		{g.outID(i-1, 0), g.outType(i-1, 0), -1},
		{g.outID(src1, 1), g.outType(src1, 1), -1},
		{fmt.Sprintf("in_%d_2", i), varTypes[i%len(varTypes)], -1},
	}
	if (i-1+n)%n%2 == 0 {
		inputs[0].concept = ((i-1+n)%n)*2 + 0
	}
	if (src1+1)%2 == 0 {
		inputs[1].concept = src1*2 + 1
	}
	if i%50 == 0 {
		inputs[2] = input{g.outID(i+2, 1), g.outType(i+2, 1), -1}
	}
	return inputs
}

// variable emits input or output j of model i (m), with its concept
// unless concept is negative.
func (g *generator) variable(i int, m graph.Term, kind string, j int, id, typ string, concept int) bool {
	v := iri("model/%d/%s/%d", i, kind, j)
	link, class := term(CPSV, "isRequiredBy"), term(CPSV, "Input")
	if kind == "output" {
		link, class = term(CPSV, "produces"), term(CPSV, "Output")
	}
	ok := g.emit(v, rdfType, class) && g.emit(v, link, m) &&
		g.emit(v, term(DCT, "identifier"), graph.String(id)) &&
		g.emit(v, term(DCT, "title"), graph.LangLiteral("Variabele "+id, "nl")) &&
		g.emit(v, term(DCT, "type"), graph.String(typ)) &&
		g.emit(v, term(DCT, "description"), graph.LangLiteral(fmt.Sprintf("Variabele %s van beslismodel %d", id, i), "nl"))
	if kind == "input" {
		ok = ok && g.emit(v, graph.IRI("http://schema.org/value"), graph.String(testValue(typ, i+j)))
	}
	if concept >= 0 {
		c := iri("model/%d/%s/%d/concept", i, kind, j)
		ok = ok && g.emit(c, rdfType, term(SKOS, "Concept")) &&
			g.emit(c, term(SKOS, "prefLabel"), graph.LangLiteral("Begrip "+id, "nl")) &&
			g.emit(c, term(SKOS, "notation"), graph.String(id)) &&
			g.emit(c, term(DCT, "subject"), v) &&
			g.emit(c, term(SKOS, "exactMatch"), iri("concept/%d", concept))
	}
	return ok
}

func testValue(typ string, k int) string {
	switch typ {
	case "Integer":
		return fmt.Sprint(k % 1000)
	case "Double":
		return fmt.Sprintf("%d.5", k%1000)
	case "Boolean":
		return fmt.Sprint(k%2 == 0)
	case "Date":
		return fmt.Sprintf("2025-%02d-%02d", k%12+1, k%28+1)
	}
	return fmt.Sprintf("waarde %d", k)
}

// WriteNTriples writes the catalogue as N-Triples (for loading it into
// another engine).
func WriteNTriples(w io.Writer, opts Options) error {
	bw := bufio.NewWriter(w)
	for q := range Quads(opts) {
		bw.WriteString(q.Triple().String())
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

const prefixes = `PREFIX cprmv: <https://cprmv.open-regels.nl/0.3.0/>
PREFIX cprmv041: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#>
PREFIX cpsv: <http://purl.org/vocab/cpsv#>
PREFIX dct: <http://purl.org/dc/terms/>
PREFIX ronl: <https://regels.overheid.nl/termen/>
PREFIX cv: <http://data.europa.eu/m8g/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
`

// ListingQuery lists every decision model of either class with its
// optional metadata, ordered by identifier.
const ListingQuery = prefixes + `SELECT ?model ?identifier ?title ?description ?implementedBy ?deploymentId ?service ?serviceTitle ?organization ?organizationName WHERE {
  { ?model a cprmv:DecisionModel } UNION { ?model a cprmv041:DecisionModel }
  ?model dct:identifier ?identifier ; dct:title ?title .
  OPTIONAL { ?model dct:description ?description }
  OPTIONAL { { ?model ronl:implementedBy ?implementedBy } UNION { ?model cprmv:implementedBy ?implementedBy } UNION { ?model cprmv041:implementedBy ?implementedBy } }
  OPTIONAL { { ?model cprmv:deploymentId ?deploymentId } UNION { ?model cprmv041:deploymentId ?deploymentId } }
  OPTIONAL {
    { ?model ronl:implements ?service } UNION { ?model cprmv:implements ?service } UNION { ?model cprmv041:implements ?service }
    ?service dct:title ?serviceTitle .
    OPTIONAL { ?service cv:hasCompetentAuthority ?organization . ?organization skos:prefLabel ?organizationName }
  }
}
ORDER BY ?identifier`

// PairsQuery finds connectable output/input pairs of different models with
// equal types, matched by identifier or by a shared skos:exactMatch
// concept.
const PairsQuery = prefixes + `SELECT ?dmn1 ?id1 ?title1 ?dmn2 ?id2 ?title2 ?outputVariable ?inputVariable ?variableType ?sharedConcept WHERE {
  {
    ?out a cpsv:Output ; cpsv:produces ?dmn1 ; dct:identifier ?outputVariable ; dct:type ?variableType .
    ?in a cpsv:Input ; cpsv:isRequiredBy ?dmn2 ; dct:identifier ?outputVariable ; dct:type ?variableType .
    BIND(?outputVariable AS ?inputVariable)
  } UNION {
    ?co dct:subject ?out ; skos:exactMatch ?sharedConcept .
    ?ci dct:subject ?in ; skos:exactMatch ?sharedConcept .
    FILTER(?co != ?ci)
    ?out a cpsv:Output ; cpsv:produces ?dmn1 ; dct:identifier ?outputVariable ; dct:type ?variableType .
    ?in a cpsv:Input ; cpsv:isRequiredBy ?dmn2 ; dct:identifier ?inputVariable ; dct:type ?variableType .
  }
  FILTER(?dmn1 != ?dmn2)
  ?dmn1 dct:identifier ?id1 ; dct:title ?title1 .
  ?dmn2 dct:identifier ?id2 ; dct:title ?title2 .
}`

// CyclesQuery finds three-model cycles where an output of each model feeds
// an input of the next by identifier.
const CyclesQuery = prefixes + `SELECT ?d1 ?t1 ?d2 ?t2 ?d3 ?t3 WHERE {
  ?o1 cpsv:produces ?d1 ; dct:identifier ?x1 . ?i2 cpsv:isRequiredBy ?d2 ; dct:identifier ?x1 .
  ?o2 cpsv:produces ?d2 ; dct:identifier ?x2 . ?i3 cpsv:isRequiredBy ?d3 ; dct:identifier ?x2 .
  ?o3 cpsv:produces ?d3 ; dct:identifier ?x3 . ?i1 cpsv:isRequiredBy ?d1 ; dct:identifier ?x3 .
  FILTER(?d1 != ?d2 && ?d2 != ?d3 && ?d1 != ?d3)
  ?d1 dct:title ?t1 . ?d2 dct:title ?t2 . ?d3 dct:title ?t3 .
}`
