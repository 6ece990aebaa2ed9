package validate

import (
	"strings"
	"testing"
)

// TestDeeplyNestedInputExpression: an input expression of 300,000 "(" (which
// once overflowed the stack) is an ordinary FEEL
// syntax error naming the nesting limit and its position.
func TestDeeplyNestedInputExpression(t *testing.T) {
	deep := strings.Repeat("(", 300_000) + "age" + strings.Repeat(")", 300_000)
	src := doc(specNamespaces[len(specNamespaces)-1], strings.Replace(ageTable("", goodRules...), "<text>age</text>", "<text>"+deep+"</text>", 1))
	r := Validate([]byte(src))
	got := findCode(r, "BIZ-015")
	if len(got) != 1 {
		t.Fatalf("want one BIZ-015, got %d issues", len(r.Issues()))
	}
	if msg := got[0].Message; !strings.Contains(msg, "at 1:1001: expression nested deeper than 1000 levels") {
		t.Errorf("message %.300q does not name the limit at 1:1001", msg)
	}
	if len(got[0].Message) > 1000 {
		t.Errorf("message of %d bytes quotes the expression instead of an excerpt", len(got[0].Message))
	}
	if r.Valid {
		t.Error("valid with a FEEL syntax error")
	}
	checkReport(t, r)
}
