package feel

import "strings"

// endpoint comparisons for the range built-ins (DMN 1.5 10.3.4.9); an
// unbounded start is -infinity, an unbounded end +infinity.

type bound struct {
	v        Value
	inf      int // -1: -infinity, +1: +infinity, 0: v
	included bool
}

func startOf(r Range) bound {
	if r.StartUnbounded || r.Start == nil {
		return bound{inf: -1}
	}
	return bound{v: r.Start, included: r.StartIncluded}
}

func endOf(r Range) bound {
	if r.EndUnbounded || r.End == nil {
		return bound{inf: 1}
	}
	return bound{v: r.End, included: r.EndIncluded}
}

func pointBound(p Value) bound { return bound{v: p, included: true} }

// cmpB compares two bounds' values; ok false when not comparable.
func cmpB(a, b bound) (int, bool) {
	if a.inf != 0 || b.inf != 0 {
		return cmpInt(int64(a.inf), int64(b.inf)), true
	}
	return compare(a.v, b.v)
}

type rangeArgs struct {
	r1, r2   Range
	p1, p2   Value
	isR1     bool
	isR2     bool
	badTypes bool
}

func classify(a, b Value) rangeArgs {
	var ra rangeArgs
	if a == nil || b == nil {
		ra.badTypes = true
		return ra
	}
	if r, ok := a.(Range); ok {
		ra.r1, ra.isR1 = r, true
	} else {
		ra.p1 = a
	}
	if r, ok := b.(Range); ok {
		ra.r2, ra.isR2 = r, true
	} else {
		ra.p2 = b
	}
	return ra
}

