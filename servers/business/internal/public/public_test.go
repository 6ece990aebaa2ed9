package public

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)} }

// serve builds the public routes on a real router behind a real server.
func serve(t *testing.T, cfg Config) *apitest.Client {
	t.Helper()
	p, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	p.Routes(r)
	return apitest.New(t, r)
}

// upstream serves body (a file of testdata) while ok, else the failure.
type upstream struct {
	srv     *httptest.Server
	hits    atomic.Int64
	fail    atomic.Bool
	body    atomic.Value // []byte
	headers atomic.Value // http.Header of the last request
}

func newUpstream(t *testing.T, file string) *upstream {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	u := &upstream{}
	u.body.Store(data)
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.hits.Add(1)
		u.headers.Store(r.Header.Clone())
		if u.fail.Load() {
			http.Error(w, "upstream down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml")
		_, _ = w.Write(u.body.Load().([]byte))
	}))
	t.Cleanup(u.srv.Close)
	return u
}

type pageBody[T any] struct {
	Success bool `json:"success"`
	Data    struct {
		Items      []T        `json:"items"`
		Pagination pagination `json:"pagination"`
	} `json:"data"`
	Meta struct {
		GeneratedAt string `json:"generatedAt"`
		Cache       *struct {
			Stale     bool   `json:"stale"`
			FetchedAt string `json:"fetchedAt"`
			AgeMs     int64  `json:"ageMs"`
		} `json:"cache"`
	} `json:"meta"`
}

func getPage[T any](t *testing.T, c *apitest.Client, path string) (pageBody[T], *apitest.Response) {
	t.Helper()
	resp := c.Get(path).ExpectStatus(t, 200)
	var p pageBody[T]
	resp.Decode(t, &p)
	if !p.Success || p.Meta.GeneratedAt == "" {
		t.Fatalf("%s: not a success envelope with meta.generatedAt: %s", path, resp.Body)
	}
	return p, resp
}

func str(s string) *string { return &s }

func TestNewsMappingAndEntities(t *testing.T) {
	up := newUpstream(t, "testdata/news.rss")
	c := serve(t, Config{NewsURL: up.srv.URL + "/rss", UserAgent: "regelkit-business-api/test"})
	p, _ := getPage[NewsItem](t, c, "/v1/public/nieuws")
	gov := Ref{ID: "government", Name: "Rijksoverheid"}
	want := []NewsItem{
		{ID: "n-1", Title: "Eerste & beste bericht", Summary: "Kosten: € 12,50 … meer tekst",
			PublishedAt: str("2026-11-23T09:00:00.000Z"), URL: str("https://news.example/1"), Source: gov},
		{ID: "gov-news-2", Title: "Tweede bericht", Summary: "Zonder link en met een onleesbare datum", Source: gov},
		{ID: "n-3", Title: "Derde bericht", PublishedAt: str("2026-11-21T08:30:00.000Z"), URL: str("https://news.example/3"), Source: gov},
	}
	if d := cmp.Diff(want, p.Data.Items); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
	if p.Data.Pagination != (pagination{Limit: 10, Offset: 0, Total: 3, HasMore: false}) {
		t.Errorf("pagination %+v", p.Data.Pagination)
	}
	h := up.headers.Load().(http.Header)
	if h.Get("User-Agent") != "regelkit-business-api/test" || h.Get("Accept") != "application/rss+xml, application/xml" {
		t.Errorf("outbound headers %v", h)
	}
}

func TestPaging(t *testing.T) {
	up := newUpstream(t, "testdata/news.rss")
	c := serve(t, Config{NewsURL: up.srv.URL})
	for _, tc := range []struct {
		query string
		ids   []string
		pg    pagination
	}{
		{"?limit=2&offset=1", []string{"gov-news-2", "n-3"}, pagination{2, 1, 3, false}},
		{"?limit=1", []string{"n-1"}, pagination{1, 0, 3, true}},
		{"?limit=abc&offset=-4", []string{"n-1", "gov-news-2", "n-3"}, pagination{10, 0, 3, false}},
		{"?limit=0", []string{"n-1", "gov-news-2", "n-3"}, pagination{10, 0, 3, false}},
		{"?limit=500", []string{"n-1", "gov-news-2", "n-3"}, pagination{20, 0, 3, false}},
		{"?offset=7", []string{}, pagination{10, 7, 3, false}},
	} {
		p, _ := getPage[NewsItem](t, c, "/v1/public/nieuws"+tc.query)
		ids := []string{}
		for _, it := range p.Data.Items {
			ids = append(ids, it.ID)
		}
		if !cmp.Equal(ids, tc.ids) || p.Data.Pagination != tc.pg {
			t.Errorf("%s: ids %v pagination %+v, want %v %+v", tc.query, ids, p.Data.Pagination, tc.ids, tc.pg)
		}
	}
	if up.hits.Load() != 1 {
		t.Errorf("%d fetches for six requests within the ttl, want 1", up.hits.Load())
	}
}

