package norms

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/regelkit/regelkit/sparql"
)

// Rule is one published rule row (spec 2.11).
type Rule struct {
	// IRI names the rule resource; it is not part of the JSON.
	IRI string
	// Namespace is the requested vocabulary's namespace, the prefix of the
	// JSON keys type, id, definition and contains.
	Namespace  string
	ID         string
	Definition string
	// Contains are the child rules (cprmv:contains), ordered by id.
	Contains []ChildRule
	// Situatie, Norm and Per are the optional norm-amount fields, nil when
	// unbound.
	Situatie, Norm, Per *string
	// RulesetID is cprmv:rulesetId.
	RulesetID string
	// RuleIDPath is cprmv:ruleIdPath as published.
	RuleIDPath string
	// Path is RuleIDPath parsed; nil for a non-canonical (legacy) path.
	Path *RulePath
}

// ChildRule is a rule reached through cprmv:contains.
type ChildRule struct {
	ID, Definition string
}

// Key returns the rule's immutable key; false for a non-canonical path.
func (r Rule) Key() (Key, bool) {
	if r.Path == nil {
		return Key{}, false
	}
	return Key{RulesetID: r.RulesetID, ApplicableDate: r.Path.ApplicableDate, Index: r.Path.Index}, true
}

// Result is the answer to a norms query: the data of GET /v1/norms and the
// validators of its caching headers.
type Result struct {
	Vocabulary Vocabulary
	Rules      []Rule
	// DatasetVersions maps the ruleset ids of Rules that have records to
	// their records, newest first. Do not modify the slices.
	DatasetVersions map[string][]VersionRecord
	// Validators is set when the result is fully versioned (at least one
	// ruleset, each with at least one record): then the response carries
	// ETag, Last-Modified and CacheControl; otherwise NoCache and neither.
	Validators *Validators
}

// RulesetCount is one entry of aggregations.norms_per_rulesetid.
type RulesetCount struct {
	RulesetID string
	Count     int
}

