package engine

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLike(t *testing.T) {
	for _, tc := range []struct {
		s, p string
		want bool
	}{
		{"invoice", "invoice", true}, {"invoice", "inv%", true}, {"invoice", "%voice", true}, {"invoice", "%vo%", true},
		{"invoice", "i_voice", true}, {"invoice", "i_oice", false}, {"invoice", "%x%", false}, {"", "%", true},
		{"", "_", false}, {"ab", "a", false}, {"a%b", "a%b", true}, {"héllo", "h_llo", true},
	} {
		if got := Like(tc.s, tc.p); got != tc.want {
			t.Errorf("Like(%q, %q) = %v", tc.s, tc.p, got)
		}
	}
}

func TestDecisionDefinitionQueryParams(t *testing.T) {
	q := DecisionDefinitionQuery{ID: "a:1:x", IDIn: []string{"a", "b"}, Key: "k", KeyLike: "k%", Name: "n", NameLike: "%n",
		Category: "c", CategoryLike: "c%", DeploymentID: "d", ResourceName: "r.dmn", ResourceNameLike: "%.dmn", Version: 3,
		LatestVersion: true, DecisionRequirementsDefinitionID: "drd:1", DecisionRequirementsDefinitionKey: "drd",
		WithoutDecisionRequirementsDefinition: true, TenantIDIn: []string{"t1", "t2"}, WithoutTenantID: true,
		IncludeDefinitionsWithoutTenantID: true, VersionTag: "v", VersionTagLike: "v%", SortBy: "version", SortOrder: "desc",
		FirstResult: 5, MaxResults: 10}
	back, err := ParseDecisionDefinitionQuery(q.Values())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, q) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, q)
	}
	v := q.Values()
	if v.Get("tenantIdIn") != "t1,t2" || v.Get("latestVersion") != "true" || v.Get("includeDecisionDefinitionsWithoutTenantId") != "true" {
		t.Errorf("parameters: %v", v)
	}
	zero, _ := ParseDecisionDefinitionQuery(url.Values{"maxResults": {"0"}})
	if zero.MaxResults != -1 || zero.Values().Get("maxResults") != "0" {
		t.Errorf("maxResults=0: %+v", zero)
	}
	for _, bad := range []string{"sortBy=key", "sortBy=color&sortOrder=asc", "sortBy=key&sortOrder=up", "version=x", "latestVersion=maybe", "firstResult=-1"} {
		v, _ := url.ParseQuery(bad)
		_, err := ParseDecisionDefinitionQuery(v)
		var e *Error
		if err == nil || !asError(err, &e) || e.Status != 400 || e.Type != "InvalidRequestException" {
			t.Errorf("%s: got %v, want a 400 InvalidRequestException", bad, err)
		}
	}
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	*target = e
	return ok
}

func TestDeploymentQueryParams(t *testing.T) {
	q := DeploymentQuery{ID: "i", Name: "n", NameLike: "n%", Source: "s", TenantIDIn: []string{"a"}, WithoutTenantID: true,
		IncludeDeploymentsWithoutTenant: true, SortBy: "deploymentTime", SortOrder: "asc", FirstResult: 1, MaxResults: -1}
	back, err := ParseDeploymentQuery(q.Values())
	if err != nil || !reflect.DeepEqual(back, q) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if _, err := ParseDeploymentQuery(url.Values{"sortBy": {"key"}, "sortOrder": {"asc"}}); err == nil {
		t.Error("sortBy=key is not a deployment sort key")
	}
}

func defsForQuery() []DecisionDefinition {
	return []DecisionDefinition{
		{ID: "a:1", Key: "a", Name: "Alpha", Version: 1, Category: "urn:x", Resource: "a.dmn", DeploymentID: "d1"},
		{ID: "a:2", Key: "a", Name: "Alpha", Version: 2, Category: "urn:x", Resource: "a.dmn", DeploymentID: "d2", VersionTag: "2.0"},
		{ID: "b:1", Key: "b", Name: "Beta", Version: 1, Category: "urn:y", Resource: "b.dmn", DeploymentID: "d1", DecisionRequirementsDefinitionID: "drd:1", DecisionRequirementsDefinitionKey: "drd"},
		{ID: "a:1:t1", Key: "a", Name: "Alpha", Version: 1, TenantID: "t1", Resource: "a.dmn", DeploymentID: "d3"},
		{ID: "a:3:t1", Key: "a", Name: "Alpha", Version: 3, TenantID: "t1", Resource: "a.dmn", DeploymentID: "d4"},
		{ID: "c:1:t2", Key: "c", Name: "Gamma", Version: 1, TenantID: "t2", Resource: "c.dmn", DeploymentID: "d5"},
	}
}

func ids(defs []DecisionDefinition) string {
	var s []string
	for _, d := range defs {
		s = append(s, d.ID)
	}
	return strings.Join(s, " ")
}