func registerRange(r registry) {
	mk := func(name string, params [][2]string, f func(rt *Runtime, ra rangeArgs) (bool, bool)) {
		impl := func(rt *Runtime, a []Value) Value {
			ra := classify(a[0], a[1])
			if ra.badTypes {
				return rt.warnf("%s: null argument", name)
			}
			res, ok := f(rt, ra)
			if !ok {
				return rt.warnf("%s: invalid or incomparable arguments", name)
			}
			return res
		}
		var variants []*Function
		for _, p := range params {
			variants = append(variants, sig(name, p[0]+", "+p[1], impl))
		}
		r.def(name, variants...)
	}
	pp := [2]string{"point1", "point2"}
	pr := [2]string{"point", "range"}
	rp := [2]string{"range", "point"}
	rr := [2]string{"range1", "range2"}
	// lt reports a < b (strict=true) or a <= b.
	lt := func(a, b bound, ok *bool) bool {
		c, k := cmpB(a, b)
		if !k {
			*ok = false
		}
		return c < 0
	}
	eq := func(a, b bound, ok *bool) bool {
		c, k := cmpB(a, b)
		if !k {
			*ok = false
		}
		return c == 0
	}
	before := func(rt *Runtime, x rangeArgs) (bool, bool) {
		ok := true
		var res bool
		switch {
		case !x.isR1 && !x.isR2:
			res = lt(pointBound(x.p1), pointBound(x.p2), &ok)
		case !x.isR1 && x.isR2:
			s := startOf(x.r2)
			res = lt(pointBound(x.p1), s, &ok) || (eq(pointBound(x.p1), s, &ok) && !s.included)
		case x.isR1 && !x.isR2:
			e := endOf(x.r1)
			res = lt(e, pointBound(x.p2), &ok) || (eq(e, pointBound(x.p2), &ok) && !e.included)
		default:
			e, s := endOf(x.r1), startOf(x.r2)
			res = lt(e, s, &ok) || ((!e.included || !s.included) && eq(e, s, &ok))
		}
		return res, ok
	}
	swap := func(x rangeArgs) rangeArgs {
		return rangeArgs{r1: x.r2, r2: x.r1, p1: x.p2, p2: x.p1, isR1: x.isR2, isR2: x.isR1}
	}
	mk("before", [][2]string{pp, pr, rp, rr}, before)
	mk("after", [][2]string{pp, pr, rp, rr}, func(rt *Runtime, x rangeArgs) (bool, bool) { return before(rt, swap(x)) })
	meets := func(rt *Runtime, x rangeArgs) (bool, bool) {
		if !x.isR1 || !x.isR2 {
			return false, false
		}
		ok := true
		e, s := endOf(x.r1), startOf(x.r2)
		return e.included && s.included && eq(e, s, &ok), ok
	}
	mk("meets", [][2]string{rr}, meets)
	mk("met by", [][2]string{rr}, func(rt *Runtime, x rangeArgs) (bool, bool) { return meets(rt, swap(x)) })
	mk("overlaps", [][2]string{rr}, func(rt *Runtime, x rangeArgs) (bool, bool) {
		if !x.isR1 || !x.isR2 {
			return false, false
		}
		ok := true
		s1, e1, s2, e2 := startOf(x.r1), endOf(x.r1), startOf(x.r2), endOf(x.r2)
		res := (lt(s2, e1, &ok) || (eq(e1, s2, &ok) && e1.included && s2.included)) &&
			(lt(s1, e2, &ok) || (eq(s1, e2, &ok) && s1.included && e2.included))
		return res, ok
	})
	overlapsBefore := func(rt *Runtime, x rangeArgs) (bool, bool) {
		if !x.isR1 || !x.isR2 {
			return false, false
		}
		ok := true
		s1, e1, s2, e2 := startOf(x.r1), endOf(x.r1), startOf(x.r2), endOf(x.r2)
		res := (lt(s1, s2, &ok) || (eq(s1, s2, &ok) && s1.included && !s2.included)) &&
			(lt(s2, e1, &ok) || (eq(e1, s2, &ok) && e1.included && s2.included)) &&
			(lt(e1, e2, &ok) || (eq(e1, e2, &ok) && (!e1.included || e2.included)))
		return res, ok
	}
	mk("overlaps before", [][2]string{rr}, overlapsBefore)
	mk("overlaps after", [][2]string{rr}, func(rt *Runtime, x rangeArgs) (bool, bool) { return overlapsBefore(rt, swap(x)) })
	finishes := func(rt *Runtime, x rangeArgs) (bool, bool) {
		ok := true
		switch {
		case !x.isR1 && x.isR2:
			e := endOf(x.r2)
			return e.included && eq(e, pointBound(x.p1), &ok), ok
		case x.isR1 && x.isR2:
			s1, e1, s2, e2 := startOf(x.r1), endOf(x.r1), startOf(x.r2), endOf(x.r2)
			res := e1.included == e2.included && eq(e1, e2, &ok) &&
				(lt(s2, s1, &ok) || (eq(s1, s2, &ok) && (!s1.included || s2.included)))
			return res, ok
		}
		return false, false
	}
	mk("finishes", [][2]string{pr, rr}, finishes)
	mk("finished by", [][2]string{rp, rr}, func(rt *Runtime, x rangeArgs) (bool, bool) { return finishes(rt, swap(x)) })
	includes := func(rt *Runtime, x rangeArgs) (bool, bool) {
		ok := true
		switch {
		case x.isR1 && !x.isR2:
			s, e, p := startOf(x.r1), endOf(x.r1), pointBound(x.p2)
			res := (lt(s, p, &ok) && lt(p, e, &ok)) || (eq(s, p, &ok) && s.included) || (eq(e, p, &ok) && e.included)
			return res, ok
		case x.isR1 && x.isR2:
			s1, e1, s2, e2 := startOf(x.r1), endOf(x.r1), startOf(x.r2), endOf(x.r2)
			res := (lt(s1, s2, &ok) || (eq(s1, s2, &ok) && (s1.included || !s2.included))) &&
				(lt(e2, e1, &ok) || (eq(e1, e2, &ok) && (e1.included || !e2.included)))
			return res, ok
		}
		return false, false
	}
	mk("includes", [][2]string{rp, rr}, includes)
	mk("during", [][2]string{pr, rr}, func(rt *Runtime, x rangeArgs) (bool, bool) { return includes(rt, swap(x)) })
	starts := func(rt *Runtime, x rangeArgs) (bool, bool) {
		ok := true
		switch {
		case !x.isR1 && x.isR2:
			s := startOf(x.r2)
			return s.included && eq(s, pointBound(x.p1), &ok), ok
		case x.isR1 && x.isR2:
			s1, e1, s2, e2 := startOf(x.r1), endOf(x.r1), startOf(x.r2), endOf(x.r2)
			res := s1.included == s2.included && eq(s1, s2, &ok) &&
				(lt(e1, e2, &ok) || (eq(e1, e2, &ok) && (!e1.included || e2.included)))
			return res, ok
		}
		return false, false
	}
	mk("starts", [][2]string{pr, rr}, starts)
	mk("started by", [][2]string{rp, rr}, func(rt *Runtime, x rangeArgs) (bool, bool) { return starts(rt, swap(x)) })
	mk("coincides", [][2]string{pp, rr}, func(rt *Runtime, x rangeArgs) (bool, bool) {
		ok := true
		switch {
		case !x.isR1 && !x.isR2:
			return eq(pointBound(x.p1), pointBound(x.p2), &ok), ok
		case x.isR1 && x.isR2:
			s1, e1, s2, e2 := startOf(x.r1), endOf(x.r1), startOf(x.r2), endOf(x.r2)
			return eq(s1, s2, &ok) && s1.included == s2.included && eq(e1, e2, &ok) && e1.included == e2.included, ok
		}
		return false, false
	})
	r.def("range", sig("range", "from", func(rt *Runtime, a []Value) Value {
		s, ok := str(a[0])
		if !ok {
			return rt.warn("range: from is not a string")
		}
		return parseRangeString(rt, s)
	}))
}

// parseRangeString implements range(from): the string holds a FEEL range
// literal or unary comparison whose endpoints are literals.
func parseRangeString(rt *Runtime, s string) Value {
	n, err := ParseExpr(strings.TrimSpace(s), nil)
	if err != nil {
		return rt.warnf("range: %v", err)
	}
	okEndpoint := func(e Node) bool {
		if e == nil {
			return true
		}
		switch x := e.(type) {
		case *NumberLit, *StringLit, *TemporalLit, *NullLit:
			return true
		case *Negation:
			_, ok := x.X.(*NumberLit)
			return ok
		case *Call:
			nm, ok := x.Fun.(*Name)
			if !ok {
				return false
			}
			switch nm.Name {
			case "date", "time", "date and time", "duration":
				for _, a := range x.Args {
					if _, ok := a.(*StringLit); !ok {
						return false
					}
				}
				return len(x.Named) == 0
			}
		}
		return false
	}
	switch x := n.(type) {
	case *RangeLit:
		if !okEndpoint(x.Low) || !okEndpoint(x.High) {
			return rt.warn("range: endpoints must be literals")
		}
	default:
		return rt.warn("range: not a range literal")
	}
	c := &compiler{}
	v := c.compile(n)(&Env{rt: rt})
	if r, ok := v.(Range); ok {
		if !r.StartUnbounded && !r.EndUnbounded && r.Start != nil && r.End != nil {
			if c, ok := compare(r.Start, r.End); !ok || c > 0 {
				return rt.warn("range: start is after end")
			}
		}
		return r
	}
	return nil
}
