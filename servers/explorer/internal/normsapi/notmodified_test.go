package normsapi

import (
	"strings"
	"testing"
)

func TestETagListMatches(t *testing.T) {
	const etag = `"abc"`
	tests := []struct {
		list       string
		star, want bool
	}{
		{`"abc"`, false, true},
		{`W/"abc"`, false, true},
		{` "x" ,W/"abc"`, false, true},
		{`"x", "y"`, true, false},
		{`*`, true, true},
		{`*`, false, false},
		{`"x", *`, true, true},
		{`*, "abc"`, false, true},
		{`abc`, true, false},
		{`"abc`, true, false},
		{`"ab"c"`, true, false},
		{`junk, "abc"`, false, true},
		{``, true, false},
		{`,,,`, true, false},
		{`W/`, true, false},
	}
	for _, tt := range tests {
		if got := etagListMatches(tt.list, etag, tt.star); got != tt.want {
			t.Errorf("etagListMatches(%q, star=%v) = %v, want %v", tt.list, tt.star, got, tt.want)
		}
	}
}

// FuzzETagListMatches feeds arbitrary If-None-Match values: no panic; a
// list without quotes (so without entity tags) never matches and matches
// once the tag is appended as its own element.
func FuzzETagListMatches(f *testing.F) {
	for _, s := range []string{`"abc"`, `W/"abc", "def"`, `*`, `"`, `W/`, `a, "b`, "\"x\"\t,\t\"y\""} {
		f.Add(s)
	}
	const etag = `"0123456789abcdef"`
	f.Fuzz(func(t *testing.T, list string) {
		etagListMatches(list, etag, true)
		if strings.Contains(list, `"`) {
			return
		}
		if etagListMatches(list, etag, false) {
			t.Fatalf("%q without entity tags matches", list)
		}
		if !etagListMatches(list+", "+etag, etag, false) {
			t.Fatalf("%q followed by the tag does not match", list)
		}
	})
}
