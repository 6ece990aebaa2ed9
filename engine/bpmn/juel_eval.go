package bpmn

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Variables is the variable scope an expression or a script runs
// against; the runtime implements it over an execution's variables.
// Values are plain Go values: nil, bool, string, int64, float64 (other Go
// integer and float types and json.Number are accepted too),
// map[string]any, []any and DecisionResult.
type Variables interface {
	// Variable returns the named variable, visible from the current
	// execution (local first, then its parents).
	Variable(name string) (any, bool)
}

// ExecutionInfo is implemented by a Variables that knows the execution it
// belongs to; expressions read it as execution.processBusinessKey,
// execution.getProcessInstanceId() and so on. Names are Operaton's bean
// properties: processBusinessKey, businessKey, processInstanceId, id,
// activityId, processDefinitionId, tenantId.
type ExecutionInfo interface {
	ExecutionProperty(name string) (any, bool)
}

// DecisionResult is a business-rule task's decision result as
// expressions and scripts see it, Operaton's DmnDecisionResult: one map
// of output name to value per result row. Expressions call its Java
// methods (getSingleResult().getEntry("x"), getResultList(), size(), …);
// scripts see it as an array of plain row objects that also answer the
// Java methods.
type DecisionResult []map[string]any

// DecisionResultError is a decision result that does not fit a
// requested shape: getSingleResult with several rows, a singleEntry
// mapping of a row with several outputs, and the like.
type DecisionResultError struct{ Msg string }

func (e *DecisionResultError) Error() string { return "bpmn: decision result: " + e.Msg }

// Mappings of camunda:mapDecisionResult.
const (
	MapSingleEntry    = "singleEntry"
	MapSingleResult   = "singleResult"
	MapCollectEntries = "collectEntries"
	MapResultList     = "resultList"
)

