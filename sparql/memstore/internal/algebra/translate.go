package algebra

// The translation of the syntax tree (syntax.go) to algebra (SPARQL 1.1
// §18.2): queries and sub-selects, group graph patterns (§18.2.2),
// triples blocks and paths (§18.2.2.4), EXISTS in expressions, and a
// query's aggregates, projection and solution modifiers (§18.2.4–18.2.5).
// The grammar is in parse.go and syntax.go; it reports every error of the
// text with its position, the translation only those of scope (a BIND or
// AS variable already in scope, ungrouped variables) and of the algebra's
// depth, at the element or clause they concern.

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// translator turns a syntax tree into algebra, within the budget the
// parser started.
type translator struct {
	*budget
	an        *Analysis
	freshVars int
	// at is where errors are reported: the element or clause being
	// translated
	at token
}

func newTranslator(p *parser) *translator {
	return &translator{budget: p.budget, an: NewAnalysis(), at: p.tok()}
}

// deep records the depth of x, built on parts, failing at the element
// being translated past the bound.
func (tr *translator) deep(x any, parts ...any) {
	if !tr.deepen(x, parts...) {
		panic(tr.depthError(tr.at))
	}
}

// bgp records the depth of a basic graph pattern: evaluation recurses
// once per triple pattern.
func (tr *translator) bgp(b *BGP) *BGP {
	if !tr.setDepth(b, 1+len(b.Patterns)) {
		panic(tr.depthError(tr.at))
	}
	return b
}

func (tr *translator) errf(t token, format string, args ...any) *Error {
	return errAt(t, format, args...)
}

// translateQuery translates a query or sub-select.
func (tr *translator) translateQuery(qs *querySyntax) *Query {
	q := &Query{Form: qs.form, From: qs.from, FromNamed: qs.fromNamed, Base: qs.base, Describe: qs.describe}
	var where Node
	switch {
	case qs.where != nil:
		where = tr.translateGroup(qs.where)
	case qs.form == Construct:
		// CONSTRUCT WHERE: the template is the pattern (§16.2.4)
		where = tr.bgp(&BGP{Patterns: qs.template})
	default:
		where = &BGP{}
	}
	if qs.form == Construct {
		q.Template = append([]TriplePattern(nil), qs.template...)
	}
	q.Pattern = tr.translateModifiers(where, q, qs.sel, qs.mods)
	if qs.form == Describe && q.Describe == nil {
		q.Describe = varsAsTerms(q.Vars)
	}
	return q
}

func varsAsTerms(vars []string) []Term {
	out := []Term{}
	for _, v := range vars {
		out = append(out, Term{Var: v})
	}
	return out
}

// aggregates replaces each aggregate of the select expressions, HAVING
// and ORDER BY, in that order, by a variable of its own, and returns the
// bindings (§18.2.4.1).
func (tr *translator) aggregates(sel selectClause, m *solutionModifier) []AggBinding {
	var aggs []AggBinding
	bind := func(e *Expr) {
		tr.replaceAggregates(e, &aggs)
	}
	for i := range sel.items {
		if sel.items[i].expr != nil {
			bind(&sel.items[i].expr)
		}
	}
	for i := range m.having {
		bind(&m.having[i])
	}
	for i := range m.order {
		bind(&m.order[i].Expr)
	}
	return aggs
}

// replaceAggregates replaces the aggregates in *e. The grammar admits
// them only at the top of the expressions aggregates visits, under
// operators and function calls, never inside another aggregate or EXISTS.
func (tr *translator) replaceAggregates(e *Expr, aggs *[]AggBinding) {
	switch x := (*e).(type) {
	case *Aggregate:
		v := fmt.Sprintf("_:agg%d", len(*aggs))
		*aggs = append(*aggs, AggBinding{Var: v, Agg: x})
		*e = &ExprVar{Name: v}
	case *Call:
		for i := range x.Args {
			tr.replaceAggregates(&x.Args[i], aggs)
		}
	}
}

// translateExpr replaces each EXISTS of e by an *Exists over its pattern's
// algebra and returns e, with the depths of the operators above them
// brought up to date.
func (tr *translator) translateExpr(e Expr) Expr {
	e, _ = tr.translateExists(e)
	return e
}

// translateExists is translateExpr, also reporting whether e's depth may
// have changed.
func (tr *translator) translateExists(e Expr) (Expr, bool) {
	switch x := e.(type) {
	case *existsSyntax:
		at := tr.at
		tr.at = x.tok
		g := tr.translateGroup(x.g)
		ex := wrap(tr, &Exists{Not: x.not, P: g}, g)
		tr.at = at
		return ex, true
	case *Call:
		changed := false
		for i, a := range x.Args {
			t, ch := tr.translateExists(a)
			x.Args[i] = t
			changed = changed || ch
		}
		if changed {
			parts := make([]any, len(x.Args))
			for i, a := range x.Args {
				parts[i] = a
			}
			tr.deep(x, parts...)
		}
		return x, changed
	case *Aggregate:
		if x.Arg == nil {
			return x, false
		}
		t, ch := tr.translateExists(x.Arg)
		x.Arg = t
		if ch {
			tr.deep(x, x.Arg)
		}
		return x, ch
	}
	return e, false
}

