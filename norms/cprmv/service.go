package cprmv

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Options configure a Service.
type Options struct {
	// Repository retrieves documents; nil is EmbeddedRepository().
	Repository Repository
	// Methods is the methods graph; nil is DefaultMethods().
	Methods *Methods
	// BaseIRI prefixes RuleSet IRIs: <BaseIRI>/rules/<id>. Default
	// https://cprmv.open-regels.nl.
	BaseIRI string
	// Now is the clock; "today" is its Europe/Amsterdam date. Default
	// time.Now.
	Now func() time.Time
	// Limits bound each retrieval and conversion.
	Limits Limits
	// CacheEntries bounds the converted rule sets of exact versions kept in
	// memory (default 256); CacheBytes bounds the sum of their source
	// documents' sizes (default 256 MiB), since one document may be 50 MiB.
	CacheEntries int
	CacheBytes   int64
}

// Service answers rule requests.
type Service struct {
	repo    Repository
	methods *Methods
	base    string
	now     func() time.Time
	tz      *time.Location
	limits  Limits
	sets    *lru[*RuleSet]
}

// New returns a Service.
func New(opts Options) (*Service, error) {
	s := &Service{repo: opts.Repository, methods: opts.Methods, base: strings.TrimRight(opts.BaseIRI, "/"),
		now: opts.Now, limits: opts.Limits.withDefaults()}
	if s.repo == nil {
		s.repo = EmbeddedRepository()
	}
	if s.methods == nil {
		m, err := DefaultMethods()
		if err != nil {
			return nil, err
		}
		s.methods = m
	}
	if s.base == "" {
		s.base = "https://cprmv.open-regels.nl"
	}
	if s.now == nil {
		s.now = time.Now
	}
	// Without a time zone database (a binary should import time/tzdata,
	// as servers/rules does) "today" falls back to CET, an hour off in
	// summer between 23:00 and 24:00.
	tz, err := time.LoadLocation("Europe/Amsterdam")
	if err != nil {
		tz = time.FixedZone("CET", 3600)
	}
	s.tz = tz
	n := opts.CacheEntries
	if n == 0 {
		n = 256
	}
	s.sets = newLRU[*RuleSet](n, 0, s.now)
	s.sets.maxWeight = opts.CacheBytes
	if s.sets.maxWeight == 0 {
		s.sets.maxWeight = 256 << 20
	}
	s.sets.weigh = func(rs *RuleSet) int64 { return rs.size }
	return s, nil
}

// Methods returns the methods graph the service runs on.
func (s *Service) Methods() *Methods { return s.methods }

// Today is the Europe/Amsterdam date of the service clock.
func (s *Service) Today() string { return s.now().In(s.tz).Format(time.DateOnly) }

// Request is one GET /rules call.
type Request struct {
	Path      string // rule_id_path, URL-decoded
	Delimiter string // path_delimiter; "" is ","
	Format    string // "" is cprmv-json
	Language  string // "" or "nl"
	Unformat  string // a parse pattern; forces cprmv-json
}

// Formats lists the output formats of /rules and /methods.
var Formats = []string{"cprmv-json", "json-ld", "xml", "turtle", "ttl", "n3", "turtle2"}

