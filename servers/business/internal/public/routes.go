package public

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Error codes of the public content routes.
const (
	CodeNewsFetchFailed      = "NIEUWS_FETCH_FAILED"
	CodeBerichtenFetchFailed = "BERICHTEN_FETCH_FAILED"
	CodeProductsFetchFailed  = "PRODUCTEN_DIENSTEN_FETCH_FAILED"
	CodeCatalogueFetchFailed = "REGELCATALOGUS_FETCH_FAILED"
	CodeBerichtNotFound      = "BERICHT_NOT_FOUND"
)

// Prefix is where the public routes are mounted.
const Prefix = "/v1/public"

// Routes registers the five read routes on r.
func (p *Public) Routes(r *httpapi.Router) {
	tags := []string{"public"}
	paging := func(def, max int) []openapi.Parameter {
		return []openapi.Parameter{
			openapi.Query("limit", "page size: default "+strconv.Itoa(def)+", at most "+strconv.Itoa(max)+"; a non-number or a value below 1 takes the default", false),
			openapi.Query("offset", "default 0; negative counts as 0", false),
		}
	}
	cacheNote := " meta.cache = {stale, fetchedAt, ageMs}: stale is true when the source failed and the last good copy, " +
		"however old, is served; the Age header carries the copy's age in seconds."
	r.Handle("GET", Prefix+"/nieuws", p.handleNews, openapi.Operation{
		Summary: "National news from an RSS 2.0 feed (no token)",
		Description: "Items {id, title, summary, category: null, publishedAt, url, source: {id, name}}, feed order, untitled items dropped. " +
			"Cached 10 minutes." + cacheNote + " 502 NIEUWS_FETCH_FAILED when the feed fails and nothing is cached.",
		Tags: tags, Parameters: paging(10, 20),
		Responses: map[string]openapi.Response{"200": {Description: "data: {items, pagination: {limit, offset, total, hasMore}}"}},
	})
	r.Handle("GET", Prefix+"/berichten", p.handleBerichten, openapi.Operation{
		Summary: "Announcements from a provincial RSS 2.0 feed (no token)",
		Description: "Items {id, subject, preview, content, type, status, audience, sender, publishedAt, expiresAt, priority, isRead, action}. " +
			"Cached 10 minutes." + cacheNote + " 502 BERICHTEN_FETCH_FAILED when the feed fails and nothing is cached.",
		Tags: tags, Parameters: paging(10, 20),
		Responses: map[string]openapi.Response{"200": {Description: "data: {items, pagination}"}},
	})
	r.Handle("GET", Prefix+"/berichten/{id}", p.handleBericht, openapi.Operation{
		Summary:     "One announcement by its feed guid, from the cache only (no token)",
		Description: "Never calls the feed: 404 BERICHT_NOT_FOUND when the cache is empty or holds no such id.",
		Tags:        tags,
		Responses:   map[string]openapi.Response{"200": {Description: "data: the announcement"}},
	})
	r.Handle("GET", Prefix+"/producten-diensten", p.handleProducts, openapi.Operation{
		Summary: "Products and services of a Samenwerkende Catalogi 4.0 catalogue (no token)",
		Description: "Items {id, title, description, url, audience, onlineAanvragen, modified, soort}; untitled products dropped, " +
			"HTML entities decoded. Query tenant: a value other than the configured tenant gives an empty page. Cached 30 minutes." +
			cacheNote + " 502 PRODUCTEN_DIENSTEN_FETCH_FAILED when the catalogue fails and nothing is cached.",
		Tags:       tags,
		Parameters: append(paging(50, 200), openapi.Query("tenant", "the catalogue belongs to one tenant; another gives total 0", false)),
		Responses:  map[string]openapi.Response{"200": {Description: "data: {items, pagination}"}},
	})
	r.Handle("GET", Prefix+"/regelcatalogus", p.handleCatalogue, openapi.Operation{
		Summary: "Rule catalogue from the knowledge graph: five SPARQL queries in parallel (no token)",
		Description: "data: {services[{uri, title, description, organisationUri}], organisations[{uri, name, identifier, homepage, logo}], " +
			"concepts[{uri, prefLabel, serviceTitle, serviceUri, exactMatch}], rules[{uri, ruleTitle, description, serviceTitle, validFrom, confidence}]}. " +
			"Each slice cached 5 minutes; a failing slice serves its stale copy or []. meta.cache = {cached, fetchedAt, ageMs, stale, failedSlices}. " +
			"refresh=true|1 bypasses the caches. 502 REGELCATALOGUS_FETCH_FAILED when every slice fails with nothing cached.",
		Tags:       tags,
		Parameters: []openapi.Parameter{openapi.Query("refresh", "true or 1: query the knowledge graph now", false)},
		Responses:  map[string]openapi.Response{"200": {Description: "data: the catalogue"}},
	})
}

