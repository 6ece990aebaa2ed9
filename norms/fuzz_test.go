package norms_test

import (
	"strings"
	"testing"

	"github.com/regelkit/regelkit/norms"
)

// FuzzParsePath checks that any path parses without panicking and that a
// canonical path reads back from its parts.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{
		"BWBR0015703_2026-01-01_1",
		"BWBR0015703_2026-01-01_3, Artikel 5 lid 2",
		"BWBR0015703_2026-01-01_3,Artikel 5",
		"BWBR0002221/Artikel_7a/Lid_1",
		"X_0000-00-00_99999999999999999999",
		"_2026-01-01_1",
		"a_2026-01-01_1, \n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		p, ok := norms.ParsePath(path)
		if !ok {
			return
		}
		if p.RulesetID == "" || strings.Contains(p.RulesetID, "_") || len(p.ApplicableDate) != 10 || p.Index < 0 {
			t.Fatalf("ParsePath(%q) = %+v", path, p)
		}
		if !strings.HasPrefix(path, p.RulesetID+"_"+p.ApplicableDate+"_") {
			t.Fatalf("ParsePath(%q): key %v is not the path's prefix", path, p.Key)
		}
		if p.Article != "" && !strings.HasSuffix(path, p.Article) {
			t.Fatalf("ParsePath(%q): article %q is not the path's suffix", path, p.Article)
		}
		if !strings.HasPrefix(p.LogicalKey(), p.RulesetID) {
			t.Fatalf("ParsePath(%q): logical key %q", path, p.LogicalKey())
		}
	})
}
