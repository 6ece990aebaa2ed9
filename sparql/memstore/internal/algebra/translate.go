package algebra

// The translation of parsed syntax to algebra (SPARQL 1.1 §18.2): group
// graph patterns (§18.2.2), triples blocks and paths (§18.2.2.4), and a
// query's projection and solution modifiers (§18.2.4–18.2.5). The
// grammar is in parse.go and syntax.go; it reports every error of the
// text with its position, the translation only those of scope (a BIND or
// AS variable already in scope, ungrouped variables).

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// translateModifiers translates a query's projection and solution
// modifiers over its WHERE pattern (SPARQL 1.1 §18.2.4–18.2.5): grouping
// and aggregates, HAVING, the trailing VALUES, the select expressions,
// ORDER BY, the projection, DISTINCT or REDUCED, and the slice. It sets
// q.Vars, the projected variables.
func (p *parser) translateModifiers(where Node, q *Query, sel selectClause, m *solutionModifier) Node {
	node := where
	// §18.2.4.1 grouping and aggregation
	grouped := m.grouped || len(m.aggs) > 0
	if grouped {
		node = p.group(node, m)
		if sel.star && q.Form == Select {
			panic(p.errf(m.end, "SELECT * is not allowed with GROUP BY or aggregates"))
		}
	}
	// which variables are visible after grouping
	groupVars := map[string]bool{}
	for _, k := range m.keys {
		if k.Var != "" {
			groupVars[k.Var] = true
		}
	}
	for _, a := range m.aggs {
		groupVars[a.Var] = true
	}
	if len(m.having) > 0 {
		node = p.filter(p.conj(m.having), node)
	}
	// the trailing VALUES joins before the select expressions (§18.2.4.3)
	if m.values != nil {
		node = p.join(node, m.values)
	}
	node = p.selectExpressions(node, where, sel, grouped, groupVars)
	if len(m.order) > 0 {
		o := &OrderBy{P: node, Conds: m.order}
		parts := []any{node}
		for _, c := range m.order {
			parts = append(parts, c.Expr)
		}
		p.deep(o, parts...)
		node = o
	}
	// §18.2.5 projection, DISTINCT, REDUCED, slice
	if sel.star {
		q.Vars = publicVars(p.an.InScope(where))
	} else {
		q.Vars = nil
		for _, it := range sel.items {
			q.Vars = append(q.Vars, it.v)
		}
	}
	if q.Form == Select || q.Form == Describe {
		node = wrap(p, &Project{P: node, Vars: q.Vars}, node)
	}
	if sel.distinct {
		node = wrap(p, &Distinct{P: node}, node)
	} else if sel.reduced {
		node = wrap(p, &Reduced{P: node}, node)
	}
	if m.offset > 0 || m.limit >= 0 {
		node = wrap(p, &Slice{P: node, Offset: m.offset, Limit: m.limit}, node)
	}
	return node
}

// group is Group(keys, aggregates, node) (§18.2.4.1).
func (p *parser) group(node Node, m *solutionModifier) Node {
	g := &Group{P: node, Keys: m.keys, Aggs: m.aggs}
	parts := []any{node}
	for _, k := range m.keys {
		parts = append(parts, k.Expr)
	}
	for _, a := range m.aggs {
		parts = append(parts, a.Agg)
	}
	p.deep(g, parts...)
	return g
}

// selectExpressions extends node with the (expr AS ?v) items of the select
// clause (§18.2.4.4), checking that each ?v is new and, in a grouped
// query, that every projected variable is grouped or aggregated.
func (p *parser) selectExpressions(node, where Node, sel selectClause, grouped bool, groupVars map[string]bool) Node {
	inScope := map[string]bool{}
	for _, v := range p.an.InScope(where) {
		inScope[v] = true
	}
	seen := map[string]bool{}
	for _, it := range sel.items {
		if it.expr != nil {
			if inScope[it.v] || seen[it.v] {
				panic(p.errf(it.tok, "variable ?%s is already bound before AS", it.v))
			}
			if grouped {
				p.checkGroupedExpr(it.expr, groupVars, it.tok)
			}
			node = p.extend(node, it.v, it.expr)
			groupVars[it.v] = true
		} else if grouped && !groupVars[it.v] {
			panic(p.errf(it.tok, "variable ?%s is neither grouped nor aggregated", it.v))
		}
		seen[it.v] = true
	}
	return node
}