func (tr *translator) join(l, r Node) Node { return wrap(tr, &Join{L: l, R: r}, l, r) }

func (tr *translator) filter(e Expr, n Node) Node { return wrap(tr, &Filter{Expr: e, P: n}, e, n) }

func (tr *translator) extend(n Node, v string, e Expr) Node {
	return wrap(tr, &Extend{P: n, Var: v, Expr: e}, n, e)
}

// translateModifiers translates a query's projection and solution
// modifiers over its WHERE pattern (SPARQL 1.1 §18.2.4–18.2.5): grouping
// and aggregates, HAVING, the trailing VALUES, the select expressions,
// ORDER BY, the projection, DISTINCT or REDUCED, and the slice. It sets
// q.Vars, the projected variables.
func (tr *translator) translateModifiers(where Node, q *Query, sel selectClause, m *solutionModifier) Node {
	node := where
	tr.at = m.end
	for i := range m.keys {
		m.keys[i].Expr = tr.translateExpr(m.keys[i].Expr)
	}
	for i := range sel.items {
		if sel.items[i].expr != nil {
			sel.items[i].expr = tr.translateExpr(sel.items[i].expr)
		}
	}
	for i := range m.having {
		m.having[i] = tr.translateExpr(m.having[i])
	}
	for i := range m.order {
		m.order[i].Expr = tr.translateExpr(m.order[i].Expr)
	}
	aggs := tr.aggregates(sel, m)
	// §18.2.4.1 grouping and aggregation
	grouped := m.grouped || len(aggs) > 0
	if grouped {
		node = tr.group(node, m.keys, aggs)
		if sel.star && q.Form == Select {
			panic(tr.errf(m.end, "SELECT * is not allowed with GROUP BY or aggregates"))
		}
	}
	// which variables are visible after grouping
	groupVars := map[string]bool{}
	for _, k := range m.keys {
		if k.Var != "" {
			groupVars[k.Var] = true
		}
	}
	for _, a := range aggs {
		groupVars[a.Var] = true
	}
	if len(m.having) > 0 {
		node = tr.filter(tr.conj(m.having), node)
	}
	// the trailing VALUES joins before the select expressions (§18.2.4.3)
	if m.values != nil {
		node = tr.join(node, m.values)
	}
	node = tr.selectExpressions(node, where, sel, grouped, groupVars)
	if len(m.order) > 0 {
		o := &OrderBy{P: node, Conds: m.order}
		parts := []any{node}
		for _, c := range m.order {
			parts = append(parts, c.Expr)
		}
		tr.deep(o, parts...)
		node = o
	}
	// §18.2.5 projection, DISTINCT, REDUCED, slice
	if sel.star {
		q.Vars = publicVars(tr.an.InScope(where))
	} else {
		q.Vars = nil
		for _, it := range sel.items {
			q.Vars = append(q.Vars, it.v)
		}
	}
	if q.Form == Select || q.Form == Describe {
		node = wrap(tr, &Project{P: node, Vars: q.Vars}, node)
	}
	if sel.distinct {
		node = wrap(tr, &Distinct{P: node}, node)
	} else if sel.reduced {
		node = wrap(tr, &Reduced{P: node}, node)
	}
	if m.offset > 0 || m.limit >= 0 {
		node = wrap(tr, &Slice{P: node, Offset: m.offset, Limit: m.limit}, node)
	}
	return node
}

// group is Group(keys, aggregates, node) (§18.2.4.1).
func (tr *translator) group(node Node, keys []GroupKey, aggs []AggBinding) Node {
	g := &Group{P: node, Keys: keys, Aggs: aggs}
	parts := []any{node}
	for _, k := range keys {
		parts = append(parts, k.Expr)
	}
	for _, a := range aggs {
		parts = append(parts, a.Agg)
	}
	tr.deep(g, parts...)
	return g
}

