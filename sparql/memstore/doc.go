// Package memstore is regelkit's in-memory SPARQL 1.1 store: an RDF
// dataset (default graph plus named graphs) with a query and update
// engine, usable in-process through sparql.Endpoint and over HTTP through
// a handler for the SPARQL 1.1 Protocol, the Graph Store HTTP Protocol and
// the service description. It lets every server run on embedded defaults
// and every test run against a real SPARQL engine.
//
//	s := memstore.New()
//	err := s.Load(ctx, file, graph.Turtle)
//	res, err := s.Select(ctx, "SELECT ?s WHERE { ?s a <http://example.org/Model> }")
//	http.Handle("/sparql", s.Handler(memstore.HandlerOptions{ReadOnly: true}))
//
// # Storage
//
// Terms are dictionary-encoded to uint32 ids (one compact string per
// term, shared by the id table and the lookup map). Each graph keeps its
// triples in three sorted permutations (SPO, POS, OSP), so every triple
// pattern is a binary search plus a contiguous scan, and exact counts for
// any bound positions come for free. Indexes are immutable: a write builds
// new ones (copy-on-write merge) and publishes a new snapshot atomically,
// so readers always see a consistent state and never wait for writers.
// An update request is atomic: all its operations apply, or none. The
// dictionary only grows; terms of deleted triples stay until the store is
// dropped. Writes cost O(triples in the graph), which suits bulk loads and
// occasional updates, not a stream of tiny writes into a huge graph.
//
// # Query engine
//
// Queries are parsed by a recursive-descent parser (positioned errors,
// *SyntaxError) into the SPARQL algebra of §18 (package
// internal/algebra), then compiled per execution into streaming operators
// over id bindings. Expressions compile through a table of functions
// (funcs.go) to evaluator closures, so no row looks a function up by name;
// an unknown function is a *SyntaxError at its call before anything runs.
// Basic graph patterns are evaluated by nested index
// lookups in an order chosen greedily from estimated cardinalities (exact
// counts for constants, per-predicate fan-out statistics for bound
// variables), with FILTER conjuncts pushed to the earliest step that binds
// their variables. A basic graph pattern whose join graph has a cycle and
// whose binary order is estimated to build more than a million partial
// rows (by average fan-outs, or by the largest where a predicate has a
// hub 100 times above its average) runs instead as a generic join
// (gj.go): one variable at a time,
// its values taken from the pattern offering the fewest and checked
// against every other pattern mentioning it, a worst-case-optimal join.
// The operands of a group (its basic graph patterns and UNIONs of them)
// are joined in an order chosen the same greedy way, not as written, so
// that { {?a a X} UNION {?a a Y} {?b a X} UNION {?b a Y} ?a :p ?b } does
// not enumerate every ?a with every ?b first (join.go).
// Store.Explain (and, with HandlerOptions.Explain, a request's
// explain=true) describes the plans an evaluation chose (explain.go).
// Bindings flow into the right side of joins and
// OPTIONALs (sideways information passing) only for variables where that
// cannot change the result; the others are blocked and re-joined, which
// keeps the §18 bottom-up semantics. ORDER BY, GROUP BY, DISTINCT, MINUS
// right sides and subqueries materialise; everything else streams.
// The protocol handler writes a SELECT result row by row as evaluation
// produces it (sparql.RowWriter), so a long result is never held whole.
// Contexts are checked while evaluating, so a deadline stops a runaway
// query. SERVICE and LOAD are refused (no network).
//
// What a literal means comes from package graph, as it does for SHACL:
// lexical checks (graph.WellFormed, the derived integer types' bounds
// included), the comparison operators and ORDER BY (graph.CompareLiterals:
// numeric promotion, NaN unordered, date/times with the ±14-hour time zone
// rule), and the numerals and doubles the arithmetic starts from
// (graph.DecimalString, graph.Float64). Arithmetic itself runs here on
// int64 with an apd decimal fallback (34 digits) and on float64. REGEX
// and REPLACE read their XPath patterns and flags with xsdregexp.Compile
// (also SHACL's sh:pattern and FEEL's matches), compiled once when pattern
// and flags are constants (an invalid one is a *SyntaxError at the call
// naming it), per row otherwise, through a cache of the 256 most recently
// used patterns (an invalid one is then that row's expression error); REPLACE expands $n as XPath's fn:replace does
// (xsdregexp's ReplaceAll), or with the q flag uses the replacement as is.
// A back-reference pattern that backtracks past its match time limit ends
// the query with the *xsdregexp.LimitError.
//
// # Limits
//
// Every query and update runs under Limits, so that one request cannot
// take the process down. They are set store-wide in Options.Limits (which
// also bound the sparql.Endpoint methods and the protocol handler) and
// can be overridden field by field per call in QueryOptions.Limits and
// UpdateOptions.Limits; a zero field falls back to the store's value and
// then to DefaultLimits, a negative one disables the bound:
//
//	s := memstore.NewWithOptions(memstore.Options{Limits: memstore.Limits{Timeout: 5 * time.Second}})
//	_, err := s.Select(ctx, q)
//	var le *memstore.LimitError // le.Limit names the field: "Timeout", "MaxRows", ...
//
// MaxDepth bounds the parser (nested groups, brackets, unary operators,
// paths, collections) and the algebra it builds (chains of UNIONs,
// OPTIONALs, BINDs, || operands, path steps and the triple patterns of
// one block count as nesting), so no recursion in the parser, the
// translation or the evaluation can exhaust the stack; passing it is a
// positioned *SyntaxError. It also bounds the distinct variables to ten
// times MaxDepth (each solution is as wide as they are). Tokens are
// scanned on demand, so a deep text fails after its first thousand
// tokens without tokenizing the rest, and the scope analyses the
// translation and compilation ask at every level are remembered per
// node, so a deep, wide query compiles in time linear in its size.
// Timeout, MaxRows, MaxBytes and MaxTotalBytes end an evaluation with a
// *LimitError: wall time (the clock is read once per 1024 steps of work,
// never per row); solutions materialised by one operator (ORDER BY,
// GROUP BY, DISTINCT, MINUS, subqueries, results, CONSTRUCT triples,
// update solutions); bytes of one string built by CONCAT, GROUP_CONCAT,
// REPLACE (bounded before it is built), SUBSTR, STRBEFORE, STRAFTER,
// UCASE, LCASE or ENCODE_FOR_URI; and bytes held by the evaluation
// (materialised solutions, computed terms and an update's new or deleted
// quads, estimated). ORDER BY under LIMIT (and OFFSET) keeps a heap of
// LIMIT+OFFSET rows instead of sorting its whole input, with the same
// result and tie order as the full sort.
// The parsed-query cache keeps at most 256 queries of at most 32 KiB.
//
// # Conformance
//
// TestW3CConformance runs the W3C suites from ../shared/testsuites/rdf-tests
// ($REGELKIT_RDF_TESTS overrides; see internal/suitetest) and prints one
// line per suite;
// TestW3CProtocol runs the protocol, graph store protocol and service
// description suites as HTTP exchanges with the handler. Each suite's
// floor, testdata/floors/<suite>.txt, lists the ids of the tests that must
// pass; -update adds newly passing ones.
//
// # Performance
//
// The load and discovery-query figures on the 10,000-model catalogue of
// package catalog, next to Oxigraph's, are in the README's performance
// table with their commands. The discovery queries nest UNIONs inside
// OPTIONALs and UNION two join shapes; binding propagation turns them into
// index lookups per model, which is what keeps them fast.
package memstore
