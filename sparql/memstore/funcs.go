package memstore

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// compileFn compiles one call of a function, whose arguments are compiled
// already, to its evaluator. An error is a compile error at the call.
type compileFn func(c *compiler, args []*cexpr) (evalFn, error)

// functions is the table of SPARQL operators and built-in functions, by
// the name the parser gives them (algebra.Call.Op). It is read once per
// call at compile time; casts to XSD types are in casts.
var functions = map[string]compileFn{
	"||": compileOr, "&&": compileAnd, "!": compileNot,
	"=": compileEqual(eqEqual), "!=": compileEqual(eqNotEqual), "SAMETERM": compileEqual(eqSameTerm),
	"<":  compare(func(c graph.Comparison) bool { return c == graph.Less }),
	">":  compare(func(c graph.Comparison) bool { return c == graph.Greater }),
	"<=": compare(func(c graph.Comparison) bool { return c != graph.Greater }),
	">=": compare(func(c graph.Comparison) bool { return c != graph.Less }),
	"+":  arithmetic('+'), "-": arithmetic('-'), "*": arithmetic('*'), "/": arithmetic('/'),
	"u-": unary(fnNegate), "u+": unary(fnPlus),
	"IN": compileIn(true), "NOT IN": compileIn(false),
	"BOUND": compileBound, "IF": compileIf, "COALESCE": compileCoalesce, "BNODE": compileBNode,
	"RAND": nullary(func(*exec) graph.Term {
		return graph.Literal(doubleLexical(mrand.Float64(), 64), graph.XSDDouble)
	}),
	"NOW": nullary(func(x *exec) graph.Term {
		return graph.Literal(x.now.Format("2006-01-02T15:04:05.000Z07:00"), graph.XSDDateTime)
	}),
	"UUID":    nullary(func(*exec) graph.Term { return graph.IRI("urn:uuid:" + newUUID()) }),
	"STRUUID": nullary(func(*exec) graph.Term { return graph.String(newUUID()) }),
	"STR":     unary(fnStr), "LANG": unary(fnLang), "LANGMATCHES": binaryFn(fnLangMatches),
	"DATATYPE": unary(fnDatatype), "IRI": compileIRI,
	"ABS": unary(rounding(roundAbs)), "CEIL": unary(rounding(roundCeil)),
	"FLOOR": unary(rounding(roundFloor)), "ROUND": unary(rounding(roundRound)),
	"CONCAT": variadic(fnConcat), "SUBSTR": variadic(fnSubstr), "STRLEN": unary(fnStrlen),
	"UCASE": unary(caseMap(strings.ToUpper)), "LCASE": unary(caseMap(strings.ToLower)),
	"ENCODE_FOR_URI": unary(fnEncodeForURI),
	"CONTAINS":       stringTest(strings.Contains), "STRSTARTS": stringTest(strings.HasPrefix),
	"STRENDS": stringTest(strings.HasSuffix), "STRBEFORE": binaryFn(fnStrBefore), "STRAFTER": binaryFn(fnStrAfter),
	"YEAR": unary(dateTimePart(partYear)), "MONTH": unary(dateTimePart(partMonth)),
	"DAY": unary(dateTimePart(partDay)), "HOURS": unary(dateTimePart(partHours)),
	"MINUTES": unary(dateTimePart(partMinutes)), "SECONDS": unary(dateTimePart(partSeconds)),
	"TIMEZONE": unary(dateTimePart(partTimezone)), "TZ": unary(dateTimePart(partTZ)),
	"MD5": unary(digest(md5.New)), "SHA1": unary(digest(sha1.New)), "SHA256": unary(digest(sha256.New)),
	"SHA384": unary(digest(sha512.New384)), "SHA512": unary(digest(sha512.New)),
	"STRLANG": binaryFn(fnStrLang), "STRDT": binaryFn(fnStrDT),
	"ISIRI": unary(kindTest(graph.KindIRI)), "ISBLANK": unary(kindTest(graph.KindBlank)),
	"ISLITERAL": unary(kindTest(graph.KindLiteral)), "ISNUMERIC": unary(fnIsNumeric),
	"REGEX": compileRegex, "REPLACE": compileReplace,
}

