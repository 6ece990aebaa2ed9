package validate

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/regelkit/regelkit/dmn/feel"
)

// Semantic overlap of UNIQUE-table rules (BIZ-016).
//
// Each input entry is read as a set of values in its column's domain: a
// union of intervals over numbers or dates (integers and dates are discrete,
// so "> 5" and ">= 6" are the same set there), a finite or co-finite set of
// strings or booleans, "any", and null. Two rules overlap when their sets
// intersect in every column; the intersection gives the example input. A
// cell that is no literal test (it names a variable, calls a function other
// than date, compares strings by order, …) cannot be read as a set; its rule
// takes no part, so the check never reports an overlap it cannot prove.
//
// Rules are not compared pairwise: the search splits the rules on one column
// at a time into buckets of rules that share an elementary value region
// (a literal, a point or the gap between two interval bounds), choosing the
// column with the fewest "any" cells, and compares pairs only inside small
// buckets. A table of distinct rules thus costs about n·log n; a table
// where thousands of rules overlap each other stops after a work budget,
// having reported the overlaps found until then.

// domain is the value space of a column.
type domain uint8

const (
	domNone    domain = iota // not known yet / not analysable
	domNumber                // decimals
	domInteger               // integer, long: discrete
	domDate                  // days since 1970-01-01: discrete
	domString
	domBool
)

func (d domain) discrete() bool { return d == domInteger || d == domDate }
func (d domain) ordered() bool  { return d == domNumber || d == domInteger || d == domDate }

// typeDomain maps a typeRef (any prefix removed) to its domain.
func typeDomain(typeRef string) domain {
	if i := strings.LastIndexByte(typeRef, ':'); i >= 0 {
		typeRef = typeRef[i+1:]
	}
	switch strings.ToLower(strings.TrimSpace(typeRef)) {
	case "number", "double":
		return domNumber
	case "integer", "long":
		return domInteger
	case "date":
		return domDate
	case "string":
		return domString
	case "boolean":
		return domBool
	}
	return domNone
}

var decCtx = apd.BaseContext.WithPrecision(34)

// bound is one end of an interval; inf means unbounded on that side.
type bound struct {
	inf  bool
	open bool
	v    *apd.Decimal
}

type ival struct{ lo, hi bound }

// cellSet is the set of inputs an input entry matches.
type cellSet struct {
	any  bool
	null bool
	ivs  []ival   // ordered domains: sorted, disjoint
	strs []string // string and boolean domains: sorted, unique
	neg  bool     // strs lists the values NOT matched
}

// cmpLo orders lower bounds: -inf first; at the same value a closed bound
// starts before an open one.
func cmpLo(a, b bound) int { return cmpBound(a, b, -1) }

// cmpHi orders upper bounds: +inf last; at the same value an open bound ends before a closed one.
func cmpHi(a, b bound) int { return cmpBound(a, b, 1) }

// cmpBound orders bounds on the side given by inf: -1 for lower bounds
// (infinity first, open after closed), 1 for upper bounds (infinity last,
// open before closed).
func cmpBound(a, b bound, inf int) int {
	switch {
	case a.inf && b.inf:
		return 0
	case a.inf:
		return inf
	case b.inf:
		return -inf
	}
	if c := a.v.Cmp(b.v); c != 0 {
		return c
	}
	switch {
	case a.open == b.open:
		return 0
	case a.open:
		return -inf
	}
	return inf
}

// nonEmpty reports whether lo..hi holds a value (dense domains; discrete
// intervals are normalised to closed bounds first).
func nonEmpty(lo, hi bound) bool {
	if lo.inf || hi.inf {
		return true
	}
	c := lo.v.Cmp(hi.v)
	return c < 0 || c == 0 && !lo.open && !hi.open
}

