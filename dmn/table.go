package dmn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn/feel"
)

// RuleMatch is one matched rule of a decision table: its index (0-based),
// id, and the values of its output entries in output-clause order.
type RuleMatch struct {
	Index   int
	ID      string
	Outputs []feel.Value
}

type compiledTable struct {
	dt          *DecisionTable
	hit         HitPolicy
	agg         string
	operaton    bool // Operaton mode: see evalRules and Rows
	inputs      []boxed
	inputValues []*feel.Tests // nil entries: no restriction
	inputTypes  []*feel.Type
	entries     [][]*feel.Tests // per rule, per input; nil: did not compile (see broken)
	broken      map[[2]int]Problem
	outputs     [][]boxed // per rule, per output
	// omit marks, per rule and output, empty output entries, which
	// Operaton leaves out of the rule's result; nil for a rule without any
	// (and for the whole table outside Operaton mode)
	omit     [][]bool
	outNames []string
	outTypes []*feel.Type
	// opTypes convert outputs as Operaton does (Operaton mode; nil else)
	opTypes   []operatonType
	outValues []*feel.Tests
	defaults  []boxed // nil when no output has a default
	decName   string
}

// cellInput is the name of an input's value inside its input entries in
// Camunda 7 / Operaton, unless camunda:inputVariable names another.
const cellInput = "cellInput"

func (c *exprCompiler) table(dt *DecisionTable, names []string, decName string, decType *feel.Type) *compiledTable {
	operaton := c.cd.m.opts.Operaton
	t := &compiledTable{dt: dt, hit: dt.HitPolicy, agg: dt.Aggregation, decName: decName, operaton: operaton}
	scope := c.cd.feelScope(names)
	inputVars := make([]string, len(dt.Inputs))
	for i, in := range dt.Inputs {
		t.inputs = append(t.inputs, c.literal(in.Expression, dt, names))
		inputVars[i] = cellInput
		if v, ok := in.Extensions.Get(NamespaceCamundaExt, "inputVariable"); ok && strings.TrimSpace(v) != "" {
			inputVars[i] = strings.TrimSpace(v)
		}
		var iv *feel.Tests
		if in.InputValues != "" {
			tests, err := feel.CompileUnaryTests(in.InputValues, scope)
			if err != nil {
				c.cd.problem(in.ID, in.Pos, "inputValues: %v", err)
			} else {
				iv = tests
			}
		}
		t.inputValues = append(t.inputValues, iv)
		var it *feel.Type
		if in.TypeRef != "" {
			if rt, ok := c.cd.resolveType(in.TypeRef); ok {
				it = rt
			}
		}
		t.inputTypes = append(t.inputTypes, it)
	}
	for i, out := range dt.Outputs {
		name := out.Name
		if name == "" && len(dt.Outputs) == 1 {
			name = decName
		}
		t.outNames = append(t.outNames, name)
		var ot *feel.Type
		if out.TypeRef != "" {
			if rt, ok := c.cd.resolveType(out.TypeRef); ok {
				ot = rt
			} else {
				c.cd.problem(out.ID, out.Pos, "unknown type %q", out.TypeRef)
			}
		} else if decType != nil && len(dt.Outputs) > 1 && decType.Kind == feel.KindContext {
			for _, f := range decType.Fields {
				if f.Name == out.Name {
					ot = f.Type
				}
			}
		}
		t.outTypes = append(t.outTypes, ot)
		if operaton {
			t.opTypes = append(t.opTypes, operatonTypeOf(out.TypeRef))
		}
		var ov *feel.Tests
		if out.OutputValues != "" {
			tests, err := feel.CompileUnaryTests(out.OutputValues, scope)
			if err != nil {
				c.cd.problem(out.ID, out.Pos, "outputValues: %v", err)
			} else {
				ov = tests
			}
		}
		t.outValues = append(t.outValues, ov)
		if out.DefaultOutputEntry != "" {
			if t.defaults == nil {
				t.defaults = make([]boxed, len(dt.Outputs))
			}
			t.defaults[i] = c.literal(out.DefaultOutputEntry, dt, names)
		}
	}
	for r, rule := range dt.Rules {
		row := make([]*feel.Tests, len(rule.InputEntries))
		for i, text := range rule.InputEntries {
			tests, err := c.inputEntry(text, scope, operaton, inputVars[i])
			if err != nil {
				if t.broken == nil {
					t.broken = map[[2]int]Problem{}
				}
				t.broken[[2]int{r, i}] = c.cd.problem(rule.ID, rule.Pos, "input entry %q: %v", text, err)
				tests = nil
			}
			row[i] = tests
		}
		t.entries = append(t.entries, row)
		outs := make([]boxed, len(rule.OutputEntries))
		for i, text := range rule.OutputEntries {
			if strings.TrimSpace(text) == "" {
				outs[i] = constExpr{}
				if operaton {
					if t.omit == nil {
						t.omit = make([][]bool, len(dt.Rules))
					}
					if t.omit[r] == nil {
						t.omit[r] = make([]bool, len(rule.OutputEntries))
					}
					t.omit[r][i] = true
				}
				continue
			}
			outs[i] = c.literalIn(text, rule.ID, rule.Pos, names)
		}
		t.outputs = append(t.outputs, outs)
	}
	return t
}

