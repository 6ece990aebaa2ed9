package dmn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/dmn/feel"
)

// EvalErrorKind says why a decision failed.
type EvalErrorKind uint8

// Kinds of EvalError.
const (
	// UnknownVariable: the decision referenced a variable that is not in
	// the variable map (Operaton mode only; DMN semantics make it null).
	UnknownVariable EvalErrorKind = iota + 1
	// HitPolicyViolation: a UNIQUE table matched several rules, an ANY
	// table several rules with different outputs, or (Operaton mode) a
	// COLLECT aggregation met a compound output or a value that is not a
	// number.
	HitPolicyViolation
	// CompileProblem: the evaluation reached an expression that did not
	// compile (one of Model.Problems).
	CompileProblem
	// DisallowedValue: a decision table's input or output value is not
	// among the table's input values or output values.
	DisallowedValue
	// TypeConversion: (Operaton mode) a decision table output's value
	// cannot be converted to the output's typeRef, as Operaton's data type
	// transformers refuse it (for example 2.5 for typeRef integer).
	TypeConversion
)

func (k EvalErrorKind) String() string {
	switch k {
	case UnknownVariable:
		return "unknown variable"
	case HitPolicyViolation:
		return "hit policy violation"
	case CompileProblem:
		return "compile problem"
	case DisallowedValue:
		return "disallowed value"
	case TypeConversion:
		return "type conversion"
	}
	return "EvalErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// EvalError is a decision that failed. In Operaton mode Evaluate returns
// it as its error, since Operaton fails the whole evaluation; with DMN
// semantics the decision's value is null and the error is its
// DecisionResult.Failure (UnknownVariable does not occur there).
type EvalError struct {
	Kind       EvalErrorKind
	DecisionID string
	// Variable is the unknown variable (UnknownVariable).
	Variable string
	// NoRuleMatched is the id of an earlier decision that matched no rule
	// and so did not provide Variable, or "" (UnknownVariable).
	NoRuleMatched string
	// HitPolicy and Rules are the violated hit policy and the ids of the
	// matched rules ("rule 3" for a rule without id) (HitPolicyViolation).
	HitPolicy HitPolicy
	Rules     []string
	// Problem is the compile problem the evaluation reached (CompileProblem).
	Problem *Problem

	reason string // the violation (HitPolicyViolation, DisallowedValue, TypeConversion)
}

// Reason says what went wrong, without naming the decision: for example
// `unknown variable "x"` or "hit policy UNIQUE only allows a single rule
// to match, but 2 rules match (r1, r2)".
func (e *EvalError) Reason() string {
	switch e.Kind {
	case UnknownVariable:
		if e.NoRuleMatched != "" {
			return fmt.Sprintf("unknown variable %q: no rule matched (%s)", e.Variable, e.NoRuleMatched)
		}
		return fmt.Sprintf("unknown variable %q", e.Variable)
	case CompileProblem:
		if e.Problem != nil {
			return "expression does not compile: " + e.Problem.String()
		}
	}
	if e.reason != "" {
		return e.reason
	}
	return e.Kind.String()
}

func (e *EvalError) Error() string {
	return "dmn: decision " + e.DecisionID + ": " + e.Reason()
}

// ruleNames lists the ids of matched rules ("rule N", 1-based, without id).
func (t *compiledTable) ruleNames(matched []int) []string {
	out := make([]string, len(matched))
	for i, r := range matched {
		out[i] = t.dt.Rules[r].ID
		if out[i] == "" {
			out[i] = "rule " + strconv.Itoa(r+1)
		}
	}
	return out
}

// violation is a hit-policy violation by the matched rules; describe
// gets their names, joined.
func (t *compiledTable) violation(matched []int, describe func(rules string) string) *EvalError {
	rules := t.ruleNames(matched)
	return &EvalError{Kind: HitPolicyViolation, HitPolicy: t.hit, Rules: rules, reason: describe(strings.Join(rules, ", "))}
}

// reachedProblem is a compile problem met during evaluation, as recorded
// in feel.Runtime.Errors.
type reachedProblem struct {
	p Problem
	// unknown is len(Runtime.Unknown) when the problem was met, so that an
	// unknown variable met earlier is reported first
	unknown int
}

func (r *reachedProblem) Error() string { return r.p.Msg }

func reach(rt *feel.Runtime, p Problem) feel.Value {
	return rt.Fail(&reachedProblem{p: p, unknown: len(rt.Unknown)})
}

// decisionFailure is the failure of a decision evaluated with rt: the
// first of an unknown variable (when unknownFails; Unknown from index u0)
// and a reached compile problem (Errors from index e0), else the table's
// failure (a hit-policy violation, a disallowed value), else nil.
func decisionFailure(id string, rt *feel.Runtime, u0, e0 int, unknownFails bool, tableFailure *EvalError) *EvalError {
	var problem *reachedProblem
	for _, err := range rt.Errors[min(e0, len(rt.Errors)):] {
		if rp, ok := err.(*reachedProblem); ok {
			problem = rp
			break
		}
	}
	if unknownFails && len(rt.Unknown) > u0 && (problem == nil || problem.unknown > u0) {
		return &EvalError{Kind: UnknownVariable, DecisionID: id, Variable: rt.Unknown[u0]}
	}
	if problem != nil {
		p := problem.p
		return &EvalError{Kind: CompileProblem, DecisionID: id, Problem: &p}
	}
	if tableFailure != nil {
		tableFailure.DecisionID = id
		return tableFailure
	}
	return nil
}

// Row is one entry of a decision's result list, as Operaton returns it:
// output names and their values, in output order. The slices may be
// shared with the result; do not modify them.
type Row struct {
	Names  []string
	Values []feel.Value
}

// Get returns the value of the output with the name.
func (r Row) Get(name string) (feel.Value, bool) {
	for i, n := range r.Names {
		if n == name {
			return r.Values[i], true
		}
	}
	return nil, false
}

// Context returns the row as a FEEL context.
func (r Row) Context() *feel.Context {
	c := feel.NewContext(len(r.Names))
	for i, n := range r.Names {
		c.Put(n, r.Values[i])
	}
	return c
}

// Rows returns the decision's result list as Operaton returns it.
//
// A decision table gives one row for UNIQUE, ANY, FIRST and PRIORITY
// (the matched rule, the first, the one of highest priority); one row
// per matched rule for RULE ORDER and COLLECT (rule order) and OUTPUT
// ORDER (priority order); one row with the aggregate for COLLECT with an
// aggregation (C+, C#, C<, C>), under the output's name; no rows when no
// rule matched. In Operaton mode a row leaves out the outputs whose
// output entry is empty. Other logic gives one row with the decision's
// variable name. A decision that failed (Failure) has no rows.
func (d DecisionResult) Rows() []Row { return d.AppendRows(nil) }

// AppendRows appends the decision's result list (see Rows) to rows and
// returns the extended slice.
func (d DecisionResult) AppendRows(rows []Row) []Row {
	if d.Failure != nil || d.elem == nil {
		return rows
	}
	t := d.elem.table
	if t == nil {
		return append(rows, Row{Names: d.elem.resultNames, Values: []feel.Value{d.Value}})
	}
	if d.NoRuleMatched || len(d.Rules) == 0 {
		return rows
	}
	switch {
	case t.hit == HitCollect && t.agg != "":
		return append(rows, Row{Names: t.outNames[:1], Values: []feel.Value{d.Value}})
	case d.pick >= 0:
		return append(rows, t.row(d.Rules[d.pick]))
	case d.order != nil:
		for _, k := range d.order {
			rows = append(rows, t.row(d.Rules[k]))
		}
		return rows
	}
	for _, r := range d.Rules {
		rows = append(rows, t.row(r))
	}
	return rows
}

// row is the result row of a matched rule.
func (t *compiledTable) row(r RuleMatch) Row {
	if t.omit == nil || t.omit[r.Index] == nil {
		return Row{Names: t.outNames, Values: r.Outputs}
	}
	omit := t.omit[r.Index]
	row := Row{Names: make([]string, 0, len(t.outNames)), Values: make([]feel.Value, 0, len(t.outNames))}
	for i, n := range t.outNames {
		if !omit[i] {
			row.Names = append(row.Names, n)
			row.Values = append(row.Values, r.Outputs[i])
		}
	}
	return row
}
