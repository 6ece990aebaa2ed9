package feel

import (
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// TypeKind is the kind of a FEEL type.
type TypeKind uint8

// Type kinds.
const (
	KindAny TypeKind = iota
	KindNull
	KindNumber
	KindString
	KindBoolean
	KindDate
	KindTime
	KindDateTime
	KindDuration    // days and time duration
	KindYearsMonths // years and months duration
	KindList
	KindContext
	KindRange
	KindFunction
)

// Type is a FEEL type, possibly constrained (DMN item definitions with
// allowed values) and named.
type Type struct {
	Kind   TypeKind
	Name   string  // the type's name (e.g. "tPerson", "number"); empty for anonymous types
	Elem   *Type   // list and range element type
	Fields []Field // context fields; nil with KindContext means any context
	Params []*Type // function parameter types
	Result *Type   // function result type
	// Allowed restricts values (DMN allowedValues); nil means no restriction.
	Allowed *Tests
	// TypeConstraint restricts values (DMN 1.5 typeConstraint).
	TypeConstraint *Tests
	// Open context types accept extra fields (FEEL context<...> types do).
	Open bool
}

// Field is a context field type.
type Field struct {
	Name string
	Type *Type
}

// Built-in types.
var (
	AnyType         = &Type{Kind: KindAny, Name: "Any"}
	NullType        = &Type{Kind: KindNull, Name: "Null"}
	NumberType      = &Type{Kind: KindNumber, Name: "number"}
	StringType      = &Type{Kind: KindString, Name: "string"}
	BooleanType     = &Type{Kind: KindBoolean, Name: "boolean"}
	DateType        = &Type{Kind: KindDate, Name: "date"}
	TimeType        = &Type{Kind: KindTime, Name: "time"}
	DateTimeType    = &Type{Kind: KindDateTime, Name: "date and time"}
	DurationType    = &Type{Kind: KindDuration, Name: "days and time duration"}
	YearsMonthsType = &Type{Kind: KindYearsMonths, Name: "years and months duration"}
)

// BuiltinType returns FEEL's built-in type for name, also accepting the
// "feel:" prefix, XML Schema names and Camunda 7 names (integer, long, double).
func BuiltinType(name string) (*Type, bool) {
	n := strings.TrimPrefix(name, "feel:")
	switch n {
	case "Any", "any":
		return AnyType, true
	case "Null":
		return NullType, true
	case "number", "Number", "integer", "Integer", "long", "Long", "double", "Double", "decimal", "int", "float":
		return NumberType, true
	case "string", "String":
		return StringType, true
	case "boolean", "Boolean":
		return BooleanType, true
	case "date", "Date":
		return DateType, true
	case "time", "Time":
		return TimeType, true
	case "date and time", "dateTime", "DateTime":
		return DateTimeType, true
	case "days and time duration", "dayTimeDuration", "duration":
		return DurationType, true
	case "years and months duration", "yearMonthDuration":
		return YearsMonthsType, true
	case "context":
		return &Type{Kind: KindContext, Name: "context", Open: true}, true
	case "list":
		return &Type{Kind: KindList, Name: "list"}, true
	case "range":
		return &Type{Kind: KindRange, Name: "range"}, true
	case "function":
		return &Type{Kind: KindFunction, Name: "function"}, true
	}
	return nil, false
}

func (t *Type) String() string {
	if t == nil {
		return "Any"
	}
	if t.Name != "" {
		return t.Name
	}
	switch t.Kind {
	case KindList:
		return "list<" + t.Elem.String() + ">"
	case KindRange:
		return "range<" + t.Elem.String() + ">"
	case KindContext:
		var b strings.Builder
		b.WriteString("context<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + ": " + f.Type.String())
		}
		b.WriteString(">")
		return b.String()
	case KindFunction:
		var b strings.Builder
		b.WriteString("function<")
		for i, p := range t.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.String())
		}
		b.WriteString(">->" + t.Result.String())
		return b.String()
	}
	return "Any"
}

