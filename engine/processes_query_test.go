package engine

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestTaskQueryParams(t *testing.T) {
	v, _ := url.ParseQuery("processVariables=municipality_eq_utrecht,is_new_neq_false&candidateGroups=caseworker,manager" +
		"&includeAssignedTasks=true&sortBy=created&sortOrder=desc&firstResult=10&maxResults=5&taskDefinitionKeyIn=a,b")
	q, err := ParseTaskQuery(v)
	if err != nil {
		t.Fatal(err)
	}
	want := TaskQuery{
		ProcessVariables: []VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}, {Name: "is_new", Operator: "neq", Value: "false"}},
		CandidateGroups:  []string{"caseworker", "manager"}, IncludeAssignedTasks: true, TaskDefinitionKeyIn: []string{"a", "b"},
		SortBy: "created", SortOrder: "desc", FirstResult: 10, MaxResults: 5,
	}
	if !reflect.DeepEqual(q, want) {
		t.Fatalf("parse:\n got %+v\nwant %+v", q, want)
	}
	got := q.Values()
	if got.Get("processVariables") != "municipality_eq_utrecht,is_new_neq_false" || got.Get("candidateGroups") != "caseworker,manager" ||
		got.Get("includeAssignedTasks") != "true" || got.Get("maxResults") != "5" || got.Get("sortBy") != "created" {
		t.Errorf("values: %v", got)
	}
	back, err := ParseTaskQuery(got)
	if err != nil || !reflect.DeepEqual(back, q) {
		t.Errorf("round trip: %+v %v", back, err)
	}
	for bad, msg := range map[string]string{
		"processVariables=a_like2_b":                   "Invalid variable comparator specified: like2",
		"processVariables=nooperator":                  "KEY_OPERATOR_VALUE",
		"sortBy=colour&sortOrder=asc":                  "'sortBy' to value 'colour'",
		"sortBy=created":                               "sortBy and sortOrder required",
		"assigned=yes":                                 "'assigned' to value 'yes'",
		"maxResults=-3":                                "'maxResults' to value '-3'",
		"taskIdIn=" + strings.Repeat("x,", 1000) + "x": "more than 1000 values",
	} {
		v, _ := url.ParseQuery(bad)
		_, err := ParseTaskQuery(v)
		var e *Error
		if err == nil || !asError(err, &e) || e.Status != 400 || e.Type != "InvalidRequestException" || !strings.Contains(e.Message, msg) {
			t.Errorf("%.60s: got %v, want a 400 InvalidRequestException with %q", bad, err, msg)
		}
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = "a_eq_b"
	}
	if _, err := ParseTaskQuery(url.Values{"processVariables": {strings.Join(many, ",")}}); err == nil {
		t.Error("101 variable filters were accepted")
	}
}

func TestTaskQueryBody(t *testing.T) {
	body := `{"processVariables":[{"name":"municipality","operator":"eq","value":"utrecht"},{"name":"amount","operator":"gt","value":1000}],
		"candidateGroups":["caseworker"],"includeAssignedTasks":true,"sorting":[{"sortBy":"created","sortOrder":"desc"},{"sortBy":"priority","sortOrder":"asc"}],
		"unknownMember":1}`
	q, err := ParseTaskQueryJSON([]byte(body), url.Values{"firstResult": {"2"}, "maxResults": {"0"}})
	if err != nil {
		t.Fatal(err)
	}
	want := TaskQuery{
		ProcessVariables: []VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}, {Name: "amount", Operator: "gt", Value: json.Number("1000")}},
		CandidateGroups:  []string{"caseworker"}, IncludeAssignedTasks: true,
		Sorting:     []Sorting{{SortBy: "created", SortOrder: "desc"}, {SortBy: "priority", SortOrder: "asc"}},
		FirstResult: 2, MaxResults: -1,
	}
	if !reflect.DeepEqual(q, want) {
		t.Fatalf("parse:\n got %+v\nwant %+v", q, want)
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "body", b, `{"processVariables":[{"name":"municipality","operator":"eq","value":"utrecht"},{"name":"amount","operator":"gt","value":1000}],
		"candidateGroups":["caseworker"],"includeAssignedTasks":true,"sorting":[{"sortBy":"created","sortOrder":"desc"},{"sortBy":"priority","sortOrder":"asc"}]}`)
	for bad, msg := range map[string]string{
		`{"processVariables":[{"name":"a","operator":"between","value":1}]}`:  "Invalid variable comparator specified: between",
		`{"sorting":[{"sortBy":"colour","sortOrder":"asc"}]}`:                 "'sortBy' to value 'colour'",
		`{"sorting":[{"sortBy":"created","sortOrder":"sideways"}]}`:           "'sortOrder' to value 'sideways'",
		`{"candidateGroups":"caseworker"}`:                                    "member 'candidateGroups'",
		`{"processVariables":[{"name":"a","operator":"eq","value":{"x":1}}]}`: "must be a string, number, boolean or null",
		`[1,2]`:        "not a JSON object",
		`{"assigned":`: "not a JSON object",
	} {
		_, err := ParseTaskQueryJSON([]byte(bad), nil)
		var e *Error
		if err == nil || !asError(err, &e) || e.Status != 400 || !strings.Contains(e.Message, msg) {
			t.Errorf("%s: got %v, want a 400 with %q", bad, err, msg)
		}
	}
}