// Evaluators of strict functions, which see their arguments' values.
type (
	fn1 = func(x *exec, a graph.Term) (graph.Term, error)
	fn2 = func(x *exec, a, b graph.Term) (graph.Term, error)
	fnN = func(x *exec, a []graph.Term) (graph.Term, error)
)

func arityError(got int, want string) error {
	return fmt.Errorf("wrong number of arguments (%d, want %s)", got, want)
}

// nullary compiles a function of no arguments.
func nullary(f func(x *exec) graph.Term) compileFn {
	return func(_ *compiler, args []*cexpr) (evalFn, error) {
		if len(args) != 0 {
			return nil, arityError(len(args), "none")
		}
		return func(x *exec, _ binding, _ active) (graph.Term, error) { return f(x), nil }, nil
	}
}

// unary compiles a strict function of one argument.
func unary(f fn1) compileFn {
	return func(_ *compiler, args []*cexpr) (evalFn, error) {
		if len(args) != 1 {
			return nil, arityError(len(args), "1")
		}
		a := args[0].eval
		return func(x *exec, b binding, ag active) (graph.Term, error) {
			v, err := a(x, b, ag)
			if err != nil {
				return v, err
			}
			return f(x, v)
		}, nil
	}
}

// binaryFn compiles a strict function of two arguments.
func binaryFn(f fn2) compileFn {
	return func(_ *compiler, args []*cexpr) (evalFn, error) {
		if len(args) != 2 {
			return nil, arityError(len(args), "2")
		}
		l, r := args[0].eval, args[1].eval
		return func(x *exec, b binding, ag active) (graph.Term, error) {
			lv, err := l(x, b, ag)
			if err != nil {
				return lv, err
			}
			rv, err := r(x, b, ag)
			if err != nil {
				return rv, err
			}
			return f(x, lv, rv)
		}, nil
	}
}

// variadic compiles a strict function of any number of arguments (the
// parser has checked how many).
func variadic(f fnN) compileFn {
	return func(_ *compiler, args []*cexpr) (evalFn, error) {
		return evalAll(args, f), nil
	}
}

// evalAll evaluates args from left to right, stopping at the first
// error, and applies f to their values.
func evalAll(args []*cexpr, f fnN) evalFn {
	return func(x *exec, b binding, ag active) (graph.Term, error) {
		vals := make([]graph.Term, len(args))
		for i, a := range args {
			v, err := a.eval(x, b, ag)
			if err != nil {
				return graph.Term{}, err
			}
			vals[i] = v
		}
		return f(x, vals)
	}
}

// Special forms: they decide which arguments to evaluate.

func compileAnd(_ *compiler, args []*cexpr) (evalFn, error) {
	if len(args) != 2 {
		return nil, arityError(len(args), "2")
	}
	l, r := args[0], args[1]
	return func(x *exec, b binding, ag active) (graph.Term, error) {
		lv, lerr := x.evalEBV(l, b, ag)
		rv, rerr := x.evalEBV(r, b, ag)
		switch {
		case lerr == nil && rerr == nil:
			return boolTerm(lv && rv), nil
		case lerr == nil && !lv, rerr == nil && !rv:
			return falseTerm, nil
		}
		return graph.Term{}, errType
	}, nil
}

func compileOr(_ *compiler, args []*cexpr) (evalFn, error) {
	if len(args) != 2 {
		return nil, arityError(len(args), "2")
	}
	l, r := args[0], args[1]
	return func(x *exec, b binding, ag active) (graph.Term, error) {
		lv, lerr := x.evalEBV(l, b, ag)
		rv, rerr := x.evalEBV(r, b, ag)
		switch {
		case lerr == nil && rerr == nil:
			return boolTerm(lv || rv), nil
		case lerr == nil && lv, rerr == nil && rv:
			return trueTerm, nil
		}
		return graph.Term{}, errType
	}, nil
}

func compileNot(_ *compiler, args []*cexpr) (evalFn, error) {
	if len(args) != 1 {
		return nil, arityError(len(args), "1")
	}
	a := args[0]
	return func(x *exec, b binding, ag active) (graph.Term, error) {
		v, err := x.evalEBV(a, b, ag)
		if err != nil {
			return graph.Term{}, err
		}
		return boolTerm(!v), nil
	}, nil
}

type eqKind uint8

const (
	eqEqual eqKind = iota
	eqNotEqual
	eqSameTerm
)