// normalise sorts and merges intervals; in discrete domains it first makes
// every finite bound a closed integer bound.
func normalise(ivs []ival, d domain) []ival {
	out := ivs[:0]
	for _, iv := range ivs {
		if d.discrete() {
			iv.lo, iv.hi = closedInteger(iv.lo, true), closedInteger(iv.hi, false)
		}
		if nonEmpty(iv.lo, iv.hi) {
			out = append(out, iv)
		}
	}
	sort.Slice(out, func(i, j int) bool { return cmpLo(out[i].lo, out[j].lo) < 0 })
	merged := out[:0]
	for _, iv := range out {
		if n := len(merged); n > 0 && touches(merged[n-1].hi, iv.lo) {
			if cmpHi(iv.hi, merged[n-1].hi) > 0 {
				merged[n-1].hi = iv.hi
			}
			continue
		}
		merged = append(merged, iv)
	}
	return merged
}

// touches reports whether an interval ending at hi and one starting at lo
// (lo not before the first's start) leave no gap between them.
func touches(hi, lo bound) bool {
	if hi.inf || lo.inf {
		return true
	}
	c := lo.v.Cmp(hi.v)
	return c < 0 || c == 0 && !(hi.open && lo.open)
}

// closedInteger turns a finite bound into a closed integer bound: a lower
// bound rounds up (past an open integer), an upper bound rounds down.
func closedInteger(b bound, lower bool) bound {
	if b.inf {
		return b
	}
	r := new(apd.Decimal)
	if lower {
		_, _ = decCtx.Ceil(r, b.v)
		if b.open && r.Cmp(b.v) == 0 {
			_, _ = decCtx.Add(r, r, apd.New(1, 0))
		}
	} else {
		_, _ = decCtx.Floor(r, b.v)
		if b.open && r.Cmp(b.v) == 0 {
			_, _ = decCtx.Sub(r, r, apd.New(1, 0))
		}
	}
	return bound{v: r}
}

// complement returns the intervals not covered by ivs (sorted, disjoint).
func complement(ivs []ival, d domain) []ival {
	var out []ival
	lo := bound{inf: true}
	for _, iv := range ivs {
		if !iv.lo.inf {
			out = append(out, ival{lo: lo, hi: bound{v: iv.lo.v, open: !iv.lo.open}})
		}
		if iv.hi.inf {
			return normalise(out, d)
		}
		lo = bound{v: iv.hi.v, open: !iv.hi.open}
	}
	out = append(out, ival{lo: lo, hi: bound{inf: true}})
	return normalise(out, d)
}

// boolUniverse is the whole boolean domain, sorted.
var boolUniverse = []string{"false", "true"}

// strUnion unites two string sets, each possibly co-finite.
func strUnion(a []string, aneg bool, b []string, bneg bool) ([]string, bool) {
	switch {
	case !aneg && !bneg:
		return sortedUnion(a, b), false
	case aneg && bneg:
		return sortedIntersect(a, b), true
	case aneg:
		return sortedMinus(a, b), true
	}
	return sortedMinus(b, a), true
}

func sortedUnion(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	sort.Strings(out)
	return dedupe(out)
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func sortedIntersect(a, b []string) []string {
	var out []string
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func sortedMinus(a, b []string) []string {
	var out []string
	for _, x := range a {
		k := sort.SearchStrings(b, x)
		if k == len(b) || b[k] != x {
			out = append(out, x)
		}
	}
	return out
}

func sortedContains(s []string, x string) bool {
	k := sort.SearchStrings(s, x)
	return k < len(s) && s[k] == x
}

// literal reads n as a constant of domain d: a *apd.Decimal (numbers, and
// dates as day numbers) or a string (strings, and booleans as "true"/"false").
func literal(n feel.Node, d domain) (any, bool) {
	switch x := n.(type) {
	case *feel.NumberLit:
		if d.ordered() && d != domDate {
			return x.Value, true
		}
	case *feel.Negation:
		if v, ok := literal(x.X, d); ok {
			if dv, isDec := v.(*apd.Decimal); isDec && d != domDate {
				return new(apd.Decimal).Neg(dv), true
			}
		}
	case *feel.StringLit:
		if d == domString {
			return x.Value, true
		}
	case *feel.BoolLit:
		if d == domBool {
			if x.Value {
				return "true", true
			}
			return "false", true
		}
	case *feel.TemporalLit:
		if d == domDate {
			return dayNumber(x.Text)
		}
	case *feel.Call:
		name, ok := x.Fun.(*feel.Name)
		if d == domDate && ok && name.Name == "date" && len(x.Args) == 1 {
			if s, ok := x.Args[0].(*feel.StringLit); ok {
				return dayNumber(s.Value)
			}
		}
	}
	return nil, false
}

// literalDomain guesses a column's domain from a literal cell, for columns without a usable typeRef.
func literalDomain(n feel.Node) domain {
	switch x := n.(type) {
	case *feel.UnaryCompare:
		return literalDomain(x.X)
	case *feel.RangeLit:
		return literalDomain(x.Low)
	case *feel.NumberLit, *feel.Negation:
		return domNumber
	case *feel.StringLit:
		return domString
	case *feel.BoolLit:
		return domBool
	case *feel.TemporalLit, *feel.Call:
		if _, ok := literal(n, domDate); ok {
			return domDate
		}
	}
	return domNone
}

func dayNumber(s string) (any, bool) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return nil, false
	}
	return apd.New(t.Unix()/86400, 0), true
}

