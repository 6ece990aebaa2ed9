package engine

import "sort"

// Result is the result of evaluating a decision, as Operaton returns it:
// one row per matched rule of a decision table (one row for single-hit
// policies and aggregations, none when no rule matched), or one row with
// the decision's variable for a literal expression. Each row maps output
// names to values.
type Result []map[string]Variable

// NoRuleMatched reports whether the result has no rows (a decision table
// in which no rule matched).
func (r Result) NoRuleMatched() bool { return len(r) == 0 }

// Values collapses the rows into one map of plain values (Variable.Plain):
// no rows give an empty map; one row gives its values; several rows give,
// for every output name, the list of its values in row order (nil where a
// row lacks the output).
func (r Result) Values() map[string]any {
	out := map[string]any{}
	switch len(r) {
	case 0:
	case 1:
		for k, v := range r[0] {
			out[k] = v.Plain()
		}
	default:
		for _, name := range r.OutputNames() {
			col := make([]any, len(r))
			for i, row := range r {
				if v, ok := row[name]; ok {
					col[i] = v.Plain()
				}
			}
			out[name] = col
		}
	}
	return out
}

// OutputNames lists the output names that occur in any row, sorted.
func (r Result) OutputNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, row := range r {
		for k := range row {
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	return names
}
