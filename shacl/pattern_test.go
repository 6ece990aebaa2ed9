package shacl_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

// TestPatternBackReference: sh:pattern takes XPath back references; a
// pattern that backtracks past its time limit fails the validation with
// the budget error instead of reporting (or passing) the value.
func TestPatternBackReference(t *testing.T) {
	rep := validate(t, `ex:S sh:targetNode ex:a, ex:b ; sh:property [ sh:path ex:p ; sh:pattern "^(.)\\1$" ] .`,
		`ex:a ex:p "xx" . ex:b ex:p "xy" .`)
	if len(rep.Results) != 1 || rep.Results[0].Focus.Value != "http://example.org/b" {
		t.Errorf("results %+v, want one for ex:b", rep.Results)
	}

	v, err := shacl.Compile(parse(t, `ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:pattern "^(a|aa)+\\1b$" ] .`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Validate(context.Background(), parse(t, `ex:a ex:p "`+strings.Repeat("a", 80)+`c" .`))
	var le *xsdregexp.LimitError
	if !errors.As(err, &le) || le.LimitExceeded() != "MatchTimeout" {
		t.Errorf("Validate: %v, want the MatchTimeout *xsdregexp.LimitError", err)
	}
}
