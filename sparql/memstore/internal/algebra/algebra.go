package algebra

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Term is a pattern position: a variable (Var != "") or an RDF term.
// Blank nodes of a query pattern become variables named "_:label"; the
// blank nodes of a CONSTRUCT or INSERT template stay blank terms.
type Term struct {
	Var  string
	Term graph.Term
}

// IsVar reports whether t is a variable.
func (t Term) IsVar() bool { return t.Var != "" }

func (t Term) String() string {
	if t.Var != "" {
		if strings.HasPrefix(t.Var, "_:") {
			return t.Var
		}
		return "?" + t.Var
	}
	return t.Term.String()
}

// TriplePattern is a triple of pattern positions.
type TriplePattern struct{ S, P, O Term }

// QuadPattern is a triple pattern in a graph; a zero G means the default graph.
type QuadPattern struct{ S, P, O, G Term }

// Node is an algebra operator.
type Node interface{ node() }

type (
	// BGP is a basic graph pattern.
	BGP struct{ Patterns []TriplePattern }
	// PathPattern matches a property path between S and O.
	PathPattern struct {
		S    Term
		Path Path
		O    Term
	}
	Join     struct{ L, R Node }
	LeftJoin struct {
		L, R Node
		Expr Expr // nil means true
	}
	Filter struct {
		Expr Expr
		P    Node
	}
	Union struct{ L, R Node }
	Graph struct {
		Name Term
		P    Node
	}
	Extend struct {
		P    Node
		Var  string
		Expr Expr
	}
	Minus struct{ L, R Node }
	// Values is inline data; a zero Term in a row is UNDEF.
	Values struct {
		Vars []string
		Rows [][]graph.Term
	}
	Service struct {
		Name   Term
		P      Node
		Silent bool
	}
	// SubQuery evaluates a nested SELECT (ToMultiSet).
	SubQuery struct{ Q *Query }
	// Group groups solutions by Keys and computes Aggs per group.
	Group struct {
		P    Node
		Keys []GroupKey
		Aggs []AggBinding
	}
	OrderBy struct {
		P     Node
		Conds []OrderCond
	}
	Project struct {
		P    Node
		Vars []string
	}
	Distinct struct{ P Node }
	Reduced  struct{ P Node }
	// Slice applies OFFSET and LIMIT; Limit < 0 means none.
	Slice struct {
		P             Node
		Offset, Limit int64
	}
)

// GroupKey is a GROUP BY condition; Var names it when it is a variable or
// has an AS.
type GroupKey struct {
	Expr Expr
	Var  string
}

// AggBinding binds the value of an aggregate to a (generated) variable.
type AggBinding struct {
	Var string
	Agg *Aggregate
}

// OrderCond is one ORDER BY condition.
type OrderCond struct {
	Expr Expr
	Desc bool
}

func (*BGP) node()         {}
func (*PathPattern) node() {}
func (*Join) node()        {}
func (*LeftJoin) node()    {}
func (*Filter) node()      {}
func (*Union) node()       {}
func (*Graph) node()       {}
func (*Extend) node()      {}
func (*Minus) node()       {}
func (*Values) node()      {}
func (*Service) node()     {}
func (*SubQuery) node()    {}
func (*Group) node()       {}
func (*OrderBy) node()     {}
func (*Project) node()     {}
func (*Distinct) node()    {}
func (*Reduced) node()     {}
func (*Slice) node()       {}

// Path is a property path expression.
type Path interface{ path() }

type (
	PathIRI        struct{ IRI string }
	PathInv        struct{ P Path }
	PathSeq        struct{ L, R Path }
	PathAlt        struct{ L, R Path }
	PathZeroOrMore struct{ P Path }
	PathOneOrMore  struct{ P Path }
	PathZeroOrOne  struct{ P Path }
	// PathNeg is a negated property set: any IRI not in Fwd (forward) and,
	// for reverse steps, not in Inv.
	PathNeg struct{ Fwd, Inv []string }
)

func (*PathIRI) path()        {}
func (*PathInv) path()        {}
func (*PathSeq) path()        {}
func (*PathAlt) path()        {}
func (*PathZeroOrMore) path() {}
func (*PathOneOrMore) path()  {}
func (*PathZeroOrOne) path()  {}
func (*PathNeg) path()        {}