// readCell turns parsed unary tests into a set of domain d.
func readCell(ut *feel.UnaryTests, d domain) (cellSet, bool) {
	if ut.Any {
		return cellSet{any: true}, true
	}
	if d == domNone {
		return cellSet{}, false
	}
	var s cellSet
	for _, t := range ut.Tests {
		if !addTest(&s, t, d) {
			return cellSet{}, false
		}
	}
	if d.ordered() {
		s.ivs = normalise(s.ivs, d)
	}
	if ut.Not {
		s.null = false
		if d.ordered() {
			s.ivs = complement(s.ivs, d)
		} else {
			s.neg = !s.neg
		}
	}
	if d == domBool && s.neg {
		s.strs, s.neg = sortedMinus(boolUniverse, s.strs), false
	}
	return s, true
}

// addTest adds the values one positive unary test matches to s.
func addTest(s *cellSet, t feel.Node, d domain) bool {
	point := func(v any) {
		if dv, ok := v.(*apd.Decimal); ok {
			s.ivs = append(s.ivs, ival{lo: bound{v: dv}, hi: bound{v: dv}})
			return
		}
		s.strs, s.neg = strUnion(s.strs, s.neg, []string{v.(string)}, false)
	}
	switch x := t.(type) {
	case *feel.NullLit:
		s.null = true
		return true
	case *feel.UnaryCompare:
		v, ok := literal(x.X, d)
		if !ok {
			return false
		}
		if !d.ordered() {
			switch x.Op {
			case feel.OpEq:
				point(v)
			case feel.OpNeq:
				s.strs, s.neg = strUnion(s.strs, s.neg, []string{v.(string)}, true)
			default:
				return false // strings compared by order: not read
			}
			return true
		}
		dv := v.(*apd.Decimal)
		switch x.Op {
		case feel.OpLt, feel.OpLe:
			s.ivs = append(s.ivs, ival{lo: bound{inf: true}, hi: bound{v: dv, open: x.Op == feel.OpLt}})
		case feel.OpGt, feel.OpGe:
			s.ivs = append(s.ivs, ival{lo: bound{v: dv, open: x.Op == feel.OpGt}, hi: bound{inf: true}})
		case feel.OpEq:
			point(v)
		case feel.OpNeq:
			s.ivs = append(s.ivs, ival{lo: bound{inf: true}, hi: bound{v: dv, open: true}},
				ival{lo: bound{v: dv, open: true}, hi: bound{inf: true}})
		default:
			return false
		}
		return true
	case *feel.RangeLit:
		if !d.ordered() {
			return false
		}
		lo, ok1 := literal(x.Low, d)
		hi, ok2 := literal(x.High, d)
		if !ok1 || !ok2 {
			return false
		}
		s.ivs = append(s.ivs, ival{lo: bound{v: lo.(*apd.Decimal), open: !x.LowIncluded}, hi: bound{v: hi.(*apd.Decimal), open: !x.HighIncluded}})
		return true
	case *feel.List:
		for _, e := range x.Elems {
			v, ok := literal(e, d)
			if !ok {
				return false
			}
			point(v)
		}
		return true
	}
	v, ok := literal(t, d)
	if !ok {
		return false
	}
	point(v)
	return true
}

