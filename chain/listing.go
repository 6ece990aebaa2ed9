package chain

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// The listing runs a handful of queries, each returning plain (subject,
// predicate, object) rows rather than one wide row per model: a wide
// SELECT with a dozen OPTIONALs multiplies rows for every multi-valued
// property, and a query per model (as upstream did) costs a round trip per
// model. Records are assembled in Go with deterministic preferences.

const modelPropsQuery = queryPrefixes + `SELECT DISTINCT ?m ?p ?o WHERE {
  ` + decisionModelClasses + `
  ?m a ?class .
  VALUES ?p {
    dct:identifier dct:title dct:description
    cprmv:deploymentId cprmv041:deploymentId cprmv:deployedAt cprmv041:deployedAt
    cprmv:lastTested cprmv041:lastTested cprmv:testStatus cprmv041:testStatus
    ronl:implementedBy cprmv:implementedBy cprmv041:implementedBy
    ronlo:validationStatus ronl:validationStatus ronlo:validatedAt ronl:validatedAt
    ronlo:validationNote ronl:validationNote
  }
  ?m ?p ?o .
}`

// Services: the model points at its service with any of three implements
// predicates, or the service points at the model (the example data shape).
const modelServicesQuery = queryPrefixes + `SELECT DISTINCT ?m ?svc ?svcTitle ?org ?orgName ?logo WHERE {
  ` + decisionModelClasses + `
  ?m a ?class .
  { ?m ronl:implements|ronlo:implements|cprmv:implements|cprmv041:implements ?svc }
  UNION { ?svc cprmv:hasDecisionModel|cprmv041:hasDecisionModel ?m }
  OPTIONAL { ?svc dct:title ?svcTitle }
  OPTIONAL { ?svc cv:hasCompetentAuthority ?org .
             OPTIONAL { ?org skos:prefLabel ?orgName }
             OPTIONAL { ?org foaf:logo ?logo } }
}`

const modelValidatorsQuery = queryPrefixes + `SELECT DISTINCT ?m ?by ?name WHERE {
  ` + decisionModelClasses + `
  ?m a ?class ; ronlo:validatedBy|ronl:validatedBy ?by .
  OPTIONAL { ?by skos:prefLabel ?name }
}`

// Variables: the listing does not require a cpsv:Input/Output class;
// cpsv:isRequiredBy and cpsv:produces point from the
// variable to the model. Inputs and outputs are two queries
// without DISTINCT and without the DecisionModel join: the rows are
// deduplicated and matched to the listed models in Go, and a UNION with
// BIND over both directions cost memstore twice as much on the
// 10,000-model catalogue (BenchmarkListModelsCatalog).
const variableProps = `VALUES ?p { dct:identifier dct:title dct:type dct:description schema:value }`

const modelInputsQuery = queryPrefixes + `SELECT ?m ?v ?p ?o WHERE {
  ?v cpsv:isRequiredBy ?m .
  ` + variableProps + `
  ?v ?p ?o .
}`

const modelOutputsQuery = queryPrefixes + `SELECT ?m ?v ?p ?o WHERE {
  ?v cpsv:produces ?m .
  ` + variableProps + `
  ?v ?p ?o .
}`

const vendorsQuery = queryPrefixes + `SELECT DISTINCT ?vs ?m ?p ?o WHERE {
  ` + decisionModelClasses + `
  ?vs a ronlo:VendorService ; ronlo:basedOn ?m .
  ?m a ?class .
  ?vs ?p ?o .
}`

const vendorPartsQuery = queryPrefixes + `SELECT DISTINCT ?vs ?role ?node ?p ?o WHERE {
  ?vs a ronlo:VendorService .
  { ?vs schema:provider ?node . BIND("provider" AS ?role) }
  UNION { ?vs schema:provider/schema:contactPoint ?node . BIND("contact" AS ?role) }
  UNION { ?vs ronlo:implementedBy ?node . BIND("platform" AS ?role) }
  ?node ?p ?o .
}`

// props gathers the values of each predicate of one resource.
type props map[string]*values

