package layered_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCheckTurtle checks arbitrary uploads: no panic, and the result keeps
// its invariants (a parse error has no issues; valid means no errors).
func FuzzCheckTurtle(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "*.ttl"))
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	// Many values of one property (whose messages once grew quadratically) and
	// a hasPart list long enough to suspend conformance checks.
	f.Add(manyTitles(300))
	f.Add(`@prefix cprmv: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#> .
<https://example.org/r> a cprmv:Rule ; cprmv:id "r" ; cprmv:hasPart (` + strings.Repeat(" <https://example.org/r>", 2000) + ` "x" ) .`)
	c := builtin(f)
	f.Fuzz(func(t *testing.T, content string) {
		r, err := c.CheckTurtle(context.Background(), content)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range r.Layers {
			n += len(l.Issues)
		}
		if r.ParseError != nil && (n != 0 || r.Valid) {
			t.Fatalf("parse error with %d issues, valid %v", n, r.Valid)
		}
		if r.Valid != (r.ParseError == nil && r.Summary.Errors == 0 && r.Complete) {
			t.Fatalf("valid %v, summary %+v", r.Valid, r.Summary)
		}
		if n != r.Summary.Errors+r.Summary.Warnings+r.Summary.Infos {
			t.Fatalf("%d issues, summary %+v", n, r.Summary)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}
