package predict

import (
	"strings"
	"testing"
)

// FuzzTokenize checks that tokens are non-empty, in-order substrings of the
// text that together cover every non-space character.
func FuzzTokenize(f *testing.F) {
	f.Add("Het college verleent d'ouders 12,5%-deel bijstand.")
	f.Add("a--b ''x é\u0301 \xff")
	f.Fuzz(func(t *testing.T, text string) {
		at, covered := 0, 0
		for _, tok := range Tokenize(text) {
			i := strings.Index(text[at:], tok)
			if tok == "" || i < 0 || strings.TrimSpace(text[at:at+i]) != "" {
				t.Fatalf("token %q not next in %q at %d", tok, text, at)
			}
			at += i + len(tok)
			covered += len(tok)
		}
		if strings.TrimSpace(text[at:]) != "" {
			t.Fatalf("text after the last token: %q", text[at:])
		}
		_ = covered
		RuleTagger(Tokenize(text))
	})
}
