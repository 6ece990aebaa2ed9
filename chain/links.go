package chain

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/regelkit/regelkit/sparql"
)

// Connectable pairs need typed variables (a cpsv:Output feeding a
// cpsv:Input); the models need an identifier and a title but no class
// (a graph may type its models with a class this package does not
// know). Exact and semantic matches are
// separate queries that join on the identifier or on the shared concept —
// one query with "same identifier OR shared concept" would compare every
// output with every input.

const exactPairsQuery = queryPrefixes + `SELECT DISTINCT ?o ?i ?m1 ?m2 ?x ?outType ?inType WHERE {
  ?o a cpsv:Output ; cpsv:produces ?m1 ; dct:identifier ?x ; dct:type ?outType .
  ?i a cpsv:Input ; cpsv:isRequiredBy ?m2 ; dct:identifier ?x ; dct:type ?inType .
  FILTER(?m1 != ?m2)
}`

// A concept whose skos:exactMatch is itself links nothing (upstream data
// defect seen in published graphs).
const semanticPairsQuery = queryPrefixes + `SELECT DISTINCT ?o ?i ?m1 ?m2 ?outId ?inId ?outType ?inType ?shared WHERE {
  ?co dct:subject ?o ; skos:exactMatch ?shared .
  FILTER(?shared != ?co)
  ?ci dct:subject ?i ; skos:exactMatch ?shared .
  FILTER(?shared != ?ci)
  ?o a cpsv:Output ; cpsv:produces ?m1 ; dct:identifier ?outId ; dct:type ?outType .
  ?i a cpsv:Input ; cpsv:isRequiredBy ?m2 ; dct:identifier ?inId ; dct:type ?inType .
  FILTER(?m1 != ?m2)
}`

// modelNamesQuery reads identifier and title of every resource that has
// both; typed lists whether the resource is a DecisionModel.
const modelNamesQuery = queryPrefixes + `SELECT DISTINCT ?m ?id ?title ?typed WHERE {
  ?m dct:identifier ?id ; dct:title ?title .
  OPTIONAL { ` + decisionModelClasses + ` ?m a ?class . BIND(true AS ?typed) }
}`

// modelName is what pairs, equivalences and cycles show of a model.
type modelName struct {
	id, title values
	typed     bool
	// titleNL holds titles whose language is nl or empty (equivalences and
	// cycles require one).
	titleNL values
}

func modelNames(ctx context.Context, ep sparql.Endpoint) (map[string]*modelName, error) {
	res, err := ep.Select(ctx, modelNamesQuery)
	if err != nil {
		return nil, err
	}
	out := map[string]*modelName{}
	for _, s := range res.Solutions {
		m := s["m"]
		if !m.IsIRI() {
			continue
		}
		mn := out[m.Value]
		if mn == nil {
			mn = &modelName{}
			out[m.Value] = mn
		}
		mn.id.add(s["id"])
		t := s["title"]
		mn.title.add(t)
		if t.Lang == "" || t.Lang == "nl" {
			mn.titleNL.add(t)
		}
		if !s["typed"].IsZero() {
			mn.typed = true
		}
	}
	return out, nil
}

func (mn *modelName) ref(uri string) ModelRef {
	return ModelRef{URI: uri, Identifier: mn.id.text(), Title: mn.title.text()}
}

// sameType compares dct:type values ignoring case: "Boolean" and "boolean"
// silently broke links upstream.
func sameType(a, b string) bool { return strings.EqualFold(a, b) }

