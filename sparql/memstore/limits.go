package memstore

import (
	"math"
	"strconv"
	"time"

	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// Limits bound the work of one query or update. A zero field takes the
// store's value (Options.Limits), and a zero there the package default
// (see DefaultLimits); a negative field disables that bound.
type Limits struct {
	// Timeout bounds the wall time of one evaluation; the ctx also
	// cancels.
	Timeout time.Duration
	// MaxDepth bounds the nesting of the query or update text and the
	// depth of its algebra (long chains of operators, UNIONs, OPTIONALs,
	// BINDs, path steps or triple patterns count too), and the distinct
	// variables of the text to ten times as many. Exceeding it is a
	// *SyntaxError ("nesting deeper than N"), not a LimitError.
	MaxDepth int
	// MaxRows bounds the solutions one operator materialises: the rows
	// ORDER BY sorts, the groups of GROUP BY, the distinct rows DISTINCT
	// remembers, the tables of MINUS and subqueries, the SELECT results,
	// the CONSTRUCT triples and the solutions of an update's WHERE.
	MaxRows int
	// MaxBytes bounds one string a function builds: CONCAT, GROUP_CONCAT,
	// REPLACE, SUBSTR, STRBEFORE, STRAFTER, UCASE, LCASE, ENCODE_FOR_URI.
	MaxBytes int64
	// MaxTotalBytes bounds the bytes one evaluation holds: materialised
	// solutions (the rows counted by MaxRows), the new terms it computes
	// (BIND results, aggregates, group keys) and, in an update, the quads
	// its templates add or delete. The figures are estimates.
	MaxTotalBytes int64
}

// DefaultLimits returns the bounds used when a Limits field is zero:
//
//   - Timeout 30 s;
//   - MaxDepth 1000 (the discovery queries nest about 15 levels);
//   - MaxRows 500,000: sixteen times the largest discovery result (30,198
//     pairs on the 10,000-model catalogue), while ORDER BY rows (about
//     200 bytes each) stay near 100 MB and SELECT results (about 600
//     bytes each) meet MaxTotalBytes at about the same count;
//   - MaxBytes 1 MiB for one built string;
//   - MaxTotalBytes 256 MiB, so that a few hostile queries at once stay
//     within a small server's memory.
func DefaultLimits() Limits {
	return Limits{
		Timeout:       30 * time.Second,
		MaxDepth:      algebra.DefaultMaxDepth,
		MaxRows:       500_000,
		MaxBytes:      1 << 20,
		MaxTotalBytes: 256 << 20,
	}
}

// LimitError reports that an evaluation stopped at one of its Limits.
type LimitError struct {
	Limit string // the Limits field that was exceeded: "Timeout", "MaxRows", "MaxBytes" or "MaxTotalBytes"
	Max   int64  // its bound (nanoseconds for Timeout)
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case "Timeout":
		return "sparql: query exceeded Timeout (" + time.Duration(e.Max).String() + ")"
	case "MaxRows":
		return "sparql: query exceeded MaxRows (" + strconv.FormatInt(e.Max, 10) + " solutions)"
	case "MaxBytes":
		return "sparql: query exceeded MaxBytes (" + strconv.FormatInt(e.Max, 10) + " bytes in one string)"
	}
	return "sparql: query exceeded " + e.Limit + " (" + strconv.FormatInt(e.Max, 10) + " bytes)"
}

// LimitExceeded returns the name of the exceeded Limits field; servers
// match this method to map any package's limit error to HTTP.
func (e *LimitError) LimitExceeded() string { return e.Limit }

// resolve fills the zero fields of l from store and then from the
// defaults; disabled bounds become the largest value.
func (l Limits) resolve(store Limits) Limits {
	d := DefaultLimits()
	pick := func(call, st, def int64) int64 {
		v := call
		if v == 0 {
			v = st
		}
		if v == 0 {
			v = def
		}
		if v < 0 {
			return math.MaxInt64
		}
		return v
	}
	return Limits{
		Timeout:       time.Duration(pick(int64(l.Timeout), int64(store.Timeout), int64(d.Timeout))),
		MaxDepth:      int(pick(int64(l.MaxDepth), int64(store.MaxDepth), int64(d.MaxDepth))),
		MaxRows:       int(pick(int64(l.MaxRows), int64(store.MaxRows), int64(d.MaxRows))),
		MaxBytes:      pick(l.MaxBytes, store.MaxBytes, d.MaxBytes),
		MaxTotalBytes: pick(l.MaxTotalBytes, store.MaxTotalBytes, d.MaxTotalBytes),
	}
}

// parseDepth is the MaxDepth to hand to the parser (negative disables).
func (l Limits) parseDepth() int {
	if l.MaxDepth == math.MaxInt {
		return -1
	}
	return l.MaxDepth
}

// Rough sizes of what evaluation holds, for MaxTotalBytes. They need not
// be exact, only proportional to the real heap.
const (
	termBytes     = 56      // a graph.Term without its strings
	sliceBytes    = 24 + 16 // header and allocation rounding
	orderRowBytes = 56 * 2  // an orderRow in a slice that grows by doubling
	mapEntryBytes = 48
)

// bindingBytes is the heap a copied binding of width w takes.
func bindingBytes(w int) int64 { return sliceBytes + 4*int64(w) }

// solutionBytes is the heap of a sparql.Solution with k variables (a
// map: groups of eight slots of key and value).
func solutionBytes(k int) int64 {
	groups := int64(k*8/7/8 + 1)
	return 48 + groups*(8+8*(16+termBytes))
}

func termHeap(v string) int64 { return termBytes + int64(len(v)) }

// budget is the limit state of one evaluation.
type budget struct {
	lim      Limits
	deadline time.Time // zero when Timeout is disabled
	held     int64
}

func newBudget(l Limits, now time.Time) budget {
	b := budget{lim: l}
	if l.Timeout != math.MaxInt64 {
		b.deadline = now.Add(l.Timeout)
	}
	return b
}

// hold records that an operator now materialises rows solutions after
// adding one of n bytes; it reports false, with x.err set, when that
// passes MaxRows or MaxTotalBytes.
func (x *exec) hold(rows int, n int64) bool {
	if rows > x.b.lim.MaxRows {
		return x.fail(&LimitError{Limit: "MaxRows", Max: int64(x.b.lim.MaxRows)})
	}
	return x.addBytes(n)
}

// addBytes records n more bytes held by the evaluation.
func (x *exec) addBytes(n int64) bool {
	x.b.held += n
	if x.b.held > x.b.lim.MaxTotalBytes {
		return x.fail(&LimitError{Limit: "MaxTotalBytes", Max: x.b.lim.MaxTotalBytes})
	}
	return true
}

// tooLong reports (and records as the evaluation's error) a string of n
// bytes over MaxBytes.
func (x *exec) tooLong(n int) bool {
	if int64(n) <= x.b.lim.MaxBytes {
		return false
	}
	x.fail(&LimitError{Limit: "MaxBytes", Max: x.b.lim.MaxBytes})
	return true
}