// Expr is an expression.
type Expr interface{ expr() }

type (
	ExprVar  struct{ Name string }
	ExprTerm struct{ Term graph.Term }
	// Call is an operator or function application. Op is an operator
	// ("||", "&&", "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/",
	// "!", "u-", "u+", "IN", "NOT IN"), an upper-case built-in name
	// ("STR", "REGEX", ...) or a function IRI (casts, extension functions).
	Call struct {
		Op   string
		Args []Expr
		// Pos is where a built-in or function call starts in the text (zero
		// for operators), so that evaluators report compile errors there.
		Pos Pos
	}
	Exists struct {
		Not bool
		P   Node
	}
	Aggregate struct {
		Name      string // COUNT SUM MIN MAX AVG SAMPLE GROUP_CONCAT
		Distinct  bool
		Arg       Expr // nil for COUNT(*)
		Separator string
	}
)

func (*ExprVar) expr()   {}
func (*ExprTerm) expr()  {}
func (*Call) expr()      {}
func (*Exists) expr()    {}
func (*Aggregate) expr() {}

// Form is the query form.
type Form int

const (
	Select Form = iota
	Construct
	Ask
	Describe
)

// Query is a parsed and translated query.
type Query struct {
	Form      Form
	Pattern   Node     // the algebra, including solution modifiers
	Vars      []string // projected variables (SELECT), in order
	Template  []TriplePattern
	Describe  []Term
	From      []string
	FromNamed []string
	Base      string
}

// GraphTarget names the graph(s) of a graph-management operation.
type GraphTarget struct {
	Kind GraphTargetKind
	IRI  string
}

type GraphTargetKind int

const (
	TargetIRI GraphTargetKind = iota
	TargetDefault
	TargetNamed
	TargetAll
)

// UpdateOp is one operation of an update request.
type UpdateOp interface{ updateOp() }

type (
	InsertData  struct{ Quads []QuadPattern }
	DeleteData  struct{ Quads []QuadPattern }
	DeleteWhere struct{ Quads []QuadPattern }
	Modify      struct {
		With       string
		Delete     []QuadPattern
		Insert     []QuadPattern
		Using      []string
		UsingNamed []string
		HasUsing   bool
		Where      Node
	}
	Load struct {
		Silent bool
		Source string
		Into   string
	}
	Clear struct {
		Silent bool
		Target GraphTarget
	}
	Drop struct {
		Silent bool
		Target GraphTarget
	}
	Create struct {
		Silent bool
		Graph  string
	}
	// Transfer is ADD, MOVE or COPY.
	Transfer struct {
		Op       string
		Silent   bool
		From, To GraphTarget
	}
)

func (*InsertData) updateOp()  {}
func (*DeleteData) updateOp()  {}
func (*DeleteWhere) updateOp() {}
func (*Modify) updateOp()      {}
func (*Load) updateOp()        {}
func (*Clear) updateOp()       {}
func (*Drop) updateOp()        {}
func (*Create) updateOp()      {}
func (*Transfer) updateOp()    {}

// Update is a parsed update request.
type Update struct {
	Ops []UpdateOp
}

// String prints the algebra in an S-expression form close to the spec's.
func String(n Node) string {
	var b strings.Builder
	writeNode(&b, n, 0)
	return b.String()
}

