package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// TestEngineFailure: the one mapping of notes §4.9.
func TestEngineFailure(t *testing.T) {
	route := onFailure{NotFound: "TASK_NOT_FOUND", NotFoundMessage: "Task 'x' not found", Failed: "TASK_CLAIM_FAILED", FailedMessage: "The task could not be claimed"}
	for _, tc := range []struct {
		name   string
		err    error
		status int
		code   string
		engine string // details.engine
	}{
		{"unreachable", engine.Unavailable(errors.New("dial tcp: refused")), 502, "OPERATON_ERROR", ""},
		{"timeout", fmt.Errorf("claim: %w", context.DeadlineExceeded), 502, "OPERATON_ERROR", ""},
		{"5xx without message", &engine.Error{Status: 503}, 502, "OPERATON_ERROR", ""},
		{"not found", engine.NotFound("Cannot find task with id x"), 404, "TASK_NOT_FOUND", ""},
		{"rejected", &engine.Error{Status: 500, Type: "TaskAlreadyClaimedException", Message: "Task 'x' is already claimed by someone else."},
			500, "TASK_CLAIM_FAILED", "Task 'x' is already claimed by someone else."},
		{"bad request", engine.InvalidRequest("Cannot set variable"), 500, "TASK_CLAIM_FAILED", "Cannot set variable"},
		{"variable", &engine.VariableError{Name: "n", Type: engine.TypeInteger, Value: `"abc"`, Reason: "not a number"}, 400, "VALIDATION_ERROR", ""},
		{"other", errors.New("boom"), 500, "TASK_CLAIM_FAILED", ""},
	} {
		var e *httpapi.Error
		if !errors.As(engineFailure(tc.err, route), &e) {
			t.Fatalf("%s: not an API error", tc.name)
		}
		got := ""
		if d, ok := e.Details.(map[string]string); ok {
			got = d["engine"]
		}
		if e.Status != tc.status || e.Code != tc.code || got != tc.engine {
			t.Errorf("%s: %d %s details.engine %q, want %d %s %q", tc.name, e.Status, e.Code, got, tc.status, tc.code, tc.engine)
		}
	}
	// Without a not-found code a 404 is a rejection (the /v1/m2m deletes).
	var e *httpapi.Error
	errors.As(engineFailure(engine.NotFound("gone"), onFailure{Failed: "PROCESS_DELETE_FAILED"}), &e)
	if e.Status != 500 || e.Code != "PROCESS_DELETE_FAILED" {
		t.Errorf("404 without a not-found code: %d %s", e.Status, e.Code)
	}
	// Forms: an engine 400 (nothing linked) is FORM_NOT_FOUND.
	errors.As(formFailure(engine.InvalidRequest("No form linked")), &e)
	if e.Status != 404 || e.Code != "FORM_NOT_FOUND" {
		t.Errorf("form 400: %d %s", e.Status, e.Code)
	}
	if !isNoMatchingDefinition(engine.NotFound("No matching process definition with key 'a' and tenant-id 'b'")) || isNoMatchingDefinition(errors.New("x")) {
		t.Error("isNoMatchingDefinition")
	}
}

// TestScanBPMN: documentRef only by namespace and only on user tasks; the
// boardOwner property of the named process only.
func TestScanBPMN(t *testing.T) {
	xml := `<?xml version="1.0"?>
<d:definitions xmlns:d="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:c="http://camunda.org/schema/1.0/bpmn" xmlns:r="http://ronl.nl/schema/1.0" xmlns:fake="http://example.org/not-ronl">
  <d:process id="Other"><d:extensionElements><c:properties><c:property name="boardOwner" value="wrong"/></c:properties></d:extensionElements></d:process>
  <d:process id="Main">
    <d:extensionElements><c:properties><c:property name="other" value="x"/><c:property name="boardOwner" value="infra-board"/></c:properties></d:extensionElements>
    <d:serviceTask id="s" r:documentRef="not-a-user-task"/>
    <d:userTask id="u0" fake:documentRef="other-namespace"/>
    <d:userTask id="u1" r:documentRef="the-doc"><d:extensionElements><c:properties><c:property name="boardOwner" value="nested"/></c:properties></d:extensionElements></d:userTask>
    <d:userTask id="u2" r:documentRef="second"/>
  </d:process>
</d:definitions>`
	got, err := scanBPMN(xml, "Main")
	if err != nil || got.documentRef != "the-doc" || got.boardOwner != "infra-board" {
		t.Errorf("scan = %+v, %v", got, err)
	}
	if got, _ := scanBPMN(xml, "Other"); got.boardOwner != "wrong" {
		t.Errorf("Other's boardOwner %q", got.boardOwner)
	}
	if _, err := scanBPMN("<a><b></a>", ""); err == nil {
		t.Error("malformed XML must fail")
	}
}

func TestScanBPMNDepth(t *testing.T) {
	deep := strings.Repeat("<a>", maxBPMNDepth+1) + strings.Repeat("</a>", maxBPMNDepth+1)
	if _, err := scanBPMN(deep, ""); err == nil || !strings.Contains(err.Error(), "nests deeper than 1000 at line 1, column") {
		t.Errorf("deep XML: %v", err)
	}
	if _, err := scanBPMN(strings.Repeat("<a>", 10)+strings.Repeat("</a>", 10), ""); err != nil {
		t.Errorf("shallow XML: %v", err)
	}
}

// FuzzScanBPMN: any text ends in a result or an error, never a panic.
func FuzzScanBPMN(f *testing.F) {
	f.Add(testBPMN("P", bpmnOptions{DocumentRef: "d", BoardOwner: "caseworker"}), "P")
	f.Add(`<d:process xmlns:d="http://www.omg.org/spec/BPMN/20100524/MODEL" id="x"><d:userTask/></d:process>`, "x")
	f.Fuzz(func(t *testing.T, text, key string) {
		_, _ = scanBPMN(text, key)
	})
}

// FuzzWriteVariables: any variables member is refused with a 400 or read
// into at most maxWriteVariables variables, never a panic.
func FuzzWriteVariables(f *testing.F) {
	f.Add(`{"a": 1, "b": {"value": "x", "type": "String"}, "c": [1, {"d": null}]}`)
	f.Add(`{"x": {"value": "abc", "type": "Integer"}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		vars, err := parseWriteVariables(json.RawMessage(raw))
		var e *httpapi.Error
		if err != nil && (!errors.As(err, &e) || e.Status != 400) {
			t.Fatalf("%q: %v, want a 400", raw, err)
		}
		if len(vars) > maxWriteVariables {
			t.Fatalf("%d variables read", len(vars))
		}
	})
}
