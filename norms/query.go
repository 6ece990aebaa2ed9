package norms

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Query is one norms request: the filter parameters of GET /v1/norms.
// Empty fields are absent parameters.
type Query struct {
	// RulesetID restricts the rules to one ruleset (rulesetId string equals).
	RulesetID string
	// ApplicableDate (YYYY-MM-DD) keeps rules whose path contains
	// "_<date>_".
	ApplicableDate string
	// Version is the vocabulary; empty means DefaultVersion.
	Version Version
	// Endpoint is the caller-named SPARQL endpoint URL, empty for the
	// configured knowledge graph. It is part of the ETag and of the
	// metadata cache key; the service never dials it (the caller passes
	// the resolved sparql.Endpoint).
	Endpoint string
}

// The injection guard of the interpolated filters;
// the values are escaped as SPARQL strings besides.
var (
	rulesetIDRE      = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	applicableDateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// Validate checks the parameters; a failure is a *ParamError with the
// message the explorer answers for them.
func (q Query) Validate() error {
	if q.RulesetID != "" && !rulesetIDRE.MatchString(q.RulesetID) {
		return &ParamError{Param: "rulesetid", Message: "Invalid rulesetid: must match /^[A-Za-z0-9_-]+$/"}
	}
	if q.ApplicableDate != "" && !applicableDateRE.MatchString(q.ApplicableDate) {
		return &ParamError{Param: "applicable_date", Message: "Invalid applicable_date: must be YYYY-MM-DD"}
	}
	if _, ok := LookupVocabulary(q.Version); !ok {
		return invalidVersion()
	}
	return nil
}

// vocabulary returns the query's vocabulary; q must be valid.
func (q Query) vocabulary() Vocabulary {
	v, _ := LookupVocabulary(q.Version)
	return v
}

// filterPart is the ETag's filter component: the present parameters among
// endpoint, rulesetid, applicable_date and cprmv_version (always present,
// defaulted), sorted by name, "k=v" joined by "|".
func (q Query) filterPart() string {
	params := map[string]string{"cprmv_version": string(q.vocabulary().Version)}
	if q.Endpoint != "" {
		params["endpoint"] = q.Endpoint
	}
	if q.RulesetID != "" {
		params["rulesetid"] = q.RulesetID
	}
	if q.ApplicableDate != "" {
		params["applicable_date"] = q.ApplicableDate
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for i, k := range names {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(k + "=" + params[k])
	}
	return b.String()
}

// Validators are the conditional-request validators of a fully versioned
// response.
type Validators struct {
	// ETag is a strong, quoted, opaque validator over every
	// (version, published_at) pair of the response's rulesets and the
	// filter parameters; titles do not take part.
	ETag string
	// LastModified is the latest published_at; zero when none parses.
	LastModified time.Time
}

// CacheControl is the Cache-Control value of a fully versioned response.
const CacheControl = "public, max-age=3600"

// NoCache is the Cache-Control value of any other response.
const NoCache = "no-cache"

// validatorsFor computes the validators of a response holding the rulesets
// ids, or reports false when it is not fully versioned: no ruleset, or a
// ruleset without any record.
//
// The dataset part is, per ruleset id in sorted order,
// "<id>=<version|null>:<published_at>,..." over its distinct pairs in
// record order, rulesets joined by ";"; the ETag is the hex SHA-256 of
// dataset part + "||" + filter part, in double quotes.
func validatorsFor(ids []string, records map[string][]VersionRecord, q Query) (*Validators, bool) {
	if len(ids) == 0 {
		return nil, false
	}
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	var b strings.Builder
	var last time.Time
	for i, id := range sorted {
		recs := records[id]
		if len(recs) == 0 {
			return nil, false
		}
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(id)
		b.WriteByte('=')
		prev := ""
		for j, rec := range recs {
			pair := "null"
			if rec.Version != nil {
				pair = *rec.Version
			}
			pair += ":" + rec.PublishedAt
			if j > 0 && pair == prev {
				continue // records differing only in title
			}
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pair)
			prev = pair
			if t, ok := ParsePublished(rec.PublishedAt); ok && t.After(last) {
				last = t
			}
		}
	}
	b.WriteString("||")
	b.WriteString(q.filterPart())
	sum := sha256.Sum256([]byte(b.String()))
	return &Validators{ETag: `"` + hex.EncodeToString(sum[:]) + `"`, LastModified: last}, true
}
