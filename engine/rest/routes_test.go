package rest_test

import (
	"slices"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"
)

// decisionsOnly hides the process side of an engine.
type decisionsOnly struct{ engine.Engine }

func TestRoutes(t *testing.T) {
	full := rest.Routes(local.New(local.Options{}), rest.Options{})
	for _, want := range []rest.Route{
		{Method: "GET", Path: "/engine-rest/version"},
		{Method: "POST", Path: "/engine-rest/deployment/create"},
		{Method: "POST", Path: "/engine-rest/decision-definition/key/{key}/tenant-id/{tenant}/evaluate"},
		{Method: "POST", Path: "/engine-rest/process-definition/key/{key}/start"},
		{Method: "POST", Path: "/engine-rest/task/{id}/claim"},
		{Method: "POST", Path: "/engine-rest/external-task/fetchAndLock"},
		{Method: "GET", Path: "/engine-rest/history/variable-instance"},
		{Method: "POST", Path: "/engine-rest/history/process-instance"},
		{Method: "GET", Path: "/engine-rest/incident"},
		{Method: "GET", Path: "/engine-rest/incident/count"},
		{Method: "PUT", Path: "/engine-rest/external-task/{id}/retries"},
	} {
		if !slices.Contains(full, want) {
			t.Errorf("Routes of the embedded engine lack %v", want)
		}
	}
	dec := rest.Routes(decisionsOnly{local.New(local.Options{})}, rest.Options{BasePath: "/x"})
	if !slices.Contains(dec, rest.Route{Method: "POST", Path: "/x/decision-definition/{id}/evaluate"}) {
		t.Errorf("Routes of a decision engine under /x lack the evaluation by id: %v", dec)
	}
	for _, r := range dec {
		if r.Path == "/x/task" || r.Path == "/x/process-definition" {
			t.Errorf("a decision engine lists the process route %v", r)
		}
	}
	if len(dec) >= len(full) {
		t.Errorf("%d routes for decisions only, %d with processes", len(dec), len(full))
	}
}
