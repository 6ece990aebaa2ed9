// Package dmn parses DMN 1.1–1.5 decision models (and the legacy Camunda
// namespace) into Definitions, compiles them into a Model, and evaluates
// decisions, business knowledge models and decision services with FEEL
// (package dmn/feel). A Model is compiled once and evaluated concurrently
// without locks. Package dmn/tck measures it against the OMG DMN TCK.
//
// The calls a newcomer needs:
//
//	defs, err := dmn.Parse(r)                    // *ParseError with line, column, element id (malformed XML too)
//	model, err := dmn.Compile(defs, imported...) // imports resolved by namespace
//	res, err := model.Evaluate(ctx, "Decision name or id", map[string]any{"Age": 42})
//	v, _ := res.Value("Decision name")           // every evaluated decision is in res
//
// Inputs are Go values (converted with ToValue: integers, json.Number and
// float64 become exact decimals, time.Time a date and time, slices lists,
// maps contexts) or FEEL values; a string given for an input typed date,
// time, date and time, duration or number is parsed as that type. FromValue
// converts results back to JSON-friendly Go values.
//
// A decision table's result (DecisionResult) tells whether no rule matched
// (NoRuleMatched), lists the matched rules with their outputs (Rules) and
// gives the result list the hit policy makes of them (Rows, as Operaton
// returns it: one row for UNIQUE, ANY, FIRST, PRIORITY and an aggregating
// COLLECT, one per rule for RULE ORDER, OUTPUT ORDER and COLLECT). A
// decision that failed — a violated hit policy, a value outside a table's
// input or output values, a reached expression that did not compile — is
// null with a typed *EvalError in DecisionResult.Failure. Attributes
// outside DMN (camunda:versionTag, …) are kept as Extensions on the parsed
// elements. Model.Decisions and Model.Inputs list the model for callers
// such as a chain executor.
//
// # Operaton / Camunda 7 compatibility
//
// CompileWith(Options{Operaton: true}, ...) evaluates as the Operaton (Camunda
// 7) engine does: required decisions first, depth-first in document order,
// all sharing one variable map into which each result list is merged by
// output name. Input expressions are expressions (date(d).year, a or b);
// inside input entries the input's value is cellInput (or the name
// camunda:inputVariable gives). Every failure fails the evaluation with an
// *EvalError of a kind (UnknownVariable, which names the decision that
// matched no rule; HitPolicyViolation; CompileProblem; DisallowedValue;
// TypeConversion). Table outputs and literal expression results convert
// to their typeRef as Operaton's data type transformers do: string gives
// any value's string form (a date 2047-01-23 becomes "2047-01-23"),
// integer and long take whole numbers and digit strings in range, double
// rounds to the nearest double, boolean takes "true"/"false", date takes
// ISO dates and dates and times, and other typeRefs leave the value as it
// is; a value the transformer refuses is a TypeConversion failure. (With
// DMN semantics a value that does not conform to its type is null.)
// In both modes an empty input entry means "any" and Camunda type names
// (integer, long, double, …) are recognised.
//
// # Conformance and performance
//
// OMG DMN TCK (github.com/dmn-tck/tck at 0dbcaf9b): compliance level 2
// 116 of 116, compliance level 3 3275 of 3275, together 3391 of 3391 (as
// jDMN); see dmn/tck and its floor files of passing test ids.
//
// # Budgets
//
// Every evaluation runs under feel.Limits (EvalOptions.Limits; zero fields
// take feel.DefaultLimits) and its context: the nesting of business
// knowledge model and decision service calls (so recursive BKMs, as in
// the TCK's non-compliant 0088-recursion and 0019-flight-rebooking,
// evaluate up to MaxDepth), the list elements and string bytes FEEL
// builds, and the wall time. An evaluation that exceeds one fails with an
// error wrapping the *feel.LimitError (errors.As finds it, and servers map
// it through its LimitExceeded method) instead of giving null; one whose
// context ends fails with the context's error. FEEL text nested deeper than
// feel.MaxNesting is a positioned compile problem.
//
// BenchmarkDecisionTable (a UNIQUE table, 10 rules × 3 inputs) and
// BenchmarkDRD (4 decisions) measure evaluation; their figures are in
// the README's performance table.
package dmn
