// Package feel implements FEEL, the expression language of DMN 1.5
// (chapter 10): a scanner and hand-written parser with positions, an
// exported syntax tree, a compiler to closures and the built-in function
// library. Numbers are decimal128 (github.com/cockroachdb/apd/v3, 34
// digits, half-even), never float64; invalid operations evaluate to null
// and record a warning in the Runtime instead of failing.
//
// Compile once, evaluate many times:
//
//	x, err := feel.CompileExpr(`Monthly Salary * 12`, &feel.Scope{Names: []string{"Monthly Salary"}})
//	v := x.Eval(feel.NewEnv(nil, map[string]feel.Value{"Monthly Salary": feel.Number(3000)}))
//
// Names may contain spaces and the symbols . / - ' + *, so the parser
// takes the names in scope (Scope.Names) to split "Loan-to-Value ratio - 1"
// correctly; unknown adjacent words still join into one name.
//
// # Syntax trees for tools
//
// ParseExpr and ParseUnaryTests return the tree (go/ast style, every node
// with Pos and End) or an ErrorList of positioned errors. Unary tests of a
// decision table cell parse to *UnaryTests: Any for "-" or an empty cell,
// Not for not(...), and Tests holding *UnaryCompare (operator and operand),
// *RangeLit (Low, High, LowIncluded, HighIncluded), literals, *Negation of
// a number, or any other expression. Inspect walks a tree.
//
// # Values
//
// Value is any of nil, *apd.Decimal, string, bool, Date, Time, DateTime,
// Duration, YearsMonths, []Value, *Context, Range and *Function; String and
// Literal render values, Equal and Compare implement FEEL's = and <.
//
// # Regular expressions
//
// matches, replace and split read their patterns and flags as XPath's
// fn:matches does, through sparql/graph/xsdregexp, the one translation
// that SPARQL and SHACL use too (a package of the standard library and
// github.com/dlclark/regexp2 only, so the DMN engine links nothing of the
// RDF stack). Patterns run on Go's RE2 in linear time; a pattern with a
// back reference, matches("aA", "(a)\1", "i"), runs on regexp2's
// backtracking engine under a match time limit. A pattern, flags or
// replacement XPath rejects makes the call null with a warning naming the
// problem, e.g. `matches: regular expression "\1(a)": back reference \1
// refers to no group closed before it`.
//
// # Bounds
//
// The parser refuses text nested deeper than MaxNesting (brackets,
// keywords, operator chains) with a positioned error. Evaluation runs
// under Limits (Runtime.Run): the nesting of user-defined function calls
// (MaxDepth), the list elements (MaxRows) and string bytes (MaxBytes) one
// evaluation builds, and its wall time (Timeout) and context. A budget
// error stops the evaluation with a *LimitError instead of giving null;
// the checks count work in integers and read the clock every 1024 steps.
//
//	err := rt.Run(ctx, feel.Limits{MaxDepth: 50}, func() { v = x.Eval(env) })
//
// # Performance
//
// The figures of BenchmarkFEELExpression (an if over date arithmetic and
// decimal multiplication, compiled once) and of BenchmarkComparison are in
// the README's performance table. BenchmarkComparison runs 20 expressions that were
// also run, by hand, in feelin 8.2.0 (the npm FEEL interpreter of
// bpmn.io) with CPU time per call of feelin's evaluate(expression,
// context); both gave the same 20 values.
package feel