// selectExpressions extends node with the (expr AS ?v) items of the select
// clause (§18.2.4.4), checking that each ?v is new and, in a grouped
// query, that every projected variable is grouped or aggregated.
func (tr *translator) selectExpressions(node, where Node, sel selectClause, grouped bool, groupVars map[string]bool) Node {
	inScope := map[string]bool{}
	for _, v := range tr.an.InScope(where) {
		inScope[v] = true
	}
	seen := map[string]bool{}
	for _, it := range sel.items {
		if it.expr != nil {
			if inScope[it.v] || seen[it.v] {
				panic(tr.errf(it.tok, "variable ?%s is already bound before AS", it.v))
			}
			if grouped {
				tr.checkGroupedExpr(it.expr, groupVars, it.tok)
			}
			node = tr.extend(node, it.v, it.expr)
			groupVars[it.v] = true
		} else if grouped && !groupVars[it.v] {
			panic(tr.errf(it.tok, "variable ?%s is neither grouped nor aggregated", it.v))
		}
		seen[it.v] = true
	}
	return node
}

func (tr *translator) checkGroupedExpr(e Expr, ok map[string]bool, t token) {
	switch e := e.(type) {
	case *ExprVar:
		if !ok[e.Name] {
			panic(tr.errf(t, "variable ?%s is neither grouped nor aggregated", e.Name))
		}
	case *Call:
		for _, a := range e.Args {
			tr.checkGroupedExpr(a, ok, t)
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

func (tr *translator) conj(es []Expr) Expr {
	e := es[0]
	for _, x := range es[1:] {
		e = call(tr, "&&", e, x)
	}
	return e
}

// translateGroup implements the translation of a group graph pattern
// (SPARQL 1.1 §18.2.2.6).
func (tr *translator) translateGroup(gp *groupPattern) Node {
	if gp.sub != nil {
		q := tr.translateQuery(gp.sub)
		return wrap(tr, &SubQuery{Q: q}, q.Pattern)
	}
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
				g = tr.join(g, a)
				return
			}
			g = a
			return
		}
		if b, ok := a.(*BGP); ok && len(b.Patterns) == 0 {
			return
		}
		g = tr.join(g, a)
	}
	for _, e := range gp.elems {
		tr.at = e.tok
		switch e.kind {
		case elemFilter:
			filters = append(filters, tr.translateExpr(e.expr))
		case elemOptional:
			r := tr.translateGroup(e.group)
			tr.at = e.tok
			pending = append(pending, r)
			if f, ok := r.(*Filter); ok {
				g = wrap(tr, &LeftJoin{L: g, R: f.P, Expr: f.Expr}, g, f.P, f.Expr)
			} else {
				g = wrap(tr, &LeftJoin{L: g, R: r}, g, r)
			}
		case elemMinus:
			r := tr.translateGroup(e.group)
			tr.at = e.tok
			g = wrap(tr, &Minus{L: g, R: r}, g, r)
		case elemBind:
			x := tr.translateExpr(e.expr)
			tr.at = e.tok
			for _, n := range pending {
				for _, v := range tr.an.InScope(n) {
					scope[v] = true
				}
			}
			pending = pending[:0]
			if scope[e.bindV] {
				panic(tr.errf(e.tok, "BIND variable ?%s is already in scope", e.bindV))
			}
			scope[e.bindV] = true
			g = tr.extend(g, e.bindV, x)
		case elemTriples:
			join(tr.translateTriples(e.triple))
		case elemValues:
			join(e.values)
		case elemGraph:
			r := tr.translateGroup(e.group)
			tr.at = e.tok
			join(wrap(tr, &Graph{Name: *e.name, P: r}, r))
		case elemService:
			r := tr.translateGroup(e.group)
			tr.at = e.tok
			join(wrap(tr, &Service{Name: *e.name, P: r, Silent: e.silent}, r))
		case elemUnion:
			n := tr.translateGroup(e.union[0])
			for _, u := range e.union[1:] {
				r := tr.translateGroup(u)
				tr.at = u.open
				n = wrap(tr, &Union{L: n, R: r}, n, r)
			}
			join(n)
		}
	}
	if len(filters) > 0 {
		g = tr.filter(tr.conj(filters), g)
	}
	return g
}

func (tr *translator) freshVar() Term {
	tr.addVar(tr.at)
	tr.freshVars++
	return Term{Var: fmt.Sprintf("_:_p%d", tr.freshVars)}
}

// translateTriples turns a triples block into BGPs and path patterns,
// rewriting sequence, inverse and plain-IRI paths into triples (§18.2.2.4).
func (tr *translator) translateTriples(items []patternItem) Node {
	var out Node
	bgp := &BGP{}
	flush := func() {
		if len(bgp.Patterns) == 0 {
			return
		}
		tr.bgp(bgp)
		if out == nil {
			out = bgp
		} else {
			out = tr.join(out, bgp)
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
			v := tr.freshVar()
			add(s, pp.L, v)
			add(v, pp.R, o)
			return
		}
		flush()
		pat := wrap(tr, &PathPattern{S: s, Path: path, O: o}, path)
		if out == nil {
			out = pat
		} else {
			out = tr.join(out, pat)
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
