package engine

import "testing"

// BenchmarkParseVariables reads a 3-variable evaluation request and
// converts it to FEEL inputs, as the REST facade does per request.
func BenchmarkParseVariables(b *testing.B) {
	body := []byte(`{"age":{"value":95,"type":"Integer"},"riskCategory":{"value":"High","type":"String"},"income":{"value":1369.06,"type":"Double"}}`)
	b.ReportAllocs()
	for b.Loop() {
		vs, err := ParseVariables(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := vs.FEEL(); err != nil {
			b.Fatal(err)
		}
	}
}
