package memstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// maxExplainPlans bounds the plans one Explain reports: an operator inside
// a loop may plan anew for every set of bound variables.
const maxExplainPlans = 200

// Explain evaluates query as QueryWith does, discarding its results, and
// describes the plans the evaluation chose, one block per plan: for each
// basic graph pattern whether it ran as binary joins (with the pattern
// order and the estimated largest intermediate result) or as a generic
// join (with the variable order), and for each group of joined operands
// the order they ran in. Plans are chosen per set of variables bound on
// entry, so an operator run under an OPTIONAL or a sub-query may show
// several. The text is meant for people and tests, not for parsing.
func (s *Store) Explain(ctx context.Context, query string, opts QueryOptions) (string, error) {
	q, x, err := s.prepare(ctx, query, opts)
	if err != nil {
		return "", err
	}
	x.explain = &explainLog{}
	rows := 0
	if q.Form == algebra.Select {
		err = x.streamSelect(q, func([]graph.Term) bool { rows++; return true })
	} else {
		var res *Result
		res, err = x.runQuery(q)
		if err == nil && res.Results != nil {
			rows = len(res.Results.Solutions)
		} else if err == nil && res.Graph != nil {
			rows = res.Graph.Len()
		}
	}
	if err != nil {
		return "", err
	}
	return x.explain.String(q.Form, rows), nil
}

// explainLog collects the plans an evaluation chose; nil (no cost) unless
// Explain asked.
type explainLog struct {
	b       strings.Builder
	plans   int
	dropped int
	nextID  int
}

func (l *explainLog) id() int { l.nextID++; return l.nextID }

func (l *explainLog) add(f func(b *strings.Builder)) {
	if l.plans >= maxExplainPlans {
		l.dropped++
		return
	}
	l.plans++
	f(&l.b)
}

func (l *explainLog) String(form algebra.Form, rows int) string {
	var head strings.Builder
	fmt.Fprintf(&head, "%s: %d results; %d plans\n", formName(form), rows, l.plans+l.dropped)
	if l.dropped > 0 {
		return head.String() + l.b.String() + fmt.Sprintf("(%d more plans not shown)\n", l.dropped)
	}
	return head.String() + l.b.String()
}

func formName(f algebra.Form) string {
	switch f {
	case algebra.Select:
		return "SELECT"
	case algebra.Ask:
		return "ASK"
	case algebra.Construct:
		return "CONSTRUCT"
	case algebra.Describe:
		return "DESCRIBE"
	}
	return "query"
}

// termText renders a pattern position for the plan text.
func termText(t algebra.Term) string {
	if t.Var != "" {
		return "?" + t.Var
	}
	return t.Term.String()
}

// boundText names the variables among slots that b binds.
func boundText(names []string, slots []int, b binding) string {
	var out []string
	for i, s := range slots {
		if s < len(b) && b[s] != 0 && i < len(names) {
			out = append(out, "?"+names[i])
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
}

// explainPlan records the plan chosen for o under the bindings b.
func (o *opBGP) explainPlan(x *exec, plan *bgpPlan, b binding) {
	x.explain.add(func(w *strings.Builder) {
		fmt.Fprintf(w, "BGP#%d, %d patterns, bound on entry: %s\n", o.explainID, len(o.pats), boundText(o.varNames, o.vars, b))
		if plan.gj != nil {
			var vars []string
			for _, s := range plan.gj.vars {
				for i, vs := range o.vars {
					if vs == s {
						vars = append(vars, "?"+o.varNames[i])
					}
				}
			}
			fmt.Fprintf(w, "  generic join (cyclic; estimated binary peak %s), variable order: %s\n", estText(plan.peak), strings.Join(vars, " "))
			return
		}
		fmt.Fprintf(w, "  binary joins, estimated peak %s:\n", estText(plan.peak))
		for i, pi := range plan.order {
			fmt.Fprintf(w, "    %d. %s\n", i+1, o.patText[pi])
		}
	})
}

// explainPlan records the operand order chosen for o under the bindings b.
func (o *opJoinN) explainPlan(x *exec, order []int, b binding) {
	x.explain.add(func(w *strings.Builder) {
		fmt.Fprintf(w, "JOIN#%d, %d operands, bound on entry: %s\n", o.explainID, len(o.ops), boundText(o.varNames, o.vars, b))
		for i, oi := range order {
			fmt.Fprintf(w, "    %d. operand %d: %s\n", i+1, oi+1, opText(o.ops[oi]))
		}
	})
}

// opText names an operand of a join.
func opText(o op) string {
	switch o := o.(type) {
	case *opBGP:
		return "BGP#" + strconv.Itoa(o.explainID)
	case *opJoinN:
		return "JOIN#" + strconv.Itoa(o.explainID)
	case *opUnion:
		return "UNION of " + opText(o.l) + " and " + opText(o.r)
	}
	return fmt.Sprintf("%T", o)
}

func estText(f float64) string {
	return strconv.FormatFloat(f, 'g', 3, 64)
}