// inputEntry compiles the unary tests of an input entry. In Operaton mode
// the input's value is also available under the input variable's name
// (cellInput), as in Camunda 7, where it means the same as "?".
func (c *exprCompiler) inputEntry(text string, scope *feel.Scope, operaton bool, inputVar string) (*feel.Tests, error) {
	if !operaton {
		return feel.CompileUnaryTests(text, scope)
	}
	ut, err := feel.ParseUnaryTests(text, scope)
	if err != nil {
		return nil, err
	}
	for _, n := range ut.Tests {
		feel.Inspect(n, func(m feel.Node) bool {
			if nm, ok := m.(*feel.Name); ok && nm.Name == inputVar {
				nm.Name = "?"
			}
			return true
		})
	}
	return feel.CompileTestsNode(ut, text, scope), nil
}

func (t *compiledTable) eval(env *feel.Env) feel.Value {
	return t.evalRules(env, false).value
}

// tableResult is the outcome of evaluating a decision table.
type tableResult struct {
	value   feel.Value
	noMatch bool
	// rules are the matched rules, when asked for; pick is the index of
	// the result row of a single-hit policy (else -1), order the
	// indexes in priority order for OUTPUT ORDER
	rules []RuleMatch
	pick  int
	order []int
	// failure is a violated hit policy or a disallowed value (DecisionID
	// not set)
	failure *EvalError
}

