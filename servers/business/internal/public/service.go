package public

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/regelkit/regelkit/examples"
	publicexamples "github.com/regelkit/regelkit/examples/public"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/outbound"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// Bounds limit one source; a zero field takes the source's default.
type Bounds struct {
	Timeout  time.Duration // one fetch or query
	MaxBytes int64         // one response body
}

// Config configures the public content. Every URL comes from the operator;
// an empty one serves the embedded example in-process.
type Config struct {
	NewsURL        string // RSS 2.0; "" = examples/public nieuws.xml
	BerichtenURL   string // RSS 2.0; "" = examples/public berichten.xml
	ProductsURL    string // Samenwerkende Catalogi 4.0; "" = examples/public producten.xml
	ProductsTenant string // the one tenant whose catalogue it is; "" = "flevoland"
	SPARQLURL      string // rule catalogue endpoint; "" = the example knowledge graph in memory
	SPARQLToken    string // optional bearer token of the endpoint

	// Strict applies the outbound policy's strict mode (https only, no
	// private addresses) to redirects of remote sources; the configured
	// URLs themselves always pass.
	Strict    bool
	UserAgent string // sent on every outbound request

	// Zero values: news and announcements 8 s and 5 MB, products 10 s and
	// 20 MB, each catalogue query 10 s and 16 MB.
	News, Berichten, Products, Catalogue Bounds

	Logger *slog.Logger
	Now    func() time.Time // the clock of the caches; time.Now when nil

	// OnCache, when set, is told of every cache lookup: the cache's name
	// (news, berichten, products, services, organisations, authorities,
	// concepts, rules, assets) and whether the cache answered it.
	OnCache func(cache string, hit bool)
	// Wrap, when set, wraps the transport of every remote source (a
	// server's metrics).
	Wrap func(http.RoundTripper) http.RoundTripper
}

// Cache lifetimes (spec §8).
const (
	NewsTTL      = 10 * time.Minute
	BerichtenTTL = 10 * time.Minute
	ProductsTTL  = 30 * time.Minute
	CatalogueTTL = 5 * time.Minute
)

// Public serves the public content routes.
type Public struct {
	cfg              Config
	logger           *slog.Logger
	now              func() time.Time
	news             *feed[NewsItem]
	berichten        *feed[Bericht]
	products         *feed[Product]
	endpoint         sparql.Endpoint
	catalogueTimeout time.Duration
	services         *cache[[]Service]
	organisations    *cache[[]Organisation]
	authorities      *cache[[]authority]
	concepts         *cache[[]Concept]
	rules            *cache[[]Rule]
	assets           *source // TriplyDB asset listing; nil for other endpoints
	assetCache       *cache[map[string]string]
}

// embeddedBase is the address the in-process example feeds answer at; the
// transport never dials it.
const embeddedBase = "http://examples.regelkit.invalid/"

