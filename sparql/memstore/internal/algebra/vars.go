package algebra

// Analysis answers InScope, Certain and Mentioned for the nodes of one
// algebra tree and remembers every answer, so that asking at each level
// of a deep tree costs the tree's size times its variables, not its size
// times its depth. The answers are shared: callers must not modify them.
type Analysis struct {
	scope     map[Node][]string
	certain   map[Node]map[string]bool
	mentioned map[Node]map[string]bool
}

// NewAnalysis returns an empty Analysis.
func NewAnalysis() *Analysis {
	return &Analysis{scope: map[Node][]string{}, certain: map[Node]map[string]bool{}, mentioned: map[Node]map[string]bool{}}
}

// InScope returns the in-scope variables of n (SPARQL 1.1 §18.2.1) in
// order of first appearance.
func InScope(n Node) []string { return NewAnalysis().InScope(n) }

// Certain returns the variables that every solution of n binds.
func Certain(n Node) map[string]bool { return NewAnalysis().Certain(n) }

// Mentioned returns every variable that occurs anywhere in n, including in
// expressions and nested patterns.
func Mentioned(n Node) map[string]bool { return NewAnalysis().Mentioned(n) }

// MentionedExpr returns the variables that occur in e (also inside EXISTS).
func MentionedExpr(e Expr) map[string]bool { return NewAnalysis().MentionedExpr(e) }