// evalRules evaluates the table; withRules asks for the matched rules.
// In Operaton mode (as Camunda 7 does) every matching rule's outputs are
// evaluated, also for FIRST, empty output entries are left out of a
// rule's result, and an aggregation fails on compound outputs and on
// values that are not numbers.
func (t *compiledTable) evalRules(env *feel.Env, withRules bool) tableResult {
	rt := env.Runtime()
	res := tableResult{pick: -1}
	var inBuf [8]feel.Value
	in := inBuf[:0]
	if len(t.inputs) > len(inBuf) {
		in = make([]feel.Value, 0, len(t.inputs))
	}
	for i, x := range t.inputs {
		v := x.eval(env)
		if t.inputValues[i] != nil && !t.inputValues[i].MatchEnv(env, v) {
			res.failure = &EvalError{Kind: DisallowedValue, HitPolicy: t.hit,
				reason: fmt.Sprintf("input %q value %s is not among the input values", t.dt.Inputs[i].Expression, feel.Literal(v))}
			rt.Warnf("decision table %s: %s", t.decName, res.failure.reason)
			return res
		}
		in = append(in, v)
	}
	var matchBuf [16]int
	matched := matchBuf[:0]
	for r, row := range t.entries {
		ok := true
		for i, tests := range row {
			if tests == nil {
				reach(rt, t.broken[[2]int{r, i}])
				ok = false
				break
			}
			if !tests.MatchEnv(env, in[i]) {
				ok = false
				break
			}
		}
		if ok {
			matched = append(matched, r)
			if t.hit == HitFirst && !t.operaton {
				break
			}
		}
	}
	if len(matched) == 0 {
		res.value, res.noMatch = t.defaultResult(env), true
		return res
	}
	var rowsBuf [4][]feel.Value
	rows := rowsBuf[:0]
	if len(matched) > len(rowsBuf) {
		rows = make([][]feel.Value, 0, len(matched))
	}
	for _, r := range matched {
		outs := make([]feel.Value, len(t.outputs[r]))
		for i, o := range t.outputs[r] {
			v := o.eval(env)
			switch {
			case t.opTypes != nil:
				if v != nil {
					cv, why := t.opTypes[i].convert(v)
					if why != "" {
						res.failure = t.convertFailure(r, i, v, why)
						rt.Warnf("decision table %s: %s", t.decName, res.failure.reason)
						return res
					}
					v = cv
				}
			case t.outTypes[i] != nil:
				cv, ok := t.outTypes[i].Coerce(v)
				if !ok {
					rt.Warnf("decision table %s: output %s does not conform to %s", t.decName, feel.Excerpt(v), t.outTypes[i])
				}
				v = cv
			}
			if t.outValues[i] != nil && v != nil && !t.outValues[i].MatchEnv(env, v) {
				res.failure = &EvalError{Kind: DisallowedValue, HitPolicy: t.hit, Rules: t.ruleNames([]int{r}),
					reason: fmt.Sprintf("output %s is not among the output values", feel.Literal(v))}
				rt.Warnf("decision table %s: %s", t.decName, res.failure.reason)
				return res
			}
			outs[i] = v
		}
		rows = append(rows, outs)
	}
	if withRules {
		res.rules = make([]RuleMatch, len(matched))
		for k, r := range matched {
			res.rules[k] = RuleMatch{Index: r, ID: t.dt.Rules[r].ID, Outputs: rows[k]}
		}
	}
	fail := func(v *EvalError) tableResult {
		res.failure = v
		res.value = rt.Warnf("decision table %s: %s", t.decName, v.reason)
		return res
	}
	switch t.hit {
	case HitUnique:
		if len(matched) > 1 {
			return fail(t.violation(matched, func(rules string) string {
				return fmt.Sprintf("hit policy UNIQUE only allows a single rule to match, but %d rules match (%s)", len(matched), rules)
			}))
		}
		res.value, res.pick = t.rowValue(rows[0]), 0
	case HitFirst:
		res.value, res.pick = t.rowValue(rows[0]), 0
	case HitAny:
		for k := 1; k < len(rows); k++ {
			if !t.sameOutputs(matched[0], rows[0], matched[k], rows[k]) {
				return fail(t.violation(matched, func(rules string) string {
					return fmt.Sprintf("hit policy ANY only allows matching rules with equal outputs, but %s differ", rules)
				}))
			}
		}
		res.value, res.pick = t.rowValue(rows[0]), 0
	case HitPriority:
		idx := t.sortByPriority(env, rows)
		res.value, res.pick = t.rowValue(rows[idx[0]]), idx[0]
	case HitOutputOrder:
		idx := t.sortByPriority(env, rows)
		out := make([]feel.Value, len(idx))
		for k, i := range idx {
			out[k] = t.rowValue(rows[i])
		}
		res.value, res.order = out, idx
	case HitRuleOrder:
		res.value = t.listValue(rows)
	case HitCollect:
		if t.agg == "" {
			res.value = t.listValue(rows)
			break
		}
		if t.operaton {
			if v := t.checkAggregation(matched, rows); v != nil {
				return fail(v)
			}
		}
		res.value = t.aggregate(rt, matched, rows)
	}
	return res
}

func (t *compiledTable) listValue(rows [][]feel.Value) []feel.Value {
	out := make([]feel.Value, len(rows))
	for k, r := range rows {
		out[k] = t.rowValue(r)
	}
	return out
}

// omitted reports whether output i of rule r is left out of its result.
func (t *compiledTable) omitted(r, i int) bool {
	return t.omit != nil && t.omit[r] != nil && t.omit[r][i]
}

// sameOutputs reports whether two matched rules have the same result.
func (t *compiledTable) sameOutputs(ra int, a []feel.Value, rb int, b []feel.Value) bool {
	for i := range a {
		oa, ob := t.omitted(ra, i), t.omitted(rb, i)
		if oa != ob {
			return false
		}
		if oa {
			continue
		}
		if eq, ok := feel.Equal(a[i], b[i]).(bool); !ok || !eq {
			return false
		}
	}
	return true
}

