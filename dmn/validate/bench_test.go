package validate

import (
	"strings"
	"testing"
)

// largeModel is a DMN of at least 5 MB whose UNIQUE table has 20,000
// disjoint rules over a municipality code, an age bracket and a period,
// every element with an id and every rule with a CPRMV rule type.
func largeModel(tb testing.TB) []byte {
	body := multiTable("", benchColumns, disjointRows(20000)...)
	body = strings.ReplaceAll(body, `"><inputEntry`, `" cprmv:ruleType="decision-rule"><inputEntry`)
	src := []byte(doc(ns13, body))
	if len(src) < 5<<20 {
		tb.Fatalf("model is %d bytes, want at least 5 MB", len(src))
	}
	return src
}

// BenchmarkValidateLarge: the issue asks for under one second.
func BenchmarkValidateLarge(b *testing.B) {
	src := largeModel(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		r := Validate(src)
		if !r.Valid || len(r.Layers.Business.Issues) != 0 {
			b.Fatalf("large model: %s", dump(r))
		}
	}
}

// BenchmarkValidateSmall is a typical single-table model.
func BenchmarkValidateSmall(b *testing.B) {
	src := []byte(doc(ns13, ageTable("", goodRules...)))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Validate(src)
	}
}
