package xsdregexp_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

func ExampleCompile() {
	match := func(re *xsdregexp.Regexp, s string) bool {
		ok, err := re.MatchString(s)
		if err != nil {
			panic(err)
		}
		return ok
	}
	// i: case-insensitive; [a-z-[aeiou]] is a class minus a class.
	consonants, err := xsdregexp.Compile(`^[a-z-[aeiou]]+$`, "i")
	if err != nil {
		panic(err)
	}
	fmt.Println(match(consonants, "RhYthm"), match(consonants, "rain"))

	// Without s the dot matches neither \n nor \r.
	dot, _ := xsdregexp.Compile("a.b", "")
	dotAll, _ := xsdregexp.Compile("a.b", "s")
	fmt.Println(match(dot, "a\rb"), match(dotAll, "a\rb"))

	// \d is any Unicode digit, as in XML Schema, not only 0-9.
	digits, _ := xsdregexp.Compile(`^\d+$`, "")
	fmt.Println(match(digits, "١٢٣"))

	// q: the pattern is a literal string.
	literal, _ := xsdregexp.Compile("1+1", "q")
	fmt.Println(match(literal, "11"), match(literal, "1+1=2"))

	// A back reference runs on the backtracking engine.
	twice, _ := xsdregexp.Compile(`(a)\1`, "i")
	fmt.Println(match(twice, "aA"))

	// $N in a replacement is group N.
	swap, _ := xsdregexp.Compile(`(\w+) (\w+)`, "")
	fmt.Println(swap.ReplaceAll("hello world", "$2 $1"))

	_, err = xsdregexp.Compile(`\1(a)`, "")
	fmt.Println(err)
	_, err = xsdregexp.Compile("a", "g")
	fmt.Println(err)
	// Output:
	// true false
	// false true
	// true
	// false true
	// true
	// world hello <nil>
	// regular expression "\\1(a)": back reference \1 refers to no group closed before it
	// regular expression "a": unknown flag 'g' in flags "g"
}

func ExampleCompileWith() {
	// Backtracking can take exponential time; MatchTimeout bounds it.
	re, err := xsdregexp.CompileWith(`^(a|aa)+\1b$`, "", xsdregexp.Options{MatchTimeout: 50 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	_, err = re.MatchString("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac")
	var le *xsdregexp.LimitError
	fmt.Println(errors.As(err, &le), le.LimitExceeded())
	// Output:
	// true MatchTimeout
}
