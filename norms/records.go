package norms

import (
	"slices"
	"strings"
	"time"
)

// VersionRecord is one dataset version of a ruleset (spec 2.11). A ruleset
// may have several concurrent records for different applicable periods;
// all are equally authoritative.
type VersionRecord struct {
	// Version is dcat:version (0.3.x) or cprmv:validFrom (0.4.1); nil only
	// for legacy data.
	Version *string `json:"version"`
	// PublishedAt is the lexical form of dct:issued (0.3.x) or
	// cprmv:validFrom (0.4.1).
	PublishedAt string `json:"published_at"`
	// Title is dct:title where the data has it (the primary ruleset),
	// otherwise nil. It is not part of the ETag.
	Title *string `json:"title"`
}

// SortRecords orders records newest first, the order of dataset_versions:
// version descending (string comparison) with nulls last, ties by
// published_at descending (as instants where both parse, unparsable values
// after parsable ones), remaining ties by title.
func SortRecords(records []VersionRecord) {
	slices.SortStableFunc(records, func(a, b VersionRecord) int {
		if c := compareNullsLast(a.Version, b.Version); c != 0 {
			return c
		}
		if c := comparePublished(a.PublishedAt, b.PublishedAt); c != 0 {
			return c
		}
		return compareNullsLast(a.Title, b.Title)
	})
}

// compareNullsLast orders descending with nil after every value.
func compareNullsLast(a, b *string) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return strings.Compare(*b, *a)
}

// comparePublished orders descending by instant, then by text.
func comparePublished(a, b string) int {
	ta, okA := ParsePublished(a)
	tb, okB := ParsePublished(b)
	switch {
	case okA && okB:
		if c := tb.Compare(ta); c != 0 {
			return c
		}
	case okA:
		return -1
	case okB:
		return 1
	}
	return strings.Compare(b, a)
}

// ParsePublished reads a published_at value: an xsd:dateTime (a missing
// time zone means UTC) or a bare xsd:date, which means 00:00:00 GMT.
func ParsePublished(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	// xsd:date with a time zone, e.g. 2025-01-01Z or 2025-01-01+01:00: the
	// day is what counts.
	if len(s) > 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil && validZone(s[10:]) {
			return t, true
		}
	}
	return time.Time{}, false
}

func validZone(z string) bool {
	if z == "Z" {
		return true
	}
	_, err := time.Parse("-07:00", z)
	return err == nil
}

// MatchRecord returns the version record a rule belongs to: the record
// whose version equals the rule's applicable date, else the newest legacy
// record (version null) by published_at. records must be sorted
// (SortRecords). A rule with a non-canonical path matches only a legacy
// record.
func MatchRecord(r Rule, records []VersionRecord) (VersionRecord, bool) {
	if r.Path != nil {
		for _, rec := range records {
			if rec.Version != nil && *rec.Version == r.Path.ApplicableDate {
				return rec, true
			}
		}
	}
	var best *VersionRecord
	for i := range records {
		rec := &records[i]
		if rec.Version == nil && (best == nil || comparePublished(rec.PublishedAt, best.PublishedAt) < 0) {
			best = rec
		}
	}
	if best == nil {
		return VersionRecord{}, false
	}
	return *best, true
}
