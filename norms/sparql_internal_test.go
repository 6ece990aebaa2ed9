package norms

import "testing"

func TestStringLiteral(t *testing.T) {
	for in, want := range map[string]string{
		"BWBR0015703":     `"BWBR0015703"`,
		`a"b\c`:           `"a\"b\\c"`,
		"x\n} DROP ALL #": `"x\n} DROP ALL #"`,
		"\r\t":            `"\r\t"`,
	} {
		if got := stringLiteral(in); got != want {
			t.Errorf("stringLiteral(%q) = %s, want %s", in, got, want)
		}
	}
}