// NormsPerRuleset counts the rules per ruleset id, sorted by id.
func (res *Result) NormsPerRuleset() []RulesetCount {
	counts := map[string]int{}
	for _, r := range res.Rules {
		counts[r.RulesetID]++
	}
	out := make([]RulesetCount, 0, len(counts))
	for id, n := range counts {
		out = append(out, RulesetCount{id, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RulesetID < out[j].RulesetID })
	return out
}

// QueryError is a failed rules query (500 QUERY_ERROR in the explorer).
type QueryError struct {
	Err error
}

func (e *QueryError) Error() string { return "norms: rules query failed: " + e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

// Options configure a Service. The zero value works.
type Options struct {
	// Now is the clock of the metadata cache; nil means time.Now.
	Now func() time.Time
	// MetadataTTL is how long dataset-version records are reused per
	// (endpoint, vocabulary version); zero means 60 seconds.
	MetadataTTL time.Duration
	// MaxCacheEntries bounds the metadata cache (callers name endpoints);
	// zero means 256.
	MaxCacheEntries int
	// Logger receives metadata query failures (which make a response
	// uncacheable rather than fail it); nil discards them.
	Logger *slog.Logger
}

// Service answers norms queries over any sparql.Endpoint and caches the
// dataset-version records. It is safe for concurrent use.
type Service struct {
	now        func() time.Time
	ttl        time.Duration
	maxEntries int
	log        *slog.Logger

	mu    sync.Mutex
	cache map[cacheKey]cacheEntry
}

type cacheKey struct {
	endpoint string
	version  Version
}

type cacheEntry struct {
	fetched time.Time
	records map[string][]VersionRecord
}

// NewService returns a service with an empty metadata cache.
func NewService(opts Options) *Service {
	s := &Service{now: opts.Now, ttl: opts.MetadataTTL, maxEntries: opts.MaxCacheEntries, log: opts.Logger,
		cache: map[cacheKey]cacheEntry{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.ttl <= 0 {
		s.ttl = 60 * time.Second
	}
	if s.maxEntries <= 0 {
		s.maxEntries = 256
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Norms runs q against ep: the rules query, then the dataset-version
// records of the rulesets found (from the cache when fresh). An invalid q
// gives a *ParamError, a failed rules query a *QueryError; a failed
// metadata query gives a result without dataset versions (not cacheable).
func (s *Service) Norms(ctx context.Context, ep sparql.Endpoint, q Query) (*Result, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	v := q.vocabulary()
	res, err := ep.Select(ctx, rulesQuery(v, q))
	if err != nil {
		return nil, &QueryError{Err: err}
	}
	out := &Result{Vocabulary: v, Rules: rulesFrom(v, res), DatasetVersions: map[string][]VersionRecord{}}
	if len(out.Rules) == 0 {
		return out, nil
	}
	records, err := s.records(ctx, ep, q.Endpoint, v)
	if err != nil {
		s.log.WarnContext(ctx, "norms: metadata query failed; serving without dataset versions",
			"cprmv_version", string(v.Version), "error", err.Error())
		records = nil
	}
	var ids []string
	seen := map[string]bool{}
	for _, r := range out.Rules {
		if seen[r.RulesetID] {
			continue
		}
		seen[r.RulesetID] = true
		ids = append(ids, r.RulesetID)
		if recs := records[r.RulesetID]; len(recs) > 0 {
			out.DatasetVersions[r.RulesetID] = recs
		}
	}
	out.Validators, _ = validatorsFor(ids, out.DatasetVersions, q)
	return out, nil
}

// Validators returns, for a single-ruleset query (q.RulesetID set), the
// validators a full answer to q would carry, computed from the cached
// dataset-version records alone, so a conditional request can be answered
// 304 before the rules query runs. It returns nil when q names no ruleset,
// the ruleset has no record, or the metadata query fails: then only the
// full query can decide. The ETag equals the one Norms computes whenever
// the ruleset has rules matching q.
func (s *Service) Validators(ctx context.Context, ep sparql.Endpoint, q Query) (*Validators, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	if q.RulesetID == "" {
		return nil, nil
	}
	records, err := s.records(ctx, ep, q.Endpoint, q.vocabulary())
	if err != nil {
		s.log.WarnContext(ctx, "norms: metadata query failed; no short-circuit",
			"cprmv_version", string(q.vocabulary().Version), "error", err.Error())
		return nil, nil
	}
	v, _ := validatorsFor([]string{q.RulesetID}, records, q)
	return v, nil
}

// DatasetVersions returns every dataset-version record at ep for
// vocabulary version v, per ruleset id, newest first, from the cache while
// it is fresh. endpointKey names ep in the cache (the caller-named URL, ""
// for the configured knowledge graph). Do not modify the result.
func (s *Service) DatasetVersions(ctx context.Context, ep sparql.Endpoint, endpointKey string, v Version) (map[string][]VersionRecord, error) {
	voc, ok := LookupVocabulary(v)
	if !ok {
		return nil, invalidVersion()
	}
	return s.records(ctx, ep, endpointKey, voc)
}

// records is the metadata cache: 60 s (MetadataTTL) per endpoint and
// vocabulary version. Failures are not cached.
func (s *Service) records(ctx context.Context, ep sparql.Endpoint, endpointKey string, v Vocabulary) (map[string][]VersionRecord, error) {
	key := cacheKey{endpointKey, v.Version}
	now := s.now()
	s.mu.Lock()
	e, ok := s.cache[key]
	s.mu.Unlock()
	if ok && now.Sub(e.fetched) < s.ttl && !now.Before(e.fetched) {
		return e.records, nil
	}
	res, err := ep.Select(ctx, recordsQuery(v))
	if err != nil {
		return nil, fmt.Errorf("norms: metadata query: %w", err)
	}
	records := recordsFrom(v, res)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, present := s.cache[key]; !present && len(s.cache) >= s.maxEntries {
		s.evict(now)
	}
	s.cache[key] = cacheEntry{fetched: now, records: records}
	return records, nil
}

// evict drops expired entries, and the oldest one when none expired.
// s.mu is held.
func (s *Service) evict(now time.Time) {
	var oldest cacheKey
	var oldestAt time.Time
	first := true
	for k, e := range s.cache {
		if now.Sub(e.fetched) >= s.ttl {
			delete(s.cache, k)
			continue
		}
		if first || e.fetched.Before(oldestAt) {
			oldest, oldestAt, first = k, e.fetched, false
		}
	}
	if len(s.cache) >= s.maxEntries {
		delete(s.cache, oldest)
	}
}