// MapDecisionResult applies camunda:mapDecisionResult as Operaton does:
// singleEntry gives the only output of the only row (nil for no row),
// singleResult the only row as a map (nil for no row), collectEntries the
// list of each row's only output, resultList ([]any of maps, the default
// when mapping is "") every row. A shape that does not fit is a
// *DecisionResultError.
func MapDecisionResult(mapping string, r DecisionResult) (any, error) {
	switch mapping {
	case MapSingleEntry:
		row, err := r.single()
		if err != nil || row == nil {
			return nil, err
		}
		return singleEntry(row)
	case MapSingleResult:
		row, err := r.single()
		if err != nil || row == nil {
			return nil, err
		}
		return row, nil
	case MapCollectEntries:
		out := make([]any, 0, len(r))
		for _, row := range r {
			v, err := singleEntry(row)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case MapResultList, "":
		out := make([]any, len(r))
		for i, row := range r {
			out[i] = row
		}
		return out, nil
	}
	return nil, &DecisionResultError{Msg: fmt.Sprintf("unknown mapDecisionResult %q", mapping)}
}

func (r DecisionResult) single() (map[string]any, error) {
	switch len(r) {
	case 0:
		return nil, nil
	case 1:
		return r[0], nil
	}
	return nil, &DecisionResultError{Msg: fmt.Sprintf("expected a single result but found %d", len(r))}
}

func singleEntry(row map[string]any) (any, error) {
	if len(row) > 1 {
		return nil, &DecisionResultError{Msg: fmt.Sprintf("expected a single entry but found %d: %s", len(row), strings.Join(sortedKeys(row), ", "))}
	}
	for _, v := range row {
		return v, nil
	}
	return nil, nil
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// execution is the value of the identifier execution when no variable of
// that name exists.
type execution struct{ vars Variables }

// Eval evaluates the expression against vars. An expression that is one
// ${…} gives its value (any of the Variables value types); text with
// several parts gives a string. A literal gives its text. Failures (an
// unknown variable, a value that does not coerce) are *ExprError.
func (e *Expr) Eval(vars Variables) (any, error) {
	if len(e.parts) == 1 {
		p := e.parts[0]
		if p.n == nil {
			return p.text, nil
		}
		v, err := eval(p.n, vars)
		if err != nil {
			return nil, e.wrap(err)
		}
		return v, nil
	}
	var b strings.Builder
	for _, p := range e.parts {
		if p.n == nil {
			b.WriteString(p.text)
			continue
		}
		v, err := eval(p.n, vars)
		if err != nil {
			return nil, e.wrap(err)
		}
		s, err := toString(v)
		if err != nil {
			return nil, e.wrap(err)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// EvalBool evaluates a condition: the value coerced to a boolean as EL
// does (null and "" are false, a string is true when it is "true").
func (e *Expr) EvalBool(vars Variables) (bool, error) {
	v, err := e.Eval(vars)
	if err != nil {
		return false, err
	}
	b, err := toBool(v)
	if err != nil {
		return false, e.wrap(err)
	}
	return b, nil
}

func (e *Expr) wrap(err error) error {
	if ee, ok := err.(*ExprError); ok && ee.Expr == "" {
		ee.Expr = excerpt(e.src, 200)
		return ee
	}
	if de, ok := err.(*DecisionResultError); ok {
		return &ExprError{Expr: excerpt(e.src, 200), Msg: "decision result: " + de.Msg}
	}
	return err
}

func evalErr(format string, args ...any) *ExprError {
	return &ExprError{Msg: fmt.Sprintf(format, args...)}
}

// eval follows the tree; its depth is bounded by maxExprNesting.
func eval(n node, vars Variables) (any, error) {
	switch n := n.(type) {
	case *litNode:
		return n.v, nil
	case *identNode:
		if v, ok := vars.Variable(n.name); ok {
			return normalize(v), nil
		}
		if n.name == "execution" {
			return execution{vars}, nil
		}
		return nil, evalErr("Cannot resolve identifier '%s'", n.name)
	case *propNode:
		x, err := eval(n.x, vars)
		if err != nil {
			return nil, err
		}
		return property(x, n.name)
	case *indexNode:
		x, err := eval(n.x, vars)
		if err != nil {
			return nil, err
		}
		idx, err := eval(n.idx, vars)
		if err != nil {
			return nil, err
		}
		return index(x, idx)
	case *callNode:
		x, err := eval(n.x, vars)
		if err != nil {
			return nil, err
		}
		args := make([]any, len(n.args))
		for i, a := range n.args {
			if args[i], err = eval(a, vars); err != nil {
				return nil, err
			}
		}
		return call(x, n.name, args)
	case *unaryNode:
		x, err := eval(n.x, vars)
		if err != nil {
			return nil, err
		}
		switch n.op {
		case "!":
			b, err := toBool(x)
			return !b, err
		case "empty":
			return isEmpty(x), nil
		default:
			return negate(x)
		}
	case *binaryNode:
		x, err := eval(n.x, vars)
		if err != nil {
			return nil, err
		}
		switch n.op {
		case "&&", "||":
			b, err := toBool(x)
			if err != nil {
				return nil, err
			}
			if b == (n.op == "||") {
				return b, nil
			}
			y, err := eval(n.y, vars)
			if err != nil {
				return nil, err
			}
			return toBool(y)
		}
		y, err := eval(n.y, vars)
		if err != nil {
			return nil, err
		}
		switch n.op {
		case "==", "!=":
			eq, err := equal(x, y)
			return eq == (n.op == "=="), err
		case "<", ">", "<=", ">=":
			return compare(n.op, x, y)
		}
		return arith(n.op, x, y)
	case *condNode:
		c, err := eval(n.c, vars)
		if err != nil {
			return nil, err
		}
		b, err := toBool(c)
		if err != nil {
			return nil, err
		}
		if b {
			return eval(n.a, vars)
		}
		return eval(n.b, vars)
	}
	return nil, evalErr("unknown expression node %T", n)
}

// normalize maps the accepted Go types onto the evaluator's: int64,
// float64, and json.Number as one of them.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case float32:
		return float64(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return string(x)
	}
	return v
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "Boolean"
	case string:
		return "String"
	case int64:
		return "Long"
	case float64:
		return "Double"
	case map[string]any:
		return "Map"
	case []any:
		return "List"
	case DecisionResult:
		return "DecisionResult"
	case execution:
		return "Execution"
	}
	return fmt.Sprintf("%T", v)
}

func property(x any, name string) (any, error) {
	switch x := x.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return normalize(x[name]), nil
	case execution:
		if info, ok := x.vars.(ExecutionInfo); ok {
			if v, ok := info.ExecutionProperty(name); ok {
				return normalize(v), nil
			}
		}
		return nil, evalErr("Property '%s' not found on execution", name)
	case DecisionResult:
		switch name {
		case "singleResult", "firstResult", "resultList", "singleEntry", "empty":
			m := "get" + string(unicode.ToUpper(rune(name[0]))) + name[1:]
			if name == "empty" {
				m = "isEmpty"
			}
			return call(x, m, nil)
		}
	}
	return nil, evalErr("Property '%s' not found on type %s", name, typeName(x))
}

func index(x, idx any) (any, error) {
	switch x := x.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		k, err := toString(idx)
		if err != nil {
			return nil, err
		}
		return normalize(x[k]), nil
	case []any, DecisionResult:
		i, err := toLong(idx)
		if err != nil {
			return nil, err
		}
		return listItem(x, i), nil
	}
	return nil, evalErr("cannot index a value of type %s", typeName(x))
}

func listItem(x any, i int64) any {
	switch l := x.(type) {
	case []any:
		if i >= 0 && i < int64(len(l)) {
			return normalize(l[i])
		}
	case DecisionResult:
		if i >= 0 && i < int64(len(l)) {
			return l[i]
		}
	}
	return nil
}

func argCount(name string, args []any, n int) error {
	if len(args) != n {
		return evalErr("%s() takes %d argument(s), not %d", name, n, len(args))
	}
	return nil
}

// call calls the method name on x: the execution's variables and
// properties, a decision result's rows, a list or a map.
func call(x any, name string, args []any) (any, error) {
	var v any
	found := false
	var err error
	switch x := x.(type) {
	case execution:
		v, err = callExecution(x, name, args)
		found = true
	case DecisionResult:
		v, found, err = callDecisionResult(x, name, args)
	case []any:
		v, found, err = callList(x, name, args)
	case map[string]any:
		v, found, err = callMap(x, name, args)
	case nil:
		return nil, evalErr("cannot call %s() on null", name)
	}
	if found {
		return v, err
	}
	return nil, evalErr("Method '%s' not found on type %s", name, typeName(x))
}

// callExecution reads variables (getVariable, hasVariable and their Local
// forms) and properties (getProcessInstanceId, ...) of the execution.
func callExecution(x execution, name string, args []any) (any, error) {
	switch name {
	case "hasVariable", "hasVariableLocal", "getVariable", "getVariableLocal":
		if err := argCount(name, args, 1); err != nil {
			return nil, err
		}
		n, err := toString(args[0])
		if err != nil {
			return nil, err
		}
		v, ok := x.vars.Variable(n)
		if strings.HasPrefix(name, "has") {
			return ok, nil
		}
		return normalize(v), nil
	}
	if err := argCount(name, args, 0); err != nil {
		return nil, err
	}
	prop := strings.TrimPrefix(name, "get")
	prop = string(unicode.ToLower(rune(prop[0]))) + prop[1:]
	return property(x, prop)
}

// callDecisionResult, callList and callMap report false for a method the
// type does not have.
func callDecisionResult(x DecisionResult, name string, args []any) (any, bool, error) {
	switch name {
	case "getSingleResult":
		if err := argCount(name, args, 0); err != nil {
			return nil, true, err
		}
		row, err := x.single()
		if err != nil || row == nil {
			return nil, true, err
		}
		return row, true, nil
	case "getFirstResult":
		if err := argCount(name, args, 0); err != nil {
			return nil, true, err
		}
		if len(x) == 0 {
			return nil, true, nil
		}
		return x[0], true, nil
	case "getResultList":
		v, err := MapDecisionResult(MapResultList, x)
		return v, true, err
	case "getSingleEntry":
		v, err := MapDecisionResult(MapSingleEntry, x)
		return v, true, err
	case "collectEntries":
		if err := argCount(name, args, 1); err != nil {
			return nil, true, err
		}
		k, err := toString(args[0])
		if err != nil {
			return nil, true, err
		}
		out := []any{}
		for _, row := range x {
			if v, ok := row[k]; ok {
				out = append(out, v)
			}
		}
		return out, true, nil
	}
	return callSequence(name, args, len(x), "a result of %d rows", func(i int64) any { return x[i] })
}

// callSequence implements get, size and isEmpty of a sequence of n
// elements; at returns element i, of in describes the sequence in the
// out-of-bounds error.
func callSequence(name string, args []any, n int, of string, at func(i int64) any) (any, bool, error) {
	switch name {
	case "get":
		if err := argCount(name, args, 1); err != nil {
			return nil, true, err
		}
		i, err := toLong(args[0])
		if err != nil {
			return nil, true, err
		}
		if i < 0 || i >= int64(n) {
			return nil, true, evalErr("index %d out of bounds for "+of, i, n)
		}
		return at(i), true, nil
	case "size":
		return int64(n), true, argCount(name, args, 0)
	case "isEmpty":
		return n == 0, true, argCount(name, args, 0)
	}
	return nil, false, nil
}

func callList(x []any, name string, args []any) (any, bool, error) {
	return callSequence(name, args, len(x), "a list of %d", func(i int64) any { return normalize(x[i]) })
}

func callMap(x map[string]any, name string, args []any) (any, bool, error) {
	switch name {
	case "getEntry", "get", "containsKey":
		if err := argCount(name, args, 1); err != nil {
			return nil, true, err
		}
		k, err := toString(args[0])
		if err != nil {
			return nil, true, err
		}
		v, ok := x[k]
		if name == "containsKey" {
			return ok, true, nil
		}
		return normalize(v), true, nil
	case "getFirstEntry":
		if err := argCount(name, args, 0); err != nil {
			return nil, true, err
		}
		if len(x) == 0 {
			return nil, true, nil
		}
		return normalize(x[sortedKeys(x)[0]]), true, nil
	case "getSingleEntry":
		if err := argCount(name, args, 0); err != nil {
			return nil, true, err
		}
		v, err := singleEntry(x)
		return normalize(v), true, err
	case "size":
		return int64(len(x)), true, argCount(name, args, 0)
	case "isEmpty":
		return len(x) == 0, true, argCount(name, args, 0)
	}
	return nil, false, nil
}

func isEmpty(x any) bool {
	switch x := x.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	case DecisionResult:
		return len(x) == 0
	}
	return false
}

