package norms_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/norms"
)

func sp(s string) *string { return &s }

func rec(version, published string) norms.VersionRecord {
	r := norms.VersionRecord{PublishedAt: published}
	if version != "" {
		r.Version = &version
	}
	return r
}

// show renders records as "version@published" for compact diffs.
func show(recs []norms.VersionRecord) []string {
	var out []string
	for _, r := range recs {
		v := "null"
		if r.Version != nil {
			v = *r.Version
		}
		out = append(out, v+"@"+r.PublishedAt)
	}
	return out
}

func TestSortRecords(t *testing.T) {
	tests := []struct {
		name string
		in   []norms.VersionRecord
		want []string
	}{
		{
			name: "version descending, nulls last",
			in:   []norms.VersionRecord{rec("", "2030-01-01T00:00:00Z"), rec("2025-01-01", "2024-12-16T08:30:00Z"), rec("2026-01-01", "2026-05-15T06:57:11Z")},
			want: []string{"2026-01-01@2026-05-15T06:57:11Z", "2025-01-01@2024-12-16T08:30:00Z", "null@2030-01-01T00:00:00Z"},
		},
		{
			name: "ties by published_at descending",
			in:   []norms.VersionRecord{rec("2025-07-01", "2025-06-16T07:45:00Z"), rec("2025-07-01", "2025-07-08T10:00:00Z"), rec("", "2023-01-01T00:00:00Z"), rec("", "2024-01-01T00:00:00Z")},
			want: []string{"2025-07-01@2025-07-08T10:00:00Z", "2025-07-01@2025-06-16T07:45:00Z", "null@2024-01-01T00:00:00Z", "null@2023-01-01T00:00:00Z"},
		},
		{
			name: "version compares as a string",
			in:   []norms.VersionRecord{rec("9", "2020-01-01"), rec("10", "2021-01-01"), rec("2.0", "2019-01-01")},
			want: []string{"9@2020-01-01", "2.0@2019-01-01", "10@2021-01-01"},
		},
		{
			name: "published_at compares as instants: offsets and bare dates",
			in:   []norms.VersionRecord{rec("v", "2025-01-01T10:00:00+02:00"), rec("v", "2025-01-01T09:00:00Z"), rec("v", "2025-01-01"), rec("v", "not a date")},
			want: []string{"v@2025-01-01T09:00:00Z", "v@2025-01-01T10:00:00+02:00", "v@2025-01-01", "v@not a date"},
		},
	}
	for _, tt := range tests {
		got := append([]norms.VersionRecord(nil), tt.in...)
		norms.SortRecords(got)
		if d := cmp.Diff(tt.want, show(got)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
}

func TestParsePublished(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-05-15T06:57:11Z", time.Date(2026, 5, 15, 6, 57, 11, 0, time.UTC), true},
		{"2026-05-15T06:57:11.250Z", time.Date(2026, 5, 15, 6, 57, 11, 250e6, time.UTC), true},
		{"2026-05-15T08:57:11+02:00", time.Date(2026, 5, 15, 6, 57, 11, 0, time.UTC), true},
		{"2026-05-15T06:57:11", time.Date(2026, 5, 15, 6, 57, 11, 0, time.UTC), true},
		{"2026-01-01", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"2026-01-01Z", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"2026-01-01+01:00", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"2026-01-01junk", time.Time{}, false},
		{"15 mei 2026", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := norms.ParsePublished(tt.in)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("ParsePublished(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestMatchRecord(t *testing.T) {
	versioned := []norms.VersionRecord{
		rec("2025-07-01", "2025-07-08T10:00:00Z"), // the correction's republication: newest of its version
		rec("2025-07-01", "2025-06-16T07:45:00Z"),
		rec("2025-01-01", "2024-12-16T08:30:00Z"),
	}
	legacy := []norms.VersionRecord{
		rec("2025-01-01", "2024-12-20T14:00:00Z"),
		rec("", "2023-03-01T12:00:00Z"),
		rec("", "2023-09-01T12:00:00Z"),
		rec("", "2022-01-01T00:00:00Z"),
	}
	tests := []struct {
		name    string
		rule    norms.Rule
		records []norms.VersionRecord
		want    string // "" = no match
	}{
		{"version equals the applicable date", rule("BWBR0015703_2025-01-01_1, Artikel 21", ""), versioned, "2025-01-01@2024-12-16T08:30:00Z"},
		{"newest record of that version", rule("BWBR0015703_2025-07-01_2, Artikel 21", ""), versioned, "2025-07-01@2025-07-08T10:00:00Z"},
		{"no record for the date, no legacy record", rule("BWBR0015703_2024-07-01_1, Artikel 21", ""), versioned, ""},
		{"exact version before legacy", rule("X_2025-01-01_1", ""), legacy, "2025-01-01@2024-12-20T14:00:00Z"},
		{"fallback: newest legacy record by published_at", rule("X_2023-01-01_1", ""), legacy, "null@2023-09-01T12:00:00Z"},
		{"non-canonical path: legacy record only", rule("X/Artikel_4", ""), legacy, "null@2023-09-01T12:00:00Z"},
		{"no records", rule("X_2023-01-01_1", ""), nil, ""},
	}
	for _, tt := range tests {
		got, ok := norms.MatchRecord(tt.rule, tt.records)
		gotS := ""
		if ok {
			gotS = show([]norms.VersionRecord{got})[0]
		}
		if gotS != tt.want {
			t.Errorf("%s: MatchRecord = %q, want %q", tt.name, gotS, tt.want)
		}
	}
}
