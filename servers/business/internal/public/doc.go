// Package public serves the business API's public content (spec
// §4.4): national news and provincial announcements from RSS 2.0
// feeds, a products-and-services catalogue in the Samenwerkende Catalogi
// 4.0 XML format, and the rule catalogue read from a knowledge graph with
// five SPARQL queries.
//
// Every source comes from configuration, never from a caller. Each has a
// timeout and a size cap, and sits behind a cache with a time to live, a
// single-flight refresh and a stale fallback: when a refresh fails the last
// good copy is served, however old, with its age. A cold cache and a
// failing source give 502 <SOURCE>_FETCH_FAILED. With no URLs configured
// the example feeds of examples/public and the example knowledge graph are
// served in-process, so the routes work without a network.
//
//	svc, err := public.New(ctx, public.Config{UserAgent: "regelkit-business-api/1.0"})
//	svc.Routes(router) // GET /v1/public/nieuws, /berichten, /berichten/{id}, /producten-diensten, /regelcatalogus
package public
