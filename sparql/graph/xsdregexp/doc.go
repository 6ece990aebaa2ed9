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
//	BenchmarkCompile/plain        7 µs per pattern (mostly RE2's own compile)
//	BenchmarkCompile/subtraction  0.25 ms: \p{L} minus a class is spelled out as 650 ranges
//
// Callers compile once and match many times: memstore compiles a constant
// pattern when the query is compiled, shacl when the shapes are, FEEL on
// each call of matches, replace or split.
//
// # Fuzzing
//
// FuzzCompile feeds arbitrary patterns and flags to Compile: it never
// panics, every error is an *Error, and with the flag q (alone or with i,
// m, s, x) every valid UTF-8 pattern matches itself exactly.
//
//	go test ./sparql/graph/xsdregexp -run XXX -fuzz FuzzCompile -fuzztime 3m
//
// A three-minute run (587,000 inputs, when the code still lived in
// sparql/graph) found nothing; its slowest inputs are long literals, where
// RE2's matching, not the translation, takes the time.
package xsdregexp