func (p props) add(pred string, o graph.Term) {
	v := p[pred]
	if v == nil {
		v = &values{}
		p[pred] = v
	}
	v.add(o)
}

// get returns the values of the first predicate (in the given order) that
// has any, so both namespace spellings of one property are tried.
func (p props) get(preds ...string) values {
	for _, pr := range preds {
		if v := p[pr]; v != nil && len(*v) > 0 {
			return *v
		}
	}
	return nil
}

// ListOptions tune ListModels.
type ListOptions struct {
	// Logger receives the warnings of a degraded listing (a failed vendor
	// query, a variable without a type); nil discards them.
	Logger *slog.Logger
}

// ListModels returns every decision model of the knowledge graph with its
// inputs, outputs, governance and vendor services, ordered by identifier.
// A failing vendor query degrades to models without vendors (logged), as
// upstream did; any other failure is returned.
func ListModels(ctx context.Context, ep sparql.Endpoint, opts ListOptions) ([]Model, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	res, err := ep.Select(ctx, modelPropsQuery)
	if err != nil {
		return nil, fmt.Errorf("listing models: %w", err)
	}
	byModel := map[string]props{}
	for _, s := range res.Solutions {
		m := s["m"].Value
		if byModel[m] == nil {
			byModel[m] = props{}
		}
		byModel[m].add(s["p"].Value, s["o"])
	}
	models := map[string]*Model{}
	for iri, p := range byModel {
		id, title := p.get(nsDCT+"identifier").text(), p.get(nsDCT+"title").text()
		if id == "" || title == "" {
			continue // the listing requires both
		}
		m := &Model{
			ID: iri, Identifier: id, Title: title,
			Description:      p.get(nsDCT + "description").text(),
			DeploymentID:     p.get(nsCPRMV041+"deploymentId", nsCPRMV+"deploymentId").text(),
			DeployedAt:       p.get(nsCPRMV041+"deployedAt", nsCPRMV+"deployedAt").text(),
			LastTested:       p.get(nsCPRMV041+"lastTested", nsCPRMV+"lastTested").text(),
			TestStatus:       p.get(nsCPRMV041+"testStatus", nsCPRMV+"testStatus").text(),
			ImplementedBy:    p.get(nsRONLTerms+"implementedBy", nsCPRMV041+"implementedBy", nsCPRMV+"implementedBy").text(),
			ValidationStatus: optional(p.get(nsRONLOnto+"validationStatus", nsRONLTerms+"validationStatus").text()),
			ValidatedAt:      optional(p.get(nsRONLOnto+"validatedAt", nsRONLTerms+"validatedAt").date()),
			ValidationNote:   p.get(nsRONLOnto+"validationNote", nsRONLTerms+"validationNote").text(),
			XMLURL:           "/v1/dmns/" + url.PathEscape(id) + "/xml",
			Inputs:           []Variable{},
			Outputs:          []Variable{},
			Vendors:          []Vendor{},
		}
		models[iri] = m
	}
	if err := addServices(ctx, ep, models); err != nil {
		return nil, err
	}
	if err := addValidators(ctx, ep, models); err != nil {
		return nil, err
	}
	if err := addVariables(ctx, ep, models, logger); err != nil {
		return nil, err
	}
	if err := addVendors(ctx, ep, models); err != nil {
		logger.WarnContext(ctx, "vendor query failed; listing models without vendors", "error", err.Error())
		for _, m := range models {
			m.Vendors = []Vendor{}
		}
	}
	out := make([]Model, 0, len(models))
	for _, m := range models {
		m.VendorCount = len(m.Vendors)
		out = append(out, *m)
	}
	slices.SortFunc(out, func(a, b Model) int {
		return cmp.Or(cmp.Compare(a.Identifier, b.Identifier), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

func addServices(ctx context.Context, ep sparql.Endpoint, models map[string]*Model) error {
	res, err := ep.Select(ctx, modelServicesQuery)
	if err != nil {
		return fmt.Errorf("listing model services: %w", err)
	}
	type svcInfo struct{ titles, orgs values }
	type orgInfo struct{ names, logos values }
	svcs := map[string]map[string]*svcInfo{} // model -> service -> info
	orgs := map[string]*orgInfo{}
	for _, s := range res.Solutions {
		m, svc := s["m"].Value, s["svc"]
		if models[m] == nil || !svc.IsIRI() {
			continue
		}
		if svcs[m] == nil {
			svcs[m] = map[string]*svcInfo{}
		}
		si := svcs[m][svc.Value]
		if si == nil {
			si = &svcInfo{}
			svcs[m][svc.Value] = si
		}
		si.titles.add(s["svcTitle"])
		if org := s["org"]; org.IsIRI() {
			si.orgs.add(org)
			oi := orgs[org.Value]
			if oi == nil {
				oi = &orgInfo{}
				orgs[org.Value] = oi
			}
			oi.names.add(s["orgName"])
			oi.logos.add(s["logo"])
		}
	}
	for m, byService := range svcs {
		// Several services: the lexically smallest IRI wins.
		var all values
		for svc := range byService {
			all.add(graph.IRI(svc))
		}
		chosen := all.iri()
		si := byService[chosen]
		mod := models[m]
		mod.Service, mod.ServiceTitle = chosen, si.titles.text()
		if org := si.orgs.iri(); org != "" {
			mod.Organization = org
			mod.OrganizationName = orgs[org].names.text()
			mod.LogoURL = orgs[org].logos.iri()
		}
	}
	return nil
}

func addValidators(ctx context.Context, ep sparql.Endpoint, models map[string]*Model) error {
	res, err := ep.Select(ctx, modelValidatorsQuery)
	if err != nil {
		return fmt.Errorf("listing model validators: %w", err)
	}
	by := map[string]*values{}
	names := map[string]*values{}
	for _, s := range res.Solutions {
		m := s["m"].Value
		if models[m] == nil {
			continue
		}
		if by[m] == nil {
			by[m] = &values{}
		}
		by[m].add(s["by"])
		key := m + "\x00" + s["by"].Value
		if names[key] == nil {
			names[key] = &values{}
		}
		names[key].add(s["name"])
	}
	for m, v := range by {
		validator := v.iri()
		if validator == "" {
			validator = v.text()
		}
		models[m].ValidatedBy = validator
		if n := names[m+"\x00"+validator]; n != nil {
			models[m].ValidatedByName = optional(n.text())
		}
	}
	return nil
}

func addVariables(ctx context.Context, ep sparql.Endpoint, models map[string]*Model, logger *slog.Logger) error {
	for _, dir := range []struct {
		query string
		input bool
	}{{modelInputsQuery, true}, {modelOutputsQuery, false}} {
		res, err := ep.Select(ctx, dir.query)
		if err != nil {
			return fmt.Errorf("listing model variables: %w", err)
		}
		type key struct{ model, v string }
		vars := map[key]props{}
		var order []key
		for _, s := range res.Solutions {
			k := key{s["m"].Value, s["v"].Value}
			if models[k.model] == nil {
				continue
			}
			p := vars[k]
			if p == nil {
				p = props{}
				vars[k] = p
				order = append(order, k)
			}
			p.add(s["p"].Value, s["o"])
		}
		for _, k := range order {
			p := vars[k]
			v := Variable{
				URI:         k.v,
				Identifier:  p.get(nsDCT + "identifier").text(),
				Title:       p.get(nsDCT + "title").text(),
				Type:        p.get(nsDCT + "type").text(),
				Description: p.get(nsDCT + "description").text(),
			}
			if v.Identifier == "" {
				continue // a variable without identifier cannot be matched or passed
			}
			// Upstream silently dropped variables lacking title or type;
			// keep them with fallbacks and say so.
			if v.Title == "" {
				v.Title = v.Identifier
			}
			if v.Type == "" {
				logger.WarnContext(ctx, "variable without dct:type", "variable", k.v, "model", k.model)
			}
			if tv := p.get(nsSchema + "value"); len(tv) > 0 {
				v.TestValue = testValue(tv.text(), v.Type)
			}
			m := models[k.model]
			if dir.input {
				m.Inputs = append(m.Inputs, v)
			} else {
				m.Outputs = append(m.Outputs, v)
			}
		}
	}
	byID := func(a, b Variable) int {
		return cmp.Or(cmp.Compare(a.Identifier, b.Identifier), cmp.Compare(a.URI, b.URI))
	}
	for _, m := range models {
		slices.SortFunc(m.Inputs, byID)
		slices.SortFunc(m.Outputs, byID)
	}
	return nil
}

func addVendors(ctx context.Context, ep sparql.Endpoint, models map[string]*Model) error {
	res, err := ep.Select(ctx, vendorsQuery)
	if err != nil {
		return err
	}
	type vendorKey struct{ vs, model string }
	vps := map[vendorKey]props{}
	for _, s := range res.Solutions {
		k := vendorKey{s["vs"].Value, s["m"].Value}
		if models[k.model] == nil {
			continue
		}
		if vps[k] == nil {
			vps[k] = props{}
		}
		vps[k].add(s["p"].Value, s["o"])
	}
	if len(vps) == 0 {
		return nil
	}
	parts, err := ep.Select(ctx, vendorPartsQuery)
	if err != nil {
		return err
	}
	type partKey struct{ vs, role string }
	nodes := map[partKey]*values{}
	nodeProps := map[string]props{}
	for _, s := range parts.Solutions {
		k := partKey{s["vs"].Value, s["role"].Value}
		if nodes[k] == nil {
			nodes[k] = &values{}
		}
		nodes[k].add(s["node"])
		nk := s["node"].String()
		if nodeProps[nk] == nil {
			nodeProps[nk] = props{}
		}
		nodeProps[nk].add(s["p"].Value, s["o"])
	}
	node := func(vs, role string) props {
		v := nodes[partKey{vs, role}]
		if v == nil || len(*v) == 0 {
			return nil
		}
		// Deterministic choice among several nodes of one role.
		chosen := (*v)[0]
		for _, t := range *v {
			if graph.CompareTerms(t, chosen) < 0 {
				chosen = t
			}
		}
		return nodeProps[chosen.String()]
	}
	for k, p := range vps {
		m := models[k.model]
		v := Vendor{
			URI:               k.vs,
			Title:             p.get(nsDCT + "title").text(),
			Vendor:            "Unknown Vendor",
			BasedOn:           m.ID,
			BasedOnIdentifier: m.Identifier,
			ImplementedBy:     p.get(nsRONLOnto + "implementedBy").iri(),
			ServiceURL:        p.get(nsSchema + "url").text(),
			License:           p.get(nsSchema + "license").text(),
			AccessType:        p.get(nsRONLOnto + "accessType").text(),
			Description:       p.get(nsDCT + "description").text(),
		}
		if plat := node(k.vs, "platform"); plat != nil {
			v.ImplementedByName = plat.get(nsSKOS + "prefLabel").text()
		}
		if prov := node(k.vs, "provider"); prov != nil {
			pr := &Provider{
				Name:     prov.get(nsSchema + "name").text(),
				LogoURL:  prov.get(nsSchema + "image").text(),
				Homepage: prov.get(nsFOAF + "homepage").text(),
			}
			if pr.Name != "" {
				v.Vendor = pr.Name
			}
			if cp := node(k.vs, "contact"); cp != nil {
				pr.ContactPoint = &ContactPoint{
					Name:      cp.get(nsSchema + "name").text(),
					Email:     cp.get(nsSchema + "email").text(),
					Telephone: cp.get(nsSchema + "telephone").text(),
				}
			}
			v.Provider = pr
		}
		m.Vendors = append(m.Vendors, v)
	}
	for _, m := range models {
		slices.SortFunc(m.Vendors, func(a, b Vendor) int { return cmp.Compare(a.URI, b.URI) })
	}
	return nil
}
