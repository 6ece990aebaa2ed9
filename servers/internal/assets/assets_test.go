package assets

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgmigrate"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// newStore opens a store on a fresh database.
func newStore(t *testing.T) (*Store, *pgtest.DB) {
	t.Helper()
	db := pgtest.New(t)
	s, err := Open(context.Background(), db.URL, Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, db
}

// newAPI serves the asset routes over store (nil: no database) through the
// real router and middleware.
func newAPI(t *testing.T, store *Store) (*apitest.Client, *httpapi.Router) {
	t.Helper()
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	Register(r, Deps{Store: store})
	return apitest.New(t, httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "test"})), r
}

func exec(t *testing.T, s *Store, sql string, args ...any) {
	t.Helper()
	if _, err := s.pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatal(err)
	}
}

// dataOf decodes a success envelope's data generically.
func dataOf(t *testing.T, resp *apitest.Response) any {
	t.Helper()
	var v any
	resp.Data(t, 200, &v)
	return v
}

func process(id, bpmnID string, extra map[string]any) map[string]any {
	b := map[string]any{
		"id": id, "name": "Process " + id, "xml": `<definitions><process id="` + bpmnID + `"/></definitions>`,
		"linkedDmnTemplates": []string{"dmn-a"}, "createdAt": "2026-01-10T09:00:00.000Z", "updatedAt": "2026-01-10T09:00:00.000Z",
	}
	if bpmnID != "" {
		b["bpmnProcessId"] = bpmnID
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func TestNoDatabase(t *testing.T) {
	c, r := newAPI(t, nil)
	routes := r.Routes()
	if len(routes) != 10 {
		t.Fatalf("%d routes, want 10: %v", len(routes), routes)
	}
	for _, rt := range routes {
		path := strings.NewReplacer("{id}", "x", "{bpmnProcessId}", "p").Replace(rt.Path)
		// Even a malformed body: the missing database is reported first.
		msg := c.Do(rt.Method, path, `{not json`).ExpectError(t, 503, "DB_NOT_CONFIGURED")
		if !strings.Contains(msg, "DATABASE_URL") {
			t.Errorf("%s %s: message %q", rt.Method, path, msg)
		}
		if rt.Legacy {
			t.Errorf("%s %s: asset routes have no legacy alias", rt.Method, rt.Path)
		}
		if op := r.Doc().Operation(rt.Method, rt.Path); op == nil || op.Responses["503"].Content == nil || op.Responses["200"].Content == nil {
			t.Errorf("%s %s is not documented with 200 and 503", rt.Method, rt.Path)
		}
	}
}

func TestProcessRoundTrip(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	resp := c.Post("/v1/assets/bpmn", process("p1", "Process_Intake", map[string]any{"calledElement": nil}))
	env := resp.Envelope(t)
	if resp.Status != 200 || !env.Success || env.Data != nil {
		t.Fatalf("upsert: %d %s", resp.Status, resp.Body)
	}
	c.Post("/v1/assets/bpmn", process("p2", "Process_Sub", map[string]any{
		"description": "Called by p1", "processRole": "subprocess", "calledElement": "Process_X", "shellId": "s1",
		"status": "e2e", "language": "nl", "organization": "gemeente-a", "updatedAt": "2026-01-11T09:00:00.5Z",
	})).ExpectStatus(t, 200)

	want := []any{
		map[string]any{"id": "p2", "bpmnProcessId": "Process_Sub", "name": "Process p2", "description": "Called by p1",
			"processRole": "subprocess", "calledElement": "Process_X", "shellId": "s1", "linkedDmnTemplates": []any{"dmn-a"},
			"status": "e2e", "language": "nl", "organization": "gemeente-a", "readonly": false, "schemaVersion": 1.0,
			"createdAt": "2026-01-10T09:00:00.000Z", "updatedAt": "2026-01-11T09:00:00.500Z"},
		map[string]any{"id": "p1", "bpmnProcessId": "Process_Intake", "name": "Process p1", "processRole": "standalone",
			"calledElement": nil, "linkedDmnTemplates": []any{"dmn-a"}, "status": "wip", "readonly": false,
			"schemaVersion": 1.0, "createdAt": "2026-01-10T09:00:00.000Z", "updatedAt": "2026-01-10T09:00:00.000Z"},
	}
	if d := cmp.Diff(want, dataOf(t, c.Get("/v1/assets/bpmn"))); d != "" {
		t.Errorf("list (-want +got):\n%s", d)
	}

	got := dataOf(t, c.Get("/v1/assets/bpmn/by-bpmn-id/Process_Intake"))
	wantXML := map[string]any{"id": "p1", "bpmnProcessId": "Process_Intake", "xml": `<definitions><process id="Process_Intake"/></definitions>`}
	if d := cmp.Diff(wantXML, got); d != "" {
		t.Errorf("by-bpmn-id (-want +got):\n%s", d)
	}

	c.Do("DELETE", "/v1/assets/bpmn/p1", nil).Data(t, 200, nil)
	msg := c.Get("/v1/assets/bpmn/by-bpmn-id/Process_Intake").ExpectError(t, 404, "NOT_FOUND")
	if msg != "No process found for bpmnProcessId: Process_Intake" {
		t.Errorf("message %q", msg)
	}
	if list := dataOf(t, c.Get("/v1/assets/bpmn")).([]any); len(list) != 1 || list[0].(map[string]any)["id"] != "p2" {
		t.Errorf("after delete: %v", list)
	}
	// Deleting again, or an id never stored, succeeds (idempotent).
	c.Do("DELETE", "/v1/assets/bpmn/p1", nil).Data(t, 200, nil)
	c.Do("DELETE", "/v1/assets/bpmn/never", nil).Data(t, 200, nil)
}

func TestUpsertTwiceUpdates(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	c.Post("/v1/assets/bpmn", process("p1", "P", nil)).ExpectStatus(t, 200)
	c.Post("/v1/assets/bpmn", process("p1", "P2", map[string]any{
		"name": "Renamed", "xml": "<v2/>", "linkedDmnTemplates": []string{},
		"createdAt": "2030-01-01T00:00:00Z", "updatedAt": "2026-02-01T12:00:00.250Z",
	})).ExpectStatus(t, 200)
	list := dataOf(t, c.Get("/v1/assets/bpmn")).([]any)
	if len(list) != 1 {
		t.Fatalf("%d rows after two upserts of one id", len(list))
	}
	got := list[0].(map[string]any)
	if got["name"] != "Renamed" || got["bpmnProcessId"] != "P2" || len(got["linkedDmnTemplates"].([]any)) != 0 {
		t.Errorf("not overwritten: %v", got)
	}
	if got["createdAt"] != "2026-01-10T09:00:00.000Z" || got["updatedAt"] != "2026-02-01T12:00:00.250Z" {
		t.Errorf("createdAt %v (want kept), updatedAt %v (want the new one)", got["createdAt"], got["updatedAt"])
	}
	xml := dataOf(t, c.Get("/v1/assets/bpmn/by-bpmn-id/P2")).(map[string]any)["xml"]
	if xml != "<v2/>" {
		t.Errorf("xml = %v", xml)
	}
	c.Get("/v1/assets/bpmn/by-bpmn-id/P").ExpectError(t, 404, "NOT_FOUND")
}

func TestReadOnlyRows(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	exec(t, s, `INSERT INTO process_definitions (lde_id, bpmn_process_id, name, xml, readonly) VALUES ('ro', 'Example_Process', 'Example', '<ro/>', true)`)
	exec(t, s, `INSERT INTO form_schemas (id, name, schema, readonly) VALUES ('ro-form', 'Example form', '{}', true)`)
	exec(t, s, `INSERT INTO document_templates (id, name, zones, bindings, assets, readonly) VALUES ('ro-doc', 'Example doc', '{}', '[]', '[]', true)`)
	c.Post("/v1/assets/bpmn", process("rw", "Own", nil)).ExpectStatus(t, 200)

	// Invisible in the lists.
	if list := dataOf(t, c.Get("/v1/assets/bpmn")).([]any); len(list) != 1 || list[0].(map[string]any)["id"] != "rw" {
		t.Errorf("bpmn list shows read-only rows: %v", list)
	}
	for _, path := range []string{"/v1/assets/forms", "/v1/assets/documents"} {
		if list := dataOf(t, c.Get(path)).([]any); len(list) != 0 {
			t.Errorf("%s shows read-only rows: %v", path, list)
		}
	}
	// Resolvable by process id: deploy bundles call examples.
	if got := dataOf(t, c.Get("/v1/assets/bpmn/by-bpmn-id/Example_Process")).(map[string]any); got["id"] != "ro" {
		t.Errorf("lookup of a read-only process: %v", got)
	}

	// Immutable: upserts and deletes are refused and change nothing.
	form := map[string]any{"id": "ro-form", "name": "Mine now", "schema": map[string]any{}, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}
	doc := map[string]any{"id": "ro-doc", "name": "Mine now", "schemaVersion": 2, "zones": map[string]any{}, "bindings": []any{}, "assets": []any{},
		"createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}
	refusals := []struct {
		method, path string
		body         any
		msg          string
	}{
		{"POST", "/v1/assets/bpmn", process("ro", "Example_Process", map[string]any{"name": "Mine now"}), `BPMN process "ro" is read-only; it cannot be changed or deleted`},
		{"POST", "/v1/assets/forms", form, `Form schema "ro-form" is read-only`},
		{"POST", "/v1/assets/documents", doc, `Document template "ro-doc" is read-only`},
		{"DELETE", "/v1/assets/bpmn/ro", nil, `BPMN process "ro" is read-only`},
		{"DELETE", "/v1/assets/forms/ro-form", nil, `Form schema "ro-form" is read-only`},
		{"DELETE", "/v1/assets/documents/ro-doc", nil, `Document template "ro-doc" is read-only`},
	}
	for _, tc := range refusals {
		msg := c.Do(tc.method, tc.path, tc.body).ExpectError(t, 409, "READONLY_ASSET")
		if !strings.HasPrefix(msg, tc.msg) {
			t.Errorf("%s %s: message %q", tc.method, tc.path, msg)
		}
	}
	for table, key := range map[string]string{"process_definitions": "lde_id", "form_schemas": "id", "document_templates": "id"} {
		var name string
		var readonly bool
		err := s.pool.QueryRow(context.Background(), "SELECT name, readonly FROM "+table+" WHERE "+key+" LIKE 'ro%'").Scan(&name, &readonly)
		if err != nil || name == "Mine now" || !readonly {
			t.Errorf("%s: read-only row now %q readonly=%v (%v)", table, name, readonly, err)
		}
	}
}

func TestProcessIDTaken(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	c.Post("/v1/assets/bpmn", process("a", "Shared", map[string]any{"status": "e2e"})).ExpectStatus(t, 200)

	resp := c.Post("/v1/assets/bpmn", process("b", "Shared", nil))
	msg := resp.ExpectError(t, 409, "PROCESS_ID_TAKEN")
	if msg != `bpmnProcessId "Shared" is already used by process "a" (Process a)` {
		t.Errorf("message %q", msg)
	}
	var details map[string]any
	if err := json.Unmarshal(resp.Envelope(t).Error.Details, &details); err != nil {
		t.Fatal(err)
	}
	wantDetails := map[string]any{"bpmnProcessId": "Shared", "organization": nil,
		"existing": map[string]any{"id": "a", "name": "Process a", "status": "e2e"}}
	if d := cmp.Diff(wantDetails, details); d != "" {
		t.Errorf("details (-want +got):\n%s", d)
	}
	// An empty organisation is no organisation.
	c.Post("/v1/assets/bpmn", process("b", "Shared", map[string]any{"organization": ""})).ExpectError(t, 409, "PROCESS_ID_TAKEN")
	// Another organisation may use the same process id, once.
	c.Post("/v1/assets/bpmn", process("b", "Shared", map[string]any{"organization": "gemeente-b"})).ExpectStatus(t, 200)
	resp = c.Post("/v1/assets/bpmn", process("c", "Shared", map[string]any{"organization": "gemeente-b"}))
	resp.ExpectError(t, 409, "PROCESS_ID_TAKEN")
	json.Unmarshal(resp.Envelope(t).Error.Details, &details)
	if details["organization"] != "gemeente-b" || details["existing"].(map[string]any)["id"] != "b" {
		t.Errorf("details %v", details)
	}
	// Updating the holder itself is fine; moving b onto a's pair is not.
	c.Post("/v1/assets/bpmn", process("a", "Shared", map[string]any{"name": "A again"})).ExpectStatus(t, 200)
	c.Post("/v1/assets/bpmn", process("b", "Shared", nil)).ExpectError(t, 409, "PROCESS_ID_TAKEN")
	// Without a process id ("unknown") there is nothing to collide on.
	c.Post("/v1/assets/bpmn", process("d", "", nil)).ExpectStatus(t, 200)
	c.Post("/v1/assets/bpmn", process("e", "", nil)).ExpectStatus(t, 200)

	// The organisation scopes the look-up; without it a process of no
	// organisation is preferred.
	lookups := map[string]string{
		"/v1/assets/bpmn/by-bpmn-id/Shared":                         "a",
		"/v1/assets/bpmn/by-bpmn-id/Shared?organization=":           "a",
		"/v1/assets/bpmn/by-bpmn-id/Shared?organization=gemeente-b": "b",
	}
	for path, id := range lookups {
		if got := dataOf(t, c.Get(path)).(map[string]any)["id"]; got != id {
			t.Errorf("%s → %v, want %s", path, got, id)
		}
	}
	c.Get("/v1/assets/bpmn/by-bpmn-id/Shared?organization=gemeente-c").ExpectError(t, 404, "NOT_FOUND")
}

func TestConcurrentUpsertsOfOneID(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	const n = 50
	bodies := make([]map[string]any, n)
	for i := range bodies {
		bodies[i] = process("same", "Proc", map[string]any{
			"name": fmt.Sprintf("write %d", i), "xml": fmt.Sprintf("<w%d/>", i),
			"updatedAt": time.Date(2026, 3, 1, 0, 0, i, 0, time.UTC).Format(time.RFC3339),
		})
	}
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = c.Post("/v1/assets/bpmn", bodies[i]).Status
		}()
	}
	wg.Wait()
	for i, st := range statuses {
		if st != 200 {
			t.Errorf("write %d: status %d", i, st)
		}
	}
	var count int
	var name, xml string
	var updated time.Time
	err := s.pool.QueryRow(context.Background(), "SELECT count(*) OVER (), name, xml, updated_at FROM process_definitions").
		Scan(&count, &name, &xml, &updated)
	if err != nil || count != 1 {
		t.Fatalf("%d rows (%v), want 1", count, err)
	}
	var i int
	if _, err := fmt.Sscanf(name, "write %d", &i); err != nil || i < 0 || i >= n {
		t.Fatalf("final name %q is none of the writes", name)
	}
	if xml != fmt.Sprintf("<w%d/>", i) || updated.Second() != i {
		t.Errorf("final row mixes writes: name %q, xml %q, updated %v", name, xml, updated)
	}
}

func TestConcurrentClaimsOfOneProcessID(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	const n = 20
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = c.Post("/v1/assets/bpmn", process(fmt.Sprintf("claim-%d", i), "Contested", nil)).Status
		}()
	}
	wg.Wait()
	ok, conflicts := 0, 0
	for _, st := range statuses {
		switch st {
		case 200:
			ok++
		case 409:
			conflicts++
		}
	}
	if ok != 1 || conflicts != n-1 {
		t.Errorf("%d stored, %d conflicts; want 1 and %d (statuses %v)", ok, conflicts, n-1, statuses)
	}
}

