package algebra

// InScope returns the in-scope variables of n (SPARQL 1.1 §18.2.1) in
// order of first appearance.
func InScope(n Node) []string {
	var out []string
	seen := map[string]bool{}
	add := func(v string) {
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	var walk func(Node)
	walk = func(n Node) {
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
			walk(n.L)
			walk(n.R)
		case *LeftJoin:
			walk(n.L)
			walk(n.R)
		case *Union:
			walk(n.L)
			walk(n.R)
		case *Minus:
			walk(n.L)
		case *Filter:
			walk(n.P)
		case *Graph:
			add(n.Name.Var)
			walk(n.P)
		case *Extend:
			walk(n.P)
			add(n.Var)
		case *Values:
			for _, v := range n.Vars {
				add(v)
			}
		case *Service:
			add(n.Name.Var)
			walk(n.P)
		case *SubQuery:
			for _, v := range n.Q.Vars {
				add(v)
			}
		case *Group:
			for _, k := range n.Keys {
				add(k.Var)
			}
			for _, a := range n.Aggs {
				add(a.Var)
			}
		case *OrderBy:
			walk(n.P)
		case *Project:
			for _, v := range n.Vars {
				add(v)
			}
		case *Distinct:
			walk(n.P)
		case *Reduced:
			walk(n.P)
		case *Slice:
			walk(n.P)
		}
	}
	walk(n)
	return out
}

// Certain returns the variables that every solution of n binds.
func Certain(n Node) map[string]bool {
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
		for v := range Certain(n.L) {
			out[v] = true
		}
		for v := range Certain(n.R) {
			out[v] = true
		}
	case *LeftJoin:
		return Certain(n.L)
	case *Minus:
		return Certain(n.L)
	case *Filter:
		return Certain(n.P)
	case *Union:
		r := Certain(n.R)
		for v := range Certain(n.L) {
			if r[v] {
				out[v] = true
			}
		}
	case *Graph:
		out = Certain(n.P)
		if n.Name.Var != "" {
			out[n.Name.Var] = true
		}
	case *Extend:
		// the expression may fail and leave the variable unbound
		return Certain(n.P)
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
		for _, k := range n.Keys {
			if ev, ok := k.Expr.(*ExprVar); ok && k.Var == ev.Name {
				// a group key may be unbound (error or unbound variable)
				_ = ev
			}
		}
	case *OrderBy:
		return Certain(n.P)
	case *Project:
		c := Certain(n.P)
		for _, v := range n.Vars {
			if c[v] {
				out[v] = true
			}
		}
	case *Distinct:
		return Certain(n.P)
	case *Reduced:
		return Certain(n.P)
	case *Slice:
		return Certain(n.P)
	case *SubQuery:
		return Certain(n.Q.Pattern)
	}
	return out
}

// Mentioned returns every variable that occurs anywhere in n, including in
// expressions and nested patterns.
func Mentioned(n Node) map[string]bool {
	out := map[string]bool{}
	mentionNode(n, out)
	return out
}

// MentionedExpr returns the variables that occur in e (also inside EXISTS).
func MentionedExpr(e Expr) map[string]bool {
	out := map[string]bool{}
	mentionExpr(e, out)
	return out
}

func mentionNode(n Node, out map[string]bool) {
	add := func(t Term) {
		if t.Var != "" {
			out[t.Var] = true
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
		mentionNode(n.L, out)
		mentionNode(n.R, out)
	case *LeftJoin:
		mentionNode(n.L, out)
		mentionNode(n.R, out)
		if n.Expr != nil {
			mentionExpr(n.Expr, out)
		}
	case *Union:
		mentionNode(n.L, out)
		mentionNode(n.R, out)
	case *Minus:
		mentionNode(n.L, out)
		mentionNode(n.R, out)
	case *Filter:
		mentionExpr(n.Expr, out)
		mentionNode(n.P, out)
	case *Graph:
		add(n.Name)
		mentionNode(n.P, out)
	case *Extend:
		out[n.Var] = true
		mentionExpr(n.Expr, out)
		mentionNode(n.P, out)
	case *Values:
		for _, v := range n.Vars {
			out[v] = true
		}
	case *Service:
		add(n.Name)
		mentionNode(n.P, out)
	case *SubQuery:
		for _, v := range n.Q.Vars {
			out[v] = true
		}
	case *Group:
		mentionNode(n.P, out)
		for _, k := range n.Keys {
			mentionExpr(k.Expr, out)
			if k.Var != "" {
				out[k.Var] = true
			}
		}
		for _, a := range n.Aggs {
			out[a.Var] = true
			if a.Agg.Arg != nil {
				mentionExpr(a.Agg.Arg, out)
			}
		}
	case *OrderBy:
		mentionNode(n.P, out)
		for _, c := range n.Conds {
			mentionExpr(c.Expr, out)
		}
	case *Project:
		mentionNode(n.P, out)
	case *Distinct:
		mentionNode(n.P, out)
	case *Reduced:
		mentionNode(n.P, out)
	case *Slice:
		mentionNode(n.P, out)
	}
}

func mentionExpr(e Expr, out map[string]bool) {
	switch e := e.(type) {
	case *ExprVar:
		out[e.Name] = true
	case *Call:
		for _, a := range e.Args {
			mentionExpr(a, out)
		}
	case *Exists:
		mentionNode(e.P, out)
	case *Aggregate:
		if e.Arg != nil {
			mentionExpr(e.Arg, out)
		}
	}
}
