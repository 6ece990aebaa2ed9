package memstore

import (
	"crypto/md5"
	"crypto/rand"
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
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// errType is the SPARQL expression error (type error, unbound variable).
var errType = errors.New("expression error")

// cexpr is a compiled expression.
type cexpr struct {
	op    string
	slot  int
	val   graph.Term
	args  []*cexpr
	exist op
	not   bool
	re    *xsdregexp.Regexp // constant REGEX/REPLACE pattern
	reErr bool
	// constID caches the id of a constant within one execution
	constID  uint32
	base     string
	rowSlots []int
}

const (
	opVar   = "$var"
	opConst = "$const"
	opExist = "$exists"
)

func (c *compiler) compileExpr(e algebra.Expr) *cexpr {
	switch e := e.(type) {
	case *algebra.ExprVar:
		return &cexpr{op: opVar, slot: c.slot(e.Name)}
	case *algebra.ExprTerm:
		return &cexpr{op: opConst, val: e.Term}
	case *algebra.Exists:
		return &cexpr{op: opExist, exist: c.compile(e.P), not: e.Not}
	case *algebra.Call:
		ce := &cexpr{op: e.Op, base: c.base, rowSlots: c.rowSlots}
		for _, a := range e.Args {
			ce.args = append(ce.args, c.compileExpr(a))
		}
		if (e.Op == "REGEX" && len(e.Args) >= 2) || (e.Op == "REPLACE" && len(e.Args) >= 3) {
			pi, fi := 1, 2
			if e.Op == "REPLACE" {
				fi = 3
			}
			pat, ok1 := e.Args[pi].(*algebra.ExprTerm)
			flags := ""
			ok2 := true
			if len(e.Args) > fi {
				f, ok := e.Args[fi].(*algebra.ExprTerm)
				ok2 = ok
				if ok {
					flags = f.Term.Value
				}
			}
			if ok1 && ok2 {
				re, err := xsdregexp.Compile(pat.Term.Value, flags)
				ce.re, ce.reErr = re, err != nil
			}
		}
		return ce
	}
	return &cexpr{op: "$invalid"}
}

func isSimpleArg(e *cexpr) bool { return e.op == opVar || e.op == opConst }

// ebvTrue evaluates e and reports whether its effective boolean value is
// true (errors count as false).
func (x *exec) ebvTrue(e *cexpr, b binding, ag active) bool {
	v, err := x.eval(e, b, ag)
	if err != nil {
		return false
	}
	t, err := ebv(v)
	return err == nil && t
}

var (
	trueTerm  = graph.Literal("true", graph.XSDBoolean)
	falseTerm = graph.Literal("false", graph.XSDBoolean)
)

func boolTerm(b bool) graph.Term {
	if b {
		return trueTerm
	}
	return falseTerm
}

// ebv is the effective boolean value (SPARQL 1.1 §17.2.2).
func ebv(t graph.Term) (bool, error) {
	if t.Kind != graph.KindLiteral {
		return false, errType
	}
	switch {
	case t.Datatype == graph.XSDBoolean:
		v, _ := graph.BoolValue(t) // an ill-formed boolean is false
		return v, nil
	case t.Datatype == graph.XSDString:
		return t.Value != "", nil
	case isNumericType(t.Datatype):
		n, ok := parseNum(t)
		if !ok {
			return false, nil
		}
		return !n.isZero() && !n.isNaN(), nil
	}
	return false, errType
}

// evalID evaluates e to a term id; plain variables and constants need no
// decoding.
func (x *exec) evalID(e *cexpr, b binding, ag active) (uint32, error) {
	switch e.op {
	case opVar:
		if v := b[e.slot]; v != 0 {
			return v, nil
		}
		return 0, errType
	case opConst:
		if e.constID == 0 {
			e.constID = x.idOf(e.val)
		}
		return e.constID, nil
	}
	v, err := x.eval(e, b, ag)
	if err != nil {
		return 0, err
	}
	return x.idOf(v), nil
}

// isResource reports whether id is an IRI or a blank node (terms whose
// equality is id equality).
func (x *exec) isResource(id uint32) bool {
	if id&overlayBit != 0 {
		return !x.ovTerms[id&^overlayBit].IsLiteral()
	}
	k := x.sn.dv.kindOf(id)
	return k == graph.KindIRI || k == graph.KindBlank
}

// isNaN reports whether t is a float or double NaN, the one literal that
// does not equal itself.
func isNaN(t graph.Term) bool {
	if !strings.Contains(t.Value, "NaN") {
		return false
	}
	f, ok := graph.Float64(t)
	return ok && math.IsNaN(f)
}

func (x *exec) eval(e *cexpr, b binding, ag active) (graph.Term, error) {
	switch e.op {
	case "=", "!=", "SAMETERM":
		if isSimpleArg(e.args[0]) && isSimpleArg(e.args[1]) {
			l, err := x.evalID(e.args[0], b, ag)
			if err != nil {
				return graph.Term{}, err
			}
			r, err := x.evalID(e.args[1], b, ag)
			if err != nil {
				return graph.Term{}, err
			}
			if l == r && (e.op == "SAMETERM" || x.isResource(l) || !isNaN(x.term(l))) {
				return boolTerm(e.op != "!="), nil
			}
			if e.op == "SAMETERM" || (x.isResource(l) && x.isResource(r)) {
				return boolTerm(e.op == "!="), nil
			}
		}
	case opVar:
		if v := b[e.slot]; v != 0 {
			return x.term(v), nil
		}
		return graph.Term{}, errType
	case opConst:
		return e.val, nil
	case opExist:
		found := false
		e.exist.run(x, ag, b, func(binding) bool { found = true; return false })
		if x.err != nil {
			return graph.Term{}, x.err
		}
		return boolTerm(found != e.not), nil
	case "&&", "||":
		l, lerr := x.evalEBV(e.args[0], b, ag)
		r, rerr := x.evalEBV(e.args[1], b, ag)
		if e.op == "&&" {
			switch {
			case lerr == nil && rerr == nil:
				return boolTerm(l && r), nil
			case lerr == nil && !l, rerr == nil && !r:
				return falseTerm, nil
			}
			return graph.Term{}, errType
		}
		switch {
		case lerr == nil && rerr == nil:
			return boolTerm(l || r), nil
		case lerr == nil && l, rerr == nil && r:
			return trueTerm, nil
		}
		return graph.Term{}, errType
	case "!":
		v, err := x.evalEBV(e.args[0], b, ag)
		if err != nil {
			return graph.Term{}, err
		}
		return boolTerm(!v), nil
	case "BOUND":
		if e.args[0].op != opVar {
			return graph.Term{}, errType
		}
		return boolTerm(b[e.args[0].slot] != 0), nil
	case "IF":
		c, err := x.evalEBV(e.args[0], b, ag)
		if err != nil {
			return graph.Term{}, err
		}
		if c {
			return x.eval(e.args[1], b, ag)
		}
		return x.eval(e.args[2], b, ag)
	case "COALESCE":
		for _, a := range e.args {
			if v, err := x.eval(a, b, ag); err == nil {
				return v, nil
			}
		}
		return graph.Term{}, errType
	case "IN", "NOT IN":
		l, err := x.eval(e.args[0], b, ag)
		if err != nil {
			return graph.Term{}, err
		}
		sawErr := false
		for _, a := range e.args[1:] {
			r, err := x.eval(a, b, ag)
			if err != nil {
				sawErr = true
				continue
			}
			eq, err := equalTerms(l, r)
			if err != nil {
				sawErr = true
				continue
			}
			if eq {
				return boolTerm(e.op == "IN"), nil
			}
		}
		if sawErr {
			return graph.Term{}, errType
		}
		return boolTerm(e.op == "NOT IN"), nil
	case "BNODE":
		if len(e.args) == 0 {
			return graph.Blank(x.bnodes()), nil
		}
		v, err := x.eval(e.args[0], b, ag)
		if err != nil || !isStringLit(v) || v.Lang != "" {
			return graph.Term{}, errType
		}
		h := fnv.New64a()
		h.Write([]byte(v.Value))
		fmt.Fprintf(h, "%d|", x.querySeq)
		if e.rowSlots != nil {
			for _, s := range e.rowSlots {
				id := b[s]
				h.Write([]byte{byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)})
			}
		} else {
			for _, id := range b {
				h.Write([]byte{byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)})
			}
		}
		return graph.Blank(fmt.Sprintf("bn%x", h.Sum64())), nil
	case "RAND":
		return graph.Literal(doubleLexical(mrand.Float64(), 64), graph.XSDDouble), nil
	case "NOW":
		return graph.Literal(x.now.Format("2006-01-02T15:04:05.000Z07:00"), graph.XSDDateTime), nil
	case "UUID":
		return graph.IRI("urn:uuid:" + newUUID()), nil
	case "STRUUID":
		return graph.String(newUUID()), nil
	}
	args := make([]graph.Term, len(e.args))
	for i, a := range e.args {
		v, err := x.eval(a, b, ag)
		if err != nil {
			return graph.Term{}, err
		}
		args[i] = v
	}
	return x.call(e, args)
}