// ConnectablePairs returns every output/input pair of two different models
// with equal types that match by identifier or through a shared
// skos:exactMatch concept. A pair matching both ways appears twice, first
// exact, then semantic. Order: pairs matching both ways first, then exact,
// then semantic; within each, by the two model titles.
func ConnectablePairs(ctx context.Context, ep sparql.Endpoint) ([]Pair, error) {
	names, err := modelNames(ctx, ep)
	if err != nil {
		return nil, fmt.Errorf("connectable pairs: %w", err)
	}
	exact, err := ep.Select(ctx, exactPairsQuery)
	if err != nil {
		return nil, fmt.Errorf("connectable pairs: %w", err)
	}
	semantic, err := ep.Select(ctx, semanticPairsQuery)
	if err != nil {
		return nil, fmt.Errorf("connectable pairs: %w", err)
	}
	type varPair struct{ o, i string }
	type found struct {
		m1, m2              string
		outID, inID, outTyp string
		exact               bool
		shared              values
	}
	pairs := map[varPair]*found{}
	get := func(s sparql.Solution, outID, inID string) *found {
		k := varPair{s["o"].String(), s["i"].String()}
		f := pairs[k]
		if f == nil {
			f = &found{m1: s["m1"].Value, m2: s["m2"].Value, outID: outID, inID: inID, outTyp: s["outType"].Value}
			pairs[k] = f
		}
		return f
	}
	for _, s := range exact.Solutions {
		if !sameType(s["outType"].Value, s["inType"].Value) {
			continue
		}
		get(s, s["x"].Value, s["x"].Value).exact = true
	}
	for _, s := range semantic.Solutions {
		if !sameType(s["outType"].Value, s["inType"].Value) {
			continue
		}
		get(s, s["outId"].Value, s["inId"].Value).shared.add(s["shared"])
	}
	type row struct {
		rank int // 0 both, 1 exact, 2 semantic
		pair Pair
	}
	var rows []row
	for _, f := range pairs {
		n1, n2 := names[f.m1], names[f.m2]
		if n1 == nil || n2 == nil {
			continue // both models need an identifier and a title
		}
		base := Pair{DMN1: n1.ref(f.m1), DMN2: n2.ref(f.m2), OutputVariable: f.outID, InputVariable: f.inID, VariableType: f.outTyp}
		rank := 2
		switch {
		case f.exact && len(f.shared) > 0:
			rank = 0
		case f.exact:
			rank = 1
		}
		if f.exact {
			p := base
			p.MatchType = MatchExact
			rows = append(rows, row{rank, p})
		}
		for _, s := range f.shared {
			p := base
			p.MatchType = MatchSemantic
			concept := s.Value
			p.SharedConcept = &concept
			rows = append(rows, row{rank, p})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(
			cmp.Compare(a.rank, b.rank),
			cmp.Compare(a.pair.DMN1.Title, b.pair.DMN1.Title),
			cmp.Compare(a.pair.DMN2.Title, b.pair.DMN2.Title),
			cmp.Compare(a.pair.OutputVariable, b.pair.OutputVariable),
			cmp.Compare(a.pair.InputVariable, b.pair.InputVariable),
			cmp.Compare(a.pair.DMN1.URI, b.pair.DMN1.URI),
			cmp.Compare(a.pair.DMN2.URI, b.pair.DMN2.URI),
			cmp.Compare(a.pair.MatchType, b.pair.MatchType), // exact before semantic within a "both" pair
			cmp.Compare(deref(a.pair.SharedConcept), deref(b.pair.SharedConcept)),
		)
	})
	out := make([]Pair, len(rows))
	for i, r := range rows {
		out[i] = r.pair
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

const equivalencesQuery = queryPrefixes + `SELECT DISTINCT ?shared ?c1 ?l1 ?n1 ?v1 ?vid1 ?vt1 ?d1 ?c2 ?l2 ?n2 ?v2 ?vid2 ?vt2 ?d2 WHERE {
  ?c1 a skos:Concept ; skos:exactMatch ?shared ; skos:prefLabel ?l1 ; dct:subject ?v1 .
  FILTER(?shared != ?c1)
  ?c2 a skos:Concept ; skos:exactMatch ?shared ; skos:prefLabel ?l2 ; dct:subject ?v2 .
  FILTER(?c1 != ?c2 && ?shared != ?c2)
  OPTIONAL { ?c1 skos:notation ?n1 }
  OPTIONAL { ?c2 skos:notation ?n2 }
  ?v1 dct:identifier ?vid1 ; dct:type ?vt1 .
  { ?v1 cpsv:isRequiredBy ?d1 } UNION { ?v1 cpsv:produces ?d1 }
  ?v2 dct:identifier ?vid2 ; dct:type ?vt2 .
  { ?v2 cpsv:isRequiredBy ?d2 } UNION { ?v2 cpsv:produces ?d2 }
  FILTER(?d1 != ?d2)
}`

// SemanticEquivalences returns the variables of different decision models
// whose concepts share a skos:exactMatch target, in both orderings, ordered
// by shared concept and then by the model titles.
func SemanticEquivalences(ctx context.Context, ep sparql.Endpoint) ([]Equivalence, error) {
	names, err := modelNames(ctx, ep)
	if err != nil {
		return nil, fmt.Errorf("semantic equivalences: %w", err)
	}
	res, err := ep.Select(ctx, equivalencesQuery)
	if err != nil {
		return nil, fmt.Errorf("semantic equivalences: %w", err)
	}
	type side struct{ concept, variable, model string }
	type acc struct {
		shared          string
		a, b            side
		l1, n1, l2, n2  values
		vid1, vt1, vid2 values
		vt2             values
	}
	found := map[[4]string]*acc{}
	var order [][4]string
	for _, s := range res.Solutions {
		d1, d2 := s["d1"].Value, s["d2"].Value
		n1, n2 := names[d1], names[d2]
		if n1 == nil || n2 == nil || !n1.typed || !n2.typed || len(n1.titleNL) == 0 || len(n2.titleNL) == 0 {
			continue // both must be decision models with a Dutch or untagged title
		}
		k := [4]string{s["shared"].Value, s["c1"].Value + "\x00" + s["v1"].Value + "\x00" + d1, s["c2"].Value + "\x00" + s["v2"].Value + "\x00" + d2}
		a := found[k]
		if a == nil {
			a = &acc{shared: s["shared"].Value,
				a: side{s["c1"].Value, s["v1"].Value, d1}, b: side{s["c2"].Value, s["v2"].Value, d2}}
			found[k] = a
			order = append(order, k)
		}
		a.l1.add(s["l1"])
		a.n1.add(s["n1"])
		a.l2.add(s["l2"])
		a.n2.add(s["n2"])
		a.vid1.add(s["vid1"])
		a.vt1.add(s["vt1"])
		a.vid2.add(s["vid2"])
		a.vt2.add(s["vt2"])
	}
	out := make([]Equivalence, 0, len(found))
	for _, k := range order {
		a := found[k]
		out = append(out, Equivalence{
			SharedConcept: a.shared,
			Concept1: ConceptInfo{URI: a.a.concept, Label: a.l1.text(), Notation: a.n1.text(),
				Variable: VariableRef{URI: a.a.variable, Identifier: a.vid1.text(), Type: a.vt1.text()}},
			Concept2: ConceptInfo{URI: a.b.concept, Label: a.l2.text(), Notation: a.n2.text(),
				Variable: VariableRef{URI: a.b.variable, Identifier: a.vid2.text(), Type: a.vt2.text()}},
			DMN1: TitledRef{URI: a.a.model, Title: names[a.a.model].titleNL.text()},
			DMN2: TitledRef{URI: a.b.model, Title: names[a.b.model].titleNL.text()},
		})
	}
	slices.SortFunc(out, func(x, y Equivalence) int {
		return cmp.Or(
			cmp.Compare(x.SharedConcept, y.SharedConcept),
			cmp.Compare(x.DMN1.Title, y.DMN1.Title),
			cmp.Compare(x.DMN2.Title, y.DMN2.Title),
			cmp.Compare(x.Concept1.URI, y.Concept1.URI),
			cmp.Compare(x.Concept2.URI, y.Concept2.URI),
			cmp.Compare(x.Concept1.Variable.URI, y.Concept1.Variable.URI),
			cmp.Compare(x.Concept2.Variable.URI, y.Concept2.Variable.URI),
		)
	})
	return out, nil
}

// A hop of a cycle: an output of the first model and an input of the
// second that share the identifier or a concept (no type check).
const exactLinksQuery = queryPrefixes + `SELECT DISTINCT ?d1 ?d2 WHERE {
  ?o a cpsv:Output ; cpsv:produces ?d1 ; dct:identifier ?x .
  ?i a cpsv:Input ; cpsv:isRequiredBy ?d2 ; dct:identifier ?x .
  FILTER(?d1 != ?d2)
}`

const semanticLinksQuery = queryPrefixes + `SELECT DISTINCT ?d1 ?d2 WHERE {
  ?co dct:subject ?o ; skos:exactMatch ?s .
  FILTER(?s != ?co)
  ?ci dct:subject ?i ; skos:exactMatch ?s .
  FILTER(?s != ?ci)
  ?o a cpsv:Output ; cpsv:produces ?d1 .
  ?i a cpsv:Input ; cpsv:isRequiredBy ?d2 .
  FILTER(?d1 != ?d2)
}`

// Cycles returns the three-model cycles: decision models D1, D2, D3,
// pairwise distinct, where an output of each feeds an input of the next by
// identifier or shared concept. Every rotation of a cycle is reported (as
// upstream did), ordered by the titles along the path.
func Cycles(ctx context.Context, ep sparql.Endpoint) ([]Cycle, error) {
	names, err := modelNames(ctx, ep)
	if err != nil {
		return nil, fmt.Errorf("cycles: %w", err)
	}
	succ := map[string]map[string]bool{}
	for _, q := range []string{exactLinksQuery, semanticLinksQuery} {
		res, err := ep.Select(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("cycles: %w", err)
		}
		for _, s := range res.Solutions {
			d1, d2 := s["d1"].Value, s["d2"].Value
			if n := names[d1]; n == nil || !n.typed {
				continue
			}
			if n := names[d2]; n == nil || !n.typed {
				continue
			}
			if succ[d1] == nil {
				succ[d1] = map[string]bool{}
			}
			succ[d1][d2] = true
		}
	}
	ref := func(d string) TitledRef { return TitledRef{URI: d, Title: names[d].title.text()} }
	var out []Cycle
	for d1, next := range succ {
		for d2 := range next {
			for d3 := range succ[d2] {
				if d3 == d1 || d3 == d2 || !succ[d3][d1] {
					continue
				}
				out = append(out, Cycle{Path: []TitledRef{ref(d1), ref(d2), ref(d3)}, Type: "three-hop"})
			}
		}
	}
	slices.SortFunc(out, func(a, b Cycle) int {
		for i := range 3 {
			if c := cmp.Or(cmp.Compare(a.Path[i].Title, b.Path[i].Title), cmp.Compare(a.Path[i].URI, b.Path[i].URI)); c != 0 {
				return c
			}
		}
		return 0
	})
	if out == nil {
		out = []Cycle{}
	}
	return out, nil
}

// Chains need the identifier of each model but no class or type check on
// the variables.
const chainsQuery = queryPrefixes + `SELECT DISTINCT ?id1 ?id2 ?x ?t WHERE {
  VALUES ?c1 { cprmv:DecisionModel cprmv041:DecisionModel }
  VALUES ?c2 { cprmv:DecisionModel cprmv041:DecisionModel }
  ?m1 a ?c1 ; dct:identifier ?id1 .
  ?o cpsv:produces ?m1 ; dct:identifier ?x ; dct:type ?t .
  ?i cpsv:isRequiredBy ?m2 ; dct:identifier ?x .
  ?m2 a ?c2 ; dct:identifier ?id2 .
  FILTER(?m1 != ?m2)
}
ORDER BY ?id1 ?id2 ?x ?t`

// Chains groups, per source model identifier, the models its outputs feed
// by identifier.
func Chains(ctx context.Context, ep sparql.Endpoint) ([]Group, error) {
	res, err := ep.Select(ctx, chainsQuery)
	if err != nil {
		return nil, fmt.Errorf("chains: %w", err)
	}
	out := []Group{}
	index := map[string]int{}
	seen := map[[3]string]bool{}
	for _, s := range res.Solutions {
		from, to, x := s["id1"].Value, s["id2"].Value, s["x"].Value
		if seen[[3]string{from, to, x}] {
			continue // a variable with two types: keep the first row
		}
		seen[[3]string{from, to, x}] = true
		i, ok := index[from]
		if !ok {
			i = len(out)
			index[from] = i
			out = append(out, Group{From: from})
		}
		out[i].Connections = append(out[i].Connections, Connection{To: to, Variable: x, VariableType: s["t"].Value})
	}
	return out, nil
}

// semanticPairsAmongQuery is semanticPairsQuery restricted to the models
// listed in values (IRIs in angle brackets).
func semanticPairsAmongQuery(values string) string {
	return queryPrefixes + `SELECT DISTINCT ?o ?i ?m1 ?m2 ?outId ?inId ?outType ?inType ?shared WHERE {
  VALUES ?m1 { ` + values + ` }
  VALUES ?m2 { ` + values + ` }
  ?o a cpsv:Output ; cpsv:produces ?m1 ; dct:identifier ?outId ; dct:type ?outType .
  ?i a cpsv:Input ; cpsv:isRequiredBy ?m2 ; dct:identifier ?inId ; dct:type ?inType .
  FILTER(?m1 != ?m2)
  ?co dct:subject ?o ; skos:exactMatch ?shared .
  FILTER(?shared != ?co)
  ?ci dct:subject ?i ; skos:exactMatch ?shared .
  FILTER(?shared != ?ci)
}`
}

// SemanticLinks returns the semantic connectable pairs (as
// ConnectablePairs reports them) between the given models only: an output
// of one and an input of another, of equal type, whose concepts share a
// skos:exactMatch target. Chain execution uses them to pass values
// forward under another identifier, and DRD export to refuse chains that
// depend on them. Models whose IRI cannot be written in a query are left
// out.
func SemanticLinks(ctx context.Context, ep sparql.Endpoint, models []Model) ([]Pair, error) {
	byURI := map[string]Model{}
	var values []string
	for _, m := range models {
		if _, seen := byURI[m.ID]; seen || !safeIRI(m.ID) {
			continue
		}
		byURI[m.ID] = m
		values = append(values, "<"+m.ID+">")
	}
	if len(values) < 2 {
		return nil, nil
	}
	slices.Sort(values)
	res, err := ep.Select(ctx, semanticPairsAmongQuery(strings.Join(values, " ")))
	if err != nil {
		return nil, fmt.Errorf("semantic links: %w", err)
	}
	ref := func(uri string) ModelRef {
		m := byURI[uri]
		return ModelRef{URI: uri, Identifier: m.Identifier, Title: m.Title}
	}
	var out []Pair
	seen := map[[4]string]bool{}
	for _, s := range res.Solutions {
		if !sameType(s["outType"].Value, s["inType"].Value) {
			continue
		}
		m1, m2 := s["m1"].Value, s["m2"].Value
		k := [4]string{s["o"].String(), s["i"].String(), m1 + "\x00" + m2, s["shared"].Value}
		if seen[k] {
			continue
		}
		seen[k] = true
		concept := s["shared"].Value
		out = append(out, Pair{DMN1: ref(m1), DMN2: ref(m2),
			OutputVariable: s["outId"].Value, InputVariable: s["inId"].Value, VariableType: s["outType"].Value,
			MatchType: MatchSemantic, SharedConcept: &concept})
	}
	slices.SortFunc(out, func(a, b Pair) int {
		return cmp.Or(cmp.Compare(a.DMN1.URI, b.DMN1.URI), cmp.Compare(a.DMN2.URI, b.DMN2.URI),
			cmp.Compare(a.InputVariable, b.InputVariable), cmp.Compare(a.OutputVariable, b.OutputVariable),
			cmp.Compare(deref(a.SharedConcept), deref(b.SharedConcept)))
	})
	return out, nil
}

// safeIRI reports whether s can be written as <s> in a query: an absolute
// IRI without the characters IRIREF excludes.
func safeIRI(s string) bool {
	if !strings.Contains(s, ":") {
		return false
	}
	for _, r := range s {
		if r <= 0x20 || strings.ContainsRune("<>\"{}|^`\\", r) {
			return false
		}
	}
	return true
}