// Conforms reports whether v is an instance of t (including constraints).
func (t *Type) Conforms(v Value) bool {
	return t.conforms(v, nil)
}

func (t *Type) conforms(v Value, rt *Runtime) bool { return t.conformsC(v, rt, true) }

// conformsC checks v against t; constraints says whether allowed values and
// type constraints count ("instance of" ignores them).
func (t *Type) conformsC(v Value, rt *Runtime, constraints bool) bool {
	if t == nil || t.Kind == KindAny {
		return !constraints || t.checkAllowed(v, rt)
	}
	if v == nil {
		return t.Kind == KindNull
	}
	ok := false
	switch t.Kind {
	case KindNull:
		return false
	case KindNumber:
		_, ok = v.(*apd.Decimal)
	case KindString:
		_, ok = v.(string)
	case KindBoolean:
		_, ok = v.(bool)
	case KindDate:
		_, ok = v.(Date)
	case KindTime:
		_, ok = v.(Time)
	case KindDateTime:
		_, ok = v.(DateTime)
	case KindDuration:
		_, ok = v.(Duration)
	case KindYearsMonths:
		_, ok = v.(YearsMonths)
	case KindList:
		ok = t.conformsList(v, rt, constraints)
	case KindContext:
		ok = t.conformsContext(v, rt, constraints)
	case KindRange:
		ok = t.conformsRange(v, rt, constraints)
	case KindFunction:
		f, isFn := v.(*Function)
		if !isFn {
			return false
		}
		if t.Params != nil && (f.variadic || len(f.Params) != len(t.Params)) {
			return f.variadic
		}
		ok = t.Params == nil || t.conformsFunction(f)
	}
	return ok && (!constraints || t.checkAllowed(v, rt))
}

func (t *Type) conformsList(v Value, rt *Runtime, constraints bool) bool {
	l, isList := v.([]Value)
	if !isList {
		return false
	}
	if t.Elem != nil {
		for _, e := range l {
			if e != nil && !t.Elem.conformsC(e, rt, constraints) {
				return false
			}
		}
	}
	return true
}

func (t *Type) conformsContext(v Value, rt *Runtime, constraints bool) bool {
	c, isCtx := v.(*Context)
	if !isCtx {
		return false
	}
	for _, f := range t.Fields {
		fv, has := c.Get(f.Name)
		if !has {
			return false
		}
		if fv != nil && !f.Type.conformsC(fv, rt, constraints) {
			return false
		}
	}
	// extra entries are allowed by FEEL context type semantics only when open
	return t.Open || t.Fields == nil || c.Len() == len(t.Fields)
}

func (t *Type) conformsRange(v Value, rt *Runtime, constraints bool) bool {
	r, isRange := v.(Range)
	if !isRange {
		return false
	}
	if t.Elem != nil {
		if !r.StartUnbounded && r.Start != nil && !t.Elem.conformsC(r.Start, rt, constraints) {
			return false
		}
		if !r.EndUnbounded && r.End != nil && !t.Elem.conformsC(r.End, rt, constraints) {
			return false
		}
	}
	return true
}

// conformsFunction checks the signature of a function with t's number of
// parameters: parameters are contravariant, the result covariant.
func (t *Type) conformsFunction(f *Function) bool {
	for i, pt := range t.Params {
		fp := f.Params[i].Type
		if fp != nil && !isSubtype(pt, fp) {
			return false
		}
	}
	return t.Result == nil || f.Result == nil || isSubtype(f.Result, t.Result)
}

func (t *Type) checkAllowed(v Value, rt *Runtime) bool {
	if t == nil {
		return true
	}
	if t.Allowed != nil {
		if t.Kind == KindList {
			if l, ok := v.([]Value); ok {
				for _, e := range l {
					if !t.Allowed.Match(e, rt) {
						return false
					}
				}
			}
		} else if !t.Allowed.Match(v, rt) {
			return false
		}
	}
	if t.TypeConstraint != nil && !t.TypeConstraint.Match(v, rt) {
		return false
	}
	return true
}