// compileEqual compiles =, != and sameTerm. Between plain variables and
// constants it compares term ids, decoding only literals whose ids
// differ (equal values may be written differently).
func compileEqual(k eqKind) compileFn {
	return func(_ *compiler, args []*cexpr) (evalFn, error) {
		if len(args) != 2 {
			return nil, arityError(len(args), "2")
		}
		l, r := args[0], args[1]
		byValue, _ := binaryFn(func(_ *exec, a, b graph.Term) (graph.Term, error) {
			if k == eqSameTerm {
				return boolTerm(a == b), nil
			}
			eq, err := equalTerms(a, b)
			if err != nil {
				return graph.Term{}, err
			}
			return boolTerm(eq == (k == eqEqual)), nil
		})(nil, args)
		if !isSimpleArg(l) || !isSimpleArg(r) {
			return byValue, nil
		}
		return func(x *exec, b binding, ag active) (graph.Term, error) {
			li, err := x.evalID(l, b, ag)
			if err != nil {
				return graph.Term{}, err
			}
			ri, err := x.evalID(r, b, ag)
			if err != nil {
				return graph.Term{}, err
			}
			if li == ri && (k == eqSameTerm || x.isResource(li) || !isNaN(x.term(li))) {
				return boolTerm(k != eqNotEqual), nil
			}
			if k == eqSameTerm || (x.isResource(li) && x.isResource(ri)) {
				return boolTerm(k == eqNotEqual), nil
			}
			return byValue(x, b, ag)
		}, nil
	}
}

// compileIn compiles IN (in) and NOT IN.
func compileIn(in bool) compileFn {
	return func(_ *compiler, args []*cexpr) (evalFn, error) {
		if len(args) < 1 {
			return nil, arityError(len(args), "at least 1")
		}
		l, list := args[0], args[1:]
		return func(x *exec, b binding, ag active) (graph.Term, error) {
			lv, err := l.eval(x, b, ag)
			if err != nil {
				return graph.Term{}, err
			}
			sawErr := false
			for _, a := range list {
				r, err := a.eval(x, b, ag)
				if err != nil {
					sawErr = true
					continue
				}
				eq, err := equalTerms(lv, r)
				if err != nil {
					sawErr = true
					continue
				}
				if eq {
					return boolTerm(in), nil
				}
			}
			if sawErr {
				return graph.Term{}, errType
			}
			return boolTerm(!in), nil
		}, nil
	}
}

func compileBound(_ *compiler, args []*cexpr) (evalFn, error) {
	if len(args) != 1 {
		return nil, arityError(len(args), "1")
	}
	if args[0].kind != exprVar {
		return nil, errors.New("BOUND takes a variable")
	}
	slot := args[0].slot
	return func(_ *exec, b binding, _ active) (graph.Term, error) { return boolTerm(b[slot] != 0), nil }, nil
}

func compileIf(_ *compiler, args []*cexpr) (evalFn, error) {
	if len(args) != 3 {
		return nil, arityError(len(args), "3")
	}
	cond, then, els := args[0], args[1], args[2]
	return func(x *exec, b binding, ag active) (graph.Term, error) {
		c, err := x.evalEBV(cond, b, ag)
		if err != nil {
			return graph.Term{}, err
		}
		if c {
			return then.eval(x, b, ag)
		}
		return els.eval(x, b, ag)
	}, nil
}

func compileCoalesce(_ *compiler, args []*cexpr) (evalFn, error) {
	return func(x *exec, b binding, ag active) (graph.Term, error) {
		for _, a := range args {
			if v, err := a.eval(x, b, ag); err == nil {
				return v, nil
			}
		}
		return graph.Term{}, errType
	}, nil
}

