package dmn

import (
	"sort"

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
	inputs      []boxed
	inputValues []*feel.Tests // nil entries: no restriction
	inputTypes  []*feel.Type
	entries     [][]*feel.Tests // per rule, per input
	outputs     [][]boxed       // per rule, per output
	outNames    []string
	outTypes    []*feel.Type
	outValues   []*feel.Tests
	defaults    []boxed // nil when no output has a default
	decName     string
}

func (c *exprCompiler) table(dt *DecisionTable, names []string, decName string, decType *feel.Type) *compiledTable {
	t := &compiledTable{dt: dt, hit: dt.HitPolicy, agg: dt.Aggregation, decName: decName}
	scope := c.cd.feelScope(names)
	for _, in := range dt.Inputs {
		t.inputs = append(t.inputs, c.literal(in.Expression, dt, names))
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
	for _, r := range dt.Rules {
		row := make([]*feel.Tests, len(r.InputEntries))
		for i, text := range r.InputEntries {
			tests, err := feel.CompileUnaryTests(text, scope)
			if err != nil {
				c.cd.problem(r.ID, r.Pos, "input entry %q: %v", text, err)
				tests = nil
			}
			row[i] = tests
		}
		t.entries = append(t.entries, row)
		outs := make([]boxed, len(r.OutputEntries))
		for i, text := range r.OutputEntries {
			if text == "" {
				outs[i] = constExpr{}
				continue
			}
			outs[i] = c.literal(text, dt, names)
		}
		t.outputs = append(t.outputs, outs)
	}
	return t
}

func (t *compiledTable) eval(env *feel.Env) feel.Value {
	v, _ := t.evalRules(env, nil)
	return v
}

// evalRules evaluates the table; matches receives the matched rules when not nil.
// noMatch reports that no rule matched.
func (t *compiledTable) evalRules(env *feel.Env, matches *[]RuleMatch) (result feel.Value, noMatch bool) {
	rt := env.Runtime()
	var inBuf [8]feel.Value
	in := inBuf[:0]
	if len(t.inputs) > len(inBuf) {
		in = make([]feel.Value, 0, len(t.inputs))
	}
	for i, x := range t.inputs {
		v := x.eval(env)
		if t.inputValues[i] != nil && !t.inputValues[i].MatchEnv(env, v) {
			rt.Warnf("decision table %s: input %q value %s is not among the input values", t.decName, t.dt.Inputs[i].Expression, feel.Literal(v))
			return nil, false
		}
		in = append(in, v)
	}
	var matchBuf [16]int
	matched := matchBuf[:0]
	for r, row := range t.entries {
		ok := true
		for i, tests := range row {
			if tests == nil || !tests.MatchEnv(env, in[i]) {
				ok = false
				break
			}
		}
		if ok {
			matched = append(matched, r)
			if t.hit == HitFirst {
				break
			}
		}
	}
	if len(matched) == 0 {
		return t.defaultResult(env), true
	}
	rows := make([][]feel.Value, len(matched))
	for k, r := range matched {
		outs := make([]feel.Value, len(t.outputs[r]))
		for i, o := range t.outputs[r] {
			v := o.eval(env)
			if t.outTypes[i] != nil {
				cv, ok := t.outTypes[i].Coerce(v)
				if !ok {
					rt.Warnf("decision table %s: output %s does not conform to %s", t.decName, feel.Literal(v), t.outTypes[i])
				}
				v = cv
			}
			if t.outValues[i] != nil && v != nil && !t.outValues[i].MatchEnv(env, v) {
				rt.Warnf("decision table %s: output %s is not among the output values", t.decName, feel.Literal(v))
				return nil, false
			}
			outs[i] = v
		}
		rows[k] = outs
	}
	if matches != nil {
		for k, r := range matched {
			*matches = append(*matches, RuleMatch{Index: r, ID: t.dt.Rules[r].ID, Outputs: rows[k]})
		}
	}
	switch t.hit {
	case HitUnique:
		if len(matched) > 1 {
			return rt.Warnf("decision table %s: hit policy UNIQUE, but %d rules match", t.decName, len(matched)), false
		}
		return t.rowValue(rows[0]), false
	case HitFirst:
		return t.rowValue(rows[0]), false
	case HitAny:
		for _, r := range rows[1:] {
			for i := range r {
				if eq, ok := feel.Equal(r[i], rows[0][i]).(bool); !ok || !eq {
					return rt.Warnf("decision table %s: hit policy ANY, but the matching rules disagree", t.decName), false
				}
			}
		}
		return t.rowValue(rows[0]), false
	case HitPriority:
		idx := t.sortByPriority(env, rows)
		return t.rowValue(rows[idx[0]]), false
	case HitOutputOrder:
		idx := t.sortByPriority(env, rows)
		out := make([]feel.Value, len(idx))
		for k, i := range idx {
			out[k] = t.rowValue(rows[i])
		}
		return out, false
	case HitRuleOrder:
		out := make([]feel.Value, len(rows))
		for k, r := range rows {
			out[k] = t.rowValue(r)
		}
		return out, false
	case HitCollect:
		if t.agg == "" {
			out := make([]feel.Value, len(rows))
			for k, r := range rows {
				out[k] = t.rowValue(r)
			}
			return out, false
		}
		return t.aggregate(rt, rows), false
	}
	return nil, false
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

func (t *compiledTable) aggregate(rt *feel.Runtime, rows [][]feel.Value) feel.Value {
	vals := make([]feel.Value, 0, len(rows))
	for _, r := range rows {
		v := t.rowValue(r)
		if v != nil {
			vals = append(vals, v)
		}
	}
	switch t.agg {
	case "COUNT":
		return feel.Number(int64(len(vals)))
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
