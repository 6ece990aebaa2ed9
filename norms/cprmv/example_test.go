package cprmv_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/regelkit/regelkit/norms/cprmv"
)

// The rule in force on a date, narrowed to one onderdeel, with its amount
// extracted by an unformat pattern.
func Example() {
	svc, err := cprmv.New(cprmv.Options{Repository: cprmv.EmbeddedRepository()})
	if err != nil {
		panic(err)
	}
	body, err := svc.Rules(context.Background(), cprmv.Request{
		Path:     "BWBR0015703_2025-09-01_latest,Artikel 20,lid 1,onderdeel a",
		Unformat: "{situatie:param_value}: € {norm:param_value};",
	})
	if err != nil {
		panic(err)
	}
	var rs map[string]any
	_ = json.Unmarshal(body, &rs)
	fmt.Println(rs[cprmv.NS+"id"])
	leaf := rs
	for i := 0; i < 5; i++ { // Hoofdstuk 3 › Paragraaf 3.2 › Artikel 20 › lid 1 › onderdeel a.
		for _, v := range leaf[cprmv.NS+"hasPart"].(map[string]any) {
			leaf = v.(map[string]any)
		}
	}
	fmt.Println(leaf[cprmv.ExtNS+"situatie"], "→", leaf[cprmv.ExtNS+"norm"])
	// Output:
	// BWBR0015703_2025-07-01_0
	// een alleenstaande van 18, 19 of 20 jaar → 337,98
}

// A Juriconnect reference becomes a /rules/ path; nothing is fetched.
func ExampleService_Resolve() {
	svc, _ := cprmv.New(cprmv.Options{Now: func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }})
	loc, _ := svc.Resolve("Juriconnect", "jci1.31:c:BWBR0015703&artikel=20&o=a.")
	fmt.Println(loc)
	// Output: /rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020%2Conderdeel%20a.
}