// intersect returns an example value in both a and b, formatted as FEEL, and whether one exists.
func intersect(a, b *cellSet, d domain) (string, bool) {
	switch {
	case a.any && b.any:
		return sampleAny(d), true
	case a.any:
		return sample(b, d)
	case b.any:
		return sample(a, d)
	}
	if d.ordered() {
		for i, j := 0, 0; i < len(a.ivs) && j < len(b.ivs); {
			x, y := a.ivs[i], b.ivs[j]
			lo, hi := x.lo, x.hi
			if cmpLo(y.lo, lo) > 0 {
				lo = y.lo
			}
			if cmpHi(y.hi, hi) < 0 {
				hi = y.hi
			}
			if nonEmpty(lo, hi) {
				return formatValue(pick(lo, hi, d), d), true
			}
			if cmpHi(x.hi, y.hi) < 0 {
				i++
			} else {
				j++
			}
		}
	} else if s, ok := strIntersect(a, b); ok {
		return formatString(s, d), true
	}
	if a.null && b.null {
		return "null", true
	}
	return "", false
}

// strIntersect finds a string in both sets.
func strIntersect(a, b *cellSet) (string, bool) {
	switch {
	case !a.neg && !b.neg:
		if c := sortedIntersect(a.strs, b.strs); len(c) > 0 {
			return c[0], true
		}
	case !a.neg:
		for _, x := range a.strs {
			if !sortedContains(b.strs, x) {
				return x, true
			}
		}
	case !b.neg:
		return strIntersect(b, a)
	default:
		return freshString(a.strs, b.strs), true
	}
	return "", false
}

// freshString returns a string in neither list.
func freshString(lists ...[]string) string {
	for i := 0; ; i++ {
		s := "other"
		if i > 0 {
			s = fmt.Sprintf("other%d", i)
		}
		taken := false
		for _, l := range lists {
			if sortedContains(l, s) {
				taken = true
			}
		}
		if !taken {
			return s
		}
	}
}

// sample returns a value of s.
func sample(s *cellSet, d domain) (string, bool) {
	if s.any {
		return sampleAny(d), true
	}
	if d.ordered() {
		if len(s.ivs) > 0 {
			return formatValue(pick(s.ivs[0].lo, s.ivs[0].hi, d), d), true
		}
	} else if len(s.strs) > 0 && !s.neg {
		return formatString(s.strs[0], d), true
	} else if s.neg {
		return formatString(freshString(s.strs), d), true
	}
	if s.null {
		return "null", true
	}
	return "", false
}

func sampleAny(d domain) string {
	switch d {
	case domNumber, domInteger:
		return "0"
	case domDate:
		return `date("2000-01-01")`
	case domString:
		return `"other"`
	case domBool:
		return "true"
	}
	return "any value"
}

// pick chooses a value between lo and hi (a non-empty interval).
func pick(lo, hi bound, d domain) *apd.Decimal {
	one := apd.New(1, 0)
	r := new(apd.Decimal)
	switch {
	case !lo.inf && !lo.open:
		return lo.v
	case !hi.inf && !hi.open && lo.inf:
		return hi.v
	case !lo.inf && !hi.inf: // open lower bound, dense domain
		_, _ = decCtx.Add(r, lo.v, hi.v)
		_, _ = decCtx.Quo(r, r, apd.New(2, 0))
		return r
	case !lo.inf:
		_, _ = decCtx.Add(r, lo.v, one)
		return r
	case !hi.inf:
		_, _ = decCtx.Sub(r, hi.v, one)
		return r
	}
	return apd.New(0, 0)
}