// toBool coerces as EL does: null and "" are false, a string is
// Boolean.valueOf, other types are an error.
func toBool(v any) (bool, error) {
	switch x := v.(type) {
	case nil:
		return false, nil
	case bool:
		return x, nil
	case string:
		return strings.EqualFold(x, "true"), nil
	}
	return false, evalErr("cannot coerce %s to Boolean", typeName(v))
}

func toString(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		return javaDouble(x), nil
	}
	return "", evalErr("cannot coerce %s to String", typeName(v))
}

// javaDouble formats like Java's Double.toString for the common range.
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	if a := math.Abs(f); a == 0 || a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	return mant + "E" + strings.TrimPrefix(strings.TrimPrefix(exp, "+"), "0")
}

func isFloatString(s string) bool { return strings.ContainsAny(s, ".eE") }

func toLong(v any) (int64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case int64:
		return x, nil
	case float64:
		return int64(x), nil
	case string:
		if x == "" {
			return 0, nil
		}
		i, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return 0, evalErr("cannot coerce %q to Long", excerpt(x, 40))
		}
		return i, nil
	}
	return 0, evalErr("cannot coerce %s to Long", typeName(v))
}

func toDouble(v any) (float64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case int64:
		return float64(x), nil
	case float64:
		return x, nil
	case string:
		if x == "" {
			return 0, nil
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, evalErr("cannot coerce %q to Double", excerpt(x, 40))
		}
		return f, nil
	}
	return 0, evalErr("cannot coerce %s to Double", typeName(v))
}

