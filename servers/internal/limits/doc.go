// Package limits is the one place where a regelkit server bounds the work
// a request can cause: it reads the bounds from the environment (one table,
// the same for every server), hands them to the engines, and maps an
// engine's limit error to the HTTP answer. A server reads it once at
// start-up:
//
//	lim := limits.Read(env) // env is the server's *envconfig.Reader
//	router := httpapi.NewRouter(httpapi.RouterOptions{MaxResponseBytes: lim.MaxResponseBytes})
//
// # The bounds discipline
//
// Every server is reachable by strangers, so every piece of work a request
// can cause has a bound, and hitting one is a clear 4xx or 503, never a
// panic, a hang, an out-of-memory death or a 500:
//
//   - Request size: every body is read through a limit (10 MB by default,
//     httpapi.RouterOptions.MaxBodyBytes; 413 PAYLOAD_TOO_LARGE). JSON
//     routes refuse any other Content-Type (415 UNSUPPORTED_MEDIA_TYPE).
//   - Parse depth: every recursive parser (SPARQL, FEEL, Turtle/TriG,
//     RDF/XML, JSON-LD, DMN XML) stops at a nesting limit with its ordinary
//     positioned syntax error ("nesting deeper than 1000 at line 1, column
//     4001"): 400 with the route's syntax code. These are not limit errors.
//   - Evaluation: each evaluating package exports Limits and LimitError with
//     the same names and shapes (sparql/memstore, dmn/feel, shacl, later
//     engine/bpmn); see "Evaluation bounds" below.
//   - Upstream calls: a SPARQL endpoint or engine named by the caller is
//     called through the outbound policy (servers/internal/outbound) with a
//     timeout and a response size limit (SPARQL_TIMEOUT, 64 MB); its
//     failures map through servers/internal/upstream (400 for the caller's
//     bad query, 502 endpoint failed, 504 too slow).
//   - Response size: every route has a ceiling (RESPONSE_MAX_BYTES, default
//     32 MB; httpapi.ResponseLimit per route). A response over it is 400
//     LIMIT_EXCEEDED naming the ceiling. Messages quote caller input in
//     bounded excerpts (httpapi.Excerpt, 200–300 characters; issue lists
//     at most 20 values with a count of the rest).
//   - Retained state: every cache, map and store callers can grow has a
//     bound (an entry count or a byte size) and a test proving it.
//
// # Evaluation bounds
//
// A zero Limits field takes the engine's DefaultLimits, a negative one
// disables the bound. The fields, their settings and defaults:
//
//	field          setting               default          bounds
//	Timeout        EVAL_TIMEOUT          30s              wall time of one evaluation (the request context also cancels)
//	MaxDepth       EVAL_MAX_DEPTH        engine: memstore 1000, feel 500, shacl 500
//	                                                      evaluation recursion (FEEL/BKM calls, SHACL shape nesting, SPARQL algebra depth)
//	MaxRows        EVAL_MAX_ROWS         engine: memstore 1,000,000, feel 1,000,000, shacl 100,000
//	                                                      items materialised: SPARQL solutions per operator, FEEL list elements, SHACL results
//	MaxBytes       EVAL_MAX_BYTES        engine: memstore 1 MiB (one string), feel 64 MiB (all strings of an evaluation)
//	                                                      bytes of intermediate strings (CONCAT, GROUP_CONCAT, REPLACE, FEEL string building)
//	MaxTotalBytes  EVAL_MAX_TOTAL_BYTES  engine: memstore 256 MiB
//	                                                      bytes one SPARQL evaluation holds (solutions, computed terms)
//	MaxSteps       EVAL_MAX_STEPS        engine           steps of a backtracking regex or a script
//
// "engine" means the setting's default is 0, which leaves each engine's own
// default in force (they differ because a row means different things).
// Config.FEEL, Config.SHACL and Config.SPARQL give each engine's Limits;
// the explorer passes them to engine/local (FEEL), shacl/layered and the
// embedded SPARQL store.
// Engines check their budget cheaply: they count work in an integer and
// look at the context and the clock every 1024 or so units, never per row,
// so the bounds cost nothing measurable on hot paths.
//
// # The HTTP answer to a limit
//
// Any error that has a LimitExceeded() string method (found with errors.As
// on an interface, so no engine is imported here) is LIMIT_EXCEEDED: 503
// when the limit is Timeout (retry later or with a narrower request), 400
// for every other limit. The message is the engine's, naming the limit and
// its bound ("sparql: query exceeded MaxRows (500000 solutions)"). The
// router applies this mapping to every error a handler returns, also when
// the handler wrapped the limit error in an *httpapi.Error of its own, and
// answers a bare context deadline the same way (503); HTTPError does it
// for code that writes its own responses.
package limits
