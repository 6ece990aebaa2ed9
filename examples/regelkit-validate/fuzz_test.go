package main

import (
	"testing"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql/graph"
)

// FuzzFocusIndex feeds the focus-node scan arbitrary text: it must not
// panic or loop, and every position it gives must lie in the text.
func FuzzFocusIndex(f *testing.F) {
	for _, seed := range []string{
		"ex:a ex:p <https://e.example/a> .",
		"\"\"\"open long string ex:a",
		"'\\",
		"<https://e.example/a",
		"# comment without newline ex:a",
		"ex:a.",
		"\"é\" ex:a",
	} {
		f.Add(seed)
	}
	prefixes := graph.NewPrefixes("ex", "https://e.example/")
	wanted := map[string]bool{"https://e.example/a": true}
	f.Fuzz(func(t *testing.T, text string) {
		x := newFocusIndex([]byte(text), prefixes, wanted)
		line, col := x.find("https://e.example/a")
		if line == 0 {
			return
		}
		lines := newLineIndex([]byte(text)).starts
		if line > len(lines) || col < 1 || col > utf8.RuneCountInString(text)+1 {
			t.Fatalf("position %d:%d outside the text (%d lines)", line, col, len(lines))
		}
	})
}
