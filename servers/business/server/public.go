package server

import (
	"context"
	"net/http"

	"github.com/regelkit/regelkit/servers/business/internal/public"
	"github.com/regelkit/regelkit/servers/business/internal/tracker"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// newPublic sets up the public content (feeds, products, rule catalogue)
// and the issue tracker from the configuration: sources come from the
// operator only, never from a caller.
func (a *app) newPublic(ctx context.Context) error {
	ua := "regelkit-business-api/" + version
	strict := a.cfg.Environment == envProduction
	p, err := public.New(ctx, public.Config{
		NewsURL: a.cfg.NewsFeedURL, BerichtenURL: a.cfg.BerichtenFeedURL, ProductsURL: a.cfg.ProductsFeedURL,
		ProductsTenant: a.cfg.ProductsTenant, SPARQLURL: a.cfg.KnowledgeGraphURL, SPARQLToken: a.cfg.TriplyDBToken,
		Strict: strict, UserAgent: ua, Logger: a.logger,
		OnCache: a.metrics.ObserveCache,
		Wrap:    func(rt http.RoundTripper) http.RoundTripper { return a.metrics.Transport("upstream", rt) },
	})
	if err != nil {
		return err
	}
	a.public = p
	a.tracker = tracker.New(tracker.Config{
		BaseURL: a.cfg.IssueTrackerBaseURL, Token: a.cfg.IssueTrackerToken, ProjectPath: a.cfg.IssueTrackerProject,
		UseCaseLabel: a.cfg.IssueTrackerLabel, AltchaKey: a.cfg.AltchaHMACKey, MediaKey: a.cfg.MediaAggregateKey,
		Strict: strict, UserAgent: ua, Logger: a.logger,
		Wrap: func(rt http.RoundTripper) http.RoundTripper { return a.metrics.Transport("upstream", rt) },
	})
	return nil
}

// publicRoutes mounts /v1/public (no token; the write limiter on the three
// POST routes) and the media aggregator search.
func (a *app) publicRoutes(r *httpapi.Router) {
	a.mounted["public"] = public.Prefix
	a.public.Routes(r)
	a.tracker.Routes(r, a.writeLimited)
}
