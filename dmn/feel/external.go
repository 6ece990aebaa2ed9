package feel

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// External functions (function(...) external {java: {class: …, method
// signature: …}}) cannot run Java here. The pure static methods of the
// Java standard library that DMN models commonly name are provided
// natively; any other external function evaluates to null with a warning.

type javaMethod func(rt *Runtime, args []Value) Value

func javaFloatFn(f func(float64) float64) javaMethod {
	return func(rt *Runtime, a []Value) Value {
		x, ok := num(a[0])
		if !ok {
			return rt.warn("external function: argument is not a number")
		}
		fl, _ := x.Float64()
		return floatResult(rt, f(fl))
	}
}

func floatResult(rt *Runtime, f float64) Value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return rt.warn("external function: result is not a finite number")
	}
	d, err := ParseNumber(strconv.FormatFloat(f, 'g', -1, 64))
	if err != nil {
		return nil
	}
	return d
}

func javaMinMax(want int) javaMethod {
	return func(rt *Runtime, a []Value) Value {
		x, ok1 := num(a[0])
		y, ok2 := num(a[1])
		if !ok1 || !ok2 {
			return rt.warn("external function: arguments are not numbers")
		}
		if x.Cmp(y) == want {
			return x
		}
		return y
	}
}

func javaValueOf(rt *Runtime, a []Value) Value {
	switch x := a[0].(type) {
	case *apd.Decimal:
		return x
	case string:
		d, err := ParseNumber(strings.TrimSpace(x))
		if err != nil {
			return rt.warnf("external function: %q is not a number", x)
		}
		return d
	}
	return rt.warn("external function: invalid argument")
}

func javaIntValueOf(rt *Runtime, a []Value) Value {
	v := javaValueOf(rt, a)
	if d, ok := v.(*apd.Decimal); ok && !isIntegral(d) {
		return rt.warn("external function: not an integer")
	}
	return v
}

var javaMethods = map[string]javaMethod{
	"java.lang.Math.max(double,double)":           javaMinMax(1),
	"java.lang.Math.max(float,float)":             javaMinMax(1),
	"java.lang.Math.max(int,int)":                 javaMinMax(1),
	"java.lang.Math.max(long,long)":               javaMinMax(1),
	"java.lang.Math.min(double,double)":           javaMinMax(-1),
	"java.lang.Math.min(float,float)":             javaMinMax(-1),
	"java.lang.Math.min(int,int)":                 javaMinMax(-1),
	"java.lang.Math.min(long,long)":               javaMinMax(-1),
	"java.lang.Math.cos(double)":                  javaFloatFn(math.Cos),
	"java.lang.Math.sin(double)":                  javaFloatFn(math.Sin),
	"java.lang.Math.tan(double)":                  javaFloatFn(math.Tan),
	"java.lang.Math.sqrt(double)":                 javaFloatFn(math.Sqrt),
	"java.lang.Math.exp(double)":                  javaFloatFn(math.Exp),
	"java.lang.Math.log(double)":                  javaFloatFn(math.Log),
	"java.lang.Math.floor(double)":                javaFloatFn(math.Floor),
	"java.lang.Math.ceil(double)":                 javaFloatFn(math.Ceil),
	"java.lang.Math.abs(double)":                  javaFloatFn(math.Abs),
	"java.lang.Short.valueOf(short)":              javaIntValueOf,
	"java.lang.Byte.valueOf(byte)":                javaIntValueOf,
	"java.lang.Integer.valueOf(int)":              javaIntValueOf,
	"java.lang.Long.valueOf(long)":                javaIntValueOf,
	"java.lang.Integer.valueOf(java.lang.String)": javaIntValueOf,
	"java.lang.Long.valueOf(java.lang.String)":    javaIntValueOf,
	"java.lang.Float.valueOf(java.lang.String)":   javaValueOf,
	"java.lang.Double.valueOf(java.lang.String)":  javaValueOf,
	"java.lang.Double.valueOf(double)":            javaValueOf,
	"java.lang.String.valueOf(char)": func(rt *Runtime, a []Value) Value {
		s, ok := a[0].(string)
		if !ok || len([]rune(s)) != 1 {
			return rt.warn("external function: a char is one character")
		}
		return s
	},
	"java.lang.String.valueOf(java.lang.Object)": func(rt *Runtime, a []Value) Value { return String(a[0]) },
	"java.lang.String.format(java.lang.String,[Ljava.lang.Object;)": func(rt *Runtime, a []Value) Value {
		f, ok := a[0].(string)
		if !ok {
			return rt.warn("external function: format is not a string")
		}
		var args []any
		for _, v := range a[1:] {
			if l, isList := v.([]Value); isList && len(a) == 2 {
				for _, e := range l {
					args = append(args, String(e))
				}
				continue
			}
			args = append(args, String(v))
		}
		// %s is the only conversion Java and Go agree on for these arguments
		if strings.ContainsAny(strings.ReplaceAll(strings.ReplaceAll(f, "%s", ""), "%%", ""), "%") {
			return rt.warn("external function: only %s conversions are supported")
		}
		return fmt.Sprintf(f, args...)
	},
}

// ExternalFunction returns the function an external definition names: def
// is the value of the definition, {java: {class: …, method signature: …}}.
// Unknown methods give null and a warning.
func ExternalFunction(rt *Runtime, params []Param, def Value) Value {
	return externalFunction(rt, params, def)
}

func externalFunction(rt *Runtime, params []Param, def Value) Value {
	c, ok := def.(*Context)
	if !ok {
		return rt.warn("external function: definition is not a context")
	}
	jv, ok := c.Get("java")
	if !ok {
		return rt.warn("external function: only java definitions are recognised")
	}
	jc, ok := jv.(*Context)
	if !ok {
		return rt.warn("external function: java definition is not a context")
	}
	class, _ := jc.Get("class")
	sig, _ := jc.Get("method signature")
	cs, ok1 := class.(string)
	ss, ok2 := sig.(string)
	if !ok1 || !ok2 {
		return rt.warn("external function: class and method signature must be strings")
	}
	key := cs + "." + strings.ReplaceAll(ss, " ", "")
	m, ok := javaMethods[key]
	if !ok {
		return rt.warnf("external function %s is not available", key)
	}
	f := &Function{Name: key, Params: params, required: len(params)}
	f.call = func(rt *Runtime, args []Value) Value {
		if len(args) < len(params) {
			return rt.warn("external function: missing arguments")
		}
		return m(rt, args)
	}
	return f
}
