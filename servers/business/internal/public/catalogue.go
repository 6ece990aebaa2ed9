package public

import (
	"context"
	"net/url"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// The rule catalogue: five SELECT queries, one per slice.

const prefixes = `PREFIX cpsv: <http://purl.org/vocab/cpsv#>
PREFIX dct: <http://purl.org/dc/terms/>
PREFIX cv: <http://data.europa.eu/m8g/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX foaf: <http://xmlns.com/foaf/0.1/>
PREFIX schema: <http://schema.org/>
PREFIX cprmv: <https://cprmv.open-regels.nl/0.3.0/>
PREFIX cprmv041: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#>
`

// maxSliceRows bounds what one slice holds in memory.
const maxSliceRows = 10000

const (
	queryServices = prefixes + `SELECT ?uri ?title ?description WHERE {
  ?uri a cpsv:PublicService ; dct:title ?title .
  FILTER(lang(?title) = "nl")
  OPTIONAL { ?uri dct:description ?description }
} ORDER BY STR(?title) ?uri LIMIT 10000`

	queryOrganisations = prefixes + `SELECT ?uri ?identifier ?name ?homepage ?spatial ?logo WHERE {
  ?uri a cv:PublicOrganisation ; dct:identifier ?identifier ; skos:prefLabel ?name .
  FILTER(lang(?name) = "nl" || lang(?name) = "")
  OPTIONAL { ?uri foaf:homepage ?homepage }
  OPTIONAL { ?uri cv:spatial ?spatial }
  OPTIONAL { ?uri foaf:logo ?foafLogo }
  OPTIONAL { ?uri schema:image ?image }
  BIND(COALESCE(?foafLogo, ?image) AS ?logo)
} ORDER BY STR(?name) ?uri LIMIT 10000`

	queryAuthorities = prefixes + `SELECT ?service ?org WHERE {
  ?service a cpsv:PublicService ; dct:title ?title ; cv:hasCompetentAuthority ?org .
  FILTER(lang(?title) = "nl")
} ORDER BY ?service ?org LIMIT 10000`

	// A variable names its model with cpsv:isRequiredBy or cpsv:produces;
	// 0.4.1 exports have no edge, so the model is the variable IRI minus
	// its /input/N or /output/N.
	queryConcepts = prefixes + `SELECT DISTINCT ?uri ?prefLabel ?exactMatch ?service ?serviceTitle WHERE {
  ?uri skos:exactMatch ?exactMatch ; dct:subject ?variable .
  OPTIONAL { ?uri skos:prefLabel ?prefLabel FILTER(lang(?prefLabel) = "nl" || lang(?prefLabel) = "") }
  OPTIONAL { ?variable cpsv:isRequiredBy ?requiredBy }
  OPTIONAL { ?variable cpsv:produces ?producedBy }
  BIND(COALESCE(?requiredBy, ?producedBy, IRI(REPLACE(STR(?variable), "/(input|output)/[0-9]+$", ""))) AS ?model)
  { ?model cprmv:implements ?service } UNION { ?model cprmv041:implements ?service }
  OPTIONAL { ?service dct:title ?serviceTitle FILTER(lang(?serviceTitle) = "nl" || lang(?serviceTitle) = "") }
} ORDER BY STR(?serviceTitle) ?service ?uri ?exactMatch LIMIT 10000`

	queryRules = prefixes + `SELECT DISTINCT ?uri ?ruleTitle ?description ?serviceTitle ?validFrom ?confidence WHERE {
  ?uri a cpsv:Rule ; dct:title ?ruleTitle .
  FILTER(lang(?ruleTitle) = "nl" && !STRSTARTS(STR(?ruleTitle), "Decision rule "))
  ?service a cpsv:PublicService ; dct:title ?serviceTitle .
  FILTER(lang(?serviceTitle) = "nl")
  { ?uri cpsv:implements ?service } UNION { ?service cv:hasLegalResource ?legal . ?uri cpsv:implements ?legal }
  OPTIONAL { ?uri dct:description ?description }
  OPTIONAL { ?uri cprmv041:validFrom ?validFrom }
  OPTIONAL { ?uri cprmv041:confidenceLevel ?confidence }
} ORDER BY STR(?serviceTitle) STR(?validFrom) STR(?ruleTitle) ?uri LIMIT 10000`
)

// Service is a public service of the catalogue.
type Service struct {
	URI             string  `json:"uri"`
	Title           string  `json:"title"`
	Description     *string `json:"description"`
	OrganisationURI *string `json:"organisationUri"`
}

// Organisation is a competent authority.
type Organisation struct {
	URI        string  `json:"uri"`
	Name       string  `json:"name"`
	Identifier string  `json:"identifier"`
	Homepage   *string `json:"homepage"`
	Logo       *string `json:"logo"`
	logoIRI    string  // the graph's logo IRI, resolved against the endpoint's assets
}

// Concept is an NL-SBB concept linked to a service's decision model.
type Concept struct {
	URI          string  `json:"uri"`
	PrefLabel    *string `json:"prefLabel"`
	ServiceTitle *string `json:"serviceTitle"`
	ServiceURI   string  `json:"serviceUri"`
	ExactMatch   string  `json:"exactMatch"`
}

// Rule is a rule of a service.
type Rule struct {
	URI          string  `json:"uri"`
	RuleTitle    string  `json:"ruleTitle"`
	Description  *string `json:"description"`
	ServiceTitle string  `json:"serviceTitle"`
	ValidFrom    *string `json:"validFrom"`
	Confidence   *string `json:"confidence"`
}

// authority is one service → competent-authority edge.
type authority struct{ service, org string }

func value(s sparql.Solution, name string) string {
	t, ok := s[name]
	if !ok {
		return ""
	}
	return t.Value
}

func optValue(s sparql.Solution, name string) *string { return optional(value(s, name)) }

func selectRows(ctx context.Context, ep sparql.Endpoint, query string) ([]sparql.Solution, error) {
	res, err := ep.Select(ctx, query)
	if err != nil {
		return nil, err
	}
	rows := res.Solutions
	if len(rows) > maxSliceRows {
		rows = rows[:maxSliceRows]
	}
	return rows, nil
}

func fetchServices(ctx context.Context, ep sparql.Endpoint) ([]Service, error) {
	rows, err := selectRows(ctx, ep, queryServices)
	if err != nil {
		return nil, err
	}
	out := []Service{}
	seen := map[string]bool{}
	for _, r := range rows {
		if uri := value(r, "uri"); !seen[uri] {
			seen[uri] = true
			out = append(out, Service{URI: uri, Title: value(r, "title"), Description: optValue(r, "description")})
		}
	}
	return out, nil
}

func fetchOrganisations(ctx context.Context, ep sparql.Endpoint) ([]Organisation, error) {
	rows, err := selectRows(ctx, ep, queryOrganisations)
	if err != nil {
		return nil, err
	}
	out := []Organisation{}
	seen := map[string]bool{}
	for _, r := range rows {
		uri := value(r, "uri")
		if seen[uri] {
			continue
		}
		seen[uri] = true
		out = append(out, Organisation{URI: uri, Name: value(r, "name"), Identifier: value(r, "identifier"),
			Homepage: optValue(r, "homepage"), Logo: logo(r["logo"]), logoIRI: value(r, "logo")})
	}
	return out, nil
}

// logo is the logo IRI when it is an http(s) URL, else null.
func logo(t graph.Term) *string {
	if !t.IsIRI() {
		return nil
	}
	u, err := url.Parse(t.Value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	return &t.Value
}

func fetchAuthorities(ctx context.Context, ep sparql.Endpoint) ([]authority, error) {
	rows, err := selectRows(ctx, ep, queryAuthorities)
	if err != nil {
		return nil, err
	}
	out := []authority{}
	for _, r := range rows {
		out = append(out, authority{service: value(r, "service"), org: value(r, "org")})
	}
	return out, nil
}

func fetchConcepts(ctx context.Context, ep sparql.Endpoint) ([]Concept, error) {
	rows, err := selectRows(ctx, ep, queryConcepts)
	if err != nil {
		return nil, err
	}
	out := []Concept{}
	for _, r := range rows {
		out = append(out, Concept{URI: value(r, "uri"), PrefLabel: optValue(r, "prefLabel"), ServiceTitle: optValue(r, "serviceTitle"),
			ServiceURI: value(r, "service"), ExactMatch: value(r, "exactMatch")})
	}
	return out, nil
}

func fetchRules(ctx context.Context, ep sparql.Endpoint) ([]Rule, error) {
	rows, err := selectRows(ctx, ep, queryRules)
	if err != nil {
		return nil, err
	}
	out := []Rule{}
	for _, r := range rows {
		out = append(out, Rule{URI: value(r, "uri"), RuleTitle: value(r, "ruleTitle"), Description: optValue(r, "description"),
			ServiceTitle: value(r, "serviceTitle"), ValidFrom: optValue(r, "validFrom"), Confidence: optValue(r, "confidence")})
	}
	return out, nil
}

// withAuthorities fills services[].organisationUri: the first authority by
// URI (the query sorts them), else null.
func withAuthorities(services []Service, edges []authority) []Service {
	first := map[string]string{}
	for _, e := range edges {
		if _, ok := first[e.service]; !ok {
			first[e.service] = e.org
		}
	}
	out := make([]Service, len(services))
	for i, s := range services {
		if org, ok := first[s.URI]; ok {
			s.OrganisationURI = &org
		}
		out[i] = s
	}
	return out
}