// InScope returns the in-scope variables of n in order of first
// appearance.
func (a *Analysis) InScope(n Node) []string {
	if s, ok := a.scope[n]; ok {
		return s
	}
	var out []string
	seen := map[string]bool{}
	add := func(v string) {
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	addAll := func(n Node) {
		for _, v := range a.InScope(n) {
			add(v)
		}
	}
	switch n := n.(type) {
	case *BGP:
		for _, t := range n.Patterns {
			add(t.S.Var)
			add(t.P.Var)
			add(t.O.Var)
		}
	case *PathPattern:
		add(n.S.Var)
		add(n.O.Var)
	case *Join:
		addAll(n.L)
		addAll(n.R)
	case *LeftJoin:
		addAll(n.L)
		addAll(n.R)
	case *Union:
		addAll(n.L)
		addAll(n.R)
	case *Minus:
		addAll(n.L)
	case *Filter:
		addAll(n.P)
	case *Graph:
		add(n.Name.Var)
		addAll(n.P)
	case *Extend:
		addAll(n.P)
		add(n.Var)
	case *Values:
		for _, v := range n.Vars {
			add(v)
		}
	case *Service:
		add(n.Name.Var)
		addAll(n.P)
	case *SubQuery:
		for _, v := range n.Q.Vars {
			add(v)
		}
	case *Group:
		for _, k := range n.Keys {
			add(k.Var)
		}
		for _, g := range n.Aggs {
			add(g.Var)
		}
	case *OrderBy:
		addAll(n.P)
	case *Project:
		for _, v := range n.Vars {
			add(v)
		}
	case *Distinct:
		addAll(n.P)
	case *Reduced:
		addAll(n.P)
	case *Slice:
		addAll(n.P)
	}
	a.scope[n] = out
	return out
}

// Certain returns the variables that every solution of n binds.
func (a *Analysis) Certain(n Node) map[string]bool {
	if c, ok := a.certain[n]; ok {
		return c
	}
	out := a.certainOf(n)
	a.certain[n] = out
	return out
}

func (a *Analysis) certainOf(n Node) map[string]bool {
	out := map[string]bool{}
	switch n := n.(type) {
	case *BGP:
		for _, t := range n.Patterns {
			for _, x := range []Term{t.S, t.P, t.O} {
				if x.Var != "" {
					out[x.Var] = true
				}
			}
		}
	case *PathPattern:
		if n.S.Var != "" {
			out[n.S.Var] = true
		}
		if n.O.Var != "" {
			out[n.O.Var] = true
		}
	case *Join:
		for v := range a.Certain(n.L) {
			out[v] = true
		}
		for v := range a.Certain(n.R) {
			out[v] = true
		}
	case *LeftJoin:
		return a.Certain(n.L)
	case *Minus:
		return a.Certain(n.L)
	case *Filter:
		return a.Certain(n.P)
	case *Union:
		r := a.Certain(n.R)
		for v := range a.Certain(n.L) {
			if r[v] {
				out[v] = true
			}
		}
	case *Graph:
		for v := range a.Certain(n.P) {
			out[v] = true
		}
		if n.Name.Var != "" {
			out[n.Name.Var] = true
		}
	case *Extend:
		// the expression may fail and leave the variable unbound
		return a.Certain(n.P)
	case *Values:
		for i, v := range n.Vars {
			all := true
			for _, r := range n.Rows {
				if r[i].IsZero() {
					all = false
					break
				}
			}
			if all {
				out[v] = true
			}
		}
	case *Group:
		// a group key may be unbound (error or unbound variable), and
		// aggregates may fail: nothing is certain
	case *OrderBy:
		return a.Certain(n.P)
	case *Project:
		c := a.Certain(n.P)
		for _, v := range n.Vars {
			if c[v] {
				out[v] = true
			}
		}
	case *Distinct:
		return a.Certain(n.P)
	case *Reduced:
		return a.Certain(n.P)
	case *Slice:
		return a.Certain(n.P)
	case *SubQuery:
		return a.Certain(n.Q.Pattern)
	}
	return out
}

// Mentioned returns every variable that occurs anywhere in n.
func (a *Analysis) Mentioned(n Node) map[string]bool {
	if m, ok := a.mentioned[n]; ok {
		return m
	}
	out := map[string]bool{}
	a.mentionNode(n, out)
	a.mentioned[n] = out
	return out
}

// MentionedExpr returns the variables that occur in e (also inside
// EXISTS).
func (a *Analysis) MentionedExpr(e Expr) map[string]bool {
	out := map[string]bool{}
	a.mentionExpr(e, out)
	return out
}

// mentionNode adds the variables of n to out, taking those of its parts
// from their remembered answers.
func (a *Analysis) mentionNode(n Node, out map[string]bool) {
	add := func(t Term) {
		if t.Var != "" {
			out[t.Var] = true
		}
	}
	part := func(n Node) {
		for v := range a.Mentioned(n) {
			out[v] = true
		}
	}
	switch n := n.(type) {
	case *BGP:
		for _, t := range n.Patterns {
			add(t.S)
			add(t.P)
			add(t.O)
		}
	case *PathPattern:
		add(n.S)
		add(n.O)
	case *Join:
		part(n.L)
		part(n.R)
	case *LeftJoin:
		part(n.L)
		part(n.R)
		if n.Expr != nil {
			a.mentionExpr(n.Expr, out)
		}
	case *Union:
		part(n.L)
		part(n.R)
	case *Minus:
		part(n.L)
		part(n.R)
	case *Filter:
		a.mentionExpr(n.Expr, out)
		part(n.P)
	case *Graph:
		add(n.Name)
		part(n.P)
	case *Extend:
		out[n.Var] = true
		a.mentionExpr(n.Expr, out)
		part(n.P)
	case *Values:
		for _, v := range n.Vars {
			out[v] = true
		}
	case *Service:
		add(n.Name)
		part(n.P)
	case *SubQuery:
		for _, v := range n.Q.Vars {
			out[v] = true
		}
	case *Group:
		part(n.P)
		for _, k := range n.Keys {
			a.mentionExpr(k.Expr, out)
			if k.Var != "" {
				out[k.Var] = true
			}
		}
		for _, g := range n.Aggs {
			out[g.Var] = true
			if g.Agg.Arg != nil {
				a.mentionExpr(g.Agg.Arg, out)
			}
		}
	case *OrderBy:
		part(n.P)
		for _, c := range n.Conds {
			a.mentionExpr(c.Expr, out)
		}
	case *Project:
		part(n.P)
	case *Distinct:
		part(n.P)
	case *Reduced:
		part(n.P)
	case *Slice:
		part(n.P)
	}
}

func (a *Analysis) mentionExpr(e Expr, out map[string]bool) {
	switch e := e.(type) {
	case *ExprVar:
		out[e.Name] = true
	case *Call:
		for _, arg := range e.Args {
			a.mentionExpr(arg, out)
		}
	case *Exists:
		for v := range a.Mentioned(e.P) {
			out[v] = true
		}
	case *Aggregate:
		if e.Arg != nil {
			a.mentionExpr(e.Arg, out)
		}
	}
}
