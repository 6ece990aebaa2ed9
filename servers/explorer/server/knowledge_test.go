package server

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

func TestEmbeddedSPARQLEndpoint(t *testing.T) {
	_, c := newTestApp(t, nil)
	q := url.QueryEscape(`PREFIX dct: <http://purl.org/dc/terms/>
		SELECT ?id WHERE { ?m a <https://cprmv.open-regels.nl/0.3.0/DecisionModel> ; dct:identifier ?id } ORDER BY ?id`)
	resp := c.Get("/v1/sparql?query="+q, "Accept", "application/sparql-results+json")
	resp.ExpectStatus(t, 200)
	res, err := sparql.ReadJSON(strings.NewReader(string(resp.Body)))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range res.Solutions {
		ids = append(ids, s["id"].Value)
	}
	// The 0.3.0-typed models of examples/knowledge-graph (the 0.4.1 ones are a different class).
	got := strings.Join(ids, ",")
	for _, id := range []string{"SVB_LeeftijdsInformatie", "RONL_LocalpassEindresultaat", "GEM_KwijtscheldingBelastingen"} {
		if !strings.Contains(got, id) {
			t.Errorf("embedded store lacks model %s: %s", id, got)
		}
	}
	if resp.Header.Get("API-Version") != version {
		t.Error("SPARQL responses must carry API-Version too")
	}
	upd := c.Do("POST", "/v1/sparql", "INSERT DATA { <urn:a> <urn:b> <urn:c> }", "Content-Type", "application/sparql-update")
	if upd.Status != 403 {
		t.Errorf("update on the read-only store: %d %s", upd.Status, upd.Body)
	}
}

func TestHealthProbesKnowledgeGraph(t *testing.T) {
	_, c := newTestApp(t, nil)
	var got struct {
		Services map[string]struct{ Status string } `json:"services"`
	}
	c.Get("/v1/health").ExpectStatus(t, 200).Decode(t, &got)
	if got.Services["triplydb"].Status != "up" {
		t.Errorf("triplydb = %+v", got.Services["triplydb"])
	}
	// A default endpoint that does not answer degrades the service.
	_, down := newTestApp(t, map[string]string{"SPARQL_ENDPOINT": "http://127.0.0.1:1/sparql", "SPARQL_TIMEOUT": "2s"})
	resp := down.Get("/v1/health").ExpectStatus(t, 503)
	resp.Decode(t, &got)
	if got.Services["triplydb"].Status != "down" {
		t.Errorf("unreachable endpoint: triplydb = %+v", got.Services["triplydb"])
	}
}

func TestResolveEndpoints(t *testing.T) {
	a, _ := newTestApp(t, map[string]string{"PORT": "8099", "PUBLIC_BASE_URL": "https://explorer.example.nl"})
	ctx := context.Background()
	for _, raw := range []string{"", "/v1/sparql", "https://explorer.example.nl/v1/sparql", "http://localhost:8099/v1/sparql", "http://127.0.0.1:8099/v1/sparql/"} {
		ep, err := a.kg.Resolve(ctx, raw)
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if _, ok := ep.(*memstore.Store); !ok {
			t.Errorf("%q resolved to %T, want the embedded store", raw, ep)
		}
	}
	ep, err := a.kg.Resolve(ctx, "http://localhost:9999/v1/sparql")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ep.(*sparql.Client); !ok {
		t.Errorf("another port must go over HTTP, got %T", ep)
	}
	_, err = a.kg.Resolve(ctx, "ftp://example.org/sparql")
	var apiErr *httpapi.Error
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Code != "INVALID_REQUEST" {
		t.Errorf("ftp endpoint: %v", err)
	}
}

func TestResolveInProduction(t *testing.T) {
	a, _ := newTestApp(t, map[string]string{"ENVIRONMENT": "production", "OUTBOUND_ALLOW": "https://graph.internal.example"})
	ctx := context.Background()
	for _, refused := range []string{"http://api.example.org/sparql", "https://10.0.0.5/sparql", "https://169.254.169.254/latest", "https://localhost/sparql"} {
		_, err := a.kg.Resolve(ctx, refused)
		var apiErr *httpapi.Error
		if !errors.As(err, &apiErr) || apiErr.Status != 400 {
			t.Errorf("%s: err = %v, want 400", refused, err)
		}
	}
	for _, ok := range []string{"https://api.open-regels.triply.cc/datasets/x/services/x/sparql", "https://graph.internal.example/repositories/kg"} {
		if _, err := a.kg.Resolve(ctx, ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestOutboundPolicyInDevelopment: the policy is on in development too;
// loopback passes (local endpoints), metadata and private addresses are
// refused through the real router unless allow-listed.
func TestOutboundPolicyInDevelopment(t *testing.T) {
	_, c := newTestApp(t, nil)
	for _, refused := range []string{
		"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/latest", "http://metadata.google.internal/computeMetadata/v1/",
		"http://10.0.0.5:8890/sparql", "http://192.168.1.20/sparql", "http://100.100.100.200/latest", "http://0.0.0.0:8081/v1/sparql",
	} {
		msg := c.Get("/v1/dmns?endpoint="+url.QueryEscape(refused)).ExpectError(t, 400, "INVALID_REQUEST")
		if !strings.Contains(msg, "refused") {
			t.Errorf("%s: %q", refused, msg)
		}
	}
	_, allowed := newTestApp(t, map[string]string{"OUTBOUND_ALLOW": "10.0.0.5", "SPARQL_TIMEOUT": "2s"})
	// Allow-listed: the policy lets it through; nothing listens there, so
	// the call fails upstream (502/504), not with a refusal.
	resp := allowed.Get("/v1/dmns?endpoint=" + url.QueryEscape("http://10.0.0.5:1/sparql"))
	if resp.Status == 400 {
		t.Errorf("allow-listed address refused: %s", resp.Body)
	}
}