func (p *parser) checkGroupedExpr(e Expr, ok map[string]bool, t token) {
	switch e := e.(type) {
	case *ExprVar:
		if !ok[e.Name] {
			panic(p.errf(t, "variable ?%s is neither grouped nor aggregated", e.Name))
		}
	case *Call:
		for _, a := range e.Args {
			p.checkGroupedExpr(a, ok, t)
		}
	}
}

func publicVars(vars []string) []string {
	out := []string{}
	for _, v := range vars {
		if !strings.HasPrefix(v, "_:") {
			out = append(out, v)
		}
	}
	return out
}

func (p *parser) conj(es []Expr) Expr {
	e := es[0]
	for _, x := range es[1:] {
		e = p.call("&&", e, x)
	}
	return e
}

// translateGroup implements the translation of a group graph pattern
// (SPARQL 1.1 §18.2.2.6).
func (p *parser) translateGroup(elems []groupElem) Node {
	var g Node = &BGP{}
	var filters []Expr
	// the in-scope variables of g, brought up to date at each BIND from
	// the elements joined since (recomputing InScope(g) per BIND would
	// cost the group's size per BIND)
	scope := map[string]bool{}
	var pending []Node
	join := func(a Node) {
		pending = append(pending, a)
		if b, ok := g.(*BGP); ok && len(b.Patterns) == 0 {
			if _, isFilter := a.(*Filter); isFilter {
				// keep {{ ... FILTER }} from turning into an OPTIONAL's
				// own filter
				g = p.join(g, a)
				return
			}
			g = a
			return
		}
		if b, ok := a.(*BGP); ok && len(b.Patterns) == 0 {
			return
		}
		g = p.join(g, a)
	}
	for _, e := range elems {
		switch e.kind {
		case elemFilter:
			filters = append(filters, e.expr)
		case elemOptional:
			pending = append(pending, e.node)
			if f, ok := e.node.(*Filter); ok {
				g = wrap(p, &LeftJoin{L: g, R: f.P, Expr: f.Expr}, g, f.P, f.Expr)
			} else {
				g = wrap(p, &LeftJoin{L: g, R: e.node}, g, e.node)
			}
		case elemMinus:
			g = wrap(p, &Minus{L: g, R: e.node}, g, e.node)
		case elemBind:
			for _, n := range pending {
				for _, v := range p.an.InScope(n) {
					scope[v] = true
				}
			}
			pending = pending[:0]
			if scope[e.bindV] {
				panic(p.errf(e.tok, "BIND variable ?%s is already in scope", e.bindV))
			}
			scope[e.bindV] = true
			g = p.extend(g, e.bindV, e.expr)
		case elemTriples:
			join(p.translateTriples(e.triple))
		default:
			join(e.node)
		}
	}
	if len(filters) > 0 {
		g = p.filter(p.conj(filters), g)
	}
	return g
}

func (p *parser) freshVar() Term {
	p.newVar(p.tok())
	p.freshVars++
	return Term{Var: fmt.Sprintf("_:_p%d", p.freshVars)}
}

// translateTriples turns a triples block into BGPs and path patterns,
// rewriting sequence, inverse and plain-IRI paths into triples (§18.2.2.4).
func (p *parser) translateTriples(items []patternItem) Node {
	var out Node
	bgp := &BGP{}
	flush := func() {
		if len(bgp.Patterns) == 0 {
			return
		}
		p.bgp(bgp)
		if out == nil {
			out = bgp
		} else {
			out = p.join(out, bgp)
		}
		bgp = &BGP{}
	}
	var add func(s Term, path Path, o Term)
	add = func(s Term, path Path, o Term) {
		switch pp := path.(type) {
		case *PathIRI:
			bgp.Patterns = append(bgp.Patterns, TriplePattern{S: s, P: Term{Term: graph.IRI(pp.IRI)}, O: o})
			return
		case *PathInv:
			if iri, ok := pp.P.(*PathIRI); ok {
				bgp.Patterns = append(bgp.Patterns, TriplePattern{S: o, P: Term{Term: graph.IRI(iri.IRI)}, O: s})
				return
			}
		case *PathSeq:
			v := p.freshVar()
			add(s, pp.L, v)
			add(v, pp.R, o)
			return
		}
		flush()
		pat := wrap(p, &PathPattern{S: s, Path: path, O: o}, path)
		if out == nil {
			out = pat
		} else {
			out = p.join(out, pat)
		}
	}
	for _, it := range items {
		if it.path == nil {
			bgp.Patterns = append(bgp.Patterns, TriplePattern{S: it.s, P: it.p, O: it.o})
			continue
		}
		add(it.s, it.path, it.o)
	}
	flush()
	if out == nil {
		return &BGP{}
	}
	return out
}
