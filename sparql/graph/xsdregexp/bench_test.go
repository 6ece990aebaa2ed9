package xsdregexp

import "testing"

func BenchmarkCompile(b *testing.B) {
	for _, bc := range []struct{ name, pattern, flags string }{
		{"plain", "^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}$", "i"},
		{"subtraction", `^[\p{L}-[aeiou]]+\d*$`, "x"},
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