func TestHistoricProcessInstanceQueryBody(t *testing.T) {
	// what the business API sends for GET /v1/process/history
	body := `{"variables":[{"name":"applicantId","operator":"eq","value":"123"}],"sorting":[{"sortBy":"startTime","sortOrder":"desc"}]}`
	q, err := ParseHistoricProcessInstanceQueryJSON([]byte(body), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := HistoricProcessInstanceQuery{Variables: []VariableFilter{{Name: "applicantId", Operator: "eq", Value: "123"}},
		Sorting: []Sorting{{SortBy: "startTime", SortOrder: "desc"}}}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("parse:\n got %+v\nwant %+v", q, want)
	}
	q, err = ParseHistoricProcessInstanceQueryJSON([]byte(`{"processInstanceIds":["a","b"]}`), nil)
	if err != nil || !reflect.DeepEqual(q.ProcessInstanceIDs, []string{"a", "b"}) {
		t.Errorf("processInstanceIds: %+v %v", q, err)
	}
	if _, err := ParseHistoricProcessInstanceQueryJSON([]byte(`{"state":"SLEEPING"}`), nil); err == nil {
		t.Error("an unknown state was accepted")
	}
	v, _ := url.ParseQuery("processInstanceBusinessKey=bk&finished=true&state=COMPLETED&variables=a_eq_1&sortBy=endTime&sortOrder=asc")
	g, err := ParseHistoricProcessInstanceQuery(v)
	wantG := HistoricProcessInstanceQuery{BusinessKey: "bk", Finished: true, State: StateCompleted,
		Variables: []VariableFilter{{Name: "a", Operator: "eq", Value: "1"}}, SortBy: "endTime", SortOrder: "asc"}
	if err != nil || !reflect.DeepEqual(g, wantG) {
		t.Errorf("GET:\n got %+v %v\nwant %+v", g, err, wantG)
	}
}

func TestOtherProcessQueries(t *testing.T) {
	pd := ProcessDefinitionQuery{Key: "p", LatestVersion: true, TenantIDIn: []string{"t"}, IncludeWithoutTenantID: true,
		KeysIn: []string{"a", "b"}, Version: 2, SortBy: "version", SortOrder: "asc", MaxResults: 3}
	if v := pd.Values(); v.Get("latestVersion") != "true" || v.Get("keysIn") != "a,b" || v.Get("includeProcessDefinitionsWithoutTenantId") != "true" {
		t.Errorf("definition values: %v", v)
	}
	if back, err := ParseProcessDefinitionQuery(pd.Values()); err != nil || !reflect.DeepEqual(back, pd) {
		t.Errorf("definition round trip: %+v %v", back, err)
	}
	pi := ProcessInstanceQuery{BusinessKey: "bk", Suspended: true, Variables: []VariableFilter{{Name: "x", Operator: "like", Value: "a%"}},
		SortBy: "businessKey", SortOrder: "desc", FirstResult: 1}
	if back, err := ParseProcessInstanceQuery(pi.Values()); err != nil || !reflect.DeepEqual(back, pi) {
		t.Errorf("instance round trip: %+v %v", back, err)
	}
	ht := HistoricTaskQuery{Finished: true, ProcessVariables: []VariableFilter{{Name: "municipality", Operator: "eq", Value: "u"}},
		SortBy: "endTime", SortOrder: "desc", MaxResults: 200}
	if v := ht.Values(); v.Encode() != "finished=true&maxResults=200&processVariables=municipality_eq_u&sortBy=endTime&sortOrder=desc" {
		t.Errorf("historic task values: %s", v.Encode())
	}
	if back, err := ParseHistoricTaskQuery(ht.Values()); err != nil || !reflect.DeepEqual(back, ht) {
		t.Errorf("historic task round trip: %+v %v", back, err)
	}
	hv := HistoricVariableQuery{ProcessDefinitionKey: "p", FirstResult: 0, MaxResults: 500}
	if v := hv.Values(); v.Encode() != "maxResults=500&processDefinitionKey=p" {
		t.Errorf("historic variable values: %s", v.Encode())
	}
	hvb, err := ParseHistoricVariableQueryJSON([]byte(`{"processInstanceIdIn":["a"],"sorting":[{"sortBy":"variableName","sortOrder":"asc"}]}`), nil)
	if err != nil || hvb.SortBy != "variableName" || !reflect.DeepEqual(hvb.ProcessInstanceIDIn, []string{"a"}) {
		t.Errorf("historic variable body: %+v %v", hvb, err)
	}
	hd := HistoricDecisionQuery{ProcessInstanceID: "pi", IncludeInputs: true, IncludeOutputs: true, ActivityIDIn: []string{"a"}}
	if back, err := ParseHistoricDecisionQuery(hd.Values()); err != nil || !reflect.DeepEqual(back, hd) {
		t.Errorf("historic decision round trip: %+v %v", back, err)
	}
	ha := HistoricActivityQuery{ProcessInstanceID: "pi", ActivityType: "userTask", Canceled: true, SortBy: "startTime", SortOrder: "asc"}
	if back, err := ParseHistoricActivityQuery(ha.Values()); err != nil || !reflect.DeepEqual(back, ha) {
		t.Errorf("historic activity round trip: %+v %v", back, err)
	}
	if _, err := ParseHistoricDecisionQuery(url.Values{"sortBy": {"decisionDefinitionKey"}, "sortOrder": {"asc"}}); err == nil {
		t.Error("an unknown historic decision sort key was accepted")
	}
}

