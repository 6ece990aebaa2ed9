package algebra

import (
	"strconv"
	"strings"
)

// The syntax of a query's projection and solution modifiers, as parsed
// and before translation to algebra (translate.go).

// selectClause is a SELECT clause (§19.8 SelectClause); the other query
// forms project every variable (star).
type selectClause struct {
	items             []selectItem
	star              bool
	distinct, reduced bool
}

type selectItem struct {
	v    string
	expr Expr
	tok  token
}

// solutionModifier is SolutionModifier followed by ValuesClause.
type solutionModifier struct {
	grouped bool // GROUP BY present
	keys    []GroupKey
	having  []Expr
	order   []OrderCond
	limit   int64 // -1 when absent
	offset  int64
	values  Node // the trailing VALUES block, or nil
	// aggs are the aggregates of the select clause, HAVING and ORDER BY
	aggs []AggBinding
	// end is the token after LIMIT and OFFSET, where errors of the whole
	// query (SELECT * with GROUP BY) are reported
	end token
}

// solutionModifier parses GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET and a
// trailing VALUES block.
func (p *parser) solutionModifier() *solutionModifier {
	m := &solutionModifier{limit: -1}
	if p.isKw("GROUP") {
		m.grouped = true
		m.keys = p.groupClause()
	}
	if p.acceptKw("HAVING") {
		m.having = p.havingClause()
	}
	if p.isKw("ORDER") {
		m.order = p.orderClause()
	}
	p.limitOffsetClauses(m)
	m.aggs = p.aggs
	m.end = p.tok()
	if p.acceptKw("VALUES") {
		m.values = p.dataBlock()
	}
	return m
}

func (p *parser) groupClause() []GroupKey {
	p.adv()
	p.expectKw("BY")
	var keys []GroupKey
	for {
		t := p.tok()
		switch {
		case t.kind == tVar:
			p.adv()
			keys = append(keys, GroupKey{Expr: &ExprVar{Name: t.val}, Var: t.val})
		case p.isP("("):
			p.adv()
			k := GroupKey{Expr: p.expression()}
			if p.acceptKw("AS") {
				v := p.adv()
				if v.kind != tVar {
					panic(p.errf(v, "expected a variable after AS"))
				}
				k.Var = v.val
			}
			p.expectP(")")
			keys = append(keys, k)
		case p.isBuiltinCallStart() || p.isIRI():
			keys = append(keys, GroupKey{Expr: p.primary()})
		default:
			if len(keys) == 0 {
				panic(p.errf(p.tok(), "expected a group condition after GROUP BY"))
			}
			return keys
		}
	}
}

func (p *parser) havingClause() []Expr {
	var having []Expr
	p.aggOK = true
	for p.isP("(") || p.isBuiltinCallStart() || p.isIRI() {
		having = append(having, p.constraint())
	}
	p.aggOK = false
	if len(having) == 0 {
		panic(p.errf(p.tok(), "expected a constraint after HAVING"))
	}
	return having
}

func (p *parser) orderClause() []OrderCond {
	p.adv()
	p.expectKw("BY")
	p.aggOK = true
	var order []OrderCond
	for {
		switch {
		case p.isKw("ASC") || p.isKw("DESC"):
			desc := p.isKw("DESC")
			p.adv()
			if !p.isP("(") {
				panic(p.errf(p.tok(), "expected '(' after ASC/DESC"))
			}
			order = append(order, OrderCond{Expr: p.bracketted(), Desc: desc})
		case p.tok().kind == tVar:
			order = append(order, OrderCond{Expr: &ExprVar{Name: p.adv().val}})
		case p.isP("(") || p.isBuiltinCallStart() || p.isIRI():
			order = append(order, OrderCond{Expr: p.constraint()})
		default:
			p.aggOK = false
			if len(order) == 0 {
				panic(p.errf(p.tok(), "expected an order condition after ORDER BY"))
			}
			return order
		}
	}
}

// limitOffsetClauses parses LIMIT and OFFSET, each at most once and in
// either order.
func (p *parser) limitOffsetClauses(m *solutionModifier) {
	seenLimit, seenOffset := false, false
	for {
		switch {
		case !seenLimit && p.isKw("LIMIT"):
			seenLimit = true
			m.limit = p.count()
		case !seenOffset && p.isKw("OFFSET"):
			seenOffset = true
			m.offset = p.count()
		default:
			return
		}
	}
}

// count parses the integer after LIMIT or OFFSET.
func (p *parser) count() int64 {
	kw := strings.ToUpper(p.adv().val)
	t := p.adv()
	if t.kind != tInteger {
		panic(p.errf(t, "expected an integer after %s", kw))
	}
	n, err := strconv.ParseInt(t.val, 10, 64)
	if err != nil {
		v := t.val
		if len(v) > 30 {
			v = v[:30] + "..."
		}
		panic(p.errf(t, "%s %s is out of range (at most %d)", kw, v, int64(1<<63-1)))
	}
	return n
}
