package norms_test

import (
	"context"
	"testing"

	"github.com/regelkit/regelkit/norms"
)

// BenchmarkNormsSingleRuleset is the full path for one ruleset on the
// embedded example data (rules query on every call, metadata cached).
func BenchmarkNormsSingleRuleset(b *testing.B) {
	store := exampleStore(b)
	svc := norms.NewService(norms.Options{})
	q := norms.Query{RulesetID: "BWBR0015703"}
	ctx := context.Background()
	for b.Loop() {
		if _, err := svc.Norms(ctx, store, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidatorsCached is the single-ruleset short-circuit: the ETag
// from cached metadata, no query.
func BenchmarkValidatorsCached(b *testing.B) {
	store := exampleStore(b)
	svc := norms.NewService(norms.Options{})
	q := norms.Query{RulesetID: "BWBR0015703"}
	ctx := context.Background()
	for b.Loop() {
		if v, err := svc.Validators(ctx, store, q); err != nil || v == nil {
			b.Fatal(v, err)
		}
	}
}
