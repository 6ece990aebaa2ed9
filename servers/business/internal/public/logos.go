package public

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Logos of a TriplyDB knowledge graph are dataset assets: the graph names
// a logo IRI whose last path segment is the asset's name.

// maxAssetsBytes bounds the assets listing.
const maxAssetsBytes = 4 << 20

// assetsURL is the assets listing of a TriplyDB endpoint
// (…/datasets/{account}/{dataset}/…) on the endpoint's host, or "".
func assetsURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "datasets" && parts[i+1] != "" && parts[i+2] != "" {
			return u.Scheme + "://" + u.Host + "/datasets/" + parts[i+1] + "/" + parts[i+2] + "/assets"
		}
	}
	return ""
}

// fetchAssets maps asset name → the URL of its first version.
func (p *Public) fetchAssets(ctx context.Context) (map[string]string, error) {
	data, err := p.assets.fetch(ctx)
	if err != nil {
		return nil, err
	}
	var list []struct {
		AssetName string `json:"assetName"`
		Versions  []struct {
			URL string `json:"url"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(list))
	for _, a := range list {
		if a.AssetName != "" && len(a.Versions) > 0 && a.Versions[0].URL != "" {
			out[a.AssetName] = a.Versions[0].URL
		}
	}
	return out, nil
}

// withLogos resolves each organisation's logo IRI to its asset URL where
// the endpoint has one; otherwise the logo stays the IRI when it is an
// http(s) URL. A failing listing leaves the logos as they are.
func (p *Public) withLogos(ctx context.Context, orgs []Organisation, force bool) []Organisation {
	if p.assets == nil || len(orgs) == 0 {
		return orgs
	}
	res, err := p.assetCache.get(ctx, force, p.fetchAssets)
	if err != nil {
		p.logger.WarnContext(ctx, "knowledge-graph assets unavailable", "error", err.Error())
		return orgs
	}
	out := make([]Organisation, len(orgs))
	for i, o := range orgs {
		name := o.logoIRI[strings.LastIndex(o.logoIRI, "/")+1:]
		if u, ok := res.value[name]; ok && o.logoIRI != "" {
			o.Logo = &u
		}
		out[i] = o
	}
	return out
}

// assetsSource is the listing's source: 8 s.
func assetsSource(raw, token, userAgent string, client *http.Client) *source {
	s := &source{name: "assets", url: raw, client: client, timeout: 8 * time.Second, maxBytes: maxAssetsBytes,
		accept: "application/json", userAgent: userAgent}
	if token != "" {
		s.header = http.Header{"Authorization": {"Bearer " + token}}
	}
	return s
}