func writeNode(b *strings.Builder, n Node, depth int) {
	ind := strings.Repeat("  ", depth)
	b.WriteString(ind)
	sub := func(ns ...Node) {
		for _, c := range ns {
			b.WriteString("\n")
			writeNode(b, c, depth+1)
		}
		b.WriteString(")")
	}
	switch n := n.(type) {
	case *BGP:
		b.WriteString("(bgp")
		for _, t := range n.Patterns {
			fmt.Fprintf(b, " (%s %s %s)", t.S, t.P, t.O)
		}
		b.WriteString(")")
	case *PathPattern:
		fmt.Fprintf(b, "(path %s %s %s)", n.S, PathString(n.Path), n.O)
	case *Join:
		b.WriteString("(join")
		sub(n.L, n.R)
	case *LeftJoin:
		b.WriteString("(leftjoin")
		if n.Expr != nil {
			b.WriteString(" " + ExprString(n.Expr))
		}
		sub(n.L, n.R)
	case *Filter:
		b.WriteString("(filter " + ExprString(n.Expr))
		sub(n.P)
	case *Union:
		b.WriteString("(union")
		sub(n.L, n.R)
	case *Graph:
		b.WriteString("(graph " + n.Name.String())
		sub(n.P)
	case *Extend:
		fmt.Fprintf(b, "(extend ?%s %s", n.Var, ExprString(n.Expr))
		sub(n.P)
	case *Minus:
		b.WriteString("(minus")
		sub(n.L, n.R)
	case *Values:
		b.WriteString("(table (")
		for i, v := range n.Vars {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString("?" + v)
		}
		fmt.Fprintf(b, ") %d rows)", len(n.Rows))
	case *Service:
		b.WriteString("(service " + n.Name.String())
		sub(n.P)
	case *SubQuery:
		b.WriteString("(subquery")
		sub(n.Q.Pattern)
	case *Group:
		b.WriteString("(group (")
		for i, k := range n.Keys {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(ExprString(k.Expr))
			if k.Var != "" {
				b.WriteString(" AS ?" + k.Var)
			}
		}
		b.WriteString(") (")
		for i, a := range n.Aggs {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(b, "?%s=%s", a.Var, ExprString(a.Agg))
		}
		b.WriteString(")")
		sub(n.P)
	case *OrderBy:
		b.WriteString("(order (")
		for i, c := range n.Conds {
			if i > 0 {
				b.WriteString(" ")
			}
			if c.Desc {
				b.WriteString("DESC ")
			}
			b.WriteString(ExprString(c.Expr))
		}
		b.WriteString(")")
		sub(n.P)
	case *Project:
		b.WriteString("(project (")
		for i, v := range n.Vars {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString("?" + v)
		}
		b.WriteString(")")
		sub(n.P)
	case *Distinct:
		b.WriteString("(distinct")
		sub(n.P)
	case *Reduced:
		b.WriteString("(reduced")
		sub(n.P)
	case *Slice:
		fmt.Fprintf(b, "(slice %d %d", n.Offset, n.Limit)
		sub(n.P)
	default:
		fmt.Fprintf(b, "(? %T)", n)
	}
}

// PathString prints a property path.
func PathString(p Path) string {
	switch p := p.(type) {
	case *PathIRI:
		return "<" + p.IRI + ">"
	case *PathInv:
		return "^(" + PathString(p.P) + ")"
	case *PathSeq:
		return "(" + PathString(p.L) + "/" + PathString(p.R) + ")"
	case *PathAlt:
		return "(" + PathString(p.L) + "|" + PathString(p.R) + ")"
	case *PathZeroOrMore:
		return "(" + PathString(p.P) + ")*"
	case *PathOneOrMore:
		return "(" + PathString(p.P) + ")+"
	case *PathZeroOrOne:
		return "(" + PathString(p.P) + ")?"
	case *PathNeg:
		var parts []string
		for _, f := range p.Fwd {
			parts = append(parts, "<"+f+">")
		}
		for _, f := range p.Inv {
			parts = append(parts, "^<"+f+">")
		}
		return "!(" + strings.Join(parts, "|") + ")"
	}
	return "?"
}

// ExprString prints an expression.
func ExprString(e Expr) string {
	switch e := e.(type) {
	case *ExprVar:
		return "?" + e.Name
	case *ExprTerm:
		return e.Term.String()
	case *Call:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = ExprString(a)
		}
		return "(" + e.Op + " " + strings.Join(args, " ") + ")"
	case *Exists:
		if e.Not {
			return "(notexists " + String(e.P) + ")"
		}
		return "(exists " + String(e.P) + ")"
	case *Aggregate:
		arg := "*"
		if e.Arg != nil {
			arg = ExprString(e.Arg)
		}
		d := ""
		if e.Distinct {
			d = "DISTINCT "
		}
		return e.Name + "(" + d + arg + ")"
	}
	return "?"
}