func formatValue(v *apd.Decimal, d domain) string {
	if d == domDate {
		days, _ := v.Int64()
		return `date("` + time.Unix(days*86400, 0).UTC().Format("2006-01-02") + `")`
	}
	r := new(apd.Decimal)
	r.Reduce(v)
	return r.Text('f')
}

func formatString(s string, d domain) string {
	if d == domBool {
		return s
	}
	return excerpt(s)
}

// overlapSearch finds overlapping rule pairs of one table.
type overlapSearch struct {
	domains []domain
	sets    [][]cellSet // per analysed rule, per column
	rule    []int       // table index of each analysed rule
	group   []int       // rules with identical input text share a group (BIZ-008 reports those)
	pairs   map[[2]int]bool
	budget  int  // work left; the search stops at 0
	stopped bool // the search ended early: more pairs may overlap
}

// maxOverlapPairs bounds the pairs one search collects.
const maxOverlapPairs = 10_000

// maxOverlapReports bounds the BIZ-016 issues of one table.
const maxOverlapReports = 100

// checkOverlaps reports semantically overlapping rules of a UNIQUE table
// (BIZ-016). idx lists the rules with one entry per input column.
func (v *validator) checkOverlaps(t *table, idx []int, textGroup map[int]int) {
	if len(idx) < 2 || len(t.inputs) == 0 || t.tests == nil {
		return
	}
	s := &overlapSearch{domains: make([]domain, len(t.inputs)), pairs: map[[2]int]bool{}}
	for c, in := range t.inputs {
		if expr := child(in, "inputExpression"); expr != nil {
			tr, _ := expr.attr("typeRef")
			s.domains[c] = typeDomain(tr)
		}
		if s.domains[c] != domNone {
			continue
		}
		for _, ri := range idx {
			if ut := t.tests[ri][c]; ut != nil && !ut.Any && len(ut.Tests) > 0 {
				if d := literalDomain(ut.Tests[0]); d != domNone {
					s.domains[c] = d
					break
				}
			}
		}
	}
	// Parsed cells of equal text are shared (see checkFEELCells), so each
	// distinct cell of a column is read once.
	type read struct {
		cs cellSet
		ok bool
	}
	cache := make([]map[*feel.UnaryTests]read, len(t.inputs))
	for c := range cache {
		cache[c] = map[*feel.UnaryTests]read{}
	}
rules:
	for _, ri := range idx {
		row := make([]cellSet, len(t.inputs))
		catchAll := true
		for c := range t.inputs {
			ut := t.tests[ri][c]
			if ut == nil {
				continue rules
			}
			rd, seen := cache[c][ut]
			if !seen {
				rd.cs, rd.ok = readCell(ut, s.domains[c])
				cache[c][ut] = rd
			}
			cs, ok := rd.cs, rd.ok
			if !ok {
				continue rules
			}
			row[c] = cs
			catchAll = catchAll && cs.any
		}
		if catchAll {
			continue // BIZ-009 reports rules that match everything
		}
		s.sets = append(s.sets, row)
		s.rule = append(s.rule, ri)
		s.group = append(s.group, textGroup[ri])
	}
	n := len(s.sets)
	s.budget = 64*n*(len(t.inputs)+1) + 1_000_000
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	cols := make([]int, len(t.inputs))
	for i := range cols {
		cols[i] = i
	}
	s.search(all, cols)
	s.stopped = s.budget <= 0

	found := make([][2]int, 0, len(s.pairs))
	for p := range s.pairs {
		found = append(found, p)
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i][1] != found[j][1] {
			return found[i][1] < found[j][1]
		}
		return found[i][0] < found[j][0]
	})
	for k, p := range found {
		if k == maxOverlapReports {
			break
		}
		a, b := p[0], p[1]
		example := s.example(a, b, t)
		more := ""
		last := k == len(found)-1 || k == maxOverlapReports-1
		switch {
		case last && s.stopped && len(found) > k+1:
			more = fmt.Sprintf(" (at least %d more overlapping pairs in this table are not listed)", len(found)-k-1)
		case last && s.stopped:
			more = " (the search for overlaps in this large table stopped early; more rules may overlap)"
		case last && len(found) > k+1:
			more = fmt.Sprintf(" (%d more overlapping pairs in this table are not listed)", len(found)-k-1)
		}
		ra, rb := s.rule[a], s.rule[b]
		v.add(LayerBusiness, "BIZ-016", t.rules[rb], "rules %s and %s of this UNIQUE table overlap: both match for example %s%s",
			ruleName(t.rules[ra], ra), ruleName(t.rules[rb], rb), example, more)
	}
}

