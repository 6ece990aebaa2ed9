package chain

import (
	"context"
	"slices"
	"testing"

	"github.com/regelkit/regelkit/sparql/memstore"
	"github.com/regelkit/regelkit/sparql/memstore/catalog"
)

// BenchmarkListModelsCatalog lists the generated 10,000-model catalogue
// (~500,000 triples) from memstore: every listing query and the record
// assembly, no cache.
func BenchmarkListModelsCatalog(b *testing.B) {
	s := memstore.New()
	s.Add(slices.Collect(catalog.Quads(catalog.Options{Models: 10000}))...)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		models, err := ListModels(ctx, s, ListOptions{})
		if err != nil || len(models) != 10000 {
			b.Fatalf("%d models, %v", len(models), err)
		}
	}
}

// BenchmarkLocalPassRun runs the local-pass chain on the embedded engine
// (three evaluations) with the intermediate steps.
func BenchmarkLocalPassRun(b *testing.B) {
	c, eng := localPassChain(b), localPassEngine(b)
	vars, err := c.Variables(workedExample())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := c.Run(ctx, eng, vars, RunOptions{Steps: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAssembleDRD assembles the local-pass DRD (three files, ~1,900
// lines of DMN).
func BenchmarkAssembleDRD(b *testing.B) {
	srcs := localPassSources(b)
	for b.Loop() {
		if _, err := AssembleDRD("Localpass DRD", srcs); err != nil {
			b.Fatal(err)
		}
	}
}
