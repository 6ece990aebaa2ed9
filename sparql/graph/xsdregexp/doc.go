// Package xsdregexp translates XPath regular expressions (XML Schema's
// pattern syntax with XPath's additions, and fn:matches' flags s, m, i, x
// and q) and compiles them: to Go's RE2, or, for a pattern with back
// references, to github.com/dlclark/regexp2's backtracking engine under a
// match time limit. It is regelkit's one such translation: FEEL's matches,
// replace and split (dmn/feel), SPARQL's REGEX and REPLACE
// (sparql/memstore) and SHACL's sh:pattern with sh:flags (shacl) all call
// Compile, so a pattern means the same in every engine. It imports only
// the standard library and regexp2, so that the DMN engine can use it
// without linking the RDF stack (sparql/graph brings json-gold); keep it
// that way.
//
//	re, err := xsdregexp.Compile(`^[a-z-[aeiou]]+$`, "i")
//	ok, err := re.MatchString("rhythm")
//
// *Regexp has what the callers need: MatchString, ReplaceAll (XPath's
// fn:replace: $N groups, \$ and \\ escapes, q for a literal
// replacement) and Split. A match of a back-reference pattern that runs
// past Options.MatchTimeout (DefaultMatchTimeout, 1 s, unless set), or a
// replacement past Options.MaxBytes, returns a *LimitError, which has the
// LimitExceeded method servers map budget errors by; callers surface it
// instead of reading it as "no match".
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
// A back reference \N takes as many digits as keep N within the groups
// opened before it and must follow the close of its group. Valid XPath
// this package cannot run (a Unicode block it does not know) wraps
// ErrUnsupported; constructs XPath does not know (\b, \Q, (?i),
// [[:alpha:]]) are errors rather than quietly taking their RE2 meaning. A
// pattern RE2 itself rejects after the rewrite (a repeat count over 1000)
// wraps RE2's *syntax.Error; one with back references that regexp2
// rejects wraps regexp2's error.
//
// # Performance
//
// go test ./sparql/graph/xsdregexp -run XXX -bench . -benchmem -cpu 1
// measures compiling. A class subtraction such as \p{L} minus a class is
// spelled out as hundreds of ranges, so it compiles far slower than a
// plain pattern; a back-reference pattern compiles with regexp2 and
// matches slower than on RE2. memstore compiles a constant pattern once,
// when the query is compiled, and shacl once per shape; FEEL compiles on
// every call of matches, replace or split, since there the pattern is an
// ordinary argument, and pays the compile each time.
//
// # Fuzzing
//
// FuzzCompile feeds arbitrary patterns and flags to Compile: it never
// panics, every error is an *Error (a match error a *LimitError), a
// pattern that both engines accept matches itself on regexp2 exactly when
// it does on RE2, and with the flag q (alone or with i, m, s, x) every
// valid UTF-8 pattern matches itself exactly. A 30-second run after back
// references were added (0.57 million inputs) found nothing.
//
//	go test ./sparql/graph/xsdregexp -run XXX -fuzz FuzzCompile -fuzztime 3m -fuzzminimizetime 5s
//
// A three-minute run after the move (1.66 million inputs) found nothing.
// With the default -fuzzminimizetime of 60 s a short run spends most of its
// time minimising each new input (the exec count stands still meanwhile),
// hence the flag: a one-minute run with it tried 0.70 million inputs.
package xsdregexp
