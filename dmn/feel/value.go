package feel

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
)

// Value is a FEEL value. Its dynamic type is one of:
//
//	nil             null
//	*apd.Decimal    number (never mutated once it is a Value)
//	string          string
//	bool            boolean
//	Date            date
//	Time            time
//	DateTime        date and time
//	Duration        days and time duration
//	YearsMonths     years and months duration
//	[]Value         list (never mutated once it is a Value)
//	*Context        context
//	Range           range
//	*Function       function
type Value = any

// DecimalContext is the decimal128 arithmetic context of FEEL numbers
// (34 digits, half-even rounding). Treat it as read-only.
var DecimalContext = apd.Context{
	Precision:   34,
	MaxExponent: 6144,
	MinExponent: -6143,
	Traps:       apd.DefaultTraps,
	Rounding:    apd.RoundHalfEven,
}

var decCtx = &DecimalContext

// Number returns the FEEL number for an int64.
func Number(i int64) *apd.Decimal { return apd.New(i, 0) }

// ParseNumber parses a decimal literal ("12.5", "-3", "1.2e3") to a FEEL number.
func ParseNumber(s string) (*apd.Decimal, error) {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return nil, err
	}
	if d.Form != apd.Finite {
		return nil, fmt.Errorf("not a finite number: %q", s)
	}
	return d, nil
}

// Context is an ordered FEEL context (key/value map). A Context handed out as
// a Value is immutable; build new ones with NewContext and Put.
type Context struct {
	keys []string
	vals []Value
}

// NewContext returns an empty context with room for n entries.
func NewContext(n int) *Context {
	return &Context{keys: make([]string, 0, n), vals: make([]Value, 0, n)}
}

// Put sets key to v, replacing an existing entry in place. Only for contexts
// under construction.
func (c *Context) Put(key string, v Value) {
	for i, k := range c.keys {
		if k == key {
			c.vals[i] = v
			return
		}
	}
	c.keys = append(c.keys, key)
	c.vals = append(c.vals, v)
}

// Get returns the value of key.
func (c *Context) Get(key string) (Value, bool) {
	for i, k := range c.keys {
		if k == key {
			return c.vals[i], true
		}
	}
	return nil, false
}

// Len is the number of entries.
func (c *Context) Len() int { return len(c.keys) }

// Keys returns the keys in insertion order.
func (c *Context) Keys() []string { return c.keys }

// Entry returns the i-th entry.
func (c *Context) Entry(i int) (string, Value) { return c.keys[i], c.vals[i] }

func (c *Context) clone() *Context {
	n := &Context{keys: make([]string, len(c.keys), len(c.keys)+1), vals: make([]Value, len(c.vals), len(c.vals)+1)}
	copy(n.keys, c.keys)
	copy(n.vals, c.vals)
	return n
}

// Range is a FEEL range. A nil Start or End with the matching Unbounded flag
// set is an open-ended range such as the one `< 10` denotes.
type Range struct {
	Start, End                   Value
	StartIncluded, EndIncluded   bool
	StartUnbounded, EndUnbounded bool
	// op is '=' or '!' for the unary tests "= x" and "!= x" used as values.
	op byte
}

// Function is a FEEL function value: a built-in, a user-defined lambda, a
// business knowledge model or a decision service.
type Function struct {
	Name   string
	Params []Param
	// Result is the declared result type, or nil.
	Result *Type
	// Call receives the arguments in Params order. Missing optional
	// arguments are absent (len(args) < len(Params)).
	call func(rt *Runtime, args []Value) Value
	// overloads of a built-in (different parameter lists).
	overloads []*Function
	variadic  bool
	required  int
	isBuiltin bool
}

// Param is a formal parameter.
type Param struct {
	Name string
	Type *Type // nil: any
}

// NewFunction makes a function value from Go code. Args arrive in param
// order; the function sees exactly len(params) arguments.
func NewFunction(name string, params []Param, result *Type, call func(rt *Runtime, args []Value) Value) *Function {
	return &Function{Name: name, Params: params, Result: result, call: call, required: len(params)}
}

// Kind names the FEEL type of a value ("number", "string", ...).
func Kind(v Value) string {
	switch v.(type) {
	case nil:
		return "Null"
	case *apd.Decimal:
		return "number"
	case string:
		return "string"
	case bool:
		return "boolean"
	case Date:
		return "date"
	case Time:
		return "time"
	case DateTime:
		return "date and time"
	case Duration:
		return "days and time duration"
	case YearsMonths:
		return "years and months duration"
	case []Value:
		return "list"
	case *Context:
		return "context"
	case Range:
		return "range"
	case *Function:
		return "function"
	}
	return fmt.Sprintf("%T", v)
}

// String renders v as FEEL's string() function does; null renders as "null".
func String(v Value) string {
	var b strings.Builder
	writeValue(&b, v, false)
	return b.String()
}

