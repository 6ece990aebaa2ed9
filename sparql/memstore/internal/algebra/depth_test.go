package algebra

import (
	"runtime"
	"strings"
	"testing"
)

// nodeDepth, exprDepth and pathDepth measure the algebra the way the
// parser bounds it: leaves are 1, a BGP is 1 plus its triple patterns,
// everything else 1 plus its deepest part (expressions included).
func nodeDepth(n Node) int {
	switch n := n.(type) {
	case *BGP:
		return 1 + len(n.Patterns)
	case *PathPattern:
		return 1 + pathDepth(n.Path)
	case *Join:
		return 1 + max(nodeDepth(n.L), nodeDepth(n.R))
	case *Union:
		return 1 + max(nodeDepth(n.L), nodeDepth(n.R))
	case *Minus:
		return 1 + max(nodeDepth(n.L), nodeDepth(n.R))
	case *LeftJoin:
		return 1 + max(nodeDepth(n.L), nodeDepth(n.R), exprDepth(n.Expr))
	case *Filter:
		return 1 + max(nodeDepth(n.P), exprDepth(n.Expr))
	case *Extend:
		return 1 + max(nodeDepth(n.P), exprDepth(n.Expr))
	case *Graph:
		return 1 + nodeDepth(n.P)
	case *Service:
		return 1 + nodeDepth(n.P)
	case *SubQuery:
		return 1 + nodeDepth(n.Q.Pattern)
	case *Group:
		d := nodeDepth(n.P)
		for _, k := range n.Keys {
			d = max(d, exprDepth(k.Expr))
		}
		for _, a := range n.Aggs {
			d = max(d, 1+exprDepth(a.Agg.Arg))
		}
		return 1 + d
	case *OrderBy:
		d := nodeDepth(n.P)
		for _, c := range n.Conds {
			d = max(d, exprDepth(c.Expr))
		}
		return 1 + d
	case *Project:
		return 1 + nodeDepth(n.P)
	case *Distinct:
		return 1 + nodeDepth(n.P)
	case *Reduced:
		return 1 + nodeDepth(n.P)
	case *Slice:
		return 1 + nodeDepth(n.P)
	}
	return 1
}

func exprDepth(e Expr) int {
	switch e := e.(type) {
	case nil:
		return 0
	case *Call:
		d := 0
		for _, a := range e.Args {
			d = max(d, exprDepth(a))
		}
		return 1 + d
	case *Exists:
		return 1 + nodeDepth(e.P)
	}
	return 1
}

func pathDepth(p Path) int {
	switch p := p.(type) {
	case *PathInv:
		return 1 + pathDepth(p.P)
	case *PathZeroOrMore:
		return 1 + pathDepth(p.P)
	case *PathOneOrMore:
		return 1 + pathDepth(p.P)
	case *PathZeroOrOne:
		return 1 + pathDepth(p.P)
	case *PathSeq:
		return 1 + max(pathDepth(p.L), pathDepth(p.R))
	case *PathAlt:
		return 1 + max(pathDepth(p.L), pathDepth(p.R))
	}
	return 1
}

// Deeply nested queries that once overflowed the stack: each nested construct ends in a
// positioned syntax error at the token that passes the bound, never in a
// stack overflow. Columns are counted by hand from the prefixes.
func TestNestingLimitPositioned(t *testing.T) {
	rep := strings.Repeat
	tests := []struct {
		name, src string
		update    bool
		col       int
	}{
		// "SELECT * WHERE " is 15 characters: the 1001st '{' is at 16+1000
		{"200,000 nested groups", "SELECT * WHERE " + rep("{", 200_000), false, 1016},
		// the first '(' after FILTER is at 24; FILTER's own '(' is not an
		// expression level, the group is one: the 1001st '(' passes
		{"1,000,000 brackets in FILTER", "SELECT * WHERE { FILTER(" + rep("(", 1_000_000) + "?x" + rep(")", 1_000_000) + ") }", false, 1024},
		// the first '(' is at 21; the group and the path are two levels
		{"1,000,000 brackets in a path", "SELECT * WHERE { ?s " + rep("(", 1_000_000) + "<p>" + rep(")", 1_000_000) + " ?o }", false, 1020},
		// the first '!' is at 25: group and expression are two levels
		{"3,000,000 unary !", "SELECT * WHERE { FILTER(" + rep("!", 3_000_000) + "?x) }", false, 1024},
		// the first '-' is at 14
		{"3,000,000 unary -", "ASK { FILTER(" + rep("-", 3_000_000) + "1) }", false, 14 + 999},
		// the first '(' is at 23; collections are the only levels
		{"200,000 nested collections in data", "INSERT DATA { <a> <b> " + rep("(", 200_000), true, 1023},
		{"200,000 nested groups in WHERE", "DELETE { <a> <b> <c> } WHERE " + rep("{", 200_000), true, 30 + 1000},
		// '[' number k is at 14+6(k-1) and nests k+1 levels; the path
		// <p> inside it one more: the <p> inside '[' number 999 passes
		{"nested blank node property lists", "ASK { ?s <p> " + rep("[ <p> ", 2000) + "1" + rep("]", 2000) + " }", false, 14 + 6*998 + 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.update {
				_, err = ParseUpdate(tt.src, Options{})
			} else {
				_, err = ParseQuery(tt.src, Options{})
			}
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("got %v, want a syntax error", err)
			}
			if e.Pos != (Pos{1, tt.col}) || e.Msg != "nesting deeper than 1000" {
				t.Errorf("got %v, want 1:%d: nesting deeper than 1000", e, tt.col)
			}
		})
	}
}

