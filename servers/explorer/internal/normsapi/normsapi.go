package normsapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/outbound"
	"github.com/regelkit/regelkit/servers/internal/upstream"
	"github.com/regelkit/regelkit/sparql"
)

// Path is the route of the norms endpoint.
const Path = "/v1/norms"

// CodeQueryError is the code of a failed rules query (HTTP 502, 504 when
// the endpoint is too slow, 400 for the embedded store's query errors).
const CodeQueryError = "QUERY_ERROR"

// Deps are the endpoint's dependencies.
type Deps struct {
	// Service answers the queries and holds the metadata cache; nil means
	// norms.NewService(norms.Options{}).
	Service *norms.Service
	// Endpoint is the configured knowledge graph, used when the request
	// names no endpoint.
	Endpoint sparql.Endpoint
	// Resolve turns a caller-named endpoint URL into an Endpoint, applying
	// the outbound policy; an *outbound.RefusedError (or any other error)
	// becomes 400 INVALID_REQUEST. Nil refuses every endpoint parameter.
	Resolve func(ctx context.Context, endpointURL string) (sparql.Endpoint, error)
	// Deprecation, when set, marks /v1/norms deprecated: every response
	// carries Deprecation, Sunset and a Link to the successor. Nil (the
	// default) until /v2/norms exists.
	Deprecation *Deprecation
}

// Deprecation announces the end of /v1/norms once a successor exists
// (spec §9): responses carry `Deprecation: @<Announced, Unix seconds>`
// (RFC 9745), `Sunset: <Sunset, HTTP-date>` (RFC 8594) and
// `Link: <Successor>; rel="successor-version"`.
type Deprecation struct {
	// Announced is when the successor was published and /v1/norms
	// deprecated.
	Announced time.Time
	// Sunset is when /v1/norms stops answering: at least
	// MinDeprecationMonths after Announced (spec §8).
	Sunset time.Time
	// Successor is the successor's path or URL, e.g. "/v2/norms".
	Successor string
}

// MinDeprecationMonths is the spec's minimum time between deprecation and
// sunset, in months.
const MinDeprecationMonths = 24

// Validate checks the announcement against the spec's limits.
func (d Deprecation) Validate() error {
	switch {
	case d.Announced.IsZero() || d.Sunset.IsZero():
		return errors.New("normsapi: Deprecation needs Announced and Sunset")
	case d.Sunset.Before(d.Announced.AddDate(0, MinDeprecationMonths, 0)):
		return fmt.Errorf("normsapi: Sunset %s is less than %d months after Announced %s",
			d.Sunset.UTC().Format(time.DateOnly), MinDeprecationMonths, d.Announced.UTC().Format(time.DateOnly))
	case d.Successor == "" || strings.ContainsAny(d.Successor, "<>\r\n"):
		return errors.New("normsapi: Deprecation needs a Successor path without <, > or line breaks")
	}
	return nil
}

// apply sets the deprecation headers.
func (d *Deprecation) apply(h http.Header) {
	h.Set("Deprecation", "@"+strconv.FormatInt(d.Announced.Unix(), 10))
	h.Set("Sunset", d.Sunset.UTC().Format(http.TimeFormat))
	h.Add("Link", "<"+d.Successor+`>; rel="successor-version"`)
}

type handler struct {
	svc         *norms.Service
	endpoint    sparql.Endpoint
	resolve     func(ctx context.Context, endpointURL string) (sparql.Endpoint, error)
	deprecation *Deprecation
}

// Register mounts GET /v1/norms on r. It panics when deps.Deprecation is
// set but invalid (a configuration mistake caught at start-up).
func Register(r *httpapi.Router, deps Deps) {
	if deps.Deprecation != nil {
		if err := deps.Deprecation.Validate(); err != nil {
			panic(err)
		}
	}
	h := &handler{svc: deps.Service, endpoint: deps.Endpoint, resolve: deps.Resolve, deprecation: deps.Deprecation}
	if h.svc == nil {
		h.svc = norms.NewService(norms.Options{})
	}
	r.Handle(http.MethodGet, Path, h.serve, operation(deps.Deprecation != nil))
}

// params are the query parameters of GET /v1/norms.
var params = []string{"rulesetid", "applicable_date", "cprmv_version", "endpoint"}