// TestStaleFallback: a source failing after a success serves the last good
// copy with its age, for the list and for /berichten/{id}.
func TestStaleFallback(t *testing.T) {
	up := newUpstream(t, "../../../../examples/public/berichten.xml")
	clk := newClock()
	c := serve(t, Config{BerichtenURL: up.srv.URL, Now: clk.now})
	c.Get("/v1/public/berichten/pv-loket-4711").ExpectError(t, 404, CodeBerichtNotFound)

	p, resp := getPage[Bericht](t, c, "/v1/public/berichten")
	if p.Meta.Cache == nil || p.Meta.Cache.Stale || p.Meta.Cache.AgeMs != 0 || p.Meta.Cache.FetchedAt != "2026-11-24T09:00:00.000Z" ||
		resp.Header.Get("Age") != "0" || len(p.Data.Items) != 3 {
		t.Fatalf("fresh: %s", resp.Body)
	}
	clk.advance(11 * time.Minute) // past the 10-minute ttl
	up.fail.Store(true)
	p, resp = getPage[Bericht](t, c, "/v1/public/berichten")
	if p.Meta.Cache == nil || !p.Meta.Cache.Stale || p.Meta.Cache.AgeMs != 660000 || resp.Header.Get("Age") != "660" ||
		len(p.Data.Items) != 3 || p.Data.Items[0].ID != "pv-loket-4711" {
		t.Errorf("stale: %s (Age %q)", resp.Body, resp.Header.Get("Age"))
	}
	if up.hits.Load() != 2 {
		t.Errorf("%d fetches, want 2", up.hits.Load())
	}
	// A malformed answer is a failure too: the good copy stays.
	up.fail.Store(false)
	up.body.Store([]byte("<rss><channel><item><title>broken"))
	clk.advance(time.Minute)
	p, _ = getPage[Bericht](t, c, "/v1/public/berichten")
	if !p.Meta.Cache.Stale || p.Meta.Cache.AgeMs != 720000 || len(p.Data.Items) != 3 {
		t.Errorf("malformed after success: %+v", p.Meta.Cache)
	}

	var one struct {
		Data Bericht `json:"data"`
	}
	c.Get("/v1/public/berichten/pv-loket-4702").Decode(t, &one)
	want := Bericht{ID: "pv-loket-4702", Subject: "Onderhoud aan de N999 tussen Voorbeeldstad en Dorp",
		Preview: "Van 30 november tot en met 11 december is de weg 's nachts afgesloten.",
		Content: str("<p>Van 30 november tot en met 11 december is de weg &#39;s nachts afgesloten.</p>"),
		Type:    "announcement", Status: "published", Audience: "all", Sender: Ref{ID: "flevoland", Name: "Provincie Flevoland"},
		PublishedAt: "2026-11-20T15:45:00.000Z", Priority: "normal",
		Action: &Action{Label: "Lees meer", URL: "https://www.voorbeeldland.example/loket/onderhoud-n999"}}
	if d := cmp.Diff(want, one.Data); d != "" {
		t.Errorf("bericht (-want +got):\n%s", d)
	}
	c.Get("/v1/public/berichten/nope").ExpectError(t, 404, CodeBerichtNotFound)
}

