package xsdregexp_test

import (
	"errors"
	"fmt"

	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

func ExampleCompile() {
	// i: case-insensitive; [a-z-[aeiou]] is a class minus a class.
	consonants, err := xsdregexp.Compile(`^[a-z-[aeiou]]+$`, "i")
	if err != nil {
		panic(err)
	}
	fmt.Println(consonants.MatchString("RhYthm"), consonants.MatchString("rain"))

	// Without s the dot matches neither \n nor \r.
	dot, _ := xsdregexp.Compile("a.b", "")
	dotAll, _ := xsdregexp.Compile("a.b", "s")
	fmt.Println(dot.MatchString("a\rb"), dotAll.MatchString("a\rb"))

	// \d is any Unicode digit, as in XML Schema, not only 0-9.
	digits, _ := xsdregexp.Compile(`^\d+$`, "")
	fmt.Println(digits.MatchString("١٢٣"))

	// q: the pattern is a literal string.
	literal, _ := xsdregexp.Compile("1+1", "q")
	fmt.Println(literal.MatchString("11"), literal.MatchString("1+1=2"))

	_, err = xsdregexp.Compile(`(a)\1`, "")
	fmt.Println(err)
	fmt.Println(errors.Is(err, xsdregexp.ErrUnsupported))
	_, err = xsdregexp.Compile("a", "g")
	fmt.Println(err)
	// Output:
	// true false
	// false true
	// true
	// false true
	// regular expression "(a)\\1": back reference \1 is not supported
	// true
	// regular expression "a": unknown flag 'g' in flags "g"
}