func TestValidation(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	cases := []struct {
		name, path, body, want string
	}{
		{"bpmn empty", "/v1/assets/bpmn", `{}`,
			"id is required; name is required; xml is required; linkedDmnTemplates is required; createdAt is required; updatedAt is required"},
		{"bpmn not an object", "/v1/assets/bpmn", `[1,2]`,
			"id is required; name is required; xml is required; linkedDmnTemplates is required; createdAt is required; updatedAt is required"},
		{"bpmn nulls are absent", "/v1/assets/bpmn", `{"id":null,"name":"n","xml":"","linkedDmnTemplates":[],"createdAt":"2026-01-01T00:00:00Z","updatedAt":null}`,
			"id is required; updatedAt is required"},
		{"bpmn types", "/v1/assets/bpmn", `{"id":1,"name":" ","xml":{},"linkedDmnTemplates":["a",2],"createdAt":"yesterday","updatedAt":"2026-01-01T00:00:00Z","processRole":"main","status":"done","bpmnProcessId":7}`,
			"id must be a string; name must not be blank; xml must be a string; linkedDmnTemplates must be an array of strings; " +
				"createdAt must be an ISO 8601 timestamp (e.g. 2026-01-15T10:20:30.123Z); bpmnProcessId must be a string; " +
				"processRole must be one of: shell, subprocess, standalone; status must be one of: example, wip, e2e"},
		{"bpmn templates not an array", "/v1/assets/bpmn", `{"id":"x","name":"n","xml":"","linkedDmnTemplates":"a","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`,
			"linkedDmnTemplates must be an array of strings"},
		{"forms empty", "/v1/assets/forms", `{}`, "id is required; name is required; schema is required; createdAt is required; updatedAt is required"},
		{"forms types", "/v1/assets/forms", `{"id":"","name":"n","schema":[],"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z","status":3}`,
			"id must not be blank; schema must be an object; status must be a string"},
		{"documents empty", "/v1/assets/documents", `{}`,
			"id is required; name is required; schemaVersion is required; zones is required; bindings is required; assets is required; createdAt is required; updatedAt is required"},
		{"documents types", "/v1/assets/documents", `{"id":"d","name":"n","schemaVersion":"1","zones":[],"bindings":{},"assets":"x","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`,
			"schemaVersion must be an integer; zones must be an object; bindings must be an array; assets must be an array"},
		{"documents fraction", "/v1/assets/documents", `{"id":"d","name":"n","schemaVersion":1.5,"zones":{},"bindings":[],"assets":[],"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`,
			"schemaVersion must be an integer"},
		{"nul character", "/v1/assets/forms", `{"id":"f","name":"a\u0000b","schema":{},"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`,
			"a value cannot be stored: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := c.Post(tc.path, tc.body).ExpectError(t, 400, "INVALID_REQUEST")
			if msg != tc.want && !(strings.HasSuffix(tc.want, ": ") && strings.HasPrefix(msg, tc.want)) {
				t.Errorf("message\n got %q\nwant %q", msg, tc.want)
			}
		})
	}
	c.Post("/v1/assets/forms", `{"id":`).ExpectError(t, 400, "MALFORMED_BODY")
	c.Post("/v1/assets/forms", `{"id":"f"} trailing`).ExpectError(t, 400, "MALFORMED_BODY")
}