// New sets up the sources and, when no SPARQL URL is configured, loads the
// example knowledge graph into an in-memory store.
func New(ctx context.Context, cfg Config) (*Public, error) {
	p := &Public{cfg: cfg, logger: cfg.Logger, now: cfg.Now}
	if p.logger == nil {
		p.logger = slog.New(slog.DiscardHandler)
	}
	if p.now == nil {
		p.now = time.Now
	}
	if cfg.ProductsTenant == "" {
		p.cfg.ProductsTenant = "flevoland"
	}
	var remote []string
	for _, u := range []string{cfg.NewsURL, cfg.BerichtenURL, cfg.ProductsURL, cfg.SPARQLURL} {
		if u != "" {
			remote = append(remote, u)
		}
	}
	policy := &outbound.Policy{Strict: cfg.Strict, Allow: remote, Timeout: time.Minute}
	remoteClient := func() *http.Client {
		c := policy.Client()
		if cfg.Wrap != nil {
			c.Transport = cfg.Wrap(c.Transport)
		}
		return c
	}
	embedded := sparql.InProcessClient(http.FileServerFS(publicexamples.FS))
	mk := func(name, raw, file, accept string, b Bounds, timeout time.Duration, maxBytes int64) *source {
		s := &source{name: name, url: raw, client: remoteClient(), timeout: b.Timeout, maxBytes: b.MaxBytes,
			accept: accept, userAgent: cfg.UserAgent}
		if raw == "" {
			s.url, s.client = embeddedBase+file, embedded
		}
		if s.timeout == 0 {
			s.timeout = timeout
		}
		if s.maxBytes == 0 {
			s.maxBytes = maxBytes
		}
		return s
	}
	const rssAccept = "application/rss+xml, application/xml"
	p.news = &feed[NewsItem]{
		src:   mk("news", cfg.NewsURL, publicexamples.NewsFile, rssAccept, cfg.News, 8*time.Second, 5<<20),
		cache: newCache[[]NewsItem](NewsTTL, p.now), parse: func(d []byte, _ time.Time) ([]NewsItem, error) { return parseNews(d) },
		code: CodeNewsFetchFailed, what: "The news feed", def: 10, max: 20,
	}
	p.berichten = &feed[Bericht]{
		src:   mk("berichten", cfg.BerichtenURL, publicexamples.BerichtenFile, rssAccept, cfg.Berichten, 8*time.Second, 5<<20),
		cache: newCache[[]Bericht](BerichtenTTL, p.now), parse: parseBerichten,
		code: CodeBerichtenFetchFailed, what: "The announcements feed", def: 10, max: 20,
	}
	p.products = &feed[Product]{
		src: mk("products", cfg.ProductsURL, publicexamples.ProductsFile, "application/xml, text/xml", cfg.Products,
			10*time.Second, 20<<20),
		cache: newCache[[]Product](ProductsTTL, p.now), parse: func(d []byte, _ time.Time) ([]Product, error) { return parseProducts(d) },
		code: CodeProductsFetchFailed, what: "The products catalogue", def: 50, max: 200,
	}

	p.catalogueTimeout = cfg.Catalogue.Timeout
	if p.catalogueTimeout == 0 {
		p.catalogueTimeout = 10 * time.Second
	}
	if cfg.SPARQLURL != "" {
		maxBytes := cfg.Catalogue.MaxBytes
		if maxBytes == 0 {
			maxBytes = 16 << 20
		}
		p.endpoint = sparql.NewClient(cfg.SPARQLURL, sparql.ClientOptions{
			HTTPClient: remoteClient(), Timeout: p.catalogueTimeout, BearerToken: cfg.SPARQLToken,
			MaxResponseBytes: maxBytes, Header: http.Header{"User-Agent": {cfg.UserAgent}},
		})
		if raw := assetsURL(cfg.SPARQLURL); raw != "" {
			p.assets = assetsSource(raw, cfg.SPARQLToken, cfg.UserAgent, remoteClient())
			p.assetCache = newCache[map[string]string](CatalogueTTL, p.now)
		}
	} else {
		store, err := ExampleGraph(ctx)
		if err != nil {
			return nil, err
		}
		p.endpoint = store
	}
	p.services = newCache[[]Service](CatalogueTTL, p.now)
	p.organisations = newCache[[]Organisation](CatalogueTTL, p.now)
	p.authorities = newCache[[]authority](CatalogueTTL, p.now)
	p.concepts = newCache[[]Concept](CatalogueTTL, p.now)
	p.rules = newCache[[]Rule](CatalogueTTL, p.now)
	if cfg.OnCache != nil {
		observeAs(p.news.cache, "news", cfg.OnCache)
		observeAs(p.berichten.cache, "berichten", cfg.OnCache)
		observeAs(p.products.cache, "products", cfg.OnCache)
		observeAs(p.services, "services", cfg.OnCache)
		observeAs(p.organisations, "organisations", cfg.OnCache)
		observeAs(p.authorities, "authorities", cfg.OnCache)
		observeAs(p.concepts, "concepts", cfg.OnCache)
		observeAs(p.rules, "rules", cfg.OnCache)
		observeAs(p.assetCache, "assets", cfg.OnCache)
	}
	return p, nil
}

// ExampleGraph loads the example knowledge graph (examples.KnowledgeGraph)
// into a new in-memory store, as the explorer's embedded store does.
func ExampleGraph(ctx context.Context) (*memstore.Store, error) {
	store := memstore.New()
	for _, path := range examples.KnowledgeGraph {
		data, err := examples.KnowledgeGraphFile(path, "")
		if err != nil {
			return nil, err
		}
		if err := store.Load(ctx, bytes.NewReader(data), graph.Turtle, memstore.WithBase("https://data.regelkit.example/")); err != nil {
			return nil, fmt.Errorf("loading example knowledge graph %s: %w", path, err)
		}
	}
	return store, nil
}

// fetchFailed is the 502 of a cold cache and a failing source. The reason
// names the kind of failure; the source's address and the error text go
// to the log only.
func (p *Public) fetchFailed(ctx context.Context, code, what, source string, err error) error {
	p.logger.WarnContext(ctx, "public source failed", "source", source, "error", err.Error())
	return httpapi.Errorf(http.StatusBadGateway, code, "%s could not be fetched: %s", what, reason(err))
}