// Literal renders v as FEEL source text that evaluates to v (strings quoted).
func Literal(v Value) string {
	var b strings.Builder
	writeValue(&b, v, true)
	return b.String()
}

// Excerpt renders v as Literal does, shortened for messages: a string
// past 200 bytes, a list or context past 20 items, and what follows once
// the text passes about 1,000 bytes are left out, with their count. A
// value may hold one long string many times, so Literal of it can be far
// longer than anything the evaluation built.
func Excerpt(v Value) string {
	var b strings.Builder
	writeExcerpt(&b, v)
	return b.String()
}

const (
	excerptString = 200
	excerptItems  = 20
	excerptTotal  = 1000
)

func writeExcerpt(b *strings.Builder, v Value) {
	if b.Len() > excerptTotal {
		b.WriteString("…") // also ends the descent into deeply nested lists
		return
	}
	switch x := v.(type) {
	case string:
		if len(x) <= excerptString {
			b.WriteString(quoteString(x))
			return
		}
		cut := excerptString
		for cut > 0 && !utf8.RuneStart(x[cut]) {
			cut--
		}
		fmt.Fprintf(b, "%s… (%d more bytes)", quoteString(x[:cut]), len(x)-cut)
	case []Value:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if i == excerptItems || b.Len() > excerptTotal {
				fmt.Fprintf(b, "… (%d more)", len(x)-i)
				break
			}
			writeExcerpt(b, e)
		}
		b.WriteByte(']')
	case *Context:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			if i == excerptItems || b.Len() > excerptTotal {
				fmt.Fprintf(b, "… (%d more)", len(x.keys)-i)
				break
			}
			writeKey(b, k)
			b.WriteString(": ")
			writeExcerpt(b, x.vals[i])
		}
		b.WriteByte('}')
	default:
		writeValue(b, v, true)
	}
}

// writeKey writes a context key, quoted unless it is a plain name.
func writeKey(b *strings.Builder, k string) {
	if isPlainName(k) {
		b.WriteString(k)
	} else {
		b.WriteString(quoteString(k))
	}
}

func writeValue(b *strings.Builder, v Value, quote bool) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case *apd.Decimal:
		b.WriteString(numberString(x))
	case string:
		if quote {
			b.WriteString(quoteString(x))
		} else {
			b.WriteString(x)
		}
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Date:
		if quote {
			b.WriteString("date(\"" + x.String() + "\")")
		} else {
			b.WriteString(x.String())
		}
	case Time:
		if quote {
			b.WriteString("time(\"" + x.String() + "\")")
		} else {
			b.WriteString(x.String())
		}
	case DateTime:
		if quote {
			b.WriteString("date and time(\"" + x.String() + "\")")
		} else {
			b.WriteString(x.String())
		}
	case Duration:
		if quote {
			b.WriteString("duration(\"" + x.String() + "\")")
		} else {
			b.WriteString(x.String())
		}
	case YearsMonths:
		if quote {
			b.WriteString("duration(\"" + x.String() + "\")")
		} else {
			b.WriteString(x.String())
		}
	case []Value:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e, true)
		}
		b.WriteByte(']')
	case *Context:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeKey(b, k)
			b.WriteString(": ")
			writeValue(b, x.vals[i], true)
		}
		b.WriteByte('}')
	case Range:
		switch x.op {
		case '=':
			b.WriteString("= ")
			writeValue(b, x.Start, true)
			return
		case '!':
			b.WriteString("!= ")
			writeValue(b, x.Start, true)
			return
		}
		if x.StartUnbounded {
			if x.EndIncluded {
				b.WriteString("<= ")
			} else {
				b.WriteString("< ")
			}
			writeValue(b, x.End, true)
			return
		}
		if x.EndUnbounded {
			if x.StartIncluded {
				b.WriteString(">= ")
			} else {
				b.WriteString("> ")
			}
			writeValue(b, x.Start, true)
			return
		}
		if x.StartIncluded {
			b.WriteByte('[')
		} else {
			b.WriteByte('(')
		}
		writeValue(b, x.Start, true)
		b.WriteString("..")
		writeValue(b, x.End, true)
		if x.EndIncluded {
			b.WriteByte(']')
		} else {
			b.WriteByte(')')
		}
	case *Function:
		b.WriteString("function ")
		b.WriteString(x.Name)
	default:
		fmt.Fprintf(b, "%v", x)
	}
}

func isPlainName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(isNameStart(r) || (i > 0 && isNamePart(r))) {
			return false
		}
	}
	return !isKeyword(s)
}

func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// numberString renders a decimal in plain notation without a trailing
// fractional zero run (FEEL string(1.50) is "1.5").
func numberString(d *apd.Decimal) string {
	if d.Form != apd.Finite {
		return d.String()
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.IsZero() {
		return "0"
	}
	return r.Text('f')
}
