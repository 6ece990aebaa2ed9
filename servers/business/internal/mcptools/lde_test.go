package mcptools_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/business/internal/mcptools"
	"github.com/regelkit/regelkit/servers/internal/assets"
)

func ptr(s string) *string { return &s }

// assetDB fills a fresh asset database through the explorer store's own
// write methods and returns a reader store on it, as the business server
// opens it.
func assetDB(t *testing.T) (*assets.Store, *pgtest.DB) {
	t.Helper()
	ctx := context.Background()
	db := pgtest.New(t)
	w, err := assets.Open(ctx, db.URL, assets.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	at := func(min int) time.Time { return time.Date(2026, 3, 1, 12, min, 0, 0, time.UTC) }
	// 90 003 bytes, over the 64 KiB a get returns; byte 65 536 is the second
	// of an é.
	big := "<r>" + strings.Repeat("<a>é</a>", 10_000)
	for _, p := range []assets.Process{
		{ID: "shell", BPMNProcessID: "Process_Shell", Name: "Zorgtoeslag aanvraag", XML: `<definitions id="shell"/>`,
			ProcessRole: "shell", CalledElement: ptr("Process_Check"), LinkedDMNTemplates: []string{"zorgtoeslag-dmn"},
			Status: "wip", CreatedAt: at(0), UpdatedAt: at(5)},
		{ID: "check", BPMNProcessID: "Process_Check", Name: "Toets inkomen", XML: `<definitions id="check"/>`,
			ProcessRole: "subprocess", ShellID: ptr("shell"), Status: "wip", CreatedAt: at(0), UpdatedAt: at(4)},
		{ID: "heusden-only", BPMNProcessID: "Process_H", Name: "Heusden vergunning", XML: big,
			ProcessRole: "standalone", Status: "e2e", Organization: ptr("heusden"), CreatedAt: at(0), UpdatedAt: at(3)},
		{ID: "utrecht-only", BPMNProcessID: "Process_U", Name: "Utrecht parkeren", XML: `<definitions id="u"/>`,
			ProcessRole: "standalone", Status: "wip", Organization: ptr("utrecht"), CreatedAt: at(0), UpdatedAt: at(9)},
	} {
		if err := w.UpsertProcess(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []assets.Form{
		{ID: "intake", Name: "Intake form", Schema: json.RawMessage(`{"components":[{"key":"income","type":"number"}]}`),
			Status: "wip", Language: ptr("nl"), CreatedAt: at(0), UpdatedAt: at(1)},
		{ID: "utrecht-form", Name: "Utrecht form", Schema: json.RawMessage(`{"components":[]}`), Status: "wip",
			Organization: ptr("utrecht"), CreatedAt: at(0), UpdatedAt: at(2)},
	} {
		if err := w.UpsertForm(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []assets.DocumentTemplate{
		{ID: "besluit", Name: "Besluit zorgtoeslag", ProcessKey: ptr("Process_Shell"), SchemaVersion: 1,
			Zones: json.RawMessage(`{"body":[]}`), Bindings: json.RawMessage(`[]`), Assets: json.RawMessage(`[]`),
			Status: "wip", Organization: ptr("heusden"), CreatedAt: at(0), UpdatedAt: at(1)},
		{ID: "utrecht-brief", Name: "Brief", SchemaVersion: 1, Zones: json.RawMessage(`{}`), Bindings: json.RawMessage(`[]`),
			Assets: json.RawMessage(`[]`), Status: "wip", Organization: ptr("utrecht"), CreatedAt: at(0), UpdatedAt: at(2)},
	} {
		if err := w.UpsertDocumentTemplate(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	r, err := assets.Open(ctx, db.URL, assets.Options{Timeout: 10 * time.Second, Reader: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, db
}

// connect returns an SDK client session on NewServer for the caller.
func connect(t *testing.T, o mcptools.Options, c mcptools.Caller) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptools.NewServer(o, c).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call runs a tool and returns its text and error flag.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d contents", name, len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// ids reads the ids of a list tool's rows under kind, and count/leftOut.
func ids(t *testing.T, text, kind string) (got []string, count, leftOut int) {
	t.Helper()
	var v map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	var rows []struct{ ID string }
	if err := json.Unmarshal(v[kind], &rows); err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	for _, r := range rows {
		got = append(got, r.ID)
	}
	_ = json.Unmarshal(v["count"], &count)
	_ = json.Unmarshal(v["leftOut"], &leftOut)
	return got, count, leftOut
}

// TestLDETools: over a real asset database, the six tools list and get
// each kind for the caller's municipality and the untenanted assets, refuse
// another municipality's asset as not found, and cut large content with a
// note.
func TestLDETools(t *testing.T) {
	store, _ := assetDB(t)
	o := mcptools.Options{Assets: store}
	heusden := connect(t, o, mcptools.Caller{Tenant: "heusden"})

	checkLDEToolList(t, heusden)
	checkLDELists(t, heusden)
	checkLDEGets(t, heusden)
	checkLDERefusals(t, heusden)
	// A caller without a municipality sees only the untenanted assets;
	// Utrecht sees its own.
	none := connect(t, o, mcptools.Caller{})
	if text, _ := call(t, none, "bundle_list", nil); !slices.Equal(first(ids(t, text, "bundles")), []string{"shell", "check"}) {
		t.Errorf("untenanted caller's bundles: %s", text)
	}
	if text, isErr := call(t, none, "document_get", map[string]any{"id": "besluit"}); !isErr || text != `document "besluit" not found` {
		t.Errorf("untenanted caller reads heusden's document: %q", text)
	}
	utrecht := connect(t, o, mcptools.Caller{Tenant: "utrecht"})
	if text, _ := call(t, utrecht, "bundle_list", nil); !slices.Equal(first(ids(t, text, "bundles")), []string{"utrecht-only", "shell", "check"}) {
		t.Errorf("utrecht's bundles: %s", text)
	}
}

// checkLDEToolList: the six asset tools are listed, read-only, with the
// tenant rule in their descriptions.
func checkLDEToolList(t *testing.T, heusden *mcp.ClientSession) {
	var listed []string
	for tool, err := range heusden.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains([]string{"bundle_list", "bundle_get", "form_list", "form_get", "document_list", "document_get"}, tool.Name) {
			listed = append(listed, tool.Name)
			if !strings.Contains(tool.Description, "caller's municipality") || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
				t.Errorf("%s: description %q, annotations %+v", tool.Name, tool.Description, tool.Annotations)
			}
		}
	}
	slices.Sort(listed)
	if want := []string{"bundle_get", "bundle_list", "document_get", "document_list", "form_get", "form_list"}; !slices.Equal(listed, want) {
		t.Fatalf("asset tools %v, want %v", listed, want)
	}
}

// checkLDELists: each list tool answers heusden's and the untenanted
// assets, newest first, with count and leftOut.
func checkLDELists(t *testing.T, heusden *mcp.ClientSession) {
	for _, c := range []struct {
		tool, kind string
		args       map[string]any
		want       []string
		count      int
	}{
		{"bundle_list", "bundles", nil, []string{"shell", "check", "heusden-only"}, 3},
		{"bundle_list", "bundles", map[string]any{"maxResults": 1}, []string{"shell"}, 3},
		{"bundle_list", "bundles", map[string]any{"search": "TOETS"}, []string{"check"}, 1},
		{"bundle_list", "bundles", map[string]any{"search": "utrecht"}, nil, 0},
		{"form_list", "forms", nil, []string{"intake"}, 1},
		{"document_list", "documents", nil, []string{"besluit"}, 1},
	} {
		text, isErr := call(t, heusden, c.tool, c.args)
		if isErr {
			t.Errorf("%s %v: %s", c.tool, c.args, text)
			continue
		}
		got, count, leftOut := ids(t, text, c.kind)
		if !slices.Equal(got, c.want) || count != c.count || leftOut != c.count-len(c.want) {
			t.Errorf("%s %v = %v count %d leftOut %d, want %v count %d", c.tool, c.args, got, count, leftOut, c.want, c.count)
		}
	}
}

// checkLDEGets: each get tool answers one asset; large XML is cut with a
// note.
func checkLDEGets(t *testing.T, heusden *mcp.ClientSession) {
	// A whole answer, written by hand.
	text, isErr := call(t, heusden, "form_get", map[string]any{"id": "intake"})
	want := `{
 "id": "intake",
 "name": "Intake form",
 "status": "wip",
 "language": "nl",
 "organization": null,
 "updatedAt": "2026-03-01T12:01:00Z",
 "schema": {
  "components": [
   {
    "key": "income",
    "type": "number"
   }
  ]
 }
}`
	if isErr || text != want {
		t.Errorf("form_get intake =\n%s\nwant\n%s", text, want)
	}

	text, isErr = call(t, heusden, "bundle_get", map[string]any{"id": "shell"})
	var b struct {
		ID, XML            string
		LinkedDMNTemplates []string
		SubProcesses       []struct{ ID string }
		Notes              []string
	}
	if err := json.Unmarshal([]byte(text), &b); isErr || err != nil {
		t.Fatalf("bundle_get shell: %v %s", err, text)
	}
	if b.XML != `<definitions id="shell"/>` || len(b.SubProcesses) != 1 || b.SubProcesses[0].ID != "check" ||
		!slices.Equal(b.LinkedDMNTemplates, []string{"zorgtoeslag-dmn"}) || b.Notes != nil {
		t.Errorf("bundle_get shell = %s", text)
	}
	if !strings.Contains(text, `"xml": "<definitions id=\"shell\"/>"`) {
		t.Errorf("the XML is escaped beyond JSON's needs: %s", text)
	}

	// 90 003 bytes of XML: the first 65 535 bytes (65 536 would split an
	// é), and a note with the full size.
	text, isErr = call(t, heusden, "bundle_get", map[string]any{"id": "heusden-only"})
	b.Notes, b.XML = nil, ""
	if err := json.Unmarshal([]byte(text), &b); isErr || err != nil {
		t.Fatalf("bundle_get heusden-only: %v", err)
	}
	if len(b.XML) != 65535 || !strings.HasPrefix(b.XML, "<r><a>é</a><a>") || !strings.HasSuffix(b.XML, "<a>") ||
		!slices.Equal(b.Notes, []string{"xml is 90003 bytes; only the first 65536 are shown"}) {
		t.Errorf("cut XML: %d bytes, notes %v", len(b.XML), b.Notes)
	}

	text, isErr = call(t, heusden, "document_get", map[string]any{"id": "besluit"})
	if isErr || !strings.Contains(text, `"zones": {`) || !strings.Contains(text, `"processKey": "Process_Shell"`) {
		t.Errorf("document_get besluit = %s", text)
	}
}

// checkLDERefusals: another municipality's assets, unknown ids and bad
// arguments are tool errors.
func checkLDERefusals(t *testing.T, heusden *mcp.ClientSession) {
	// Another municipality's assets and unknown ids are not found alike:
	// the answer does not tell that the asset exists.
	for _, c := range []struct{ tool, id, want string }{
		{"bundle_get", "utrecht-only", `bundle "utrecht-only" not found`},
		{"form_get", "utrecht-form", `form "utrecht-form" not found`},
		{"document_get", "utrecht-brief", `document "utrecht-brief" not found`},
		{"bundle_get", "nope", `bundle "nope" not found`},
		{"form_get", "nope", `form "nope" not found`},
		{"document_get", "nope", `document "nope" not found`},
	} {
		if text, isErr := call(t, heusden, c.tool, map[string]any{"id": c.id}); !isErr || text != c.want {
			t.Errorf("%s %s = %q %v, want %q", c.tool, c.id, text, isErr, c.want)
		}
	}
	// Bad arguments are tool errors.
	if text, isErr := call(t, heusden, "bundle_list", map[string]any{"maxResults": 0}); !isErr || text != "maxResults must be a positive integer" {
		t.Errorf("maxResults 0 = %q %v", text, isErr)
	}
	if text, isErr := call(t, heusden, "form_get", map[string]any{}); !isErr || text != "id is required" {
		t.Errorf("form_get without id = %q %v", text, isErr)
	}
}

// first keeps the ids of ids' answer.
func first(s []string, _, _ int) []string { return s }

// TestLDESources: without a store the lde provider is not offered; with
// one it is listed connected while its database answers, and
// connected:false while it does not.
func TestLDESources(t *testing.T) {
	state := func(c *mcptools.Catalog) string {
		for _, s := range c.Sources() {
			if s.ID == mcptools.ProviderLDE {
				return map[bool]string{true: "up", false: "down"}[s.Connected]
			}
		}
		return "absent"
	}
	if got := state(mcptools.NewCatalog(mcptools.Options{}, nil)); got != "absent" {
		t.Errorf("without a store lde is %s", got)
	}
	store, db := assetDB(t)
	c := mcptools.NewCatalog(mcptools.Options{Assets: store}, nil)
	if got := state(c); got != "up" {
		t.Fatalf("lde is %s, want up", got)
	}
	ts, err := c.Open(context.Background(), "heusden", []string{mcptools.ProviderLDE})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	var names []string
	for _, tool := range ts.Tools() {
		names = append(names, tool.Name)
	}
	// The SDK lists a server's tools by name.
	if want := []string{"bundle_get", "bundle_list", "document_get", "document_list", "form_get", "form_list"}; !slices.Equal(names, want) {
		t.Errorf("lde tools %v, want %v", names, want)
	}
	db.Stop(t)
	if got := state(c); got != "down" {
		t.Errorf("with the database stopped lde is %s, want down", got)
	}
	text, isErr, err := ts.Call(context.Background(), "form_list", json.RawMessage(`{}`))
	if err != nil || !isErr || text != "the explorer's asset database could not be reached; try again later" {
		t.Errorf("form_list with the database stopped = %q %v %v", text, isErr, err)
	}
	db.Start(t)
	if got := state(c); got != "up" {
		t.Errorf("after the restart lde is %s, want up", got)
	}
}

// TestLDEWithoutTables: a reader on a database the explorer has not
// migrated says so instead of a bare failure.
func TestLDEWithoutTables(t *testing.T) {
	db := pgtest.New(t)
	store, err := assets.Open(context.Background(), db.URL, assets.Options{Reader: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cs := connect(t, mcptools.Options{Assets: store}, mcptools.Caller{})
	text, isErr := call(t, cs, "document_list", nil)
	if want := "the explorer's asset tables do not exist in the database of LDE_DATABASE_URL (the explorer creates them at its start)"; !isErr || text != want {
		t.Errorf("document_list without tables = %q %v", text, isErr)
	}
}
