// Package catalog generates a synthetic knowledge graph of decision models
// shaped like the data the explorer discovers (CPRMV decision models with
// CPSV inputs and outputs, services, organisations and SKOS concepts), and
// holds the discovery queries used to benchmark SPARQL engines on it.
//
// The output is deterministic: the same Options give the same triples, so
// benchmarks of different packages (memstore, chain, the explorer) and of
// other engines see identical data. 10,000 models give about 500,000
// triples:
//
//	s := memstore.New()
//	s.Add(slices.Collect(catalog.Quads(catalog.Options{Models: 10000}))...)
package catalog
