package operaton

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// TestClientIncidents: the client sends Operaton's incident and retries
// requests and reads an IncidentDto as Operaton writes it.
func TestClientIncidents(t *testing.T) {
	f, c := newFakeOperaton(t, map[string]fakeAnswer{
		"GET /engine-rest/incident": {200, "", `[{"id":"8a1","processDefinitionId":"mail:1:d","processInstanceId":"pi1",
			"executionId":"ex1","incidentTimestamp":"2026-03-02T10:15:00.000+0100","incidentType":"failedExternalTask",
			"activityId":"send","failedActivityId":"send","causeIncidentId":"8a1","rootCauseIncidentId":"8a1",
			"configuration":"x1","tenantId":null,"incidentMessage":"smtp down","jobDefinitionId":null,"annotation":"seen"}]`},
		"GET /engine-rest/incident/count":           {200, "", `{"count":4}`},
		"PUT /engine-rest/external-task/x1/retries": {204, "", ``},
	})
	ctx := context.Background()
	is, err := c.Incidents(ctx, engine.IncidentQuery{ProcessInstanceID: "pi1", SortBy: "incidentTimestamp", SortOrder: "desc", MaxResults: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Incident{{ID: "8a1", ProcessDefinitionID: "mail:1:d", ProcessInstanceID: "pi1", ExecutionID: "ex1",
		Timestamp: time.Date(2026, 3, 2, 10, 15, 0, 0, time.FixedZone("", 3600)), Type: "failedExternalTask",
		ActivityID: "send", FailedActivityID: "send", CauseIncidentID: "8a1", RootCauseIncidentID: "8a1",
		Configuration: "x1", Message: "smtp down", Annotation: "seen"}}
	if len(is) != 1 || !is[0].Timestamp.Equal(want[0].Timestamp) {
		t.Fatalf("incidents = %+v", is)
	}
	is[0].Timestamp = want[0].Timestamp
	if !reflect.DeepEqual(is, want) {
		t.Errorf("incidents:\n got %+v\nwant %+v", is, want)
	}
	n, err := c.IncidentCount(ctx, engine.IncidentQuery{IncidentType: "failedExternalTask", MaxResults: 10})
	if err != nil || n != 4 {
		t.Errorf("count = %d, %v", n, err)
	}
	if err := c.SetExternalTaskRetries(ctx, "x1", 3); err != nil {
		t.Fatal(err)
	}
	wantReqs := []string{
		"GET /engine-rest/incident?maxResults=10&processInstanceId=pi1&sortBy=incidentTimestamp&sortOrder=desc",
		"GET /engine-rest/incident/count?incidentType=failedExternalTask",
		`PUT /engine-rest/external-task/x1/retries {"retries":3}`,
	}
	if !reflect.DeepEqual(f.got, wantReqs) {
		t.Errorf("requests:\n%s\nwant\n%s", strings.Join(f.got, "\n"), strings.Join(wantReqs, "\n"))
	}
}
