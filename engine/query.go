package engine

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Values encodes the query as Operaton's query parameters.
func (q DecisionDefinitionQuery) Values() url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	flag := func(k string, b bool) {
		if b {
			v.Set(k, "true")
		}
	}
	set("decisionDefinitionId", q.ID)
	set("decisionDefinitionIdIn", strings.Join(q.IDIn, ","))
	set("key", q.Key)
	set("keyLike", q.KeyLike)
	set("name", q.Name)
	set("nameLike", q.NameLike)
	set("category", q.Category)
	set("categoryLike", q.CategoryLike)
	set("deploymentId", q.DeploymentID)
	set("resourceName", q.ResourceName)
	set("resourceNameLike", q.ResourceNameLike)
	if q.Version != 0 {
		v.Set("version", strconv.Itoa(q.Version))
	}
	flag("latestVersion", q.LatestVersion)
	set("decisionRequirementsDefinitionId", q.DecisionRequirementsDefinitionID)
	set("decisionRequirementsDefinitionKey", q.DecisionRequirementsDefinitionKey)
	flag("withoutDecisionRequirementsDefinition", q.WithoutDecisionRequirementsDefinition)
	set("tenantIdIn", strings.Join(q.TenantIDIn, ","))
	flag("withoutTenantId", q.WithoutTenantID)
	flag("includeDecisionDefinitionsWithoutTenantId", q.IncludeDefinitionsWithoutTenantID)
	set("versionTag", q.VersionTag)
	set("versionTagLike", q.VersionTagLike)
	set("sortBy", q.SortBy)
	set("sortOrder", q.SortOrder)
	v = withPaging(v, q.FirstResult, q.MaxResults)
	return v
}

var definitionSortKeys = []string{"category", "key", "id", "name", "version", "deploymentId", "tenantId", "versionTag"}

