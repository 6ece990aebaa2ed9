package layered_test

import (
	"context"
	"fmt"

	"github.com/regelkit/regelkit/shacl/layered"
)

func Example() {
	checker, err := layered.Builtin()
	if err != nil {
		fmt.Println(err)
		return
	}
	result, err := checker.CheckTurtle(context.Background(), `
@prefix cv:   <http://data.europa.eu/m8g/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix dct:  <http://purl.org/dc/terms/> .
<https://example.org/org/1> a cv:PublicOrganisation ;
    skos:prefLabel "Gemeente Voorbeeld"@nl ;
    dct:spatial [ a dct:Location ] ;
    foaf:homepage <https://voorbeeld.nl/> , <https://www.voorbeeld.nl/> .
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("valid:", result.Valid, "errors:", result.Summary.Errors)
	for _, l := range result.Layers {
		for _, is := range l.Issues {
			fmt.Println(l.Key, is.Code, is.Location)
		}
	}
	// Output:
	// valid: false errors: 1
	// custom SHACL-MAXCOUNT https://example.org/org/1 foaf:homepage
}