func TestFormsAndDocumentTemplates(t *testing.T) {
	s, _ := newStore(t)
	c, _ := newAPI(t, s)
	schema := map[string]any{"type": "default", "components": []any{map[string]any{"key": "age", "type": "number", "max": 1e21}}}
	c.Post("/v1/assets/forms", map[string]any{"id": "f1", "name": "Intake form", "schema": schema,
		"createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-02T00:00:00Z"}).ExpectStatus(t, 200)
	c.Post("/v1/assets/forms", map[string]any{"id": "f2", "name": "Other", "schema": map[string]any{}, "status": "published",
		"description": "d", "language": "en", "organization": "org", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-03T00:00:00Z"}).ExpectStatus(t, 200)
	wantForms := []any{
		map[string]any{"id": "f2", "name": "Other", "description": "d", "schema": map[string]any{}, "status": "published",
			"schemaVersion": 1.0, "language": "en", "organization": "org", "readonly": false,
			"createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-03T00:00:00.000Z"},
		map[string]any{"id": "f1", "name": "Intake form", "schema": schema, "status": "wip", "schemaVersion": 1.0, "readonly": false,
			"createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-02T00:00:00.000Z"},
	}
	if d := cmp.Diff(wantForms, dataOf(t, c.Get("/v1/assets/forms"))); d != "" {
		t.Errorf("forms (-want +got):\n%s", d)
	}

	tpl := map[string]any{"id": "t1", "name": "Decision letter", "schemaVersion": 3,
		"zones": map[string]any{"header": []any{"logo"}}, "bindings": []any{map[string]any{"var": "amount"}}, "assets": []any{"logo.png"},
		"processKey": "intake", "serviceId": "svc-1", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}
	c.Post("/v1/assets/documents", tpl).ExpectStatus(t, 200)
	wantTpl := []any{map[string]any{"id": "t1", "name": "Decision letter", "processKey": "intake", "serviceId": "svc-1",
		"schemaVersion": 3.0, "zones": map[string]any{"header": []any{"logo"}}, "bindings": []any{map[string]any{"var": "amount"}},
		"assets": []any{"logo.png"}, "status": "wip", "readonly": false,
		"createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"}}
	if d := cmp.Diff(wantTpl, dataOf(t, c.Get("/v1/assets/documents"))); d != "" {
		t.Errorf("templates (-want +got):\n%s", d)
	}
	// An update overwrites schemaVersion and keeps createdAt.
	tpl["schemaVersion"], tpl["createdAt"], tpl["updatedAt"] = 4, "2027-01-01T00:00:00Z", "2026-05-01T00:00:00Z"
	c.Post("/v1/assets/documents", tpl).ExpectStatus(t, 200)
	got := dataOf(t, c.Get("/v1/assets/documents")).([]any)[0].(map[string]any)
	if got["schemaVersion"] != 4.0 || got["createdAt"] != "2026-01-01T00:00:00.000Z" || got["updatedAt"] != "2026-05-01T00:00:00.000Z" {
		t.Errorf("after update: %v", got)
	}

	c.Do("DELETE", "/v1/assets/forms/f1", nil).Data(t, 200, nil)
	c.Do("DELETE", "/v1/assets/documents/t1", nil).Data(t, 200, nil)
	if n := len(dataOf(t, c.Get("/v1/assets/forms")).([]any)); n != 1 {
		t.Errorf("%d forms after delete", n)
	}
	if n := len(dataOf(t, c.Get("/v1/assets/documents")).([]any)); n != 0 {
		t.Errorf("%d templates after delete", n)
	}
}

// The database goes away and comes back while the server runs.
func TestDatabaseOutage(t *testing.T) {
	s, db := newStore(t)
	c, _ := newAPI(t, s)
	c.Post("/v1/assets/bpmn", process("p", "P", nil)).ExpectStatus(t, 200)
	c.Get("/v1/assets/bpmn").ExpectStatus(t, 200)

	db.Stop(t)
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/assets/bpmn", nil},
		{"POST", "/v1/assets/bpmn", process("q", "Q", nil)},
		{"GET", "/v1/assets/bpmn/by-bpmn-id/P", nil},
		{"DELETE", "/v1/assets/forms/f", nil},
	} {
		msg := c.Do(req.method, req.path, req.body).ExpectError(t, 503, "DB_UNAVAILABLE")
		if msg != "The asset database is unavailable; try again later" {
			t.Errorf("message %q", msg)
		}
	}
	if err := s.Ping(context.Background()); err == nil {
		t.Error("Ping succeeded with the database down")
	}

	db.Start(t)
	// The very first request after the restart succeeds.
	list := dataOf(t, c.Get("/v1/assets/bpmn")).([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != "p" {
		t.Errorf("after restart: %v", list)
	}
	c.Post("/v1/assets/bpmn", process("q", "Q", nil)).ExpectStatus(t, 200)
	if err := s.Ping(context.Background()); err != nil {
		t.Error(err)
	}
}

// A server started while the database is down serves once it is up,
// migrations included.
func TestStartWhileDatabaseDown(t *testing.T) {
	db := pgtest.New(t)
	db.Stop(t)
	s, err := Open(context.Background(), db.URL, Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Open with the database down: %v", err)
	}
	t.Cleanup(s.Close)
	c, _ := newAPI(t, s)
	c.Get("/v1/assets/forms").ExpectError(t, 503, "DB_UNAVAILABLE")
	db.Start(t)
	if list := dataOf(t, c.Get("/v1/assets/forms")).([]any); len(list) != 0 {
		t.Errorf("forms %v", list)
	}
	c.Post("/v1/assets/forms", map[string]any{"id": "f", "name": "F", "schema": map[string]any{},
		"createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}).ExpectStatus(t, 200)
}

func TestMigrations(t *testing.T) {
	all, err := pgmigrate.Read(migrationDir())
	if err != nil || len(all) == 0 || all[0].Version != 1 {
		t.Fatalf("migrations %v, %v", all, err)
	}
	db := pgtest.New(t)
	pool := db.Pool(t)
	ctx := context.Background()
	// Two servers starting at once: the advisory lock lets one migrate.
	var wg sync.WaitGroup
	applied := make([]int, 4)
	errs := make([]error, 4)
	for i := range applied {
		wg.Add(1)
		go func() { defer wg.Done(); applied[i], errs[i] = migrate(ctx, pool) }()
	}
	wg.Wait()
	total := 0
	for i := range applied {
		if errs[i] != nil {
			t.Fatalf("migrate %d: %v", i, errs[i])
		}
		total += applied[i]
	}
	if total != len(all) {
		t.Errorf("%d migrations applied in all, want %d", total, len(all))
	}
	// Again: nothing to do.
	if n, err := migrate(ctx, pool); n != 0 || err != nil {
		t.Errorf("second run applied %d (%v)", n, err)
	}
	var rows int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM schema_migrations WHERE component = $1", migrationComponent).Scan(&rows); err != nil || rows != len(all) {
		t.Errorf("schema_migrations has %d rows (%v), want %d", rows, err, len(all))
	}
	// A store on an already migrated database works without applying more.
	s := New(pool, Options{})
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListProcesses(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRejectsABadURL(t *testing.T) {
	if _, err := Open(context.Background(), "postgres://u:secret@host:notaport/db", Options{}); err == nil ||
		strings.Contains(err.Error(), "secret") {
		t.Errorf("err = %v", err)
	}
}

// A restart between two requests leaves dead connections in the pool; the
// next request must not fail on them.
func TestRestartBetweenRequests(t *testing.T) {
	s, db := newStore(t)
	c, _ := newAPI(t, s)
	// Fill the pool with several idle connections.
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); c.Get("/v1/assets/bpmn").ExpectStatus(t, 200) }()
	}
	wg.Wait()
	for i := 0; i < 3; i++ {
		db.Stop(t)
		db.Start(t)
		c.Get("/v1/assets/bpmn").ExpectStatus(t, 200)
		c.Post("/v1/assets/bpmn", process(fmt.Sprint("p", i), fmt.Sprint("P", i), nil)).ExpectStatus(t, 200)
	}
}