// listResponse is the paged success envelope with meta.
type listResponse struct {
	Success   bool           `json:"success"`
	Data      listData       `json:"data"`
	Meta      map[string]any `json:"meta"`
	Timestamp string         `json:"timestamp"`
}

type listData struct {
	Items      any        `json:"items"`
	Pagination pagination `json:"pagination"`
}

type pagination struct {
	Limit   int  `json:"limit"`
	Offset  int  `json:"offset"`
	Total   int  `json:"total"`
	HasMore bool `json:"hasMore"`
}

// cacheMeta is meta.cache of a feed, and sets the Age header.
func (p *Public) cacheMeta(w http.ResponseWriter, stale bool, fetched time.Time) map[string]any {
	age := max(p.now().Sub(fetched), 0)
	w.Header().Set("Age", strconv.FormatInt(int64(age/time.Second), 10))
	return map[string]any{"stale": stale, "fetchedAt": httpapi.Timestamp(fetched), "ageMs": age.Milliseconds()}
}

func writeWithMeta(w http.ResponseWriter, data any, cacheMeta map[string]any) error {
	ts := httpapi.Timestamp(time.Now())
	meta := map[string]any{"generatedAt": ts}
	if cacheMeta != nil {
		meta["cache"] = cacheMeta
	}
	return httpapi.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "data": data, "meta": meta, "timestamp": ts})
}

func writePage[T any](w http.ResponseWriter, r *http.Request, items []T, def, maxLimit int, meta map[string]any) error {
	limit, offset := page(r, def, maxLimit)
	total := len(items)
	lo := min(offset, total)
	hi := min(lo+limit, total)
	ts := httpapi.Timestamp(time.Now())
	m := map[string]any{"generatedAt": ts}
	if meta != nil {
		m["cache"] = meta
	}
	return httpapi.WriteJSON(w, http.StatusOK, listResponse{
		Success: true,
		Data: listData{Items: append([]T{}, items[lo:hi]...),
			Pagination: pagination{Limit: limit, Offset: offset, Total: total, HasMore: offset+limit < total}},
		Meta: m, Timestamp: ts,
	})
}

func (p *Public) handleNews(w http.ResponseWriter, r *http.Request) error {
	return serveFeed(p, p.news, w, r)
}

func (p *Public) handleBerichten(w http.ResponseWriter, r *http.Request) error {
	return serveFeed(p, p.berichten, w, r)
}

// handleBericht reads only the cache, fresh or stale.
func (p *Public) handleBericht(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	if snap, ok := p.berichten.cache.peek(); ok {
		for _, b := range snap.value {
			if b.ID == id {
				return writeWithMeta(w, b, nil)
			}
		}
	}
	return httpapi.NewError(http.StatusNotFound, CodeBerichtNotFound, "Bericht niet gevonden.")
}

func (p *Public) handleProducts(w http.ResponseWriter, r *http.Request) error {
	if t := r.URL.Query().Get("tenant"); t != "" && t != p.cfg.ProductsTenant {
		// One tenant only (spec §4.4): no fetch for the others.
		return writePage(w, r, []Product{}, 50, 200, nil)
	}
	return serveFeed(p, p.products, w, r)
}

func (p *Public) handleCatalogue(w http.ResponseWriter, r *http.Request) error {
	force := r.URL.Query().Get("refresh") == "true" || r.URL.Query().Get("refresh") == "1"
	data, meta, err := p.catalogue(r.Context(), force)
	if err != nil {
		return p.fetchFailed(r.Context(), CodeCatalogueFetchFailed, "The rule catalogue", "regelcatalogus", err)
	}
	ts := httpapi.Timestamp(time.Now())
	return httpapi.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "data": data, "meta": map[string]any{"generatedAt": ts, "cache": meta}, "timestamp": ts,
	})
}