// compileBNode compiles BNODE() and BNODE(str); the latter is the same
// blank node for the same string within one solution (identified by the
// compiler's rowSlots, or the whole binding).
func compileBNode(c *compiler, args []*cexpr) (evalFn, error) {
	switch len(args) {
	case 0:
		return func(x *exec, _ binding, _ active) (graph.Term, error) { return graph.Blank(x.bnodes()), nil }, nil
	case 1:
	default:
		return nil, arityError(len(args), "0 or 1")
	}
	arg, rowSlots := args[0], c.rowSlots
	return func(x *exec, b binding, ag active) (graph.Term, error) {
		v, err := arg.eval(x, b, ag)
		if err != nil || !isStringLit(v) || v.Lang != "" {
			return graph.Term{}, errType
		}
		h := fnv.New64a()
		h.Write([]byte(v.Value))
		fmt.Fprintf(h, "%d|", x.querySeq)
		if rowSlots != nil {
			for _, s := range rowSlots {
				id := b[s]
				h.Write([]byte{byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)})
			}
		} else {
			for _, id := range b {
				h.Write([]byte{byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)})
			}
		}
		return graph.Blank(fmt.Sprintf("bn%x", h.Sum64())), nil
	}, nil
}

// compileIRI resolves against the query's base, known at compile time.
func compileIRI(c *compiler, args []*cexpr) (evalFn, error) {
	base := c.base
	return unary(func(_ *exec, a graph.Term) (graph.Term, error) {
		switch {
		case a.Kind == graph.KindIRI:
			return a, nil
		case isSimple(a):
			return graph.IRI(algebra.ResolveIRI(base, a.Value)), nil
		}
		return graph.Term{}, errType
	})(c, args)
}

// Operators.

func compare(accept func(graph.Comparison) bool) compileFn {
	return binaryFn(func(_ *exec, a, b graph.Term) (graph.Term, error) {
		c := graph.CompareLiterals(a, b)
		switch c {
		case graph.Incomparable:
			return graph.Term{}, errType
		case graph.Unordered:
			return falseTerm, nil
		}
		return boolTerm(accept(c)), nil
	})
}

func arithmetic(op byte) compileFn {
	return binaryFn(func(_ *exec, a, b graph.Term) (graph.Term, error) {
		l, ok1 := parseNum(a)
		r, ok2 := parseNum(b)
		if !ok1 || !ok2 {
			return graph.Term{}, errType
		}
		n, ok := arith(op, l, r)
		if !ok {
			return graph.Term{}, errType
		}
		return n.term(), nil
	})
}

func fnNegate(_ *exec, a graph.Term) (graph.Term, error) {
	n, ok := parseNum(a)
	if !ok {
		return graph.Term{}, errType
	}
	return n.neg().term(), nil
}

func fnPlus(_ *exec, a graph.Term) (graph.Term, error) {
	n, ok := parseNum(a)
	if !ok {
		return graph.Term{}, errType
	}
	return n.term(), nil
}

// Functions on RDF terms (§17.4.2).

func fnStr(_ *exec, a graph.Term) (graph.Term, error) {
	switch a.Kind {
	case graph.KindIRI, graph.KindLiteral:
		return graph.String(a.Value), nil
	}
	return graph.Term{}, errType
}

func fnLang(_ *exec, a graph.Term) (graph.Term, error) {
	if a.Kind != graph.KindLiteral {
		return graph.Term{}, errType
	}
	return graph.String(a.Lang), nil
}

func fnLangMatches(_ *exec, a, b graph.Term) (graph.Term, error) {
	if !isSimple(a) || !isSimple(b) {
		return graph.Term{}, errType
	}
	return boolTerm(langMatches(a.Value, b.Value)), nil
}

func fnDatatype(_ *exec, a graph.Term) (graph.Term, error) {
	if a.Kind != graph.KindLiteral {
		return graph.Term{}, errType
	}
	return graph.IRI(a.Datatype), nil
}

func fnStrLang(_ *exec, a, b graph.Term) (graph.Term, error) {
	if !isSimple(a) || !isSimple(b) || b.Value == "" {
		return graph.Term{}, errType
	}
	return graph.LangLiteral(a.Value, b.Value), nil
}

func fnStrDT(_ *exec, a, b graph.Term) (graph.Term, error) {
	if !isSimple(a) || b.Kind != graph.KindIRI {
		return graph.Term{}, errType
	}
	return graph.Literal(a.Value, b.Value), nil
}

func kindTest(k graph.Kind) fn1 {
	return func(_ *exec, a graph.Term) (graph.Term, error) { return boolTerm(a.Kind == k), nil }
}

func fnIsNumeric(_ *exec, a graph.Term) (graph.Term, error) {
	_, ok := parseNum(a)
	return boolTerm(ok), nil
}

// Functions on numbers (§17.4.4).