func reason(err error) string {
	var tooLarge *TooLargeError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the source did not answer in time"
	case errors.As(err, &tooLarge):
		return fmt.Sprintf("the response exceeds %d MB", tooLarge.Max>>20)
	case errors.Is(err, errNoItems):
		return "the source holds no items"
	}
	return "the source is unavailable or its answer is malformed"
}

func (p *Public) logStale(ctx context.Context, source string, fetched time.Time) {
	p.logger.WarnContext(ctx, "public source failed; serving the stale copy", "source", source,
		"age_ms", p.now().Sub(fetched).Milliseconds())
}

// sliceOf runs one catalogue query through its cache.
func sliceOf[T any](ctx context.Context, p *Public, c *cache[[]T], force bool, q func(context.Context, sparql.Endpoint) ([]T, error)) (cached[[]T], error) {
	return c.get(ctx, force, func(ctx context.Context) ([]T, error) {
		ctx, cancel := context.WithTimeout(ctx, p.catalogueTimeout)
		defer cancel()
		return q(ctx, p.endpoint)
	})
}

// runSlice runs one slice in its own goroutine into dst: the slice's
// rows, or [] when it failed with nothing cached.
func runSlice[T any](ctx context.Context, p *Public, wg *sync.WaitGroup, note func(string, bool, bool, time.Time, error),
	name string, c *cache[[]T], force bool, q func(context.Context, sparql.Endpoint) ([]T, error), dst *[]T) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		r, err := sliceOf(ctx, p, c, force, q)
		*dst = r.value
		if *dst == nil {
			*dst = []T{}
		}
		note(name, r.hit, r.stale, r.fetched, err)
	}()
}

// Catalogue is the rule catalogue's data.
type Catalogue struct {
	Services      []Service      `json:"services"`
	Organisations []Organisation `json:"organisations"`
	Concepts      []Concept      `json:"concepts"`
	Rules         []Rule         `json:"rules"`
}

// CatalogueCache is meta.cache of the rule catalogue.
type CatalogueCache struct {
	Cached       bool     `json:"cached"`    // every slice came from the cache
	FetchedAt    *string  `json:"fetchedAt"` // of the oldest slice served
	AgeMs        *int64   `json:"ageMs"`
	Stale        bool     `json:"stale"` // a slice failed and its stale copy is served
	FailedSlices []string `json:"failedSlices"`
}

// catalogue runs the five slices in parallel.
func (p *Public) catalogue(ctx context.Context, force bool) (Catalogue, CatalogueCache, error) {
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		meta   = CatalogueCache{Cached: true, FailedSlices: []string{}}
		oldest time.Time
		served int
	)
	note := func(name string, hit, stale bool, fetched time.Time, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			meta.FailedSlices = append(meta.FailedSlices, name)
			meta.Cached = false
			p.logger.WarnContext(ctx, "rule catalogue slice failed", "slice", name, "error", err.Error())
			return
		}
		if stale {
			meta.Stale = true
			meta.FailedSlices = append(meta.FailedSlices, name)
		}
		meta.Cached = meta.Cached && hit
		served++
		if oldest.IsZero() || fetched.Before(oldest) {
			oldest = fetched
		}
	}
	var out Catalogue
	var edges []authority
	runSlice(ctx, p, &wg, note, "services", p.services, force, fetchServices, &out.Services)
	runSlice(ctx, p, &wg, note, "organisations", p.organisations, force, fetchOrganisations, &out.Organisations)
	runSlice(ctx, p, &wg, note, "authorities", p.authorities, force, fetchAuthorities, &edges)
	runSlice(ctx, p, &wg, note, "concepts", p.concepts, force, fetchConcepts, &out.Concepts)
	runSlice(ctx, p, &wg, note, "rules", p.rules, force, fetchRules, &out.Rules)
	wg.Wait()
	if served == 0 {
		return Catalogue{}, meta, errors.New("every slice failed and none is cached")
	}
	out.Services = withAuthorities(out.Services, edges)
	out.Organisations = p.withLogos(ctx, out.Organisations, force)
	ts := httpapi.Timestamp(oldest)
	age := p.now().Sub(oldest).Milliseconds()
	meta.FetchedAt, meta.AgeMs = &ts, &age
	return out, meta, nil
}

// page reads limit and offset: unusable or < 1 → default,
// above max → max, negative offset → 0; never a 400.
func page(r *http.Request, def, maxLimit int) (limit, offset int) {
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit < 1 {
		limit = def
	}
	limit = min(limit, maxLimit)
	offset, err = strconv.Atoi(r.URL.Query().Get("offset"))
	if err != nil || offset < 0 {
		offset = 0
	}
	return limit, offset
}
