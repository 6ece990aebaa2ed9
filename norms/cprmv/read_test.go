package cprmv

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestReadJSONRoundTrip: the tolerant reader reads this package's
// cprmv-json back into the tree it was written from.
func TestReadJSONRoundTrip(t *testing.T) {
	s := newService(t, Options{})
	for _, path := range []string{"BWBR0015703_2025-07-01_0", "BWBR0011825_2024-01-01_0", "CVDR712517_2"} {
		want, err := s.RuleSet(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadJSON(get(t, s, Request{Path: path}))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Rule{}, RuleSet{})); diff != "" {
			t.Errorf("%s (-written +read):\n%s", path, diff)
		}
	}
}

// TestReadJSONLegacy reads the legacy shapes consumers still hold, written
// out by hand: 0.3.0 flat rules with "contains", and the 0.4.1 slash
// namespace with bare-key children.
func TestReadJSONLegacy(t *testing.T) {
	legacy030 := `{"https://cprmv.open-regels.nl/0.3.0/id": "BWBR0015703",
	  "http://www.w3.org/1999/02/22-rdf-syntax-ns#type": "https://cprmv.open-regels.nl/0.3.0/Rule",
	  "https://cprmv.open-regels.nl/0.3.0/contains": {
	    "Artikel 20": {"https://cprmv.open-regels.nl/0.3.0/id": "Artikel 20",
	      "https://cprmv.open-regels.nl/0.3.0/definition": "De norm bedraagt per maand voor:",
	      "https://cprmv.open-regels.nl/0.3.0/contains": {"onderdeel a.": {"https://cprmv.open-regels.nl/0.3.0/definition": "een alleenstaande: € 337,98;"}}}}}`
	slash041 := `{"https://standaarden.open-regels.nl/standards/cprmv/0.4.1/#id": "BWBR0015703_2025-07-01_0",
	  "https://standaarden.open-regels.nl/standards/cprmv/0.4.1/#validFrom": "2025-07-01",
	  "https://standaarden.open-regels.nl/standards/cprmv/0.4.1/#hasPart": {
	    "Artikel 20": {"id": "Artikel 20", "definition": ["De norm bedraagt per maand voor:"],
	      "hasPart": [{"id": {"@value": "onderdeel a.", "@language": "nl"}, "definition": "een alleenstaande: € 337,98;"}]}}}`
	wantParts := []*Rule{{ID: "Artikel 20", Definition: "De norm bedraagt per maand voor:",
		Parts: []*Rule{{ID: "onderdeel a.", Definition: "een alleenstaande: € 337,98;"}}}}
	for name, doc := range map[string]string{"0.3.0": legacy030, "0.4.1 slash": slash041} {
		rs, err := ReadJSON([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.HasPrefix(rs.ID, "BWBR0015703") {
			t.Errorf("%s: id %q", name, rs.ID)
		}
		if diff := cmp.Diff(wantParts, rs.Parts, cmpopts.IgnoreUnexported(Rule{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	deep := strings.Repeat(`{"hasPart":{"x":`, 300) + "{}" + strings.Repeat("}}", 300)
	if _, err := ReadJSON([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nesting deeper than 200") {
		t.Errorf("deep document: %v", err)
	}
	for _, bad := range []string{"", "[]", `{"id": "x"} trailing`, `{"hasPart": 3}`, `{"id": `} {
		if _, err := ReadJSON([]byte(bad)); err == nil {
			t.Errorf("%q must be refused", bad)
		}
	}
}

func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"id":"x","hasPart":{"a":{"definition":["d"]}}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if rs, err := ReadJSON(doc); err == nil {
			_ = writeJSON(selection{rs: rs})
		}
	})
}
