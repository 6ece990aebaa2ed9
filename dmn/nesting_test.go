package dmn

import (
	"strings"
	"testing"
)

// TestDeeplyNestedExpressionIsAProblem: FEEL text nested past
// feel.MaxNesting in an input expression or a literal expression is a
// positioned compile problem of its element, never a stack overflow.
func TestDeeplyNestedExpressionIsAProblem(t *testing.T) {
	deep := strings.Repeat("(", 300_000) + "1" + strings.Repeat(")", 300_000)
	src := `<definitions xmlns="` + NamespaceDMN15 + `" namespace="urn:t" name="t">
<decision id="lit" name="lit"><literalExpression><text>` + deep + `</text></literalExpression></decision>
<decision id="tab" name="tab"><decisionTable>
<input><inputExpression id="ie"><text>` + deep + `</text></inputExpression></input><output name="o"/>
<rule><inputEntry><text>-</text></inputEntry><outputEntry><text>1</text></outputEntry></rule>
</decisionTable></decision></definitions>`
	d, err := ParseBytes([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(d)
	if err != nil {
		t.Fatal(err)
	}
	probs := m.Problems()
	if len(probs) != 2 {
		t.Fatalf("problems %v, want one per deep expression", probs)
	}
	for _, p := range probs {
		if !strings.Contains(p.Msg, "1:1001: expression nested deeper than 1000 levels") {
			t.Errorf("problem %.200q does not name the limit at 1:1001", p.String())
		}
	}
}
