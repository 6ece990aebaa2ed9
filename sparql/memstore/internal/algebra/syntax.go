package algebra

import (
	"strconv"
	"strings"
)

// The syntax tree the parser builds (SPARQL 1.1 §19.8): queries, group
// graph patterns and their elements, projections and solution modifiers,
// as written and before translation to algebra (translate.go).

// querySyntax is a Query or a SubSelect.
type querySyntax struct {
	form      Form
	sel       selectClause // star for the forms other than SELECT
	from      []string
	fromNamed []string
	template  []TriplePattern // CONSTRUCT
	describe  []Term          // DESCRIBE, nil for DESCRIBE *
	// where is the WHERE clause; nil for DESCRIBE without one and for
	// CONSTRUCT WHERE, whose pattern is its template
	where *groupPattern
	mods  *solutionModifier
	base  string
}

// groupPattern is a GroupGraphPattern: a sub-select or a group of
// elements.
type groupPattern struct {
	open  token // its '{'
	sub   *querySyntax
	elems []groupElem
}

// groupElem is one element of a group graph pattern.
type groupElem struct {
	kind   elemKind
	tok    token           // where the element starts (BIND: its variable)
	triple []patternItem   // elemTriples
	expr   Expr            // elemFilter, elemBind
	bindV  string          // elemBind
	group  *groupPattern   // elemOptional, elemMinus, elemGraph, elemService
	union  []*groupPattern // elemUnion: a group and the groups UNIONed to it
	name   *Term           // elemGraph, elemService
	silent bool            // elemService
	values *Values         // elemValues
}

type elemKind uint8

const (
	elemTriples  elemKind = iota // a triples block
	elemFilter                   // FILTER constraint
	elemOptional                 // OPTIONAL group
	elemMinus                    // MINUS group
	elemBind                     // BIND (expr AS ?v)
	elemValues                   // VALUES data block
	elemGraph                    // GRAPH name group
	elemService                  // SERVICE [SILENT] name group
	elemUnion                    // group [UNION group]...
)

// patternItem is a triple pattern or a path pattern in a triples block.
type patternItem struct {
	s    Term
	path Path // nil when p is a plain predicate
	p    Term
	o    Term
}

// existsSyntax is EXISTS or NOT EXISTS with its pattern as parsed; the
// translation replaces it by an *Exists over the pattern's algebra.
type existsSyntax struct {
	not bool
	g   *groupPattern
	tok token
}

func (*existsSyntax) expr() {}

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
	values  *Values // the trailing VALUES block, or nil
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