func rounding(m roundMode) fn1 {
	return func(_ *exec, a graph.Term) (graph.Term, error) {
		n, ok := parseNum(a)
		if !ok {
			return graph.Term{}, errType
		}
		return roundLike(m, n).term(), nil
	}
}

// Functions on strings (§17.4.3).

func fnConcat(x *exec, a []graph.Term) (graph.Term, error) {
	total := 0
	for _, t := range a {
		if !isStringLit(t) {
			return graph.Term{}, errType
		}
		total += len(t.Value)
	}
	// measured before building: the arguments may be MaxBytes each
	if x.tooLong(total) {
		return graph.Term{}, errType
	}
	var sb strings.Builder
	sb.Grow(total)
	lang := ""
	for i, t := range a {
		if i == 0 {
			lang = t.Lang
		} else if t.Lang != lang {
			lang = ""
		}
		sb.WriteString(t.Value)
	}
	for _, t := range a {
		if t.Lang == "" {
			lang = ""
		}
	}
	return graph.LangLiteral(sb.String(), lang), nil
}

func fnSubstr(x *exec, a []graph.Term) (graph.Term, error) {
	if !isStringLit(a[0]) {
		return graph.Term{}, errType
	}
	sn, ok := parseNum(a[1])
	if !ok {
		return graph.Term{}, errType
	}
	start := roundHalfUp(sn.toFloat())
	end := math.Inf(1)
	if len(a) == 3 {
		ln, ok := parseNum(a[2])
		if !ok {
			return graph.Term{}, errType
		}
		end = start + roundHalfUp(ln.toFloat())
	}
	if math.IsNaN(start) || math.IsNaN(end) {
		return strLike(a[0], ""), nil
	}
	var sb strings.Builder
	for i, r := range []rune(a[0].Value) {
		p := float64(i + 1)
		if p >= start && p < end {
			sb.WriteRune(r)
		}
	}
	return x.capped(strLike(a[0], sb.String()))
}

func fnStrlen(_ *exec, a graph.Term) (graph.Term, error) {
	if !isStringLit(a) {
		return graph.Term{}, errType
	}
	return graph.Literal(strconv.Itoa(utf8.RuneCountInString(a.Value)), graph.XSDInteger), nil
}

func caseMap(f func(string) string) fn1 {
	return func(x *exec, a graph.Term) (graph.Term, error) {
		if !isStringLit(a) {
			return graph.Term{}, errType
		}
		return x.capped(strLike(a, f(a.Value)))
	}
}

func fnEncodeForURI(x *exec, a graph.Term) (graph.Term, error) {
	if !isStringLit(a) {
		return graph.Term{}, errType
	}
	return x.capped(graph.String(encodeForURI(a.Value)))
}

// stringTest compiles CONTAINS, STRSTARTS and STRENDS.
func stringTest(f func(s, t string) bool) compileFn {
	return binaryFn(func(_ *exec, a, b graph.Term) (graph.Term, error) {
		if !argCompatible(a, b) {
			return graph.Term{}, errType
		}
		return boolTerm(f(a.Value, b.Value)), nil
	})
}

func fnStrBefore(x *exec, a, b graph.Term) (graph.Term, error) {
	if !argCompatible(a, b) {
		return graph.Term{}, errType
	}
	i := strings.Index(a.Value, b.Value)
	if i < 0 {
		return graph.String(""), nil
	}
	if b.Value == "" {
		return strLike(a, ""), nil
	}
	return x.capped(strLike(a, a.Value[:i]))
}

func fnStrAfter(x *exec, a, b graph.Term) (graph.Term, error) {
	if !argCompatible(a, b) {
		return graph.Term{}, errType
	}
	i := strings.Index(a.Value, b.Value)
	if i < 0 {
		return graph.String(""), nil
	}
	return x.capped(strLike(a, a.Value[i+len(b.Value):]))
}

// Hash functions (§17.4.6).

func digest(newHash func() hash.Hash) fn1 {
	return func(_ *exec, a graph.Term) (graph.Term, error) {
		if !isSimple(a) {
			return graph.Term{}, errType
		}
		h := newHash()
		h.Write([]byte(a.Value))
		return graph.String(hex.EncodeToString(h.Sum(nil))), nil
	}
}

// REGEX and REPLACE (§17.4.3.14, §17.4.3.15).