// example renders an input matched by both rules: one value per column.
func (s *overlapSearch) example(a, b int, t *table) string {
	parts := make([]string, len(t.inputs))
	for c, in := range t.inputs {
		val, _ := intersect(&s.sets[a][c], &s.sets[b][c], s.domains[c])
		parts[c] = plainColumnName(in) + " = " + val
	}
	return strings.Join(parts, ", ")
}

// plainColumnName names a column without quotes.
func plainColumnName(in *element) string {
	return strings.Trim(columnName(in, child(in, "inputExpression")), `"`)
}

// check compares two analysed rules on every column and records an overlap.
func (s *overlapSearch) check(a, b int) {
	if a > b {
		a, b = b, a
	}
	key := [2]int{a, b}
	if s.group[a] == s.group[b] || s.pairs[key] {
		return
	}
	s.budget -= len(s.domains)
	for c, d := range s.domains {
		if _, ok := intersect(&s.sets[a][c], &s.sets[b][c], d); !ok {
			return
		}
	}
	s.pairs[key] = true
	if len(s.pairs) >= maxOverlapPairs {
		s.budget = 0
	}
}

// leafSize is the bucket size below which rules are compared pairwise.
const leafSize = 6

// search finds the overlapping pairs among rules, splitting on cols.
func (s *overlapSearch) search(rules, cols []int) {
	if len(rules) < 2 || s.budget <= 0 {
		return
	}
	if len(rules) > leafSize && len(cols) > 0 {
		// Split on the column that copies the fewest rules into several
		// buckets, unless even that costs more than comparing all pairs
		// (many rules overlap there: pairwise comparison finds them fastest).
		var best *split
		bestCol := -1
		for k, c := range cols {
			sp := s.plan(rules, c)
			if best == nil || sp.size < best.size {
				best, bestCol = sp, k
			}
		}
		rest := append(append([]int(nil), cols[:bestCol]...), cols[bestCol+1:]...)
		switch {
		case best.trivial:
			s.search(rules, rest) // no rule is restricted in this column
			return
		case best.size < len(rules)*(len(rules)-1)/2:
			s.budget -= best.size
			for _, b := range best.buckets() {
				s.search(b, rest)
				if s.budget <= 0 {
					return
				}
			}
			return
		}
	}
	for i := 0; i < len(rules) && s.budget > 0; i++ {
		for j := i + 1; j < len(rules); j++ {
			s.check(rules[i], rules[j])
		}
	}
}

// split is a plan to distribute rules into buckets, one per elementary
// region of a column that some rule's cell covers (a literal, an interval
// bound, the gap between two bounds, null); a rule goes into every region
// its cell covers, so rules in no common bucket cannot overlap.
type split struct {
	size    int  // bucket entries the split makes
	trivial bool // every cell is "any"
	regions int
	rules   []int
	cover   [][][2]int // per rule: the ranges of regions it covers
	// A rule of a string or boolean column with a negated cell also covers
	// every named value except those in excluded[i] (regions 0…len(names)-1).
	excluded [][]string
	names    []string
}

// buckets carries out the plan.
func (sp *split) buckets() [][]int {
	out := make([][]int, sp.regions)
	for i, r := range sp.rules {
		for _, rg := range sp.cover[i] {
			for a := rg[0]; a <= rg[1]; a++ {
				out[a] = append(out[a], r)
			}
		}
		if sp.excluded != nil && sp.excluded[i] != nil {
			for a, x := range sp.names {
				if !sortedContains(sp.excluded[i], x) {
					out[a] = append(out[a], r)
				}
			}
		}
	}
	return out
}

