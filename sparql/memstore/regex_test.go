package memstore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

// TestRegexBacktrackingTimeout: a back-reference pattern that backtracks
// catastrophically ends the query with the regular expression's budget
// error (which servers map through LimitExceeded), never a silent false
// and never a hang; REPLACE likewise.
func TestRegexBacktrackingTimeout(t *testing.T) {
	s := New()
	input := strings.Repeat("a", 80) + "c"
	for _, q := range []string{
		`SELECT ?b WHERE { BIND(REGEX("` + input + `", "^(a|aa)+\\1b$") AS ?b) }`,
		`SELECT ?r WHERE { BIND(REPLACE("` + input + `", "^(a|aa)+\\1b$", "x") AS ?r) }`,
	} {
		start := time.Now()
		_, err := s.Select(context.Background(), q)
		var le *xsdregexp.LimitError
		if !errors.As(err, &le) || le.LimitExceeded() != "MatchTimeout" {
			t.Errorf("%s: error %v, want the MatchTimeout *xsdregexp.LimitError", q, err)
		}
		if d := time.Since(start); d > time.Minute { // a hang, not a slow machine
			t.Errorf("%s took %v", q, d)
		}
	}
}
