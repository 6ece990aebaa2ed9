package feel

import (
	"github.com/cockroachdb/apd/v3"
)

// Equal implements FEEL "=": true, false, or null when the values are not
// comparable (different types).
func Equal(a, b Value) Value {
	r, ok := equal(a, b)
	if !ok {
		return nil
	}
	return r
}

// equal returns (result, comparable). Scalars are compared here; temporal
// values, durations and the composite types by the functions below.
func equal(a, b Value) (bool, bool) {
	if a == nil || b == nil {
		return a == nil && b == nil, true
	}
	switch x := a.(type) {
	case *apd.Decimal:
		if y, ok := b.(*apd.Decimal); ok {
			return x.Cmp(y) == 0, true
		}
	case string:
		if y, ok := b.(string); ok {
			return x == y, true
		}
	case bool:
		if y, ok := b.(bool); ok {
			return x == y, true
		}
	case Date:
		switch y := b.(type) {
		case Date:
			return x == y, true
		case DateTime:
			return equal(x.dateTime(), y)
		}
	case DateTime:
		switch y := b.(type) {
		case DateTime:
			return equalDateTime(x, y), true
		case Date:
			return equal(x, y.dateTime())
		}
	case Time:
		if y, ok := b.(Time); ok {
			return equalTime(x, y), true
		}
	case Duration, YearsMonths:
		return equalDuration(a, b)
	case []Value:
		if y, ok := b.([]Value); ok {
			return equalList(x, y)
		}
	case *Context:
		if y, ok := b.(*Context); ok {
			return equalContext(x, y)
		}
	case Range:
		if y, ok := b.(Range); ok {
			return equalRange(x, y), true
		}
	case *Function:
		if y, ok := b.(*Function); ok {
			return x == y, true
		}
	}
	return false, false
}

// equalDateTime: a local date and time never equals one with a zone;
// two with zones are equal at the same instant, to the millisecond.
func equalDateTime(x, y DateTime) bool {
	if (x.Zone.Kind == ZoneNone) != (y.Zone.Kind == ZoneNone) {
		return false
	}
	if x.Zone.Kind == ZoneNone {
		return localCmp(x, y, true) == 0
	}
	ta, tb := x.goTime(), y.goTime()
	return ta.Unix() == tb.Unix() && ta.Nanosecond()/1e6 == tb.Nanosecond()/1e6
}

func equalTime(x, y Time) bool {
	if x.Zone.Kind != y.Zone.Kind {
		return false
	}
	if x.Zone.Kind == ZoneName && x.Zone.Name != y.Zone.Name {
		return false
	}
	return x.utcNanos()/1e6 == y.utcNanos()/1e6
}

// equalDuration compares durations of the same kind; a days-and-time and
// a years-and-months duration are comparable only when both are zero.
func equalDuration(a, b Value) (bool, bool) {
	switch x := a.(type) {
	case Duration:
		switch y := b.(type) {
		case Duration:
			return x == y, true
		case YearsMonths:
			if x.Sec == 0 && x.Nano == 0 && y == 0 {
				return true, true
			}
		}
	case YearsMonths:
		switch y := b.(type) {
		case YearsMonths:
			return x == y, true
		case Duration:
			if y.Sec == 0 && y.Nano == 0 && x == 0 {
				return true, true
			}
		}
	}
	return false, false
}

func equalList(x, y []Value) (bool, bool) {
	if len(x) != len(y) {
		return false, true
	}
	for i := range x {
		r, ok := equal(x[i], y[i])
		if !ok || !r {
			return false, ok
		}
	}
	return true, true
}

func equalContext(x, y *Context) (bool, bool) {
	if x.Len() != y.Len() {
		return false, true
	}
	for i, k := range x.keys {
		yv, has := y.Get(k)
		if !has {
			return false, true
		}
		r, ok := equal(x.vals[i], yv)
		if !ok || !r {
			return false, ok
		}
	}
	return true, true
}

func equalRange(x, y Range) bool {
	if x.op != y.op || x.StartIncluded != y.StartIncluded || x.EndIncluded != y.EndIncluded ||
		x.StartUnbounded != y.StartUnbounded || x.EndUnbounded != y.EndUnbounded {
		return false
	}
	r1, ok1 := equal(x.Start, y.Start)
	r2, ok2 := equal(x.End, y.End)
	return r1 && r2 && ok1 && ok2
}