// TestColdFailures: nothing cached and a failing source is a 502 with the
// source's code; a feed with no titled item counts as failing.
func TestColdFailures(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	malformed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<html><body>Not a feed</body></html>")
	}))
	defer malformed.Close()
	untitled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<rss version="2.0"><channel><title>x</title><item><title> </title><guid>1</guid></item></channel></rss>`)
	}))
	defer untitled.Close()
	for _, tc := range []struct {
		cfg       Config
		path      string
		code, msg string
	}{
		{Config{NewsURL: down.URL}, "/v1/public/nieuws", CodeNewsFetchFailed, "unavailable"},
		{Config{NewsURL: malformed.URL}, "/v1/public/nieuws", CodeNewsFetchFailed, "malformed"},
		{Config{NewsURL: untitled.URL}, "/v1/public/nieuws", CodeNewsFetchFailed, "no items"},
		{Config{BerichtenURL: down.URL}, "/v1/public/berichten", CodeBerichtenFetchFailed, "unavailable"},
		{Config{ProductsURL: malformed.URL}, "/v1/public/producten-diensten", CodeProductsFetchFailed, "malformed"},
		{Config{SPARQLURL: down.URL}, "/v1/public/regelcatalogus", CodeCatalogueFetchFailed, "unavailable"},
	} {
		c := serve(t, tc.cfg)
		msg := c.Get(tc.path).ExpectError(t, 502, tc.code)
		if !strings.Contains(msg, tc.msg) || strings.Contains(msg, "127.0.0.1") {
			t.Errorf("%s: message %q, want it to say %q and not name the source's address", tc.path, msg, tc.msg)
		}
	}
}

// TestSizeCap: a 300 MB feed is refused after the cap; it is streamed, so
// neither side holds it.
func TestSizeCap(t *testing.T) {
	var written atomic.Int64
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(`<rss version="2.0"><channel><title>` + strings.Repeat("x", 64<<10))
		for written.Load() < 300<<20 {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer huge.Close()
	c := serve(t, Config{NewsURL: huge.URL})
	start := time.Now()
	msg := c.Get("/v1/public/nieuws").ExpectError(t, 502, CodeNewsFetchFailed)
	if !strings.Contains(msg, "exceeds 5 MB") {
		t.Errorf("message %q", msg)
	}
	if n := written.Load(); n >= 300<<20 {
		t.Errorf("the whole 300 MB was sent (%d bytes): the cap must stop reading", n)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}
	// A declared length over the cap is refused before reading.
	declared := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(300<<20))
		w.WriteHeader(200)
	}))
	defer declared.Close()
	c = serve(t, Config{ProductsURL: declared.URL, Products: Bounds{MaxBytes: 1 << 20}})
	if msg := c.Get("/v1/public/producten-diensten").ExpectError(t, 502, CodeProductsFetchFailed); !strings.Contains(msg, "exceeds 1 MB") {
		t.Errorf("declared length: %q", msg)
	}
}

func TestSlowFeedTimesOut(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	c := serve(t, Config{NewsURL: slow.URL, News: Bounds{Timeout: 200 * time.Millisecond}})
	start := time.Now()
	msg := c.Get("/v1/public/nieuws").ExpectError(t, 502, CodeNewsFetchFailed)
	if d := time.Since(start); d > 3*time.Second || !strings.Contains(msg, "did not answer in time") {
		t.Errorf("after %v: %q", d, msg)
	}
}

// TestSingleFlight: concurrent requests on a cold cache share one fetch.
func TestSingleFlight(t *testing.T) {
	data, err := os.ReadFile("testdata/news.rss")
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	gate := make(chan struct{})
	src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		<-gate
		_, _ = w.Write(data)
	}))
	defer src.Close()
	c := serve(t, Config{NewsURL: src.URL})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Get("/v1/public/nieuws").ExpectStatus(t, 200)
		}()
	}
	time.Sleep(200 * time.Millisecond)
	close(gate)
	wg.Wait()
	if hits.Load() != 1 {
		t.Errorf("%d fetches for 8 concurrent requests, want 1", hits.Load())
	}
}

func TestProducts(t *testing.T) {
	up := newUpstream(t, "testdata/products.xml")
	c := serve(t, Config{ProductsURL: up.srv.URL, ProductsTenant: "voorbeeldland"})
	p, _ := getPage[Product](t, c, "/v1/public/producten-diensten")
	want := []Product{
		{ID: "P-1", Title: "Subsidie isolatie woning", Description: "Tot € 1.500 & meer … mail info loket.example €5 <b>",
			URL: "https://loket.example/p1", Audience: []string{"particulier"}, OnlineAanvragen: true, Modified: str("2026-10-01"), Soort: "subsidie"},
		{ID: "product-2", Title: "Klacht indienen", Audience: []string{"ondernemer"}, Soort: "bezwaar"},
	}
	if d := cmp.Diff(want, p.Data.Items); d != "" {
		t.Errorf("products (-want +got):\n%s", d)
	}
	if p.Data.Pagination != (pagination{50, 0, 2, false}) {
		t.Errorf("pagination %+v", p.Data.Pagination)
	}
	if h := up.headers.Load().(http.Header); h.Get("Accept") != "application/xml, text/xml" {
		t.Errorf("Accept %q", h.Get("Accept"))
	}
	// One tenant only.
	other, _ := getPage[Product](t, c, "/v1/public/producten-diensten?tenant=heusden")
	if len(other.Data.Items) != 0 || other.Data.Pagination.Total != 0 {
		t.Errorf("another tenant: %+v", other.Data)
	}
	same, _ := getPage[Product](t, c, "/v1/public/producten-diensten?tenant=voorbeeldland&limit=1&offset=1")
	if len(same.Data.Items) != 1 || same.Data.Items[0].ID != "product-2" || same.Data.Pagination != (pagination{1, 1, 2, false}) {
		t.Errorf("own tenant: %+v", same.Data)
	}
	big, _ := getPage[Product](t, c, "/v1/public/producten-diensten?limit=1000")
	if big.Data.Pagination.Limit != 200 {
		t.Errorf("limit clamps to 200, got %d", big.Data.Pagination.Limit)
	}
}

func TestFeedNestingLimit(t *testing.T) {
	deep := `<rss version="2.0"><channel><title>c</title><item><title>t</title>` +
		strings.Repeat("<x:a xmlns:x=\"urn:x\">", 300) + strings.Repeat("</x:a>", 300) + `</item></channel></rss>`
	if _, err := parseNews([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nests deeper than 256 at line 1, column") {
		t.Errorf("deep feed: %v", err)
	}
	ok := `<rss version="2.0"><channel><title>c</title><item><title>t</title>` +
		strings.Repeat("<x:a xmlns:x=\"urn:x\">", 100) + strings.Repeat("</x:a>", 100) + `</item></channel></rss>`
	if items, err := parseNews([]byte(ok)); err != nil || len(items) != 1 {
		t.Errorf("100 levels: %v %v", items, err)
	}
}

func TestProductsNestingLimit(t *testing.T) {
	deep := `<scproducten><scproduct><title>t</title>` + strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300) + `</scproduct></scproducten>`
	_, err := parseProducts([]byte(deep))
	if err == nil || !strings.Contains(err.Error(), "nests deeper than 256 at line 1, column") {
		t.Errorf("deep nesting: %v", err)
	}
	ok := `<scproducten><scproduct><title>t</title>` + strings.Repeat("<a>", 200) + strings.Repeat("</a>", 200) + `</scproduct></scproducten>`
	if _, err := parseProducts([]byte(ok)); err != nil {
		t.Errorf("200 levels: %v", err)
	}
}

// TestEmbeddedDefaults: with no URL configured, the example feeds and the
// example knowledge graph answer in-process.
func TestEmbeddedDefaults(t *testing.T) {
	c := serve(t, Config{})
	news, _ := getPage[NewsItem](t, c, "/v1/public/nieuws?limit=1")
	if news.Data.Pagination.Total != 4 || news.Data.Items[0].Summary != "De normbedragen in de Participatiewet stijgen mee met het minimumloon. Zo houden mensen met een uitkering hun koopkracht." {
		t.Errorf("embedded news: %+v", news.Data)
	}
	products, _ := getPage[Product](t, c, "/v1/public/producten-diensten")
	if products.Data.Pagination.Total != 3 || products.Data.Items[0].Description != "Subsidie voor het vergroenen van erven: tot € 5.000 per erf." {
		t.Errorf("embedded products: %+v", products.Data)
	}
	var cat struct {
		Data Catalogue `json:"data"`
	}
	c.Get("/v1/public/regelcatalogus").ExpectStatus(t, 200).Decode(t, &cat)
	if len(cat.Data.Services) != 6 || len(cat.Data.Organisations) != 5 || len(cat.Data.Concepts) == 0 {
		t.Errorf("embedded catalogue: %d services, %d organisations, %d concepts", len(cat.Data.Services), len(cat.Data.Organisations), len(cat.Data.Concepts))
	}
}

// TestStrictRedirects: in strict mode (production) the configured source
// passes, but a redirect to an address the outbound policy refuses fails
// the fetch.
func TestStrictRedirects(t *testing.T) {
	var reached atomic.Bool
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
		fmt.Fprint(w, `<rss version="2.0"><channel><title>c</title><item><title>internal</title></item></channel></rss>`)
	}))
	defer inner.Close()
	redirect := httptest.NewServer(http.RedirectHandler(inner.URL+"/admin", http.StatusFound))
	defer redirect.Close()
	serve(t, Config{NewsURL: redirect.URL, Strict: true}).Get("/v1/public/nieuws").ExpectError(t, 502, CodeNewsFetchFailed)
	if reached.Load() {
		t.Error("the redirect target was fetched in strict mode")
	}
	// Outside strict mode the redirect is followed.
	serve(t, Config{NewsURL: redirect.URL}).Get("/v1/public/nieuws").ExpectStatus(t, 200)
	if !reached.Load() {
		t.Error("the redirect was not followed outside strict mode")
	}
}
