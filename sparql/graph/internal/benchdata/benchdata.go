package benchdata

import (
	"bytes"
	"fmt"
	"io"
)

// WriteTurtle writes a Turtle document of exactly n triples (n a
// multiple of 20): prefixed names, typed and language-tagged literals,
// blank node property lists and collections, 20 triples per subject.
func WriteTurtle(w io.Writer, n int) error {
	var b bytes.Buffer
	b.WriteString(`@prefix ex: <http://example.org/data/> .
@prefix voc: <http://example.org/vocab#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix dct: <http://purl.org/dc/terms/> .

`)
	tags := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	for i := range n / 20 {
		fmt.Fprintf(&b, `ex:item%d a voc:Thing%d ;
    rdfs:label "Item %d"@en, "Ding %d"@nl ;
    dct:created "2024-%02d-%02dT10:00:00Z"^^xsd:dateTime ;
    voc:count %d ;
    voc:score %d.%d ;
    voc:weight %de-3 ;
    voc:active %v ;
    voc:related ex:item%d ;
    dct:description "A generated item, number %d, with a \"quoted\" word." ;
    voc:address [ voc:street "Street %d" ; voc:number %d ] ;
    voc:tags ( "%s" "%s" "%s" ) .

`, i, i%10, i, i, i%12+1, i%28+1, i, i%100, i%10, i, i%2 == 0, (i*7919)%(n/20), i, i%500, i%200,
			tags[i%8], tags[(i+3)%8], tags[(i+5)%8])
		if b.Len() > 1<<20 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}
