package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/servers/internal/auth"
)

const reviewBPMN = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="x">
  <bpmn:process id="McpReview" isExecutable="true" camunda:historyTimeToLive="P1D">
    <bpmn:startEvent id="s"/>
    <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
    <bpmn:userTask id="review" name="Beoordelen" camunda:candidateGroups="caseworker"/>
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="e"/>
    <bpmn:endEvent id="e"/>
  </bpmn:process>
</bpmn:definitions>`

// TestMCPProcessTools: the SDK's MCP client at /v1/mcp/server lists the
// process tools and sees the instances and tasks of its own municipality
// only.
func TestMCPProcessTools(t *testing.T) {
	ta := newTestApp(t, map[string]string{"DOCMGMT_WORKER_ENABLED": "false"})
	docsProcesses(t, ta)
	utrecht, amsterdam := bearer(ta.token(t, caseworker("utrecht"))), bearer(ta.token(t, caseworker("amsterdam")))
	ta.c.Post(deployPath, map[string]any{"bpmnXml": reviewBPMN, "deploymentName": "mcp-review"}, utrecht...).ExpectStatus(t, 200)
	mine := startProcess(t, ta, utrecht, "McpReview", map[string]any{"subject": "u"})
	theirs := startProcess(t, ta, amsterdam, "McpReview", map[string]any{"subject": "a"})

	srv := httptest.NewServer(ta.Handler())
	defer srv.Close()
	cs, err := connectMCP(t, srv, ta.token(t, caseworker("utrecht")))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for tool, err := range cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	for _, want := range []string{"processDefinition_list", "processDefinition_count", "processDefinition_getByKey",
		"processInstance_list", "processInstance_count", "processInstance_get", "task_list", "task_count", "task_getById",
		"incident_list", "incident_count"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}

	text, isErr := callText(t, cs, "task_list", map[string]any{"processDefinitionKey": "McpReview"})
	var tasks []struct{ ID, Name, ProcessInstanceID string }
	if err := json.Unmarshal([]byte(text), &tasks); isErr || err != nil {
		t.Fatalf("task_list = %s (%v)", text, err)
	}
	if len(tasks) != 1 || tasks[0].ProcessInstanceID != mine || tasks[0].Name != "Beoordelen" {
		t.Errorf("utrecht's task_list = %+v, want only the task of %s", tasks, mine)
	}
	if text, _ := callText(t, cs, "task_count", map[string]any{"processDefinitionKey": "McpReview"}); text != "{\n \"count\": 1\n}" {
		t.Errorf("task_count = %s", text)
	}
	text, _ = callText(t, cs, "processInstance_list", map[string]any{"processDefinitionKey": "McpReview"})
	if !strings.Contains(text, mine) || strings.Contains(text, theirs) {
		t.Errorf("processInstance_list = %s", text)
	}
	if text, isErr := callText(t, cs, "processInstance_get", map[string]any{"id": theirs}); !isErr || text != "not found" {
		t.Errorf("another municipality's instance: %q %v, want the error not found", text, isErr)
	}
	if text, isErr := callText(t, cs, "processInstance_get", map[string]any{"id": mine}); isErr || !strings.Contains(text, `"subject": "u"`) {
		t.Errorf("own instance: %s", text)
	}
	// Amsterdam's task, by id, is not found for utrecht.
	other, err := connectMCP(t, srv, ta.token(t, caseworker("amsterdam")))
	if err != nil {
		t.Fatal(err)
	}
	text, _ = callText(t, other, "task_list", map[string]any{"processDefinitionKey": "McpReview"})
	if err := json.Unmarshal([]byte(text), &tasks); err != nil || len(tasks) != 1 || tasks[0].ProcessInstanceID != theirs {
		t.Fatalf("amsterdam's task_list = %s", text)
	}
	if text, isErr := callText(t, cs, "task_getById", map[string]any{"id": tasks[0].ID}); !isErr || text != "not found" {
		t.Errorf("another municipality's task: %q %v", text, isErr)
	}
	if text, isErr := callText(t, cs, "processDefinition_getByKey", map[string]any{"key": "McpReview"}); isErr || !strings.Contains(text, `"key": "McpReview"`) {
		t.Errorf("processDefinition_getByKey = %s", text)
	}
	// A caller without a municipality sees no instances.
	noTenant := auth.TokenClaims{Subject: "admin", Roles: []string{"admin"}, LoA: "hoog", Client: "ronl-frontend"}
	admin, err := connectMCP(t, srv, ta.token(t, noTenant))
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := callText(t, admin, "task_list", nil); text != "[]" {
		t.Errorf("task_list without a municipality = %s", text)
	}
}

// TestHostedKnowledgeGraphProvider: TRIPLYDB_MCP_ENABLED offers the MCP
// server at TRIPLYDB_ENDPOINT, with TRIPLYDB_TOKEN as its bearer token and
// only its allowed tools, instead of the in-process knowledge-graph tools.
// Off by default.
func TestHostedKnowledgeGraphProvider(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	hosted := mcp.NewServer(&mcp.Implementation{Name: "hosted", Version: "1"}, nil)
	for _, name := range []string{"dmn_list", "drop_everything"} {
		hosted.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hosted " + name}}}, nil
			})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return hosted }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	off := configFrom(t, nil)
	if ext, err := off.mcpExternal(); err != nil || len(ext) != 0 {
		t.Errorf("default providers %+v %v, want none external", ext, err)
	}
	for env, want := range map[string]string{"TRIPLYDB_MCP_ENABLED": "TRIPLYDB_ENDPOINT is required"} {
		if _, err := configFrom(t, map[string]string{env: "true"}).validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s without a URL: %v", env, err)
		}
	}
	ta := newTestApp(t, map[string]string{"MCP_ENABLED": "true", "ANTHROPIC_API_KEY": "sk-test-key-123",
		"TRIPLYDB_MCP_ENABLED": "true", "TRIPLYDB_ENDPOINT": srv.URL, "TRIPLYDB_TOKEN": "kg-token"})
	tok := ta.token(t, caseworker("utrecht"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		var sources []map[string]any
		ta.c.Get("/v1/mcp/sources", bearer(tok)...).Data(t, 200, &sources)
		var ids []string
		for _, s := range sources {
			ids = append(ids, fmt.Sprint(s["id"], ":", s["connected"]))
		}
		if strings.Join(ids, ",") == "operaton:true,cprmv:true,triplydb:true" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sources %v, want the hosted triplydb connected in place of the in-process one", ids)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	kg := 0
	for _, a := range seen {
		if a != "Bearer kg-token" {
			t.Errorf("unexpected Authorization %q", a)
			continue
		}
		kg++
	}
	if kg == 0 {
		t.Error("no request with the knowledge-graph token")
	}
}
