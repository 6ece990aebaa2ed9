package bpmn

import (
	"os"
	"testing"
)

// BenchmarkParse parses the all-elements test model (scripts compiled).
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("testdata/all-elements.bpmn")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, ParseOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