func (x *exec) evalEBV(e *cexpr, b binding, ag active) (bool, error) {
	v, err := x.eval(e, b, ag)
	if err != nil {
		return false, err
	}
	return ebv(v)
}

func newUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func isStringLit(t graph.Term) bool {
	return t.Kind == graph.KindLiteral && (t.Datatype == graph.XSDString || t.Datatype == graph.RDFLangStr)
}

func isSimple(t graph.Term) bool {
	return t.Kind == graph.KindLiteral && t.Datatype == graph.XSDString
}

// strLike returns a literal with the same language tag or datatype as
// like and the text s.
func strLike(like graph.Term, s string) graph.Term {
	if like.Lang != "" {
		return graph.LangLiteral(s, like.Lang)
	}
	return graph.String(s)
}

// argCompatible implements the string argument compatibility rules
// (SPARQL 1.1 §17.4.3.1.2).
func argCompatible(a, b graph.Term) bool {
	if !isStringLit(a) || !isStringLit(b) {
		return false
	}
	return b.Lang == "" || a.Lang == b.Lang
}

func (x *exec) call(e *cexpr, a []graph.Term) (graph.Term, error) {
	fail := graph.Term{}
	switch e.op {
	case "=", "!=":
		eq, err := equalTerms(a[0], a[1])
		if err != nil {
			return fail, err
		}
		return boolTerm(eq == (e.op == "=")), nil
	case "<", ">", "<=", ">=":
		c := graph.CompareLiterals(a[0], a[1])
		switch c {
		case graph.Incomparable:
			return fail, errType
		case graph.Unordered:
			return falseTerm, nil
		}
		switch e.op {
		case "<":
			return boolTerm(c == graph.Less), nil
		case ">":
			return boolTerm(c == graph.Greater), nil
		case "<=":
			return boolTerm(c != graph.Greater), nil
		}
		return boolTerm(c != graph.Less), nil
	case "+", "-", "*", "/":
		l, ok1 := parseNum(a[0])
		r, ok2 := parseNum(a[1])
		if !ok1 || !ok2 {
			return fail, errType
		}
		n, ok := arith(e.op[0], l, r)
		if !ok {
			return fail, errType
		}
		return n.term(), nil
	case "u-", "u+":
		n, ok := parseNum(a[0])
		if !ok {
			return fail, errType
		}
		if e.op == "u-" {
			n = n.neg()
		}
		return n.term(), nil
	case "STR":
		switch a[0].Kind {
		case graph.KindIRI, graph.KindLiteral:
			return graph.String(a[0].Value), nil
		}
		return fail, errType
	case "LANG":
		if a[0].Kind != graph.KindLiteral {
			return fail, errType
		}
		return graph.String(a[0].Lang), nil
	case "LANGMATCHES":
		if !isSimple(a[0]) || !isSimple(a[1]) {
			return fail, errType
		}
		return boolTerm(langMatches(a[0].Value, a[1].Value)), nil
	case "DATATYPE":
		if a[0].Kind != graph.KindLiteral {
			return fail, errType
		}
		return graph.IRI(a[0].Datatype), nil
	case "IRI":
		switch {
		case a[0].Kind == graph.KindIRI:
			return a[0], nil
		case isSimple(a[0]):
			return graph.IRI(algebra.ResolveIRI(e.base, a[0].Value)), nil
		}
		return fail, errType
	case "ABS", "CEIL", "FLOOR", "ROUND":
		n, ok := parseNum(a[0])
		if !ok {
			return fail, errType
		}
		return roundLike(e.op, n).term(), nil
	case "CONCAT":
		total := 0
		for _, t := range a {
			if !isStringLit(t) {
				return fail, errType
			}
			total += len(t.Value)
		}
		// measured before building: the arguments may be MaxBytes each
		if x.tooLong(total) {
			return fail, errType
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
		if len(a) > 0 {
			for _, t := range a {
				if t.Lang == "" {
					lang = ""
				}
			}
		}
		return graph.LangLiteral(sb.String(), lang), nil
	case "SUBSTR":
		if !isStringLit(a[0]) {
			return fail, errType
		}
		sn, ok := parseNum(a[1])
		if !ok {
			return fail, errType
		}
		runes := []rune(a[0].Value)
		start := roundHalfUp(sn.toFloat())
		end := math.Inf(1)
		if len(a) == 3 {
			ln, ok := parseNum(a[2])
			if !ok {
				return fail, errType
			}
			end = start + roundHalfUp(ln.toFloat())
		}
		if math.IsNaN(start) || math.IsNaN(end) {
			return strLike(a[0], ""), nil
		}
		var sb strings.Builder
		for i, r := range runes {
			p := float64(i + 1)
			if p >= start && p < end {
				sb.WriteRune(r)
			}
		}
		return x.capped(strLike(a[0], sb.String()))
	case "STRLEN":
		if !isStringLit(a[0]) {
			return fail, errType
		}
		return graph.Literal(strconv.Itoa(utf8.RuneCountInString(a[0].Value)), graph.XSDInteger), nil
	case "UCASE", "LCASE":
		if !isStringLit(a[0]) {
			return fail, errType
		}
		if e.op == "UCASE" {
			return x.capped(strLike(a[0], strings.ToUpper(a[0].Value)))
		}
		return x.capped(strLike(a[0], strings.ToLower(a[0].Value)))
	case "ENCODE_FOR_URI":
		if !isStringLit(a[0]) {
			return fail, errType
		}
		return x.capped(graph.String(encodeForURI(a[0].Value)))
	case "CONTAINS", "STRSTARTS", "STRENDS", "STRBEFORE", "STRAFTER":
		if !argCompatible(a[0], a[1]) {
			return fail, errType
		}
		s, t := a[0].Value, a[1].Value
		switch e.op {
		case "CONTAINS":
			return boolTerm(strings.Contains(s, t)), nil
		case "STRSTARTS":
			return boolTerm(strings.HasPrefix(s, t)), nil
		case "STRENDS":
			return boolTerm(strings.HasSuffix(s, t)), nil
		case "STRBEFORE":
			i := strings.Index(s, t)
			if i < 0 {
				return graph.String(""), nil
			}
			if t == "" {
				return strLike(a[0], ""), nil
			}
			return x.capped(strLike(a[0], s[:i]))
		}
		i := strings.Index(s, t)
		if i < 0 {
			return graph.String(""), nil
		}
		return x.capped(strLike(a[0], s[i+len(t):]))
	case "YEAR", "MONTH", "DAY", "HOURS", "MINUTES", "SECONDS", "TIMEZONE", "TZ":
		return dateTimePart(e.op, a[0])
	case "MD5", "SHA1", "SHA256", "SHA384", "SHA512":
		if !isSimple(a[0]) {
			return fail, errType
		}
		var h hash.Hash
		switch e.op {
		case "MD5":
			h = md5.New()
		case "SHA1":
			h = sha1.New()
		case "SHA256":
			h = sha256.New()
		case "SHA384":
			h = sha512.New384()
		default:
			h = sha512.New()
		}
		h.Write([]byte(a[0].Value))
		return graph.String(hex.EncodeToString(h.Sum(nil))), nil
	case "STRLANG":
		if !isSimple(a[0]) || !isSimple(a[1]) || a[1].Value == "" {
			return fail, errType
		}
		return graph.LangLiteral(a[0].Value, a[1].Value), nil
	case "STRDT":
		if !isSimple(a[0]) || a[1].Kind != graph.KindIRI {
			return fail, errType
		}
		return graph.Literal(a[0].Value, a[1].Value), nil
	case "SAMETERM":
		return boolTerm(a[0] == a[1]), nil
	case "ISIRI":
		return boolTerm(a[0].Kind == graph.KindIRI), nil
	case "ISBLANK":
		return boolTerm(a[0].Kind == graph.KindBlank), nil
	case "ISLITERAL":
		return boolTerm(a[0].Kind == graph.KindLiteral), nil
	case "ISNUMERIC":
		_, ok := parseNum(a[0])
		return boolTerm(ok), nil
	case "REGEX":
		if !isStringLit(a[0]) {
			return fail, errType
		}
		re, err := e.regex(a, 1, 2)
		if err != nil {
			return fail, err
		}
		ok, err := re.MatchString(a[0].Value)
		if err != nil {
			return fail, x.regexFail(err)
		}
		return boolTerm(ok), nil
	case "REPLACE":
		if !isStringLit(a[0]) || !isSimple(a[2]) {
			return fail, errType
		}
		re, err := e.regex(a, 1, 3)
		if err != nil {
			return fail, err
		}
		out, err := re.ReplaceAllWithin(a[0].Value, a[2].Value, x.b.lim.MaxBytes)
		if err != nil {
			return fail, x.regexFail(err)
		}
		return strLike(a[0], out), nil
	}
	if strings.HasPrefix(e.op, graph.XSD) {
		if len(a) != 1 {
			return fail, errType
		}
		return castTo(e.op, a[0])
	}
	return fail, errType
}

// capped returns t, or an error (recording a LimitError) when its text
// is over MaxBytes.
func (x *exec) capped(t graph.Term) (graph.Term, error) {
	if x.tooLong(len(t.Value)) {
		return graph.Term{}, errType
	}
	return t, nil
}

func (e *cexpr) regex(a []graph.Term, pi, fi int) (*xsdregexp.Regexp, error) {
	if e.re != nil {
		return e.re, nil
	}
	if e.reErr {
		return nil, errType
	}
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
	re, err := xsdregexp.Compile(a[pi].Value, flags)
	if err != nil {
		return nil, errType
	}
	return re, nil
}

// regexFail ends the query with a regular expression's budget error (a
// back-reference match past its MatchTimeout); other errors (a pattern
// matching the empty string, a bad replacement) are expression errors.
func (x *exec) regexFail(err error) error {
	var le *xsdregexp.LimitError
	if errors.As(err, &le) {
		if le.Limit == "MaxBytes" {
			// REPLACE ran into the query's own MaxBytes
			err = &LimitError{Limit: "MaxBytes", Max: le.Max}
		}
		x.fail(err)
		return err
	}
	return errType
}

func langMatches(tag, rng string) bool {
	if rng == "*" {
		return tag != ""
	}
	tag, rng = strings.ToLower(tag), strings.ToLower(rng)
	return tag == rng || strings.HasPrefix(tag, rng+"-")
}

func encodeForURI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

var _ = url.PathEscape

func roundHalfUp(f float64) float64 { return math.Floor(f + 0.5) }

func roundLike(op string, n num) num {
	switch n.kind {
	case graph.NumericInteger:
		if op == "ABS" {
			if n.small && n.i < 0 && n.i != math.MinInt64 {
				return intNum(-n.i)
			}
			if !n.small {
				var r num
				r.kind = graph.NumericInteger
				r.d.Abs(&n.d)
				return r
			}
		}
		return n
	case graph.NumericDecimal:
		var r num
		r.kind = graph.NumericDecimal
		switch op {
		case "ABS":
			r.d.Abs(&n.d)
		case "CEIL":
			_, _ = decCtx.Ceil(&r.d, &n.d)
		case "FLOOR":
			_, _ = decCtx.Floor(&r.d, &n.d)
		case "ROUND":
			half := apd.New(5, -1)
			var t apd.Decimal
			_, _ = decCtx.Add(&t, &n.d, half)
			_, _ = decCtx.Floor(&r.d, &t)
		}
		return r
	}
	f := n.f
	switch op {
	case "ABS":
		f = math.Abs(f)
	case "CEIL":
		f = math.Ceil(f)
	case "FLOOR":
		f = math.Floor(f)
	case "ROUND":
		f = roundHalfUp(f)
	}
	return num{kind: n.kind, f: f}
}

// equalTerms implements '=' (value equality, falling back to RDFterm-equal).
func equalTerms(a, b graph.Term) (bool, error) {
	if a.Kind != graph.KindLiteral || b.Kind != graph.KindLiteral {
		return a == b, nil
	}
	switch graph.CompareLiterals(a, b) {
	case graph.Equal:
		return true, nil
	case graph.Less, graph.Greater, graph.Unordered:
		return false, nil
	}
	if a == b {
		return true, nil
	}
	// Literals of two different known types compare unequal; anything else
	// (unknown datatypes, ill-formed values) is an error.
	if a.Lang != "" || b.Lang != "" {
		// a language-tagged string never equals another literal
		return false, nil
	}
	if knownType(a) && knownType(b) && a.Datatype != b.Datatype && graph.WellFormed(a) && graph.WellFormed(b) {
		return false, nil
	}
	return false, errType
}

func knownType(t graph.Term) bool {
	switch t.Datatype {
	case graph.XSDString, graph.RDFLangStr, graph.XSDBoolean, graph.XSDDateTime, graph.XSDDate:
		return true
	}
	return isNumericType(t.Datatype)
}

// dateTimePart implements the accessors YEAR ... SECONDS, TIMEZONE and TZ
// of xsd:dateTime (and the date ones of xsd:date).
func dateTimePart(op string, t graph.Term) (graph.Term, error) {
	fail := graph.Term{}
	if t.Datatype != graph.XSDDateTime && t.Datatype != graph.XSDDate {
		return fail, errType
	}
	dt, ok := graph.ParseDateTime(t)
	if !ok {
		return fail, errType
	}
	integer := func(n int) graph.Term { return graph.Literal(strconv.Itoa(n), graph.XSDInteger) }
	switch op {
	case "YEAR":
		return integer(dt.Year), nil
	case "MONTH":
		return integer(dt.Month), nil
	case "DAY":
		return integer(dt.Day), nil
	case "TIMEZONE":
		off, ok := dt.ZoneOffset()
		if !ok {
			return fail, errType
		}
		return graph.Literal(zoneDuration(off), graph.XSD+"dayTimeDuration"), nil
	case "TZ":
		return graph.String(dt.Zone), nil
	}
	if t.Datatype == graph.XSDDate {
		return fail, errType
	}
	switch op {
	case "HOURS":
		return integer(dt.Hour), nil
	case "MINUTES":
		return integer(dt.Minute), nil
	}
	sec := strconv.Itoa(dt.Second)
	if dt.Fraction != "" {
		sec += "." + dt.Fraction
	}
	var d apd.Decimal
	if _, _, err := d.SetString(sec); err != nil {
		return fail, errType
	}
	return graph.Literal(decimalLexical(&d), graph.XSDDecimal), nil
}

// zoneDuration writes a time zone offset in minutes as an
// xsd:dayTimeDuration: -PT5H, PT5H30M, PT0S.
func zoneDuration(minutes int) string {
	if minutes == 0 {
		return "PT0S"
	}
	d := "PT"
	if minutes < 0 {
		d, minutes = "-PT", -minutes
	}
	if h := minutes / 60; h > 0 {
		d += strconv.Itoa(h) + "H"
	}
	if m := minutes % 60; m > 0 {
		d += strconv.Itoa(m) + "M"
	}
	return d
}

// castTo implements the XPath constructor functions for the XSD types
// SPARQL requires (§17.5).
func castTo(dt string, v graph.Term) (graph.Term, error) {
	fail := graph.Term{}
	if v.Kind == graph.KindBlank || v.Kind == graph.KindNone {
		return fail, errType
	}
	if v.Kind == graph.KindIRI {
		if dt == graph.XSDString {
			return graph.String(v.Value), nil
		}
		return fail, errType
	}
	if v.Lang != "" && dt != graph.XSDString {
		return fail, errType
	}
	src := v.Value
	isStr := v.Datatype == graph.XSDString || v.Datatype == graph.RDFLangStr
	n, isNum := parseNum(v)
	isBool := v.Datatype == graph.XSDBoolean
	b, boolOK := graph.BoolValue(v)
	if isBool && !boolOK || isNumericType(v.Datatype) && !isNum {
		return fail, errType
	}
	trimmed := strings.TrimSpace(src)
	switch dt {
	case graph.XSDString:
		if isNum {
			return graph.String(xpathString(n)), nil
		}
		if isBool {
			return graph.String(strconv.FormatBool(b)), nil
		}
		return graph.String(src), nil
	case graph.XSDBoolean:
		switch {
		case isBool:
			return boolTerm(b), nil
		case isNum:
			return boolTerm(!n.isZero() && !n.isNaN()), nil
		case isStr:
			if b, ok := graph.BoolValue(graph.Literal(trimmed, graph.XSDBoolean)); ok {
				return boolTerm(b), nil
			}
		}
		return fail, errType
	case graph.XSDInteger, graph.XSDDecimal:
		var r num
		switch {
		case isBool:
			r = intNum(0)
			if b {
				r = intNum(1)
			}
		case isNum:
			r = n
			if (n.kind == graph.NumericFloat || n.kind == graph.NumericDouble) && (math.IsNaN(n.f) || math.IsInf(n.f, 0)) {
				return fail, errType
			}
			if n.kind == graph.NumericFloat || n.kind == graph.NumericDouble {
				r = num{kind: graph.NumericDecimal}
				if _, err := r.d.SetFloat64(n.f); err != nil {
					return fail, errType
				}
			}
		case isStr:
			var ok bool
			if dt == graph.XSDInteger {
				r, ok = parseNum(graph.Literal(trimmed, graph.XSDInteger))
			} else {
				r, ok = parseNum(graph.Literal(trimmed, graph.XSDDecimal))
			}
			if !ok {
				return fail, errType
			}
		default:
			return fail, errType
		}
		if dt == graph.XSDInteger {
			d := r.toDecimal()
			var t apd.Decimal
			if _, err := decCtx.RoundToIntegralValue(&t, d); err != nil {
				return fail, errType
			}
			// truncate toward zero
			var q apd.Decimal
			if _, err := decCtx.QuoInteger(&q, d, apd.New(1, 0)); err != nil {
				return fail, errType
			}
			return graph.Literal(q.Text('f'), graph.XSDInteger), nil
		}
		d := num{kind: graph.NumericDecimal}
		d.d.Set(r.toDecimal())
		return d.term(), nil
	case graph.XSDDouble, graph.XSD + "float":
		var f float64
		switch {
		case isBool:
			if b {
				f = 1
			}
		case isNum:
			f = n.toFloat()
		case isStr:
			var ok bool
			if f, ok = graph.Float64(graph.Literal(trimmed, graph.XSDDouble)); !ok {
				return fail, errType
			}
		default:
			return fail, errType
		}
		if dt == graph.XSDDouble {
			return num{kind: graph.NumericDouble, f: f}.term(), nil
		}
		return num{kind: graph.NumericFloat, f: f}.term(), nil
	case graph.XSDDateTime:
		if v.Datatype == graph.XSDDateTime || isStr {
			if t := graph.Literal(trimmed, graph.XSDDateTime); graph.WellFormed(t) {
				return t, nil
			}
		}
		return fail, errType
	case graph.XSDDate:
		if isStr || v.Datatype == graph.XSDDate {
			if t := graph.Literal(trimmed, graph.XSDDate); graph.WellFormed(t) {
				return t, nil
			}
		}
		if v.Datatype == graph.XSDDateTime {
			// the date part and the time zone, as XPath casts
			if d, ok := graph.ParseDateTime(v); ok {
				date, _, _ := strings.Cut(trimmed, "T")
				return graph.Literal(date+d.Zone, graph.XSDDate), nil
			}
		}
		return fail, errType
	}
	return fail, errType
}