func localCmp(x, y DateTime, millis bool) int {
	a := [...]int{x.Year, x.Month, x.Day, x.Hour, x.Minute, x.Second, x.Nanosecond}
	b := [...]int{y.Year, y.Month, y.Day, y.Hour, y.Minute, y.Second, y.Nanosecond}
	if millis {
		a[6] /= 1e6
		b[6] /= 1e6
	}
	for i := range a {
		if a[i] < b[i] {
			return -1
		}
		if a[i] > b[i] {
			return 1
		}
	}
	return 0
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compare orders a and b; ok is false when they are not ordered in FEEL.
func compare(a, b Value) (int, bool) {
	switch x := a.(type) {
	case *apd.Decimal:
		if y, ok := b.(*apd.Decimal); ok {
			return x.Cmp(y), true
		}
	case string:
		if y, ok := b.(string); ok {
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
	case Date:
		switch y := b.(type) {
		case Date:
			if c := cmpInt(int64(x.Year), int64(y.Year)); c != 0 {
				return c, true
			}
			if c := cmpInt(int64(x.Month), int64(y.Month)); c != 0 {
				return c, true
			}
			return cmpInt(int64(x.Day), int64(y.Day)), true
		case DateTime:
			return compare(x.dateTime(), y)
		}
	case DateTime:
		switch y := b.(type) {
		case DateTime:
			if (x.Zone.Kind == ZoneNone) != (y.Zone.Kind == ZoneNone) {
				return 0, false
			}
			if x.Zone.Kind == ZoneNone {
				return localCmp(x, y, false), true
			}
			ta, tb := x.goTime(), y.goTime()
			return ta.Compare(tb), true
		case Date:
			return compare(x, y.dateTime())
		}
	case Time:
		if y, ok := b.(Time); ok {
			if (x.Zone.Kind == ZoneNone) != (y.Zone.Kind == ZoneNone) {
				return 0, false
			}
			return cmpInt(x.utcNanos(), y.utcNanos()), true
		}
	case Duration:
		if y, ok := b.(Duration); ok {
			return x.cmp(y), true
		}
	case YearsMonths:
		if y, ok := b.(YearsMonths); ok {
			return cmpInt(int64(x), int64(y)), true
		}
	}
	return 0, false
}

// Compare orders two FEEL values; ok is false when they are not ordered.
func Compare(a, b Value) (int, bool) { return compare(a, b) }

// arith applies a binary arithmetic operator. Each operand type has its
// own method below; they report false for the combinations FEEL leaves
// undefined, which end here as a warning and null.
func (rt *Runtime) arith(op Op, a, b Value) Value {
	if a == nil || b == nil {
		return rt.warnf("invalid operation: %s %s %s", Kind(a), op, Kind(b))
	}
	var r Value
	ok := false
	switch x := a.(type) {
	case *apd.Decimal:
		if y, isNum := b.(*apd.Decimal); isNum {
			return rt.numOp(op, x, y)
		}
		r, ok = scaleDuration(op, b, x)
	case string:
		if y, isStr := b.(string); isStr && op == OpAdd {
			rt.addBytes(len(x) + len(y))
			return x + y
		}
	case Date:
		r, ok = rt.arithDate(op, x, b)
	case DateTime:
		r, ok = rt.arithDateTime(op, x, b)
	case Time:
		r, ok = rt.arithTime(op, x, b)
	case Duration:
		r, ok = rt.arithDuration(op, x, a, b)
	case YearsMonths:
		r, ok = rt.arithYearsMonths(op, x, a, b)
	}
	if ok {
		return r
	}
	return rt.warn("invalid operation: " + Kind(a) + " " + op.String() + " " + Kind(b))
}

// scaleDuration is number * duration.
func scaleDuration(op Op, b Value, n *apd.Decimal) (Value, bool) {
	if op != OpMul {
		return nil, false
	}
	switch y := b.(type) {
	case Duration:
		return mulDuration(y, n), true
	case YearsMonths:
		return mulYM(y, n), true
	}
	return nil, false
}

// addMonthsOp adds or subtracts a years-and-months duration.
func addMonthsOp(op Op, x DateTime, months YearsMonths) (DateTime, bool) {
	switch op {
	case OpAdd:
		return x.addMonths(int64(months)), true
	case OpSub:
		return x.addMonths(-int64(months)), true
	}
	return DateTime{}, false
}

// addDurationOp adds or subtracts a days-and-time duration.
func addDurationOp(op Op, x DateTime, d Duration) (DateTime, bool) {
	switch op {
	case OpAdd:
		return x.addDuration(d), true
	case OpSub:
		return x.addDuration(d.neg()), true
	}
	return DateTime{}, false
}

func (rt *Runtime) arithDate(op Op, x Date, b Value) (Value, bool) {
	switch y := b.(type) {
	case Duration:
		if r, ok := addDurationOp(op, x.dateTime(), y); ok {
			return r.Date(), true
		}
	case YearsMonths:
		if r, ok := addMonthsOp(op, x.dateTime(), y); ok {
			return r.Date(), true
		}
	case Date:
		if op == OpSub {
			d, _ := subDateTime(x.dateTime(), y.dateTime())
			return d, true
		}
	case DateTime:
		if op == OpSub {
			return rt.arith(op, x.dateTime(), y), true
		}
	}
	return nil, false
}

func (rt *Runtime) arithDateTime(op Op, x DateTime, b Value) (Value, bool) {
	switch y := b.(type) {
	case Duration:
		if r, ok := addDurationOp(op, x, y); ok {
			return r, true
		}
	case YearsMonths:
		if r, ok := addMonthsOp(op, x, y); ok {
			return r, true
		}
	case DateTime:
		if op == OpSub {
			if (x.Zone.Kind == ZoneNone) != (y.Zone.Kind == ZoneNone) {
				return rt.warn("subtraction of a date and time with and one without time zone"), true
			}
			d, _ := subDateTime(x, y)
			return d, true
		}
	case Date:
		if op == OpSub {
			return rt.arith(op, x, y.dateTime()), true
		}
	}
	return nil, false
}

func (rt *Runtime) arithTime(op Op, x Time, b Value) (Value, bool) {
	switch y := b.(type) {
	case Duration:
		n := (y.Sec%86400)*1e9 + int64(y.Nano)
		switch op {
		case OpAdd:
			return x.addNanos(n), true
		case OpSub:
			return x.addNanos(-n), true
		}
	case Time:
		if op == OpSub {
			if (x.Zone.Kind == ZoneNone) != (y.Zone.Kind == ZoneNone) {
				return rt.warn("subtraction of a time with and one without time zone"), true
			}
			return durationFromNanos(x.utcNanos() - y.utcNanos()), true
		}
	}
	return nil, false
}

// arithDuration is x op b for a days-and-time duration x (a itself).
func (rt *Runtime) arithDuration(op Op, x Duration, a, b Value) (Value, bool) {
	switch y := b.(type) {
	case Duration:
		switch op {
		case OpAdd:
			return x.add(y), true
		case OpSub:
			return x.add(y.neg()), true
		case OpDiv:
			if y.Sec == 0 && y.Nano == 0 {
				return rt.warn("division by zero duration"), true
			}
			return rt.numOp(OpDiv, durationSeconds(x), durationSeconds(y)), true
		}
	case *apd.Decimal:
		switch op {
		case OpMul:
			return mulDuration(x, y), true
		case OpDiv:
			if y.IsZero() {
				return rt.warn("division by zero"), true
			}
			var inv apd.Decimal
			if _, err := decCtx.Quo(&inv, apd.New(1, 0), y); err != nil {
				return nil, true
			}
			return mulDuration(x, &inv), true
		}
	case DateTime, Date, Time:
		if op == OpAdd {
			return rt.arith(op, b, a), true
		}
	}
	return nil, false
}

// arithYearsMonths is x op b for a years-and-months duration x (a
// itself).
func (rt *Runtime) arithYearsMonths(op Op, x YearsMonths, a, b Value) (Value, bool) {
	switch y := b.(type) {
	case YearsMonths:
		switch op {
		case OpAdd:
			return x + y, true
		case OpSub:
			return x - y, true
		case OpDiv:
			if y == 0 {
				return rt.warn("division by zero duration"), true
			}
			return rt.numOp(OpDiv, apd.New(int64(x), 0), apd.New(int64(y), 0)), true
		}
	case *apd.Decimal:
		switch op {
		case OpMul:
			return mulYM(x, y), true
		case OpDiv:
			if y.IsZero() {
				return rt.warn("division by zero"), true
			}
			var q apd.Decimal
			if _, err := decCtx.Quo(&q, apd.New(int64(x), 0), y); err != nil {
				return nil, true
			}
			return ymFromDecimal(&q), true
		}
	case DateTime, Date:
		if op == OpAdd {
			return rt.arith(op, b, a), true
		}
	}
	return nil, false
}

func durationSeconds(d Duration) *apd.Decimal {
	r := apd.New(d.Sec, 0)
	if d.Nano != 0 {
		var s apd.Decimal
		decCtx.Add(&s, r, apd.New(int64(d.Nano), -9))
		return &s
	}
	return r
}

func durationFromSeconds(s *apd.Decimal) (Duration, bool) {
	var n apd.Decimal
	decCtx.Mul(&n, s, apd.New(1, 9))
	var i apd.Decimal
	if _, err := decCtx.RoundToIntegralValue(&i, &n); err != nil {
		return Duration{}, false
	}
	v, err := i.Int64()
	if err != nil {
		// too many nanoseconds for int64: use seconds
		var sec apd.Decimal
		decCtx.RoundToIntegralValue(&sec, s)
		sv, err2 := sec.Int64()
		if err2 != nil {
			return Duration{}, false
		}
		return Duration{Sec: sv}, true
	}
	return durationFromNanos(v), true
}

func mulDuration(d Duration, n *apd.Decimal) Value {
	var r apd.Decimal
	decCtx.Mul(&r, durationSeconds(d), n)
	res, ok := durationFromSeconds(&r)
	if !ok {
		return nil
	}
	return res
}

func ymFromDecimal(d *apd.Decimal) Value {
	var i apd.Decimal
	// years and months durations keep whole months, truncating toward zero
	ctx := *decCtx
	ctx.Rounding = apd.RoundDown
	if _, err := ctx.RoundToIntegralValue(&i, d); err != nil {
		return nil
	}
	v, err := i.Int64()
	if err != nil {
		return nil
	}
	return YearsMonths(v)
}

func mulYM(y YearsMonths, n *apd.Decimal) Value {
	var r apd.Decimal
	decCtx.Mul(&r, apd.New(int64(y), 0), n)
	return ymFromDecimal(&r)
}

func (rt *Runtime) numOp(op Op, x, y *apd.Decimal) Value {
	r := new(apd.Decimal)
	var err error
	switch op {
	case OpAdd:
		_, err = decCtx.Add(r, x, y)
	case OpSub:
		_, err = decCtx.Sub(r, x, y)
	case OpMul:
		_, err = decCtx.Mul(r, x, y)
	case OpDiv:
		if y.IsZero() {
			return rt.warn("division by zero")
		}
		_, err = decCtx.Quo(r, x, y)
	case OpPow:
		return rt.pow(x, y)
	}
	if err != nil || r.Form != apd.Finite {
		return rt.warn("arithmetic error: " + op.String())
	}
	return r
}

func (rt *Runtime) pow(x, y *apd.Decimal) Value {
	r := new(apd.Decimal)
	if y.Exponent >= 0 || isIntegral(y) {
		// integer exponent: exact with 34-digit rounding
		if n, err := y.Int64(); err == nil && n >= -999999999 && n <= 999999999 {
			if _, err := decCtx.Pow(r, x, apd.New(n, 0)); err != nil || r.Form != apd.Finite {
				return rt.warn("arithmetic error: **")
			}
			return r
		}
	}
	if _, err := decCtx.Pow(r, x, y); err != nil || r.Form != apd.Finite {
		return rt.warn("arithmetic error: **")
	}
	return r
}

func isIntegral(d *apd.Decimal) bool {
	if d.Exponent >= 0 {
		return true
	}
	var i apd.Decimal
	var frac apd.Decimal
	d.Modf(&i, &frac)
	return frac.IsZero()
}