// ParseDecisionDefinitionQuery reads Operaton's query parameters of
// GET /decision-definition. Unknown parameters are ignored, as Operaton
// does; malformed values give a 400 *Error.
func ParseDecisionDefinitionQuery(v url.Values) (DecisionDefinitionQuery, error) {
	p := paramReader{v: v}
	q := DecisionDefinitionQuery{
		ID: v.Get("decisionDefinitionId"), IDIn: p.list("decisionDefinitionIdIn"),
		Key: v.Get("key"), KeyLike: v.Get("keyLike"), Name: v.Get("name"), NameLike: v.Get("nameLike"),
		Category: v.Get("category"), CategoryLike: v.Get("categoryLike"), DeploymentID: v.Get("deploymentId"),
		ResourceName: v.Get("resourceName"), ResourceNameLike: v.Get("resourceNameLike"),
		Version: p.int("version"), LatestVersion: p.bool("latestVersion"),
		DecisionRequirementsDefinitionID:      v.Get("decisionRequirementsDefinitionId"),
		DecisionRequirementsDefinitionKey:     v.Get("decisionRequirementsDefinitionKey"),
		WithoutDecisionRequirementsDefinition: p.bool("withoutDecisionRequirementsDefinition"),
		TenantIDIn:                            p.list("tenantIdIn"), WithoutTenantID: p.bool("withoutTenantId"),
		IncludeDefinitionsWithoutTenantID: p.bool("includeDecisionDefinitionsWithoutTenantId"),
		VersionTag:                        v.Get("versionTag"), VersionTagLike: v.Get("versionTagLike"),
	}
	q.SortBy, q.SortOrder = p.sort(definitionSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

// Values encodes the query as Operaton's query parameters.
func (q DeploymentQuery) Values() url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("id", q.ID)
	set("name", q.Name)
	set("nameLike", q.NameLike)
	set("source", q.Source)
	set("tenantIdIn", strings.Join(q.TenantIDIn, ","))
	if q.WithoutTenantID {
		v.Set("withoutTenantId", "true")
	}
	if q.IncludeDeploymentsWithoutTenant {
		v.Set("includeDeploymentsWithoutTenantId", "true")
	}
	set("sortBy", q.SortBy)
	set("sortOrder", q.SortOrder)
	v = withPaging(v, q.FirstResult, q.MaxResults)
	return v
}

// ParseDeploymentQuery reads Operaton's query parameters of GET /deployment.
func ParseDeploymentQuery(v url.Values) (DeploymentQuery, error) {
	p := paramReader{v: v}
	q := DeploymentQuery{ID: v.Get("id"), Name: v.Get("name"), NameLike: v.Get("nameLike"), Source: v.Get("source"),
		TenantIDIn: p.list("tenantIdIn"), WithoutTenantID: p.bool("withoutTenantId"),
		IncludeDeploymentsWithoutTenant: p.bool("includeDeploymentsWithoutTenantId")}
	q.SortBy, q.SortOrder = p.sort([]string{"id", "name", "deploymentTime", "tenantId"})
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

// withPaging adds firstResult and maxResults (MaxResults -1 is Operaton's
// maxResults=0).
func withPaging(v url.Values, first, maxResults int) url.Values {
	if first != 0 {
		v.Set("firstResult", strconv.Itoa(first))
	}
	switch {
	case maxResults > 0:
		v.Set("maxResults", strconv.Itoa(maxResults))
	case maxResults < 0:
		v.Set("maxResults", "0")
	}
	return v
}

type paramReader struct {
	v   url.Values
	err error
}

func (p *paramReader) fail(format string, args ...any) {
	if p.err == nil {
		p.err = InvalidRequest(format, args...)
	}
}

func (p *paramReader) int(k string) int {
	s := p.v.Get(k)
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		p.fail("Cannot set query parameter '%s' to value '%s'", k, clip(s))
		return 0
	}
	return n
}

// paging reads firstResult and maxResults; maxResults=0 asks for no rows
// and becomes -1.
func (p *paramReader) paging() (first, maxResults int) {
	first = p.int("firstResult")
	maxResults = p.int("maxResults")
	if maxResults == 0 && p.v.Get("maxResults") != "" {
		maxResults = -1
	}
	return first, maxResults
}

func (p *paramReader) bool(k string) bool {
	switch s := p.v.Get(k); s {
	case "":
		return false
	case "true":
		return true
	case "false":
		return false
	default:
		p.fail("Cannot set query parameter '%s' to value '%s'", k, clip(s))
		return false
	}
}

func (p *paramReader) list(k string) []string {
	s := p.v.Get(k)
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func (p *paramReader) sort(valid []string) (by, order string) {
	by, order = p.v.Get("sortBy"), p.v.Get("sortOrder")
	if by == "" && order == "" {
		return "", ""
	}
	if by == "" || order == "" {
		p.fail("Only a single sorting parameter specified. sortBy and sortOrder required")
		return "", ""
	}
	if !slices.Contains(valid, by) {
		p.fail("Cannot set query parameter 'sortBy' to value '%s'", clip(by))
	}
	if order != "asc" && order != "desc" {
		p.fail("Cannot set query parameter 'sortOrder' to value '%s'", clip(order))
	}
	return by, order
}

// Like reports whether s matches an SQL LIKE pattern (% any run, _ one
// character), the pattern language of Operaton's …Like parameters.
func Like(s, pattern string) bool {
	sr, pr := []rune(s), []rune(pattern)
	// dynamic programming over (i in s, j in pattern)
	prev := make([]bool, len(sr)+1)
	cur := make([]bool, len(sr)+1)
	prev[0] = true
	for j := 1; j <= len(pr); j++ {
		cur[0] = prev[0] && pr[j-1] == '%'
		for i := 1; i <= len(sr); i++ {
			switch pr[j-1] {
			case '%':
				cur[i] = prev[i] || cur[i-1]
			case '_':
				cur[i] = prev[i-1]
			default:
				cur[i] = prev[i-1] && sr[i-1] == pr[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(sr)]
}

// Filter applies the query to definitions: filters, latest version per key
// and tenant, sorting (stable; unsorted keeps the input order) and paging.
func (q DecisionDefinitionQuery) Filter(defs []DecisionDefinition) []DecisionDefinition {
	var out []DecisionDefinition
	latest := map[[2]string]int{}
	if q.LatestVersion {
		for _, d := range defs {
			k := [2]string{d.TenantID, d.Key}
			latest[k] = max(latest[k], d.Version)
		}
	}
	for _, d := range defs {
		if q.matches(d) && (!q.LatestVersion || latest[[2]string{d.TenantID, d.Key}] == d.Version) {
			out = append(out, d)
		}
	}
	if q.SortBy != "" {
		field := map[string]func(DecisionDefinition) string{
			"category":     func(d DecisionDefinition) string { return d.Category },
			"key":          func(d DecisionDefinition) string { return d.Key },
			"id":           func(d DecisionDefinition) string { return d.ID },
			"name":         func(d DecisionDefinition) string { return d.Name },
			"deploymentId": func(d DecisionDefinition) string { return d.DeploymentID },
			"tenantId":     func(d DecisionDefinition) string { return d.TenantID },
			"versionTag":   func(d DecisionDefinition) string { return d.VersionTag },
		}[q.SortBy]
		slices.SortStableFunc(out, func(a, b DecisionDefinition) int {
			var c int
			if q.SortBy == "version" {
				c = cmp.Compare(a.Version, b.Version)
			} else if field != nil {
				c = strings.Compare(field(a), field(b))
			}
			if q.SortOrder == "desc" {
				c = -c
			}
			return c
		})
	}
	return Page(out, q.FirstResult, q.MaxResults)
}

func (q DecisionDefinitionQuery) matches(d DecisionDefinition) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	like := func(p, got string) bool { return p == "" || Like(got, p) }
	switch {
	case !eq(q.ID, d.ID), len(q.IDIn) > 0 && !slices.Contains(q.IDIn, d.ID),
		!eq(q.Key, d.Key), !like(q.KeyLike, d.Key),
		!eq(q.Name, d.Name), !like(q.NameLike, d.Name),
		!eq(q.Category, d.Category), !like(q.CategoryLike, d.Category),
		!eq(q.DeploymentID, d.DeploymentID),
		!eq(q.ResourceName, d.Resource), !like(q.ResourceNameLike, d.Resource),
		q.Version != 0 && q.Version != d.Version,
		!eq(q.DecisionRequirementsDefinitionID, d.DecisionRequirementsDefinitionID),
		!eq(q.DecisionRequirementsDefinitionKey, d.DecisionRequirementsDefinitionKey),
		q.WithoutDecisionRequirementsDefinition && d.DecisionRequirementsDefinitionID != "",
		!eq(q.VersionTag, d.VersionTag), !like(q.VersionTagLike, d.VersionTag):
		return false
	}
	return tenantMatches(q.TenantIDIn, q.WithoutTenantID, q.IncludeDefinitionsWithoutTenantID, d.TenantID)
}

func tenantMatches(in []string, without, includeWithout bool, tenant string) bool {
	if without && tenant != "" {
		return false
	}
	if len(in) > 0 {
		return slices.Contains(in, tenant) || (includeWithout && tenant == "")
	}
	return true
}

// Filter applies the query to deployments (filters, sorting, paging).
func (q DeploymentQuery) Filter(deps []Deployment) []Deployment {
	var out []Deployment
	for _, d := range deps {
		if (q.ID == "" || q.ID == d.ID) && (q.Name == "" || q.Name == d.Name) && (q.NameLike == "" || Like(d.Name, q.NameLike)) &&
			(q.Source == "" || q.Source == d.Source) && tenantMatches(q.TenantIDIn, q.WithoutTenantID, q.IncludeDeploymentsWithoutTenant, d.TenantID) {
			out = append(out, d)
		}
	}
	if q.SortBy != "" {
		slices.SortStableFunc(out, func(a, b Deployment) int {
			var c int
			switch q.SortBy {
			case "id":
				c = strings.Compare(a.ID, b.ID)
			case "name":
				c = strings.Compare(a.Name, b.Name)
			case "deploymentTime":
				c = a.Time.Compare(b.Time)
			case "tenantId":
				c = strings.Compare(a.TenantID, b.TenantID)
			}
			if q.SortOrder == "desc" {
				c = -c
			}
			return c
		})
	}
	return Page(out, q.FirstResult, q.MaxResults)
}

// Page applies Operaton's paging to a filtered, sorted list: skip first,
// then keep maxResults (0: no limit; -1: no rows, Operaton's maxResults=0).
func Page[T any](s []T, first, maxResults int) []T {
	if maxResults < 0 {
		return nil
	}
	if first > 0 {
		if first >= len(s) {
			return nil
		}
		s = s[first:]
	}
	if maxResults > 0 && maxResults < len(s) {
		s = s[:maxResults]
	}
	return s
}

// SortDecisionDefinitions sorts by key, then tenant, then version.
func SortDecisionDefinitions(defs []DecisionDefinition) {
	slices.SortFunc(defs, func(a, b DecisionDefinition) int {
		return cmp.Or(strings.Compare(a.Key, b.Key), strings.Compare(a.TenantID, b.TenantID), cmp.Compare(a.Version, b.Version))
	})
}

func sortDRDs(defs []DecisionRequirementsDefinition) {
	slices.SortFunc(defs, func(a, b DecisionRequirementsDefinition) int {
		return cmp.Or(strings.Compare(a.Key, b.Key), strings.Compare(a.TenantID, b.TenantID), cmp.Compare(a.Version, b.Version))
	})
}
