package engine

import "testing"

// BenchmarkParseVariables reads a 3-variable evaluation request, as the
// REST facade does per request (engine/local's BenchmarkFEELInputs
// measures the conversion to FEEL that follows).
func BenchmarkParseVariables(b *testing.B) {
	body := []byte(`{"age":{"value":95,"type":"Integer"},"riskCategory":{"value":"High","type":"String"},"income":{"value":1369.06,"type":"Double"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseVariables(body); err != nil {
			b.Fatal(err)
		}
	}
}