// SplitPath splits a rule_id_path: by the delimiter, and with the default
// delimiter also by "/"; segments are trimmed and empty ones dropped.
func SplitPath(p, delim string) []string {
	if delim == "" {
		delim = ","
	}
	var raw []string
	if delim == "," {
		raw = strings.FieldsFunc(p, func(r rune) bool { return r == ',' || r == '/' })
	} else {
		raw = strings.Split(p, delim)
	}
	out := raw[:0]
	for _, seg := range raw {
		if seg = strings.TrimSpace(seg); seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

// Rules validates req, retrieves and converts the rule set, narrows it to
// the path and writes it in the requested format.
func (s *Service) Rules(ctx context.Context, req Request) ([]byte, error) {
	if n := utf8.RuneCountInString(req.Path); n < 10 || n > 500 {
		return nil, ErrPathLength
	}
	format := req.Format
	if format == "" || req.Unformat != "" {
		format = "cprmv-json"
	}
	if !validFormat(format) {
		return nil, ErrFormat
	}
	if req.Language != "" && req.Language != "nl" {
		return nil, ErrLanguage
	}
	var pat *Pattern
	if req.Unformat != "" {
		var err error
		if pat, err = CompilePattern(req.Unformat); err != nil {
			return nil, err
		}
	}
	segs := SplitPath(req.Path, req.Delimiter)
	if len(segs) == 0 {
		return nil, ErrUnsupportedID
	}
	rs, err := s.RuleSet(ctx, segs[0])
	if err != nil {
		return nil, err
	}
	chain, matched := rs.Find(segs[1:])
	if len(segs) > 1 && chain == nil {
		return nil, ErrNoRules
	}
	sel := selection{rs: rs, chain: chain}
	if pat != nil && len(matched) > 0 {
		sel.extra = pat.apply(rs.ID, matched)
	}
	if format == "cprmv-json" {
		return writeJSON(sel), nil
	}
	return s.writeRDF(sel, format)
}

func validFormat(f string) bool {
	for _, x := range Formats {
		if x == f {
			return true
		}
	}
	return false
}

// RuleSet returns the converted rule set of a rule set id, resolving
// "latest" through the repository. Exact versions are cached, so the tree
// is shared: callers must not modify it.
func (s *Service) RuleSet(ctx context.Context, id string) (*RuleSet, error) {
	rid, err := s.methods.Detect(id)
	if err != nil {
		return nil, err
	}
	m := s.methods.publication(rid.Method)
	if !rid.Exact() {
		ctx, cancel := s.timeout(ctx)
		defer cancel()
		if rid, err = s.repo.Latest(ctx, m, rid, rid.ValidOn(s.Today())); err != nil {
			return nil, unavailable(ctx, err, s.limits)
		}
	}
	return s.sets.get(rid.String(), func() (*RuleSet, error) {
		// The load is shared by every concurrent caller, so it runs on
		// its own deadline, not on the first caller's cancellation.
		lctx, cancel := s.timeout(context.WithoutCancel(ctx))
		defer cancel()
		rs, err := s.load(lctx, m, rid)
		if err != nil {
			return nil, unavailable(lctx, err, s.limits)
		}
		return rs, nil
	})
}

func (s *Service) timeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.limits.Timeout < 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, s.limits.Timeout)
}

// unavailable turns a deadline into the Timeout limit error.
func unavailable(ctx context.Context, err error, l Limits) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, ErrNotFound) {
		return &LimitError{Limit: "Timeout", Max: int64(l.Timeout)}
	}
	return err
}

func (s *Service) load(ctx context.Context, m *Method, rid RuleSetID) (*RuleSet, error) {
	loc := fill(m.Location, rid.Fields)
	doc, err := s.repo.Open(ctx, loc, s.limits.MaxBytes)
	if err != nil {
		return nil, err
	}
	rs := &RuleSet{ID: rid.String(), Class: NS + "RuleSet", Method: rid.Method, DerivedFrom: loc, ValidFrom: rid.ValidFrom,
		size: int64(len(doc))}
	switch rid.Method {
	case "bwb":
		rs.ValidFrom = rid.Fields["date"]
		err = transform(ctx, doc, bwbSchema, rs, s.limits.MaxDepth)
	case "cvdr":
		if rs.ValidFrom == "" {
			if d, ok := s.repo.(interface {
				inForce(work, index string) string
			}); ok {
				rs.ValidFrom = d.inForce(rid.Fields["rulesetid"], rid.Fields["index"])
			}
		}
		err = transform(ctx, doc, bwbSchema, rs, s.limits.MaxDepth)
	case "cellarfmx4":
		err = transform(ctx, doc, fmx4Schema, rs, s.limits.MaxDepth)
	case "dmn13operaton":
		rs.Class = NS + "DecisionModel"
		if d := rid.Fields["date"]; validDate(d) {
			rs.ValidFrom = d
		}
		err = transformDMN(ctx, doc, rs, s.limits.MaxDepth)
	default:
		err = fmt.Errorf("cprmv: no transformer for method %s", rid.Method)
	}
	if err != nil {
		return nil, err
	}
	indexKeys(rs.Parts)
	return rs, nil
}
