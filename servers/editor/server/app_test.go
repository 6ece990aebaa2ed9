package server

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	editorexamples "github.com/regelkit/regelkit/examples/editor"
	"github.com/regelkit/regelkit/servers/editor/internal/backend"
	"github.com/regelkit/regelkit/sparql/memstore"

	"github.com/regelkit/regelkit/sparql/graph"
)

func testApp(t *testing.T, env map[string]string) http.Handler {
	t.Helper()
	cfg, _, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a.Handler()
}

func send(h http.Handler, method, path, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func jsonOf(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("not JSON (%d): %.200q", rec.Code, rec.Body.String())
	}
	return m
}

// TestRouting sends one request down each row of spec §4.1.
func TestRouting(t *testing.T) {
	h := testApp(t, map[string]string{"NLP_DEFAULT_MODEL": "regelkit-rules-nl", "API_KEY": "secret"})

	rec := send(h, "POST", "/api/predict", `{"text":"Het college beslist."}`, "X-API-KEY", "secret")
	if m := jsonOf(t, rec); rec.Code != 200 || m["model"] != "regelkit-rules-nl" {
		t.Errorf("predict: %d %v", rec.Code, m)
	}
	rec = send(h, "POST", "/api/predict", `{"text":"x"}`)
	if m := jsonOf(t, rec); rec.Code != 401 || m["error"] != "Unauthorized: Invalid key" {
		t.Errorf("predict without key: %d %v", rec.Code, m)
	}

	rec = send(h, "POST", "/api/getTask", `{"iri":"http://ontology.tno.nl/normengineering/editor#task-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"}`)
	m := jsonOf(t, rec)
	if rec.Code != 200 || m["message"] != "Task retrieved!" {
		t.Fatalf("backend: %d %v", rec.Code, m)
	}
	rec = send(h, "POST", "/api/process_graph", m["task"].(string), "Content-Type", "text/turtle")
	task := jsonOf(t, rec)
	if rec.Code != 200 || task["label"] != "Participatiewet art. 43" {
		t.Fatalf("process_graph: %d %.300v", rec.Code, task)
	}
	body, _ := json.Marshal(task)
	rec = send(h, "POST", "/api/process_and_save", string(body), "X-API-KEY", "secret")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/trig; charset=utf-8" {
		t.Fatalf("process_and_save: %d %.300s", rec.Code, rec.Body.String())
	}
	if _, err := graph.ParseDataset(rec.Body, graph.TriG, graph.ParseOptions{}); err != nil {
		t.Errorf("process_and_save output does not parse: %v", err)
	}
	rec = send(h, "POST", "/api/process_and_save", string(body))
	if rec.Code != 401 {
		t.Errorf("process_and_save without key: %d", rec.Code)
	}
	rec = send(h, "GET", "/api/unknown", "")
	if m := jsonOf(t, rec); rec.Code != 404 || m["message"] != "Not found!" {
		t.Errorf("unknown /api path: %d %v", rec.Code, m)
	}

	for _, path := range []string{"/", "/tasks/abc", "/index.html"} {
		rec = send(h, "GET", path, "")
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<script src="/app.js">`) {
			t.Errorf("%s: %d, want the app's index.html", path, rec.Code)
		}
	}
	rec = send(h, "GET", "/app.js", "")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "getTasksFromGraphStore") {
		t.Errorf("/app.js: %d", rec.Code)
	}
	rec = send(h, "GET", "/swagger", "")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "/api/openapi.json") || strings.Contains(rec.Body.String(), "https://") {
		t.Errorf("/swagger: %d (must be self-contained)", rec.Code)
	}
}

func TestCORS(t *testing.T) {
	h := testApp(t, nil)
	rec := send(h, "OPTIONS", "/api/predict", "", "Origin", "http://gui.example", "Access-Control-Request-Method", "POST")
	if rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != "*" ||
		rec.Header().Get("Access-Control-Allow-Headers") != "Content-Type, X-API-KEY" {
		t.Errorf("preflight: %d %v", rec.Code, rec.Header())
	}
	h = testApp(t, map[string]string{"CORS_ORIGINS": "http://gui.example"})
	rec = send(h, "GET", "/api/getSources", "", "Origin", "http://gui.example")
	if rec.Header().Get("Access-Control-Allow-Origin") != "http://gui.example" {
		t.Errorf("listed origin: %v", rec.Header())
	}
	rec = send(h, "OPTIONS", "/api/getSources", "", "Origin", "http://evil.example", "Access-Control-Request-Method", "GET")
	if rec.Code != 403 || rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("unlisted origin preflight: %d %v", rec.Code, rec.Header())
	}
}

// TestOpenAPIWalk sends every documented operation through the front: none
// may fall through to the app or answer 404/405.
func TestOpenAPIWalk(t *testing.T) {
	h := testApp(t, map[string]string{"NLP_DEFAULT_MODEL": "regelkit-rules-nl"})
	rec := send(h, "GET", "/api/openapi.json", "")
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || rec.Code != 200 {
		t.Fatalf("openapi.json: %d %v", rec.Code, err)
	}
	if len(doc.Paths) < 12 {
		t.Errorf("%d paths documented", len(doc.Paths))
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			rec := send(h, strings.ToUpper(method), path, "{}")
			if rec.Code == 404 || rec.Code == 405 || (strings.HasPrefix(path, "/api/") && strings.Contains(rec.Body.String(), "<!doctype html>")) {
				t.Errorf("%s %s: %d %.100s", method, path, rec.Code, rec.Body.String())
			}
		}
	}
}

func TestREADMEDocumentsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, env, err := loadConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range env.Vars() {
		if !strings.Contains(string(readme), "| `"+v.Name+"` |") {
			t.Errorf("README's editor configuration table lacks %s", v.Name)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, env := range []map[string]string{
		{"GRAPHSTORE_API_URL": "https://api.example.org/", "GRAPHSTORE_DATASET": "nodataset"},
		{"GRAPHSTORE_ALLOWED_DATASETS": "a/b,../x"},
		{"EDITOR_MAX_BODY_BYTES": "-1"},
	} {
		if _, _, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err == nil {
			t.Errorf("%v: no error", env)
		}
	}
	cfg, _, err := loadConfig(func(k string) (string, bool) {
		v, ok := map[string]string{"TRIPLY_ENDPOINT": "https://api.example.org/", "TRIPLY_DATASET": "datasets/TNO/editor/sparql"}[k]
		return v, ok
	})
	if err != nil || cfg.GraphStoreURL != "https://api.example.org/" || cfg.Dataset != "TNO/editor" {
		t.Errorf("upstream aliases: %+v %v", cfg, err)
	}
}

// TestRemoteStore runs the backend against a SPARQL 1.1 endpoint over HTTP
// (the memstore protocol handler standing in for a TriplyDB-style
// <api>/datasets/<org>/<dataset>/sparql, answering gzip-compressed): the same
// answers as the embedded store, and a save goes through SPARQL Update with
// the write token.
func TestRemoteStore(t *testing.T) {
	for _, gsp := range []bool{false, true} {
		t.Run(map[bool]string{false: "update", true: "gsp"}[gsp], func(t *testing.T) { testRemoteStore(t, gsp) })
	}
}

func testRemoteStore(t *testing.T, gsp bool) {
	embedded := testApp(t, nil)
	st := memstore.NewWithOptions(memstore.Options{UnionDefaultGraph: true})
	if err := backend.Seed(context.Background(), &backend.EndpointStore{Query: st, Update: st}, editorexamples.FS, time.Now); err != nil {
		t.Fatal(err)
	}
	sparqlHandler := st.Handler(memstore.HandlerOptions{})
	var sawWriteToken, sawPut bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/datasets/TNO/editor/sparql" {
			http.NotFound(w, r)
			return
		}
		sawPut = sawPut || r.Method == http.MethodPut
		auth := r.Header.Get("Authorization")
		sawWriteToken = sawWriteToken || auth == "Bearer w-token"
		if auth != "Bearer r-token" && auth != "Bearer w-token" {
			http.Error(w, "unauthorised", http.StatusUnauthorized)
			return
		}
		// The store compresses its answers, as TriplyDB does: the client
		// must decompress them (gzip handled).
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Errorf("request without Accept-Encoding: gzip")
			sparqlHandler.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		sparqlHandler.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		zw := gzip.NewWriter(w)
		_, _ = zw.Write(rec.Body.Bytes())
		_ = zw.Close()
	}))
	defer srv.Close()
	env := map[string]string{"GRAPHSTORE_API_URL": srv.URL + "/", "GRAPHSTORE_DATASET": "TNO/editor",
		"GRAPHSTORE_READ_TOKEN": "r-token", "GRAPHSTORE_WRITE_TOKEN": "w-token"}
	if gsp {
		// The memstore handler also speaks the Graph Store Protocol.
		env["GRAPHSTORE_GSP_URL"] = srv.URL + "/datasets/TNO/editor/sparql"
	}
	remote := testApp(t, env)

	want := jsonOf(t, send(embedded, "GET", "/api/getSources", ""))
	got := jsonOf(t, send(remote, "GET", "/api/getSources", ""))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("getSources differs (-embedded +remote):\n%s", diff)
	}
	iris := func(h http.Handler, endpoint string) []string {
		m := jsonOf(t, send(h, "POST", "/api/getTasksFromGraphStore", `{"endpoint":"`+endpoint+`"}`))
		var out []string
		for _, b := range m["tasks"].(map[string]any)["results"].(map[string]any)["bindings"].([]any) {
			out = append(out, b.(map[string]any)["iri"].(map[string]any)["value"].(string))
		}
		return out
	}
	if diff := cmp.Diff(iris(embedded, "local/editor/sparql"), iris(remote, "TNO/editor/sparql")); diff != "" {
		t.Errorf("tasks differ (-embedded +remote):\n%s", diff)
	}
	rec := send(remote, "POST", "/api/getTasksFromGraphStore", `{"endpoint":"local/editor/sparql"}`)
	if rec.Code != 403 {
		t.Errorf("remote with another dataset: %d, want 403", rec.Code)
	}
	task := jsonOf(t, send(remote, "POST", "/api/getTask", `{"iri":"http://ontology.tno.nl/normengineering/editor#task-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"}`))["task"].(string)
	fresh := strings.ReplaceAll(task, "3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f", "aaaaaaaa-1a2b-4c5d-8e9f-0a1b2c3d4e5f")
	body, _ := json.Marshal(map[string]string{"task": fresh})
	rec = send(remote, "POST", "/api/saveTaskAtGraphStore", string(body))
	if m := jsonOf(t, rec); rec.Code != 200 || m["message"] != "Task saved!" || !sawWriteToken {
		t.Fatalf("remote save: %d %v (write token seen: %v)", rec.Code, m, sawWriteToken)
	}
	if n := len(iris(remote, "TNO/editor/sparql")); n != 3 {
		t.Errorf("after the remote save: %d tasks, want 3", n)
	}
	if sawPut != gsp {
		t.Errorf("saved with PUT: %v, want %v", sawPut, gsp)
	}
	rec = send(remote, "POST", "/api/saveTaskAtGraphStore", string(body))
	if rec.Code != 409 {
		t.Errorf("second remote save: %d, want 409", rec.Code)
	}
}

// TestPlainSPARQLStore points the binary at a plain SPARQL 1.1 endpoint (as
// Virtuoso, Fuseki or GraphDB offer: one URL for queries, updates at the
// same URL or GRAPHSTORE_UPDATE_URL), served here by the memstore protocol
// handler: the same listings as the embedded store under the dataset name
// store/editor, and a save through SPARQL Update on the update URL.
func TestPlainSPARQLStore(t *testing.T) {
	embedded := testApp(t, nil)
	st := memstore.NewWithOptions(memstore.Options{UnionDefaultGraph: true})
	if err := backend.Seed(context.Background(), &backend.EndpointStore{Query: st, Update: st}, editorexamples.FS, time.Now); err != nil {
		t.Fatal(err)
	}
	h := st.Handler(memstore.HandlerOptions{})
	var updates int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sparql":
		case "/update":
			updates++
		default:
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	plain := testApp(t, map[string]string{"GRAPHSTORE_SPARQL_URL": srv.URL + "/sparql", "GRAPHSTORE_UPDATE_URL": srv.URL + "/update"})

	if diff := cmp.Diff(jsonOf(t, send(embedded, "GET", "/api/getSources", "")), jsonOf(t, send(plain, "GET", "/api/getSources", ""))); diff != "" {
		t.Errorf("getSources differs (-embedded +plain):\n%s", diff)
	}
	count := func(endpoint string) int {
		m := jsonOf(t, send(plain, "POST", "/api/getTasksFromGraphStore", `{"endpoint":"`+endpoint+`"}`))
		return len(m["tasks"].(map[string]any)["results"].(map[string]any)["bindings"].([]any))
	}
	if n := count("store/editor/sparql"); n != 2 {
		t.Fatalf("tasks of store/editor: %d, want 2", n)
	}
	task := jsonOf(t, send(plain, "POST", "/api/getTask", `{"iri":"http://ontology.tno.nl/normengineering/editor#task-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"}`))["task"].(string)
	fresh := strings.ReplaceAll(task, "3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f", "bbbbbbbb-1a2b-4c5d-8e9f-0a1b2c3d4e5f")
	body, _ := json.Marshal(map[string]string{"task": fresh})
	if rec := send(plain, "POST", "/api/saveTaskAtGraphStore", string(body)); rec.Code != 200 || updates == 0 {
		t.Fatalf("save: %d %s (updates seen: %d)", rec.Code, rec.Body, updates)
	}
	if n := count("store/editor/sparql"); n != 3 {
		t.Errorf("after the save: %d tasks, want 3", n)
	}
	readOnly := testApp(t, map[string]string{"GRAPHSTORE_SPARQL_URL": srv.URL + "/sparql", "GRAPHSTORE_READ_ONLY": "true"})
	other, _ := json.Marshal(map[string]string{"task": strings.ReplaceAll(task, "3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f", "cccccccc-1a2b-4c5d-8e9f-0a1b2c3d4e5f")})
	if rec := send(readOnly, "POST", "/api/saveTaskAtGraphStore", string(other)); rec.Code != 503 {
		t.Errorf("read-only save: %d, want 503", rec.Code)
	}
	if _, _, err := loadConfig(func(k string) (string, bool) {
		v, ok := map[string]string{"GRAPHSTORE_SPARQL_URL": srv.URL, "GRAPHSTORE_API_URL": srv.URL}[k]
		return v, ok
	}); err == nil {
		t.Error("both GRAPHSTORE_SPARQL_URL and GRAPHSTORE_API_URL: no error")
	}
}