// checkAggregation fails an aggregation as Operaton does: on a rule
// result with several outputs, and (sum, minimum, maximum) on a value
// that is not a number.
func (t *compiledTable) checkAggregation(matched []int, rows [][]feel.Value) *EvalError {
	for k, r := range matched {
		n := 0
		for i := range rows[k] {
			if !t.omitted(r, i) {
				n++
				if _, num := rows[k][i].(*apd.Decimal); !num && t.agg != "COUNT" && rows[k][i] != nil {
					return t.violation(matched[k:k+1], func(rule string) string {
						return fmt.Sprintf("aggregation %s needs numbers, but rule %s gives %s", t.agg, rule, feel.Literal(rows[k][i]))
					})
				}
			}
		}
		if n > 1 {
			return t.violation(matched[k:k+1], func(rule string) string {
				return fmt.Sprintf("aggregation %s needs a single output, but rule %s gives %d", t.agg, rule, n)
			})
		}
	}
	return nil
}

func (t *compiledTable) rowValue(row []feel.Value) feel.Value {
	if len(row) == 1 {
		return row[0]
	}
	ctx := feel.NewContext(len(row))
	for i, v := range row {
		ctx.Put(t.outNames[i], v)
	}
	return ctx
}

func (t *compiledTable) defaultResult(env *feel.Env) feel.Value {
	if t.defaults == nil {
		if t.hit == HitCollect && t.agg == "COUNT" {
			return feel.Number(0)
		}
		if t.hit == HitCollect || t.hit == HitRuleOrder || t.hit == HitOutputOrder {
			return nil
		}
		return nil
	}
	row := make([]feel.Value, len(t.defaults))
	for i, d := range t.defaults {
		if d != nil {
			row[i] = d.eval(env)
		}
	}
	return t.rowValue(row)
}

// sortByPriority orders row indices by the output values lists, output by
// output (the first output's priority decides first).
func (t *compiledTable) sortByPriority(env *feel.Env, rows [][]feel.Value) []int {
	idx := make([]int, len(rows))
	ranks := make([][]int, len(rows))
	for k, r := range rows {
		idx[k] = k
		ranks[k] = make([]int, len(r))
		for i, v := range r {
			if t.outValues[i] != nil {
				p := t.outValues[i].Index(env, v)
				if p < 0 {
					p = t.outValues[i].Len()
				}
				ranks[k][i] = p
			}
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ra, rb := ranks[idx[a]], ranks[idx[b]]
		for i := range ra {
			if ra[i] != rb[i] {
				return ra[i] < rb[i]
			}
		}
		return false
	})
	return idx
}

func (t *compiledTable) aggregate(rt *feel.Runtime, matched []int, rows [][]feel.Value) feel.Value {
	vals := make([]feel.Value, 0, len(rows))
	count := 0
	for k, r := range rows {
		if t.operaton {
			// Operaton aggregates the rule results that have an output,
			// counting nulls too
			for i, v := range r {
				if !t.omitted(matched[k], i) {
					count++
					if v != nil {
						vals = append(vals, v)
					}
				}
			}
			continue
		}
		v := t.rowValue(r)
		if v != nil {
			vals = append(vals, v)
		}
	}
	if !t.operaton {
		count = len(vals)
	}
	switch t.agg {
	case "COUNT":
		return feel.Number(int64(count))
	case "SUM":
		if len(vals) == 0 {
			return nil
		}
		total := new(apd.Decimal)
		for _, v := range vals {
			d, ok := v.(*apd.Decimal)
			if !ok {
				return rt.Warnf("decision table %s: C+ over a non-number", t.decName)
			}
			feel.DecimalContext.Add(total, total, d)
		}
		return total
	case "MIN", "MAX":
		if len(vals) == 0 {
			return nil
		}
		best := vals[0]
		for _, v := range vals[1:] {
			c, ok := feel.Compare(v, best)
			if !ok {
				return rt.Warnf("decision table %s: outputs are not comparable", t.decName)
			}
			if (t.agg == "MIN" && c < 0) || (t.agg == "MAX" && c > 0) {
				best = v
			}
		}
		return best
	}
	return nil
}