// isSubtype reports whether a is a subtype of b (a <: b).
func isSubtype(a, b *Type) bool {
	if b == nil || b.Kind == KindAny {
		return true
	}
	if a == nil || a.Kind == KindAny {
		return false
	}
	if a.Kind == KindNull {
		return true
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindList, KindRange:
		if b.Elem == nil {
			return true
		}
		if a.Elem == nil {
			return false
		}
		return isSubtype(a.Elem, b.Elem)
	case KindContext:
		for _, bf := range b.Fields {
			found := false
			for _, af := range a.Fields {
				if af.Name == bf.Name {
					found = isSubtype(af.Type, bf.Type)
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case KindFunction:
		if b.Params == nil {
			return true
		}
		if len(a.Params) != len(b.Params) {
			return false
		}
		for i := range a.Params {
			if !isSubtype(b.Params[i], a.Params[i]) {
				return false
			}
		}
		return isSubtype(a.Result, b.Result)
	}
	return true
}

// Coerce converts v to t following DMN type conversion: a singleton list
// converts to its element, an element to a singleton list, a date to a date
// and time. ok is false when v does not conform (the result is then null).
func (t *Type) Coerce(v Value) (Value, bool) {
	return t.coerce(v, nil)
}

func (t *Type) coerce(v Value, rt *Runtime) (Value, bool) {
	if t == nil || v == nil {
		return v, true
	}
	if t.conforms(v, rt) {
		return v, true
	}
	if t.Kind != KindList && t.Kind != KindAny {
		if l, ok := v.([]Value); ok && len(l) == 1 {
			if t.conforms(l[0], rt) {
				return l[0], true
			}
		}
	}
	if t.Kind == KindList {
		if _, isList := v.([]Value); !isList {
			if t.Elem == nil || t.Elem.conforms(v, rt) {
				l := []Value{v}
				if t.checkAllowed(l, rt) {
					return l, true
				}
			}
		}
	}
	if t.Kind == KindDateTime {
		if d, ok := v.(Date); ok {
			dt := DateTime{Year: d.Year, Month: d.Month, Day: d.Day, Zone: Zone{Kind: ZoneOffset}}
			if t.checkAllowed(dt, rt) {
				return dt, true
			}
		}
	}
	return nil, false
}

// resolveTypeNode turns a parsed type into a Type.
func resolveTypeNode(n TypeNode, scope *Scope) (*Type, bool) {
	switch x := n.(type) {
	case *NamedType:
		if scope != nil && scope.Types != nil {
			if t, ok := scope.Types(x.Name); ok {
				return t, true
			}
		}
		if t, ok := BuiltinType(x.Name); ok {
			return t, true
		}
		return nil, false
	case *ListType:
		e, ok := resolveTypeNode(x.Elem, scope)
		return &Type{Kind: KindList, Elem: e}, ok
	case *RangeType:
		e, ok := resolveTypeNode(x.Elem, scope)
		return &Type{Kind: KindRange, Elem: e}, ok
	case *ContextType:
		t := &Type{Kind: KindContext, Open: true, Fields: []Field{}}
		for _, f := range x.Fields {
			ft, ok := resolveTypeNode(f.Type, scope)
			if !ok {
				return nil, false
			}
			t.Fields = append(t.Fields, Field{Name: f.Name, Type: ft})
		}
		return t, true
	case *FunctionType:
		t := &Type{Kind: KindFunction, Params: []*Type{}}
		for _, p := range x.Params {
			pt, ok := resolveTypeNode(p, scope)
			if !ok {
				return nil, false
			}
			t.Params = append(t.Params, pt)
		}
		r, ok := resolveTypeNode(x.Result, scope)
		t.Result = r
		return t, ok
	}
	return nil, false
}

// ResolveType turns a parsed type (from "instance of" or a parameter
// declaration) into a Type; ok is false for unknown type names.
func ResolveType(n TypeNode, scope *Scope) (*Type, bool) { return resolveTypeNode(n, scope) }
