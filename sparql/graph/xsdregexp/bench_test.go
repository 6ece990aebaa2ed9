package xsdregexp

import "testing"

func BenchmarkCompile(b *testing.B) {
	for _, bc := range []struct{ name, pattern, flags string }{
		{"plain", "^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}$", "i"},
		{"subtraction", `^[\p{L}-[aeiou]]+\d*$`, "x"},
		{"backref", `^(['"])[\w ]*\1$`, ""},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Compile(bc.pattern, bc.flags); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMatch matches a compiled pattern: RE2 without back references,
// regexp2 with them.
func BenchmarkMatch(b *testing.B) {
	for _, bc := range []struct{ name, pattern, input string }{
		{"re2", `^(['"])[\w ]*['"]$`, `"a quoted string of some length"`},
		{"backref", `^(['"])[\w ]*\1$`, `"a quoted string of some length"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			re, err := Compile(bc.pattern, "")
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if ok, err := re.MatchString(bc.input); !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
		})
	}
}

// BenchmarkCacheHit is the cost of a pattern computed per row once it is
// in a Cache, against BenchmarkCompile's cost without one.
func BenchmarkCacheHit(b *testing.B) {
	c := NewCache(256)
	for b.Loop() {
		if _, err := c.Compile("^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}$", "i"); err != nil {
			b.Fatal(err)
		}
	}
}