func isFloat(v any) bool { _, ok := v.(float64); return ok }
func isLong(v any) bool  { _, ok := v.(int64); return ok }

// equal is EL's == (EL 2.2 §1.8.2): null only equals null; a Double
// makes both Doubles, a Long both Longs, a Boolean both Booleans, a String
// both Strings; anything else compares by value.
func equal(x, y any) (bool, error) {
	switch {
	case x == nil || y == nil:
		return x == nil && y == nil, nil
	case isFloat(x) || isFloat(y):
		a, err := toDouble(x)
		if err != nil {
			return false, err
		}
		b, err := toDouble(y)
		return a == b, err
	case isLong(x) || isLong(y):
		a, err := toLong(x)
		if err != nil {
			return false, err
		}
		b, err := toLong(y)
		return a == b, err
	}
	if _, ok := x.(bool); ok {
		b, err := toBool(y)
		return x.(bool) == b, err
	}
	if _, ok := y.(bool); ok {
		a, err := toBool(x)
		return a == y.(bool), err
	}
	if _, ok := x.(string); ok {
		b, err := toString(y)
		return x.(string) == b, err
	}
	if _, ok := y.(string); ok {
		a, err := toString(x)
		return a == y.(string), err
	}
	if _, ok := x.(execution); ok {
		return false, nil
	}
	return reflect.DeepEqual(x, y), nil
}