// parseQuery reads the parameters; each may be given once, an empty value
// counts as absent.
func parseQuery(values url.Values) (norms.Query, error) {
	get := map[string]string{}
	for _, name := range params {
		vs := values[name]
		if len(vs) > 1 {
			return norms.Query{}, httpapi.InvalidRequest("Invalid %s: give it at most once", name)
		}
		if len(vs) == 1 {
			get[name] = vs[0]
		}
	}
	q := norms.Query{
		RulesetID:      get["rulesetid"],
		ApplicableDate: get["applicable_date"],
		Version:        norms.Version(get["cprmv_version"]),
		Endpoint:       get["endpoint"],
	}
	if err := q.Validate(); err != nil {
		return norms.Query{}, httpapi.InvalidRequest("%s", err.Error())
	}
	return q, nil
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) error {
	header := w.Header()
	if h.deprecation != nil {
		h.deprecation.apply(header)
	}
	q, err := parseQuery(r.URL.Query())
	if err != nil {
		return err
	}
	ep, err := h.endpointFor(r.Context(), q.Endpoint)
	if err != nil {
		return err
	}

	// The single-ruleset short-circuit: answer 304 from the cached records
	// before the rules query runs. It decides only on an entity tag the
	// client lists: that tag came from a full answer with these filters, so
	// the rules exist (they never change once published). "*" and
	// If-Modified-Since need to know that the answer is not empty and go to
	// the full path.
	if q.RulesetID != "" {
		if v, _ := h.svc.Validators(r.Context(), ep, q); v != nil {
			setValidators(header, v)
			if inm := r.Header.Values("If-None-Match"); len(inm) > 0 && etagListMatches(strings.Join(inm, ","), v.ETag, false) {
				w.WriteHeader(http.StatusNotModified)
				return nil
			}
		}
	}

	res, err := h.svc.Norms(r.Context(), ep, q)
	if err != nil {
		clearValidators(header)
		var qe *norms.QueryError
		if errors.As(err, &qe) {
			return upstream.SPARQLError(CodeQueryError, "Failed to query norms from the knowledge graph", qe.Err)
		}
		return err
	}
	if res.Validators == nil {
		// Not fully versioned: no validators, whatever the short-circuit set.
		clearValidators(header)
		header.Set("Cache-Control", norms.NoCache)
	} else {
		setValidators(header, res.Validators)
		if notModified(r, res.Validators) {
			w.WriteHeader(http.StatusNotModified)
			return nil
		}
	}
	return httpapi.WriteData(w, http.StatusOK, res)
}

// endpointFor returns the configured knowledge graph, or resolves the
// caller-named endpoint.
func (h *handler) endpointFor(ctx context.Context, endpointURL string) (sparql.Endpoint, error) {
	if endpointURL == "" {
		if h.endpoint == nil {
			return nil, errors.New("normsapi: no knowledge graph configured")
		}
		return h.endpoint, nil
	}
	if h.resolve == nil {
		return nil, httpapi.InvalidRequest("Invalid endpoint: this server only serves its configured knowledge graph")
	}
	ep, err := h.resolve(ctx, endpointURL)
	if err != nil {
		var refused *outbound.RefusedError
		if errors.As(err, &refused) {
			return nil, httpapi.InvalidRequest("Invalid endpoint: %s", refused.Reason)
		}
		return nil, httpapi.InvalidRequest("Invalid endpoint: %v", err)
	}
	return ep, nil
}

func setValidators(h http.Header, v *norms.Validators) {
	h.Set("ETag", v.ETag)
	if v.LastModified.IsZero() {
		h.Del("Last-Modified")
	} else {
		h.Set("Last-Modified", v.LastModified.UTC().Format(http.TimeFormat))
	}
	h.Set("Cache-Control", norms.CacheControl)
}

func clearValidators(h http.Header) {
	h.Del("ETag")
	h.Del("Last-Modified")
	h.Del("Cache-Control")
}

// notModified evaluates the request's preconditions against v (RFC 9110
// §13.2.2): If-None-Match decides when present (a list, "*", weak
// comparison); otherwise If-Modified-Since against Last-Modified.
func notModified(r *http.Request, v *norms.Validators) bool {
	if inm := r.Header.Values("If-None-Match"); len(inm) > 0 {
		return etagListMatches(strings.Join(inm, ","), v.ETag, true)
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || v.LastModified.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	if err != nil {
		return false
	}
	return !v.LastModified.Truncate(time.Second).After(t)
}

// etagListMatches reports whether the If-None-Match field value list
// matches etag by weak comparison (W/ prefixes ignored); "*" matches when
// star is true.
func etagListMatches(list, etag string, star bool) bool {
	want := strings.TrimPrefix(etag, "W/")
	rest := strings.TrimSpace(list)
	for rest != "" {
		rest = strings.TrimLeft(rest, " \t,")
		if rest == "" {
			break
		}
		if rest[0] == '*' {
			if star {
				return true
			}
			rest = rest[1:]
			continue
		}
		tag := strings.TrimPrefix(rest, "W/")
		if tag == "" || tag[0] != '"' {
			// Not an entity tag: skip to the next list element.
			i := strings.IndexByte(rest, ',')
			if i < 0 {
				break
			}
			rest = rest[i+1:]
			continue
		}
		end := strings.IndexByte(tag[1:], '"')
		if end < 0 {
			break
		}
		if tag[:end+2] == want {
			return true
		}
		rest = tag[end+2:]
	}
	return false
}
