package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestPublicRoutesOnEmbeddedDefaults: with no environment the public
// routes answer from the embedded examples through the full middleware
// chain, without a token.
func TestPublicRoutesOnEmbeddedDefaults(t *testing.T) {
	ta := newTestApp(t, nil)
	var news struct {
		Items []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		} `json:"items"`
		Pagination struct {
			Limit, Offset, Total int
			HasMore              bool
		} `json:"pagination"`
	}
	ta.c.Get("/v1/public/nieuws?limit=1&offset=1").Data(t, 200, &news)
	if len(news.Items) != 1 || news.Items[0].ID != "vo-nieuws-2026-1118-01" || news.Pagination.Total != 4 || !news.Pagination.HasMore {
		t.Errorf("nieuws: %+v", news)
	}
	ta.c.Get("/v1/public/berichten").Data(t, 200, nil)
	ta.c.Get("/v1/public/berichten/pv-loket-4690").Data(t, 200, nil)
	ta.c.Get("/v1/public/berichten/unknown").ExpectError(t, 404, "BERICHT_NOT_FOUND")
	ta.c.Get("/v1/public/producten-diensten?tenant=flevoland").Data(t, 200, nil)
	var cat map[string][]map[string]any
	ta.c.Get("/v1/public/regelcatalogus").Data(t, 200, &cat)
	if len(cat["services"]) != 6 || cat["rules"] == nil {
		t.Errorf("regelcatalogus: %d services, rules %v", len(cat["services"]), cat["rules"])
	}
	// The tracker is not configured by default.
	ta.c.Post("/v1/public/use-case", `{"title":"t","description":"d"}`).ExpectError(t, 503, "ISSUE_TRACKER_NOT_CONFIGURED")
	ta.c.Get("/v1/public/use-cases").ExpectError(t, 503, "ISSUE_TRACKER_NOT_CONFIGURED")
	ta.c.Get("/v1/public/altcha/challenge").ExpectError(t, 503, "ALTCHA_NOT_CONFIGURED")
	ta.c.Get("/v1/media-aggregator/search").ExpectStatus(t, 200)
}

// TestPublicSourcesFromConfiguration: the configured feed and tracker are
// used; the use-case label comes from ISSUE_TRACKER_USE_CASE_LABEL through
// its upstream alias.
func TestPublicSourcesFromConfiguration(t *testing.T) {
	var ua atomic.Value
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		fmt.Fprint(w, `<rss version="2.0"><channel><title>c</title><item><title>Geconfigureerd</title><guid>g-1</guid></item></channel></rss>`)
	}))
	defer feed.Close()
	var issueBody atomic.Value
	gitlab := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() != "/api/v4/projects/team%2Fregels/issues" || r.Header.Get("PRIVATE-TOKEN") != "glpat-abc" {
			http.Error(w, "wrong project or token", 404)
			return
		}
		body, _ := io.ReadAll(r.Body)
		issueBody.Store(string(body))
		w.WriteHeader(201)
		fmt.Fprint(w, `{"iid":3,"web_url":"https://gitlab.example/team/regels/-/issues/3"}`)
	}))
	defer gitlab.Close()
	ta := newTestApp(t, map[string]string{
		"NEWS_FEED_URL": feed.URL, "GITLAB_BASE_URL": gitlab.URL, "GITLAB_TOKEN": "glpat-abc",
		"GITLAB_PROJECT_PATH": "team/regels", "GITLAB_UC_LABEL": "usecase::nieuw",
	})
	var news struct {
		Items []struct{ ID, Title string } `json:"items"`
	}
	ta.c.Get("/v1/public/nieuws").Data(t, 200, &news)
	if len(news.Items) != 1 || news.Items[0].Title != "Geconfigureerd" || ua.Load() != "regelkit-business-api/"+version {
		t.Errorf("nieuws %+v, User-Agent %v", news, ua.Load())
	}
	var created struct {
		IID    int    `json:"iid"`
		WebURL string `json:"web_url"`
	}
	ta.c.Post("/v1/public/use-case", `{"title":"t","description":"d"}`).Data(t, 201, &created)
	if created.IID != 3 || !strings.Contains(fmt.Sprint(issueBody.Load()), `"labels":"usecase::nieuw"`) {
		t.Errorf("created %+v, issue %v", created, issueBody.Load())
	}
}

// TestWriteLimiterOnPublicPosts: the three public POST routes share the
// write limiter (10 per 15 minutes per IP); reads do not count.
func TestWriteLimiterOnPublicPosts(t *testing.T) {
	ta := newTestApp(t, nil)
	for i := range 10 {
		path := []string{"/v1/public/use-case", "/v1/public/feedback", "/v1/public/upload-file"}[i%3]
		if s := ta.c.Post(path, `{}`).Status; s == http.StatusTooManyRequests {
			t.Fatalf("request %d to %s refused early", i+1, path)
		}
		ta.c.Get("/v1/public/nieuws").ExpectStatus(t, 200)
	}
	for _, path := range []string{"/v1/public/use-case", "/v1/public/feedback", "/v1/public/upload-file"} {
		resp := ta.c.Post(path, `{}`)
		if msg := resp.ExpectError(t, 429, "RATE_LIMIT_EXCEEDED"); msg != "Too many submissions, please try again later." {
			t.Errorf("%s: %q", path, msg)
		}
		if resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", path)
		}
	}
	ta.c.Get("/v1/public/nieuws").ExpectStatus(t, 200)
}