// plan computes the split of rules on column c.
func (s *overlapSearch) plan(rules []int, c int) *split {
	s.budget -= len(rules)
	sp := &split{rules: rules, cover: make([][][2]int, len(rules)), trivial: true}
	for _, r := range rules {
		if !s.sets[r][c].any {
			sp.trivial = false
			break
		}
	}
	if sp.trivial {
		return sp
	}
	if s.domains[c].ordered() {
		s.planOrdered(sp, c)
	} else {
		s.planDiscrete(sp, c)
	}
	for _, cv := range sp.cover {
		for _, rg := range cv {
			sp.size += rg[1] - rg[0] + 1
		}
	}
	return sp
}

// planOrdered: regions 2i are the gap before bound value i, 2i+1 the value
// itself, 2m the gap after the last; 2m+1 is null.
func (s *overlapSearch) planOrdered(sp *split, c int) {
	var points []*apd.Decimal
	for _, r := range sp.rules {
		for _, iv := range s.sets[r][c].ivs {
			if !iv.lo.inf {
				points = append(points, iv.lo.v)
			}
			if !iv.hi.inf {
				points = append(points, iv.hi.v)
			}
		}
	}
	sort.Slice(points, func(i, j int) bool { return points[i].Cmp(points[j]) < 0 })
	uniq := points[:0]
	for i, p := range points {
		if i == 0 || p.Cmp(points[i-1]) != 0 {
			uniq = append(uniq, p)
		}
	}
	m := len(uniq)
	index := func(v *apd.Decimal) int {
		return sort.Search(m, func(i int) bool { return uniq[i].Cmp(v) >= 0 })
	}
	nullRegion := 2*m + 1
	sp.regions = nullRegion + 1
	for i, r := range sp.rules {
		cs := &s.sets[r][c]
		if cs.any {
			sp.cover[i] = [][2]int{{0, nullRegion}}
			continue
		}
		for _, iv := range cs.ivs {
			from, to := 0, 2*m
			if !iv.lo.inf {
				from = 2*index(iv.lo.v) + 1
				if iv.lo.open {
					from++
				}
			}
			if !iv.hi.inf {
				to = 2*index(iv.hi.v) + 1
				if iv.hi.open {
					to--
				}
			}
			sp.cover[i] = append(sp.cover[i], [2]int{from, to})
		}
		if cs.null {
			sp.cover[i] = append(sp.cover[i], [2]int{nullRegion, nullRegion})
		}
	}
}

// planDiscrete: one region per literal some rule names, one for all other
// values, one for null.
func (s *overlapSearch) planDiscrete(sp *split, c int) {
	regions := map[string]int{}
	var names []string
	for _, r := range sp.rules {
		for _, x := range s.sets[r][c].strs {
			if _, ok := regions[x]; !ok {
				regions[x] = len(names)
				names = append(names, x)
			}
		}
	}
	other, nullRegion := len(names), len(names)+1
	sp.regions = nullRegion + 1
	sp.names = names
	for i, r := range sp.rules {
		cs := &s.sets[r][c]
		switch {
		case cs.any:
			sp.cover[i] = [][2]int{{0, nullRegion}}
			continue
		case cs.neg:
			// every named value but the excluded ones (counted here, listed
			// only if the plan is carried out), and the other values
			if sp.excluded == nil {
				sp.excluded = make([][]string, len(sp.rules))
			}
			sp.excluded[i] = cs.strs
			if sp.excluded[i] == nil {
				sp.excluded[i] = []string{}
			}
			named := 0
			for _, x := range cs.strs {
				if _, ok := regions[x]; ok {
					named++
				}
			}
			sp.size += len(names) - named
			sp.cover[i] = append(sp.cover[i], [2]int{other, other})
		default:
			for _, x := range cs.strs {
				a := regions[x]
				sp.cover[i] = append(sp.cover[i], [2]int{a, a})
			}
		}
		if cs.null {
			sp.cover[i] = append(sp.cover[i], [2]int{nullRegion, nullRegion})
		}
	}
}