// compileRegex compiles REGEX(text, pattern[, flags]).
func compileRegex(_ *compiler, args []*cexpr) (evalFn, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, arityError(len(args), "2 or 3")
	}
	re, err := constRegex(args, 1, 2)
	if err != nil {
		return nil, err
	}
	match := func(x *exec, re *xsdregexp.Regexp, s graph.Term) (graph.Term, error) {
		ok, err := re.MatchString(s.Value)
		if err != nil {
			return graph.Term{}, x.regexFail(err)
		}
		return boolTerm(ok), nil
	}
	if re != nil {
		text := args[0]
		return func(x *exec, b binding, ag active) (graph.Term, error) {
			s, err := text.eval(x, b, ag)
			if err != nil {
				return graph.Term{}, err
			}
			if !isStringLit(s) {
				return graph.Term{}, errType
			}
			return match(x, re, s)
		}, nil
	}
	return evalAll(args, func(x *exec, a []graph.Term) (graph.Term, error) {
		if !isStringLit(a[0]) {
			return graph.Term{}, errType
		}
		re, err := regexArg(a, 1, 2)
		if err != nil {
			return graph.Term{}, err
		}
		return match(x, re, a[0])
	}), nil
}

// compileReplace compiles REPLACE(text, pattern, replacement[, flags]).
func compileReplace(_ *compiler, args []*cexpr) (evalFn, error) {
	if len(args) != 3 && len(args) != 4 {
		return nil, arityError(len(args), "3 or 4")
	}
	re, err := constRegex(args, 1, 3)
	if err != nil {
		return nil, err
	}
	return evalAll(args, func(x *exec, a []graph.Term) (graph.Term, error) {
		if !isStringLit(a[0]) || !isSimple(a[2]) {
			return graph.Term{}, errType
		}
		re := re
		if re == nil {
			var err error
			if re, err = regexArg(a, 1, 3); err != nil {
				return graph.Term{}, err
			}
		}
		out, err := re.ReplaceAllWithin(a[0].Value, a[2].Value, x.b.lim.MaxBytes)
		if err != nil {
			return graph.Term{}, x.regexFail(err)
		}
		return strLike(a[0], out), nil
	}), nil
}

// constRegex compiles the pattern args[pi] (with the flags args[fi] when
// present) when both are constant simple literals, once for the whole
// query; an invalid constant pattern is a compile error naming it. It
// returns nil when the pattern is computed per row.
func constRegex(args []*cexpr, pi, fi int) (*xsdregexp.Regexp, error) {
	pat := args[pi]
	if pat.kind != exprConst || !isSimple(pat.val) {
		return nil, nil
	}
	flags := ""
	if len(args) > fi {
		f := args[fi]
		if f.kind != exprConst || !isSimple(f.val) {
			return nil, nil
		}
		flags = f.val.Value
	}
	re, err := xsdregexp.Compile(pat.val.Value, flags)
	if err != nil {
		msg := err.Error()
		var xe *xsdregexp.Error
		if errors.As(err, &xe) {
			msg = xe.Msg // the pattern is quoted below, in a bounded excerpt
		}
		if len(msg) > 120 { // a parser's message may quote the pattern again
			msg = strings.ToValidUTF8(msg[:120], "") + "..."
		}
		if flags != "" {
			return nil, fmt.Errorf("invalid regular expression %s with flags %s: %s", excerpt(pat.val.Value), excerpt(flags), msg)
		}
		return nil, fmt.Errorf("invalid regular expression %s: %s", excerpt(pat.val.Value), msg)
	}
	return re, nil
}

// regexCache holds the patterns computed per row (REGEX(?s, ?p)), which
// repeat across rows and queries: compiling one costs microseconds, a
// hit tens of nanoseconds.
var regexCache = xsdregexp.NewCache(256)

// regexArg compiles a pattern computed for one row, through regexCache.
func regexArg(a []graph.Term, pi, fi int) (*xsdregexp.Regexp, error) {
	if !isSimple(a[pi]) {
		return nil, errType
	}
	flags := ""
	if len(a) > fi {
		if !isSimple(a[fi]) {
			return nil, errType
		}
		flags = a[fi].Value
	}
	re, err := regexCache.Compile(a[pi].Value, flags)
	if err != nil {
		return nil, errType
	}
	return re, nil
}
