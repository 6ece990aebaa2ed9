package norms_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/norms"
)

func TestParsePath(t *testing.T) {
	tests := []struct {
		path    string
		ok      bool
		key     norms.Key
		article string
		logical string
	}{
		{"BWBR0015703_2026-01-01_1", true, norms.Key{"BWBR0015703", "2026-01-01", 1}, "", "BWBR0015703"},
		{"BWBR0015703_2026-01-01_3, Artikel 5 lid 2", true, norms.Key{"BWBR0015703", "2026-01-01", 3}, "Artikel 5 lid 2", "BWBR0015703, Artikel 5 lid 2"},
		{"BWBR0015703_2026-01-01_3,Artikel 5", true, norms.Key{"BWBR0015703", "2026-01-01", 3}, "Artikel 5", "BWBR0015703, Artikel 5"},
		{"VOORBEELD-BIJZONDERE-BIJSTAND_2025-01-01_12, Artikel 4", true, norms.Key{"VOORBEELD-BIJZONDERE-BIJSTAND", "2025-01-01", 12}, "Artikel 4", "VOORBEELD-BIJZONDERE-BIJSTAND, Artikel 4"},
		{"BWBR0015703_2026-01-01_007", true, norms.Key{"BWBR0015703", "2026-01-01", 7}, "", "BWBR0015703"},
		// Non-canonical: legacy forms, missing parts, trailing comma, an index beyond int.
		{"BWBR0002221/Artikel_7a/Lid_1", false, norms.Key{}, "", ""},
		{"BWBR0015703_2026-1-01_1", false, norms.Key{}, "", ""},
		{"BWBR0015703_2026-01-01", false, norms.Key{}, "", ""},
		// The grammar's \s* may match nothing, so a lone space is the article.
		{"BWBR0015703_2026-01-01_1, ", true, norms.Key{"BWBR0015703", "2026-01-01", 1}, " ", "BWBR0015703,  "},
		{"BWBR0015703_2026-01-01_1,", false, norms.Key{}, "", ""},
		{"BWBR0015703_2026-01-01_x", false, norms.Key{}, "", ""},
		{"A_B_2026-01-01_1", false, norms.Key{}, "", ""},
		{"BWBR0015703_2026-01-01_99999999999999999999999", false, norms.Key{}, "", ""},
		{"", false, norms.Key{}, "", ""},
	}
	for _, tt := range tests {
		p, ok := norms.ParsePath(tt.path)
		if ok != tt.ok {
			t.Errorf("ParsePath(%q) ok = %v, want %v", tt.path, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if p.Key != tt.key || p.Article != tt.article || p.LogicalKey() != tt.logical {
			t.Errorf("ParsePath(%q) = %+v (logical %q), want key %+v article %q logical %q",
				tt.path, p, p.LogicalKey(), tt.key, tt.article, tt.logical)
		}
	}
}

func TestKeyStringAndCompare(t *testing.T) {
	k := norms.Key{RulesetID: "BWBR0015703", ApplicableDate: "2026-01-01", Index: 1}
	if got := k.String(); got != "BWBR0015703_2026-01-01_1" {
		t.Errorf("String = %q", got)
	}
	ordered := []norms.Key{
		{"BWBR0002221", "2030-01-01", 9},
		{"BWBR0015703", "2025-07-01", 1},
		{"BWBR0015703", "2025-07-01", 2},
		{"BWBR0015703", "2025-07-01", 10},
		{"BWBR0015703", "2026-01-01", 0},
	}
	for i := range ordered {
		for j := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := ordered[i].Compare(ordered[j]); got != want {
				t.Errorf("%v.Compare(%v) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func rule(path, norm string) norms.Rule {
	r := norms.Rule{RuleIDPath: path, Norm: &norm}
	if p, ok := norms.ParsePath(path); ok {
		r.Path = &p
		r.RulesetID = p.RulesetID
	}
	return r
}

func TestCurrent(t *testing.T) {
	rules := []norms.Rule{
		rule("BWBR0015703_2025-07-01_1, Artikel 21 onderdeel b", "1955.08"),
		rule("BWBR0015703_2025-01-01_1, Artikel 21 onderdeel b", "1922.07"),
		rule("BWBR0015703_2025-07-01_2, Artikel 21 onderdeel b", "1955.80"), // correction: higher index
		rule("BWBR0015703_2024-07-01_9, Artikel 21 onderdeel a", "1308.45"),
		rule("BWBR0015703_2025-01-01_1, Artikel 21 onderdeel a", "1345.45"), // amendment: later date beats higher index
		rule("BWBR0015703_2025-07-01_10, Artikel 22", "x10"),
		rule("BWBR0015703_2025-07-01_9, Artikel 22", "x9"), // numeric, not string, index order
		rule("BWBR0002221/Artikel_7a/Lid_1", "legacy"),     // no logical key: left out
	}
	var got []string
	for _, r := range norms.Current(rules) {
		got = append(got, r.RuleIDPath+" = "+*r.Norm)
	}
	want := []string{
		"BWBR0015703_2025-01-01_1, Artikel 21 onderdeel a = 1345.45",
		"BWBR0015703_2025-07-01_2, Artikel 21 onderdeel b = 1955.80",
		"BWBR0015703_2025-07-01_10, Artikel 22 = x10",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Current (-want +got):\n%s", d)
	}
	if _, ok := rules[7].Key(); ok {
		t.Error("a non-canonical rule has a key")
	}
	if k, ok := rules[2].Key(); !ok || k != (norms.Key{"BWBR0015703", "2025-07-01", 2}) {
		t.Errorf("Key = %v, %v", k, ok)
	}
}