// Chains built by iteration nest the algebra, not the text: they count
// against the same bound, and just under it they still parse.
func TestChainLimit(t *testing.T) {
	rep := func(s string, n int) string { return strings.Repeat(s, n) }
	bindChain := func(n int) string {
		var b strings.Builder
		b.WriteString("SELECT * { ")
		for i := range n {
			b.WriteString("BIND(1 AS ?v" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + itoa(i) + ") ")
		}
		return b.String() + "}"
	}
	tests := []struct {
		name   string
		src    string
		update bool
		ok     bool
	}{
		{"|| chain over", "ASK { FILTER(?a" + rep(" || ?a", 1000) + ") }", false, false},
		{"|| chain under", "ASK { FILTER(?a" + rep(" || ?a", 990) + ") }", false, true},
		{"+ chain over", "SELECT (1" + rep("+1", 1000) + " AS ?x) {}", false, false},
		{"UNION chain over", "SELECT * { {}" + rep(" UNION {}", 1000) + " }", false, false},
		{"UNION chain under", "SELECT * { {}" + rep(" UNION {}", 990) + " }", false, true},
		{"OPTIONAL chain over", "SELECT * { ?s ?p ?o " + rep("OPTIONAL { ?s ?p ?o } ", 1000) + "}", false, false},
		{"BIND chain over", bindChain(1000), false, false},
		{"BIND chain under", bindChain(990), false, true},
		{"FILTER conjunction over", "ASK { " + rep("FILTER(?a) ", 1001) + "}", false, false},
		{"path sequence over", "ASK { ?s <p>" + rep("/<p>", 1000) + " ?o }", false, false},
		{"path alternative over", "ASK { ?s <p>" + rep("|<p>", 1000) + " ?o }", false, false},
		{"triple patterns over", "ASK { " + rep("?s ?p ?o . ", 1000) + "}", false, false},
		{"triple patterns under", "ASK { " + rep("?s ?p ?o . ", 990) + "}", false, true},
		{"select expressions over", "SELECT " + selectExprs(1000) + " {}", false, false},
		{"DELETE WHERE quads over", "DELETE WHERE { " + rep("?s ?p ?o . ", 1000) + "}", true, false},
		{"DELETE WHERE quads under", "DELETE WHERE { " + rep("?s ?p ?o . ", 990) + "}", true, true},
		{"INSERT DATA is flat", "INSERT DATA { " + rep("<s> <p> 1 . ", 5000) + "}", true, true},
		{"VALUES is flat", "SELECT * { VALUES ?x { " + rep("1 ", 5000) + "} }", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			var where Node
			if tt.update {
				_, err = ParseUpdate(tt.src, Options{})
			} else {
				var q *Query
				q, err = ParseQuery(tt.src, Options{})
				if q != nil {
					where = q.Pattern
				}
			}
			if tt.ok {
				if err != nil {
					t.Fatalf("got %v, want it to parse", err)
				}
				if where != nil && nodeDepth(where) > DefaultMaxDepth {
					t.Fatalf("algebra depth %d passed the bound", nodeDepth(where))
				}
				return
			}
			e, ok := err.(*Error)
			if !ok || !strings.HasPrefix(e.Msg, "nesting deeper than 1000") {
				t.Fatalf("got %v, want a nesting error", err)
			}
		})
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func selectExprs(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("(1 AS ?e" + itoa(i) + ") ")
	}
	return b.String()
}

func TestMaxDepthOption(t *testing.T) {
	deep := "ASK " + strings.Repeat("{", 6) + strings.Repeat("}", 6)
	if _, err := ParseQuery(deep, Options{MaxDepth: 6}); err != nil {
		t.Errorf("6 levels under MaxDepth 6: %v", err)
	}
	_, err := ParseQuery(deep, Options{MaxDepth: 5})
	if e, ok := err.(*Error); !ok || e.Msg != "nesting deeper than 5" || e.Pos != (Pos{1, 10}) {
		t.Errorf("6 levels under MaxDepth 5: got %v, want 1:10: nesting deeper than 5", err)
	}
	deeper := "ASK " + strings.Repeat("{", 3000) + strings.Repeat("}", 3000)
	if _, err := ParseQuery(deeper, Options{MaxDepth: -1}); err != nil {
		t.Errorf("a negative MaxDepth disables the bound: %v", err)
	}
}

// Tokens are scanned on demand: parsing 3 MB of one-character tokens up
// to the nesting error allocates next to nothing (the whole token list
// would take 64 bytes per token, 192 MB).
func TestParseDoesNotTokenizeAhead(t *testing.T) {
	src := "SELECT * WHERE { FILTER(" + strings.Repeat("!", 3_000_000) + "?x) }"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ParseQuery(src, Options{})
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("want a nesting error")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("parsing allocated %d bytes, want under 4 MiB", got)
	}
}

// Every solution is as wide as the query has variables: past 10 × MaxDepth
// distinct ones the text is refused at the first variable too many.
func TestVariableBound(t *testing.T) {
	vars := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(" ?v" + itoa(i))
		}
		return b.String()
	}
	if _, err := ParseQuery("SELECT * { VALUES ("+vars(10_000)+" ) { } }", Options{}); err != nil {
		t.Fatalf("10,000 variables: %v", err)
	}
	src := "SELECT * { VALUES (" + vars(10_001) + " ) { } }"
	_, err := ParseQuery(src, Options{})
	e, ok := err.(*Error)
	// the 10,001st variable, ?v10000, starts where its text does
	col := strings.Index(src, "?v10000 ") + 1
	if !ok || e.Msg != "more than 10000 distinct variables" || e.Pos != (Pos{1, col}) {
		t.Fatalf("got %v, want 1:%d: more than 10000 distinct variables", err, col)
	}
}
