package cprmv

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// largeBWB builds a BWB document of about size bytes: the Participatiewet
// fixture's structure repeated as hoofdstukken of articles with leden and
// lists, the shape of a large law such as the Awb.
func largeBWB(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><toestand bwb-id="BWBR0005537"><wetgeving>` +
		`<citeertitel>Algemene wet bestuursrecht<meta-data><jcis><jci verwijzing="jci1.3:c:BWBR0005537"/></jcis></meta-data></citeertitel>` +
		`<wet-besluit><wettekst>`)
	for h := 1; b.Len() < size; h++ {
		fmt.Fprintf(&b, `<hoofdstuk><kop><label>Hoofdstuk</label><nr>%d</nr><titel>Hoofdstuk %d</titel></kop>`, h, h)
		for a := 1; a <= 20; a++ {
			fmt.Fprintf(&b, `<artikel><kop><label>Artikel</label><nr>%d:%d</nr></kop>`, h, a)
			for l := 1; l <= 3; l++ {
				fmt.Fprintf(&b, `<lid><lidnr>%d.</lidnr><al>Het bestuursorgaan neemt bij de <nadruk type="cur">voorbereiding</nadruk> van een besluit `+
					`de <intref doc="jci1.3:c:BWBR0005537&amp;artikel=3:2">artikelen 3:2 tot en met 3:4</intref> in acht, voor zover:</al><lijst>`, l)
				for _, o := range []string{"a", "b"} {
					fmt.Fprintf(&b, `<li><li.nr>%s.</li.nr><al>de aard van het besluit zich daartegen niet verzet: € 1.234,56;</al></li>`, o)
				}
				b.WriteString(`</lijst></lid>`)
			}
			b.WriteString(`</artikel>`)
		}
		b.WriteString(`</hoofdstuk>`)
	}
	b.WriteString(`</wettekst></wet-besluit></wetgeving></toestand>`)
	return b.Bytes()
}

// BenchmarkConvertBWB converts a 1 MB BWB document into a RuleSet tree.
//
//	go test ./norms/cprmv -run XXX -bench ConvertBWB -benchmem
func BenchmarkConvertBWB(b *testing.B) {
	doc := largeBWB(1 << 20)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		rs := &RuleSet{}
		if err := transform(context.Background(), doc, bwbSchema, rs, 200); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNarrowedJSON answers one narrowed cprmv-json path of the 1 MB
// document from the cache: traversal and writing.
//
//	go test ./norms/cprmv -run XXX -bench NarrowedJSON -benchmem
func BenchmarkNarrowedJSON(b *testing.B) {
	rs := &RuleSet{ID: "BWBR0005537_2025-01-01_0", Class: NS + "RuleSet", Method: "bwb"}
	if err := transform(context.Background(), largeBWB(1<<20), bwbSchema, rs, 200); err != nil {
		b.Fatal(err)
	}
	indexKeys(rs.Parts)
	s := newService(b, Options{})
	s.sets.get(rs.ID, func() (*RuleSet, error) { return rs, nil })
	req := Request{Path: "BWBR0005537_2025-01-01_0,Hoofdstuk 30,Artikel 30:20,lid 3"}
	if _, err := s.Rules(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Rules(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLargeBWBHasTheBenchmarkedPath(t *testing.T) {
	doc := largeBWB(1 << 20)
	rs := &RuleSet{}
	if err := transform(context.Background(), doc, bwbSchema, rs, 200); err != nil {
		t.Fatal(err)
	}
	if len(doc) < 1<<20 || len(rs.Parts) < 30 {
		t.Fatalf("%d bytes, %d hoofdstukken", len(doc), len(rs.Parts))
	}
	chain, _ := rs.Find([]string{"Hoofdstuk 30", "Artikel 30:20", "lid 3"})
	if len(chain) != 3 || chain[2].Parts[1].Definition != "de aard van het besluit zich daartegen niet verzet: € 1.234,56;" {
		t.Fatalf("benchmarked path: %v", chain)
	}
}
