// Package xsdregexp translates XPath regular expressions (XML Schema's
// pattern syntax with XPath's additions, and fn:matches' flags s, m, i, x
// and q) to Go's RE2 and compiles them. It is regelkit's one such
// translation: FEEL's matches, replace and split (dmn/feel), SPARQL's REGEX
// and REPLACE (sparql/memstore) and SHACL's sh:pattern with sh:flags
// (shacl) all call Compile, so a pattern means the same in every engine.
// It is a leaf package importing only the standard library, so that the DMN
// engine can use it without linking the RDF stack (sparql/graph brings
// json-gold); keep it that way.
//
//	re, err := xsdregexp.Compile(`^[a-z-[aeiou]]+$`, "i")
//
// # What is rewritten and what is refused
//
// Where XML Schema reads a construct differently from RE2 the pattern is
// rewritten: the dot without s matches neither \n nor \r; \d is any
// Unicode digit, \w any letter, mark, number or symbol, \s only space, tab,
// CR and LF (and \D \W \S their complements, also inside a class); \i, \c,
// \I and \C are XML name characters; \p{IsGreek} is a Unicode block; class
// subtraction ([a-z-[aeiou]], nested, with escapes on either side) is
// computed and spelled out as ranges. The x flag removes white space
// outside classes before the pattern is read; q makes the pattern a
// literal string and switches m, s and x off, leaving i in force.
//
// Errors are *Error values naming the flag or the part of the pattern at
// fault, e.g. `regular expression "[z-a]": range "z-a" is out of order`.
// Valid XPath that RE2 cannot run (a back reference such as \1, a Unicode
// block this package does not know) wraps ErrUnsupported; constructs XPath
// does not know (\b, \Q, (?i), [[:alpha:]]) are errors rather than quietly
// taking their RE2 meaning. A pattern RE2 itself rejects after the rewrite
// (a repeat count over 1000) wraps RE2's *syntax.Error.
//
// # Performance
//
//	go test ./sparql/graph/xsdregexp -run XXX -bench Compile -benchmem
//	BenchmarkCompile/plain        6.4 µs, 119 allocations per pattern (mostly RE2's own compile)
//	BenchmarkCompile/subtraction  0.20 ms: \p{L} minus a class is spelled out as 650 ranges
//
// (one run on the shared 2-core machine; treat as rough). memstore
// compiles a constant pattern once, when the query is compiled, and shacl
// once per shape; FEEL compiles on every call of matches, replace or split,
// since there the pattern is an ordinary argument, and pays the figures
// above each time.
//
// # Fuzzing
//
// FuzzCompile feeds arbitrary patterns and flags to Compile: it never
// panics, every error is an *Error, and with the flag q (alone or with i,
// m, s, x) every valid UTF-8 pattern matches itself exactly.
//
//	go test ./sparql/graph/xsdregexp -run XXX -fuzz FuzzCompile -fuzztime 3m -fuzzminimizetime 5s
//
// A three-minute run after the move (1.66 million inputs) found nothing.
// With the default -fuzzminimizetime of 60 s a short run spends most of its
// time minimising each new input (the exec count stands still meanwhile),
// hence the flag: a one-minute run with it tried 0.70 million inputs.
package xsdregexp