// FuzzProcessQueries: any query string or POST body either fails with a
// 400 *Error or gives a query that survives its own encoding unchanged.
func FuzzProcessQueries(f *testing.F) {
	for _, s := range []string{
		"processVariables=municipality_eq_utrecht,a_b_neq_c_d&candidateGroups=x,y&sortBy=created&sortOrder=desc",
		"processVariables=a_like2_b", "maxResults=0&firstResult=3", "variables=x_gteq_5&state=ACTIVE", "taskIdIn=,,",
	} {
		f.Add(s, []byte(`{"processVariables":[{"name":"a","operator":"eq","value":1}],"sorting":[{"sortBy":"created","sortOrder":"asc"}]}`))
	}
	f.Add("", []byte(`{"variables":[{"name":"a","operator":"lt","value":null}],"processInstanceIds":["x"],"sortBy":"startTime","sortOrder":"desc"}`))
	f.Add("", []byte(`{"candidateGroups":"x"}`))
	f.Fuzz(func(t *testing.T, query string, body []byte) {
		isBad := func(err error) {
			t.Helper()
			var e *Error
			if !asError(err, &e) || e.Status != 400 {
				t.Fatalf("error %v is not a 400 *Error", err)
			}
		}
		v, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		if q, err := ParseTaskQuery(v); err != nil {
			isBad(err)
		} else if back, err := ParseTaskQuery(q.Values()); err != nil || !reflect.DeepEqual(back, q) {
			t.Fatalf("task query %q: round trip %+v, %v; want %+v", query, back, err, q)
		}
		if q, err := ParseHistoricProcessInstanceQuery(v); err != nil {
			isBad(err)
		} else if back, err := ParseHistoricProcessInstanceQuery(q.Values()); err != nil || !reflect.DeepEqual(back, q) {
			t.Fatalf("historic query %q: round trip %+v, %v; want %+v", query, back, err, q)
		}
		if q, err := ParseTaskQueryJSON(body, nil); err != nil {
			isBad(err)
		} else {
			b, err := json.Marshal(q)
			if err != nil {
				t.Fatal(err)
			}
			if back, err := ParseTaskQueryJSON(b, nil); err != nil || !reflect.DeepEqual(back, q) {
				t.Fatalf("task body %s: round trip %+v, %v; want %+v", body, back, err, q)
			}
		}
		if q, err := ParseHistoricProcessInstanceQueryJSON(body, nil); err != nil {
			isBad(err)
		} else {
			b, _ := json.Marshal(q)
			if back, err := ParseHistoricProcessInstanceQueryJSON(b, nil); err != nil || !reflect.DeepEqual(back, q) {
				t.Fatalf("historic body %s: round trip %+v, %v; want %+v", body, back, err, q)
			}
		}
	})
}

func TestSortOrderDefaultsToAscending(t *testing.T) {
	if v := (TaskQuery{SortBy: "name"}).Values(); v.Get("sortBy") != "name" || v.Get("sortOrder") != "asc" {
		t.Errorf("GET form: %v", v)
	}
	b, _ := json.Marshal(ProcessInstanceQuery{SortBy: "businessKey"})
	sameJSON(t, "POST form", b, `{"sorting":[{"sortBy":"businessKey","sortOrder":"asc"}]}`)
}