func TestDecisionDefinitionFilter(t *testing.T) {
	all := defsForQuery()
	for _, tc := range []struct {
		name string
		q    DecisionDefinitionQuery
		want string
	}{
		{"all", DecisionDefinitionQuery{}, "a:1 a:2 b:1 a:1:t1 a:3:t1 c:1:t2"},
		{"key", DecisionDefinitionQuery{Key: "a"}, "a:1 a:2 a:1:t1 a:3:t1"},
		{"latest per tenant", DecisionDefinitionQuery{Key: "a", LatestVersion: true}, "a:2 a:3:t1"},
		{"latest without tenant", DecisionDefinitionQuery{Key: "a", LatestVersion: true, WithoutTenantID: true}, "a:2"},
		{"tenant", DecisionDefinitionQuery{TenantIDIn: []string{"t1"}}, "a:1:t1 a:3:t1"},
		{"tenant and untenanted", DecisionDefinitionQuery{TenantIDIn: []string{"t2"}, IncludeDefinitionsWithoutTenantID: true}, "a:1 a:2 b:1 c:1:t2"},
		{"name like", DecisionDefinitionQuery{NameLike: "%a"}, "a:1 a:2 b:1 a:1:t1 a:3:t1 c:1:t2"},
		{"key like", DecisionDefinitionQuery{KeyLike: "b%"}, "b:1"},
		{"category", DecisionDefinitionQuery{Category: "urn:y"}, "b:1"},
		{"drd key", DecisionDefinitionQuery{DecisionRequirementsDefinitionKey: "drd"}, "b:1"},
		{"without drd", DecisionDefinitionQuery{WithoutDecisionRequirementsDefinition: true, Key: "b"}, ""},
		{"version tag", DecisionDefinitionQuery{VersionTag: "2.0"}, "a:2"},
		{"version", DecisionDefinitionQuery{Version: 1, Key: "a"}, "a:1 a:1:t1"},
		{"id in", DecisionDefinitionQuery{IDIn: []string{"b:1", "c:1:t2"}}, "b:1 c:1:t2"},
		{"deployment", DecisionDefinitionQuery{DeploymentID: "d1"}, "a:1 b:1"},
		{"resource like", DecisionDefinitionQuery{ResourceNameLike: "c.%"}, "c:1:t2"},
		{"sort by version desc", DecisionDefinitionQuery{Key: "a", SortBy: "version", SortOrder: "desc"}, "a:3:t1 a:2 a:1 a:1:t1"},
		{"sort by name asc, page", DecisionDefinitionQuery{SortBy: "name", SortOrder: "asc", FirstResult: 3, MaxResults: 2}, "a:3:t1 b:1"},
		{"first beyond the end", DecisionDefinitionQuery{FirstResult: 10}, ""},
		{"no rows", DecisionDefinitionQuery{MaxResults: -1}, ""},
	} {
		if got := ids(tc.q.Filter(all)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDeploymentFilter(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	deps := []Deployment{{ID: "1", Name: "b", Time: t0.Add(time.Hour)}, {ID: "2", Name: "a", Time: t0, TenantID: "t"}, {ID: "3", Name: "ab", Time: t0.Add(2 * time.Hour)}}
	str := func(ds []Deployment) string {
		var s []string
		for _, d := range ds {
			s = append(s, d.ID)
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		q    DeploymentQuery
		want string
	}{
		{DeploymentQuery{}, "1 2 3"}, {DeploymentQuery{NameLike: "a%"}, "2 3"}, {DeploymentQuery{WithoutTenantID: true}, "1 3"},
		{DeploymentQuery{SortBy: "deploymentTime", SortOrder: "desc"}, "3 1 2"}, {DeploymentQuery{SortBy: "name", SortOrder: "asc", MaxResults: 2}, "2 3"},
		{DeploymentQuery{TenantIDIn: []string{"t"}}, "2"}, {DeploymentQuery{ID: "3"}, "3"},
	} {
		if got := str(tc.q.Filter(deps)); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestDefinitionJSON(t *testing.T) {
	ttl := 30
	d := DecisionDefinition{ID: "k:1:u", Key: "k", Category: "urn:c", Name: "K", Version: 1, Resource: "k.dmn", DeploymentID: "dep", HistoryTimeToLive: &ttl}
	b, _ := json.Marshal(d)
	want := `{"id":"k:1:u","key":"k","category":"urn:c","name":"K","version":1,"resource":"k.dmn","deploymentId":"dep","decisionRequirementsDefinitionId":null,"decisionRequirementsDefinitionKey":null,"tenantId":null,"versionTag":null,"historyTimeToLive":30}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var back DecisionDefinition
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, d) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	dep := Deployment{ID: "dep", Name: "n", Time: time.Date(2025, 12, 24, 10, 0, 0, 5e6, time.UTC), DeployedDecisionDefinitions: []DecisionDefinition{d},
		DeployedDecisionRequirementsDefinitions: []DecisionRequirementsDefinition{{ID: "drd:1:u", Key: "drd", Version: 1}}}
	b, _ = json.Marshal(dep)
	var m map[string]any
	json.Unmarshal(b, &m)
	if m["deploymentTime"] != "2025-12-24T10:00:00.005+0000" || m["tenantId"] != nil || m["deployedProcessDefinitions"] != nil ||
		m["deployedDecisionDefinitions"].(map[string]any)["k:1:u"] == nil || m["source"] != nil {
		t.Errorf("deployment JSON: %s", b)
	}
	var depBack Deployment
	if err := json.Unmarshal(b, &depBack); err != nil || !depBack.Time.Equal(dep.Time) || len(depBack.DeployedDecisionDefinitions) != 1 ||
		depBack.DeployedDecisionDefinitions[0].ID != "k:1:u" || depBack.DeployedDecisionRequirementsDefinitions[0].Key != "drd" {
		t.Errorf("deployment round trip: %+v, %v", depBack, err)
	}
}
