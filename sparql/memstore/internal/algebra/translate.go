package algebra

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