// compare is EL's relational operators (§1.8.1): null compares false.
func compare(op string, x, y any) (bool, error) {
	if x == nil || y == nil {
		return false, nil
	}
	var c int
	switch {
	case isFloat(x) || isFloat(y):
		a, err := toDouble(x)
		if err != nil {
			return false, err
		}
		b, err := toDouble(y)
		if err != nil {
			return false, err
		}
		c = cmp3(a < b, a > b)
	case isLong(x) || isLong(y):
		a, err := toLong(x)
		if err != nil {
			return false, err
		}
		b, err := toLong(y)
		if err != nil {
			return false, err
		}
		c = cmp3(a < b, a > b)
	default:
		a, aok := x.(string)
		b, bok := y.(string)
		if !aok || !bok {
			return false, evalErr("cannot compare %s with %s", typeName(x), typeName(y))
		}
		c = strings.Compare(a, b)
	}
	switch op {
	case "<":
		return c < 0, nil
	case ">":
		return c > 0, nil
	case "<=":
		return c <= 0, nil
	}
	return c >= 0, nil
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

func negate(x any) (any, error) {
	switch v := x.(type) {
	case nil:
		return int64(0), nil
	case int64:
		return -v, nil
	case float64:
		return -v, nil
	case string:
		if isFloatString(v) {
			f, err := toDouble(v)
			return -f, err
		}
		i, err := toLong(v)
		return -i, err
	}
	return nil, evalErr("cannot negate %s", typeName(x))
}

// arith is EL's arithmetic (§1.7): null is 0, a Double or a decimal
// string makes the operation Double, / is always Double.
func arith(op string, x, y any) (any, error) {
	if x == nil && y == nil {
		return int64(0), nil
	}
	floaty := func(v any) bool {
		s, ok := v.(string)
		return isFloat(v) || ok && isFloatString(s)
	}
	if op == "/" || floaty(x) || floaty(y) {
		a, err := toDouble(x)
		if err != nil {
			return nil, err
		}
		b, err := toDouble(y)
		if err != nil {
			return nil, err
		}
		switch op {
		case "+":
			return a + b, nil
		case "-":
			return a - b, nil
		case "*":
			return a * b, nil
		case "/":
			return a / b, nil
		}
		return math.Mod(a, b), nil
	}
	a, err := toLong(x)
	if err != nil {
		return nil, err
	}
	b, err := toLong(y)
	if err != nil {
		return nil, err
	}
	switch op {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	}
	if b == 0 {
		return nil, evalErr("division by zero")
	}
	return a % b, nil
}
