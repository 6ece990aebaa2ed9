package engine

import (
	"encoding/json"
	"net/url"
	"reflect"
	"testing"
)

func TestIncidentJSON(t *testing.T) {
	in := Incident{ID: "i1", ProcessDefinitionID: "p:1:x", ProcessInstanceID: "pi1", ExecutionID: "e1",
		Timestamp: created, Type: IncidentFailedExternalTask, ActivityID: "send", FailedActivityID: "send",
		CauseIncidentID: "i1", RootCauseIncidentID: "i1", Configuration: "ext1", TenantID: "utrecht", Message: "down"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "incident", b, `{"id":"i1","processDefinitionId":"p:1:x","processInstanceId":"pi1","executionId":"e1",
		"incidentTimestamp":"2025-12-24T10:30:00.000+0000","incidentType":"failedExternalTask","activityId":"send",
		"failedActivityId":"send","causeIncidentId":"i1","rootCauseIncidentId":"i1","configuration":"ext1",
		"tenantId":"utrecht","incidentMessage":"down","jobDefinitionId":null,"annotation":null}`)
	var back Incident
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, in)
	}
	if err := json.Unmarshal([]byte(`{"id":"i","incidentTimestamp":"soon"}`), &back); err == nil {
		t.Error("a bad incidentTimestamp was accepted")
	}
}

func TestIncidentQueryParams(t *testing.T) {
	v, _ := url.ParseQuery("incidentType=failedExternalTask&processInstanceId=pi1&activityId=send&tenantIdIn=a,b" +
		"&sortBy=incidentTimestamp&sortOrder=desc&firstResult=2&maxResults=3&processDefinitionId=p:1:x&incidentId=i1")
	q, err := ParseIncidentQuery(v)
	if err != nil {
		t.Fatal(err)
	}
	want := IncidentQuery{IncidentID: "i1", IncidentType: "failedExternalTask", ProcessInstanceID: "pi1",
		ProcessDefinitionID: "p:1:x", ActivityID: "send", TenantIDIn: []string{"a", "b"},
		SortBy: "incidentTimestamp", SortOrder: "desc", FirstResult: 2, MaxResults: 3}
	if !reflect.DeepEqual(q, want) {
		t.Fatalf("parse:\n got %+v\nwant %+v", q, want)
	}
	if got := q.Values().Encode(); got != "activityId=send&firstResult=2&incidentId=i1&incidentType=failedExternalTask"+
		"&maxResults=3&processDefinitionId=p%3A1%3Ax&processInstanceId=pi1&sortBy=incidentTimestamp&sortOrder=desc&tenantIdIn=a%2Cb" {
		t.Errorf("values: %s", got)
	}
	for _, bad := range []string{"sortBy=colour&sortOrder=asc", "maxResults=x"} {
		v, _ := url.ParseQuery(bad)
		_, err := ParseIncidentQuery(v)
		var e *Error
		if err == nil || !asError(err, &e) || e.Status != 400 {
			t.Errorf("%s: got %v, want a 400", bad, err)
		}
	}
}

// FuzzParseIncidentQuery: any query string either fails with a 400 or
// gives a query whose parameters read back to the same query.
func FuzzParseIncidentQuery(f *testing.F) {
	for _, s := range []string{"incidentType=failedExternalTask&processInstanceId=p", "sortBy=incidentTimestamp&sortOrder=desc&maxResults=3",
		"tenantIdIn=a,b", "firstResult=-1", "sortBy=x&sortOrder=asc", "activityId=%25"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseIncidentQuery(v)
		if err != nil {
			var e *Error
			if !asError(err, &e) || e.Status != 400 {
				t.Fatalf("error %v is not a 400", err)
			}
			return
		}
		back, err := ParseIncidentQuery(q.Values())
		if err != nil {
			t.Fatalf("re-parse of %v: %v", q.Values(), err)
		}
		if len(q.TenantIDIn) == 1 && q.TenantIDIn[0] == "" {
			q.TenantIDIn = nil // an empty list and a list of "" look alike
		}
		if len(back.TenantIDIn) == 1 && back.TenantIDIn[0] == "" {
			back.TenantIDIn = nil
		}
		if len(q.TenantIDIn) == 0 {
			q.TenantIDIn = nil
		}
		if len(back.TenantIDIn) == 0 {
			back.TenantIDIn = nil
		}
		if !reflect.DeepEqual(back, q) {
			t.Fatalf("%q: %+v came back as %+v", raw, q, back)
		}
	})
}
