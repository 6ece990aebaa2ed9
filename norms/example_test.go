package norms_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// Norms answers a query over any sparql.Endpoint, here an in-process store
// with one ruleset: two publications of 2025-07-01, the second carrying a
// correction.
func Example() {
	store := memstore.New()
	_ = store.Load(context.Background(), strings.NewReader(`
@prefix cprmv: <https://cprmv.open-regels.nl/0.3.0/> .
@prefix dcat:  <http://www.w3.org/ns/dcat#> .
@prefix dct:   <http://purl.org/dc/terms/> .
@prefix xsd:   <http://www.w3.org/2001/XMLSchema#> .
@prefix ex:    <https://data.regelkit.example/> .
ex:d1 a cprmv:Dataset ; cprmv:rulesetId "BWBR0015703" ; dcat:version "2025-07-01" ;
  dct:issued "2025-06-16T07:45:00Z"^^xsd:dateTime ; dct:title "Participatiewet" .
ex:d2 a cprmv:Dataset ; cprmv:rulesetId "BWBR0015703" ; dcat:version "2025-07-01" ;
  dct:issued "2025-07-08T10:00:00Z"^^xsd:dateTime ; dct:title "Participatiewet" .
ex:r1 a cprmv:Rule ; cprmv:id "Artikel 21 onderdeel b" ; cprmv:definition "Norm voor gehuwden" ;
  cprmv:rulesetId "BWBR0015703" ; cprmv:ruleIdPath "BWBR0015703_2025-07-01_1, Artikel 21 onderdeel b" ;
  cprmv:norm "1955.08" ; cprmv:per "maand" .
ex:r2 a cprmv:Rule ; cprmv:id "Artikel 21 onderdeel b" ; cprmv:definition "Norm voor gehuwden" ;
  cprmv:rulesetId "BWBR0015703" ; cprmv:ruleIdPath "BWBR0015703_2025-07-01_2, Artikel 21 onderdeel b" ;
  cprmv:norm "1955.80" ; cprmv:per "maand" .
`), graph.Turtle)

	svc := norms.NewService(norms.Options{})
	res, err := svc.Norms(context.Background(), store, norms.Query{RulesetID: "BWBR0015703"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rules {
		k, _ := r.Key()
		fmt.Println(k, *r.Norm)
	}
	for _, r := range norms.Current(res.Rules) {
		rec, _ := norms.MatchRecord(r, res.DatasetVersions[r.RulesetID])
		fmt.Printf("current %q: %s per %s, published %s\n", r.Path.LogicalKey(), *r.Norm, *r.Per, rec.PublishedAt)
	}
	fmt.Println("cacheable:", res.Validators != nil, "last modified:", res.Validators.LastModified.Format("2006-01-02 15:04"))
	// Output:
	// BWBR0015703_2025-07-01_1 1955.08
	// BWBR0015703_2025-07-01_2 1955.80
	// current "BWBR0015703, Artikel 21 onderdeel b": 1955.80 per maand, published 2025-07-08T10:00:00Z
	// cacheable: true last modified: 2025-07-08 10:00
}

// ParsePath splits a rule path into the immutable key and the logical key.
func ExampleParsePath() {
	p, ok := norms.ParsePath("BWBR0015703_2026-01-01_3, Artikel 5 lid 2")
	fmt.Println(ok, p.RulesetID, p.ApplicableDate, p.Index, p.LogicalKey())
	_, ok = norms.ParsePath("BWBR0002221/Artikel_7a")
	fmt.Println(ok)
	// Output:
	// true BWBR0015703 2026-01-01 3 BWBR0015703, Artikel 5 lid 2
	// false
}
