package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The hostile-input suite: crafted requests across every explorer route
// (malformed, oversized, deeply nested, wrong types, wrong content types,
// pathological queries, unknown ids) through the real router and
// middleware on the embedded defaults. It asserts that no request gets a
// 5xx except documented upstream failures, none takes 35 s or more, and
// the heap after the suite is within twice the heap before it.
//
// Cases that need a fix another package is making (parse nesting limits
// and evaluation budgets in sparql/memstore, dmn/feel, dmn/validate,
// shacl) carry needs: they run once their fix is listed in fixed, or with
// REGELKIT_HOSTILE_ALL=1 (which may crash the test binary while a parser
// still recurses without a limit).

// Fixes the disabled cases wait for; a fix listed in fixed has landed.
const (
	needSPARQLNesting = "sparql/memstore: parse nesting limit"
	needSPARQLBudget  = "sparql/memstore: evaluation budget"
	needFEELNesting   = "dmn/feel: parse nesting limit"
	needValidatorOut  = "dmn/validate: bounded INT-007 output"
	needSHACLBounds   = "shacl: bounded sh:node recursion and issue output"
	// The embedded endpoint's protocol handler answers a LimitError 500
	// today; it must answer 400, or 503 for Timeout, like the router.
	needHandlerLimits = "sparql/memstore: Handler maps LimitError to 400/503"
	// Queries that only a Timeout stops take EVAL_TIMEOUT each: the suite
	// sets it to 3s, which reaches the store once the explorer passes
	// cfg.Limits into memstore.Options (at the merge of the Limits types).
	needEvalTimeout = "explorer: EVAL_TIMEOUT passed to the embedded store's Limits"
)

var fixed = map[string]bool{needValidatorOut: true, needFEELNesting: true, needSHACLBounds: true, needHandlerLimits: true,
	needSPARQLNesting: true, needSPARQLBudget: true, needEvalTimeout: true}

// hostileCase is one crafted request.
type hostileCase struct {
	name   string
	method string
	path   string
	ctype  string // Content-Type; "" sends none
	body   []byte
	header []string // extra headers, name and value alternating
	// want is the exact status when known (0: any status below 500).
	want int
	// upstream marks a case whose documented answer is an upstream failure
	// (502 or 504 with the route's code).
	upstream bool
	needs    []string
	// maxBody bounds the response size when set (bytes).
	maxBody int
}

const jsonType = "application/json"

func jsonCase(name, method, path, body string, want int) hostileCase {
	return hostileCase{name: name, method: method, path: path, ctype: jsonType, body: []byte(body), want: want}
}

// jsonRoute is a route that takes a JSON body, with the fields it reads.
type jsonRoute struct {
	path   string
	fields []string
	// db: the route needs the asset database (503 DB_NOT_CONFIGURED on the
	// embedded defaults for every well-typed body).
	db bool
}

var jsonRoutes = []jsonRoute{
	{path: "/v1/chains/execute", fields: []string{"chain", "inputs", "endpoint", "isDrd"}},
	{path: "/v1/chains/execute/localpass", fields: []string{"inputs", "options"}},
	{path: "/v1/chains/export", fields: []string{"chain", "name", "endpoint"}},
	{path: "/v1/graphdb/query", fields: []string{"endpoint", "query"}},
	{path: "/v1/dmns/validate", fields: []string{"content"}},
	{path: "/v1/shacl/validate", fields: []string{"content"}},
	{path: "/v1/shacl/validate-merged", fields: []string{"content", "endpoint"}},
	{path: "/v1/docmgmt/workspaces/ensure", fields: []string{"projectNumber", "projectName"}},
	{path: "/v1/docmgmt/documents", fields: []string{"workspaceId", "filename", "contentBase64", "metadata"}},
	{path: "/v1/assets/bpmn", fields: []string{"id", "name", "xml", "bpmnProcessId"}, db: true},
	{path: "/v1/assets/forms", fields: []string{"id", "name", "schema"}, db: true},
	{path: "/v1/assets/documents", fields: []string{"id", "name", "template"}, db: true},
}

func nested(open, close string, n int, inner string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// hostileCases builds the table; deadEndpoint names a loopback port where
// nothing listens.
func hostileCases(deadEndpoint string) []hostileCase {
	var cs []hostileCase
	add := func(c ...hostileCase) { cs = append(cs, c...) }

	// Every JSON route: content types, malformed and oversized bodies,
	// deep nesting, wrong types.
	for _, r := range jsonRoutes {
		p := r.path
		valid := `{"` + r.fields[0] + `":"x"}`
		for _, ct := range []string{"text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz", "application/xml", "text/json"} {
			add(hostileCase{name: "content type " + ct, method: "POST", path: p, ctype: ct, body: []byte(valid), want: 415})
		}
		add(hostileCase{name: "no content type", method: "POST", path: p, body: []byte(valid), want: 415})
		add(hostileCase{name: "cross-site simple POST", method: "POST", path: p, ctype: "text/plain", body: []byte(valid),
			header: []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, want: 415})
		tooLarge := 400
		if r.db {
			tooLarge = 0 // the database check may answer first
		}
		add(jsonCase("malformed", "POST", p, `{bad`, tooLarge),
			jsonCase("truncated", "POST", p, `{"`+r.fields[0]+`":`, tooLarge),
			jsonCase("trailing data", "POST", p, valid+` {}`, tooLarge),
			jsonCase("array body", "POST", p, `[1,2,3]`, tooLarge),
			jsonCase("string body", "POST", p, `"just a string"`, tooLarge),
			jsonCase("number body", "POST", p, `12345`, tooLarge),
			jsonCase("null body", "POST", p, `null`, 0),
			jsonCase("empty object", "POST", p, `{}`, 0),
			jsonCase("unknown fields only", "POST", p, `{"zzz":1,"__proto__":{"polluted":true}}`, 0),
			jsonCase("invalid UTF-8", "POST", p, "{\""+r.fields[0]+"\":\"\xff\xfe\xfd\"}", 0),
			jsonCase("deeply nested arrays", "POST", p, `{"`+r.fields[0]+`":`+nested("[", "]", 100_000, "")+`}`, tooLarge),
			jsonCase("deeply nested objects", "POST", p, `{"`+r.fields[0]+`":`+nested(`{"a":`, "}", 50_000, "1")+`}`, tooLarge),
			jsonCase("huge number", "POST", p, `{"`+r.fields[0]+`":1`+strings.Repeat("0", 100_000)+`}`, 0),
			jsonCase("long string field", "POST", p, `{"`+r.fields[0]+`":"`+strings.Repeat("a", 2<<20)+`"}`, 0),
		)
		add(hostileCase{name: "body over 10 MB", method: "POST", path: p, ctype: jsonType,
			body: []byte(`{"` + r.fields[0] + `":"` + strings.Repeat("x", 10<<20) + `"}`), want: 413})
		for _, f := range r.fields {
			for _, v := range []string{`42`, `true`, `{}`, `[]`, `null`, `-1e999`} {
				add(jsonCase(fmt.Sprintf("%s as %s", f, v), "POST", p, `{"`+f+`":`+v+`}`, 0))
			}
		}
	}

	// Discovery routes: endpoint parameter abuse and unknown ids.
	discovery := []string{"/v1/dmns", "/v1/dmns/enhanced-chain-links", "/v1/dmns/semantic-equivalences", "/v1/dmns/cycles", "/v1/chains", "/v1/dmns/SVB_LeeftijdsInformatie", "/v1/dmns/SVB_LeeftijdsInformatie/xml"}
	badEndpoints := []struct {
		name, value string
		want        int
	}{
		{"missing endpoint", "", 400},
		{"gopher endpoint", "gopher://127.0.0.1:70/", 400},
		{"file endpoint", "file:///etc/passwd", 400},
		{"metadata endpoint", "http://169.254.169.254/latest/meta-data/", 400},
		{"metadata name", "http://metadata.google.internal/computeMetadata/v1/", 400},
		{"private endpoint", "http://10.0.0.1:8890/sparql", 400},
		{"IPv6 metadata", "http://[fd00:ec2::254]/", 400},
		{"user info", "http://user:secret@example.org/sparql", 400},
		{"relative endpoint", "sparql", 400},
		{"control characters", "http://example.org/\r\nX-Injected: 1", 400},
		{"100 KB endpoint", "http://example.org/" + strings.Repeat("a", 100<<10), -1}, // no network here: an upstream failure
	}
	for _, p := range discovery {
		for _, e := range badEndpoints {
			q := ""
			if e.value != "" {
				q = "?endpoint=" + url.QueryEscape(e.value)
			}
			want := e.want
			if strings.HasSuffix(p, "/xml") {
				want = 0 // the XML comes from the engine; endpoint is not read
			}
			add(hostileCase{name: e.name, method: "GET", path: p + q, want: max(want, 0), upstream: want < 0})
		}
		add(hostileCase{name: "dead endpoint", method: "GET", path: p + "?endpoint=" + url.QueryEscape(deadEndpoint), upstream: true})
		add(hostileCase{name: "endpoint twice", method: "GET", path: p + "?endpoint=/v1/sparql&endpoint=http://10.0.0.1/", want: 0})
		add(hostileCase{name: "refresh garbage", method: "GET", path: p + "?endpoint=/v1/sparql&refresh=" + strings.Repeat("x", 5000), want: 0})
	}
	for _, id := range []string{"unknown-model", strings.Repeat("x", 10_000), "..%2F..%2Fetc%2Fpasswd", "%00", "a%22%3E%3Cscript%3E", "%F0%9F%92%A9"} {
		add(hostileCase{name: "unknown id " + id[:min(len(id), 20)], method: "GET", path: "/v1/dmns/" + id + "?endpoint=/v1/sparql", want: 404})
		add(hostileCase{name: "unknown id xml " + id[:min(len(id), 20)], method: "GET", path: "/v1/dmns/" + id + "/xml?endpoint=/v1/sparql", want: 404})
	}

	// Chain execution and export with hostile chains.
	add(jsonCase("chain of 10,000 unknown ids", "POST", "/v1/chains/execute", `{"chain":[`+strings.TrimSuffix(strings.Repeat(`"x",`, 10_000), ",")+`],"inputs":{"a":1},"endpoint":"/v1/sparql"}`, 400),
		jsonCase("chain with an empty id", "POST", "/v1/chains/execute", `{"chain":[""],"inputs":{},"endpoint":"/v1/sparql"}`, 0),
		jsonCase("inputs with 100,000 keys", "POST", "/v1/chains/execute", `{"chain":["SVB_LeeftijdsInformatie"],"inputs":{`+manyKeys(100_000)+`},"endpoint":"/v1/sparql"}`, 0),
		// 404 today; 400 naming the step once the DRD-compatibility check
		// covers unknown models.
		jsonCase("export of unknown models", "POST", "/v1/chains/export", `{"chain":["a","b"],"name":"x","endpoint":"/v1/sparql"}`, 0),
		jsonCase("export with a 1 MB name", "POST", "/v1/chains/export", `{"chain":["a","b"],"name":"`+strings.Repeat("n", 1<<20)+`","endpoint":"/v1/sparql"}`, 0),
		jsonCase("export to a metadata endpoint", "POST", "/v1/chains/export", `{"chain":["a","b"],"name":"x","endpoint":"http://169.254.169.254/"}`, 400),
		jsonCase("localpass with dates far out", "POST", "/v1/chains/execute/localpass", `{"inputs":{"dagVanAanvraag":"999999999-12-31","geboortedatumAanvrager":"-999999999-01-01"}}`, 0),
		jsonCase("localpass with a 1 MB date", "POST", "/v1/chains/execute/localpass", `{"inputs":{"dagVanAanvraag":"`+strings.Repeat("2", 1<<20)+`"}}`, 0),
	)

	// The query proxy and the embedded SPARQL endpoint.
	add(jsonCase("proxy: syntax error", "POST", "/v1/graphdb/query", `{"endpoint":"/v1/sparql","query":"SELECT WHERE {"}`, 400),
		jsonCase("proxy: CONSTRUCT", "POST", "/v1/graphdb/query", `{"endpoint":"/v1/sparql","query":"CONSTRUCT WHERE { ?s ?p ?o }"}`, 400),
		jsonCase("proxy: update", "POST", "/v1/graphdb/query", `{"endpoint":"/v1/sparql","query":"DELETE WHERE { ?s ?p ?o }"}`, 400),
		hostileCase{name: "proxy: dead endpoint", method: "POST", path: "/v1/graphdb/query", ctype: jsonType, body: []byte(`{"endpoint":"` + deadEndpoint + `","query":"ASK {}"}`), upstream: true},
		jsonCase("proxy: SERVICE to metadata", "POST", "/v1/graphdb/query", `{"endpoint":"/v1/sparql","query":"SELECT * WHERE { SERVICE <http://169.254.169.254/> { ?s ?p ?o } }"}`, 400),
		// 400, or the service description once the protocol handler serves one.
		hostileCase{name: "sparql: no query", method: "GET", path: "/v1/sparql", want: 0},
		hostileCase{name: "sparql: update refused", method: "POST", path: "/v1/sparql", ctype: "application/sparql-update", body: []byte("DROP ALL"), want: 403},
		hostileCase{name: "sparql: form update refused", method: "POST", path: "/v1/sparql", ctype: "application/x-www-form-urlencoded", body: []byte("update=DROP+ALL"), want: 403},
		hostileCase{name: "sparql: wrong content type", method: "POST", path: "/v1/sparql", ctype: "text/plain", body: []byte("SELECT * {}"), want: 0},
		hostileCase{name: "sparql: garbage", method: "GET", path: "/v1/sparql?query=" + url.QueryEscape("\x00\x01 SELECT"), want: 400},
	)
	pathological := []struct {
		name, query string
		needs       []string
		handler     bool // the embedded endpoint answers with a LimitError, not a syntax error
	}{
		{"200,000 nested braces", "SELECT * WHERE " + nested("{", "}", 200_000, ""), []string{needSPARQLNesting}, false},
		{"1,000,000 parentheses in FILTER", "SELECT * WHERE { ?s ?p ?o FILTER(" + nested("(", ")", 1_000_000, "1") + ") }", []string{needSPARQLNesting}, false},
		{"1,000,000 parentheses in a path", "SELECT * WHERE { ?s " + nested("(", ")", 1_000_000, "<urn:p>") + " ?o }", []string{needSPARQLNesting}, false},
		{"3,000,000 unary nots", "SELECT * WHERE { ?s ?p ?o FILTER(" + strings.Repeat("!", 3_000_000) + "true) }", []string{needSPARQLNesting}, false},
		{"ORDER BY RAND over a cross product", "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY RAND() LIMIT 1", []string{needSPARQLBudget, needEvalTimeout}, true},
		{"31 chained CONCAT doublings", "SELECT ?y31 WHERE { BIND(\"ab\" AS ?y0) " + concatChain(31) + "}", []string{needSPARQLBudget}, true},
		{"GROUP_CONCAT over a cross product", "SELECT (GROUP_CONCAT(STR(?c)) AS ?g) WHERE { ?a ?b ?c . ?d ?e ?f }", []string{needSPARQLBudget}, true},
		{"4-pattern COUNT", "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }", []string{needSPARQLBudget, needEvalTimeout}, true},
	}
	for _, pq := range pathological {
		body, _ := json.Marshal(map[string]string{"endpoint": "/v1/sparql", "query": pq.query})
		direct := pq.needs
		if pq.handler {
			direct = append(slices.Clone(pq.needs), needHandlerLimits)
		}
		add(hostileCase{name: "proxy: " + pq.name, method: "POST", path: "/v1/graphdb/query", ctype: jsonType, body: body, needs: pq.needs},
			hostileCase{name: "sparql: " + pq.name, method: "POST", path: "/v1/sparql", ctype: "application/sparql-query", body: []byte(pq.query), needs: direct},
			hostileCase{name: "sparql form: " + pq.name, method: "POST", path: "/v1/sparql", ctype: "application/x-www-form-urlencoded",
				body: []byte(url.Values{"query": {pq.query}}.Encode()), needs: direct})
	}

	// Validators.
	feelDeep := `<?xml version="1.0"?><definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" name="d" namespace="n" id="d">` +
		`<inputData id="i" name="x"><variable name="x"/></inputData><decision id="d1" name="d1"><decisionTable><input><inputExpression typeRef="number"><text>` +
		nested("(", ")", 300_000, "x") + `</text></inputExpression></input><output typeRef="number"/><rule><inputEntry><text>-</text></inputEntry><outputEntry><text>1</text></outputEntry></rule></decisionTable></decision></definitions>`
	int007 := `<?xml version="1.0"?><definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" name="d" namespace="n" id="d"><decision id="d1" name="d1"><decisionTable><input><inputExpression typeRef="number"><text>` +
		strings.Repeat("a + ", 7_800) + `a</text></inputExpression></input><output typeRef="number"/></decisionTable></decision></definitions>`
	validate := func(content string) []byte { b, _ := json.Marshal(map[string]string{"content": content}); return b }
	add(hostileCase{name: "validate: 300,000 parentheses in FEEL", method: "POST", path: "/v1/dmns/validate", ctype: jsonType, body: validate(feelDeep), needs: []string{needFEELNesting}},
		hostileCase{name: "validate: 31 KB INT-007 expression", method: "POST", path: "/v1/dmns/validate", ctype: jsonType, body: validate(int007), needs: []string{needValidatorOut}, maxBody: 100 << 10},
		hostileCase{name: "validate: billion laughs", method: "POST", path: "/v1/dmns/validate", ctype: jsonType, body: validate(billionLaughs()), want: 200},
		hostileCase{name: "validate: 200,000 nested elements", method: "POST", path: "/v1/dmns/validate", ctype: jsonType, body: validate(nested("<a>", "</a>", 200_000, "")), want: 200},
		hostileCase{name: "validate: not XML", method: "POST", path: "/v1/dmns/validate", ctype: jsonType, body: validate("\x00\x01\x02"), want: 200},
	)
	shaclList := "@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <https://x.example/> .\n" +
		"ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:node ex:S ] .\nex:a ex:p " + nested("(", ")", 1, strings.Repeat("ex:a ", 250_000)) + " ."
	turtleDeep := "<https://x.example/a> <https://x.example/p> " + nested("[ <https://x.example/p> ", "]", 100_000, "1") + " ."
	shaclValues := "@prefix cv: <http://data.europa.eu/m8g/> . @prefix foaf: <http://xmlns.com/foaf/0.1/> .\n<https://x.example/o> a cv:PublicOrganisation ; foaf:homepage " +
		strings.TrimSuffix(strings.Repeat("<https://x.example/h> , ", 1), " , ") + manyIRIs(2_000) + " ."
	shacl := func(content string) []byte { b, _ := json.Marshal(map[string]string{"content": content}); return b }
	add(hostileCase{name: "shacl: sh:node over a 250,000-element list", method: "POST", path: "/v1/shacl/validate", ctype: jsonType, body: shacl(shaclList), needs: []string{needSHACLBounds}},
		hostileCase{name: "shacl: 2,000 values per property", method: "POST", path: "/v1/shacl/validate", ctype: jsonType, body: shacl(shaclValues), needs: []string{needSHACLBounds}, maxBody: 100 << 10},
		hostileCase{name: "shacl: 100,000 nested blank nodes", method: "POST", path: "/v1/shacl/validate", ctype: jsonType, body: shacl(turtleDeep), want: 200},
		hostileCase{name: "shacl: not Turtle", method: "POST", path: "/v1/shacl/validate", ctype: jsonType, body: shacl("@prefix : <"), want: 200},
		hostileCase{name: "shacl merged: metadata endpoint", method: "POST", path: "/v1/shacl/validate-merged", ctype: jsonType,
			body: []byte(`{"content":"<https://x.example/a> a <https://x.example/B> .","endpoint":"http://169.254.169.254/"}`), want: 400},
		hostileCase{name: "shacl merged: subject IRI with a brace", method: "POST", path: "/v1/shacl/validate-merged", ctype: jsonType,
			body: []byte(`{"content":"<https://x.example/a{b> a <https://x.example/B> ."}`), want: 0},
	)

	// Norms parameters and conditional requests.
	for _, q := range []string{"?cprmv_version=9.9.9", "?cprmv_version=" + strings.Repeat("0", 5000), "?rulesetid=" + strings.Repeat("B", 10_000), "?rulesetid=%00%01", "?rulesetid=a&rulesetid=b", "?unknown=1"} {
		add(hostileCase{name: "norms " + q[:min(len(q), 30)], method: "GET", path: "/v1/norms" + q, want: 0})
	}
	add(hostileCase{name: "norms: huge If-None-Match", method: "GET", path: "/v1/norms", header: []string{"If-None-Match", strings.Repeat(`"x",`, 10_000)}, want: 0})

	// Document management and assets.
	add(hostileCase{name: "docmgmt: unknown workspace", method: "GET", path: "/v1/docmgmt/workspaces/nope/documents", want: 0},
		hostileCase{name: "docmgmt: 10 KB workspace id", method: "GET", path: "/v1/docmgmt/workspaces/" + strings.Repeat("w", 10_000) + "/documents", want: 0},
		jsonCase("docmgmt: base64 garbage", "POST", "/v1/docmgmt/documents", `{"workspaceId":"w","filename":"f","contentBase64":"!!!","metadata":{"docName":"d"}}`, 0),
		jsonCase("docmgmt: workspace filter injection", "POST", "/v1/docmgmt/workspaces/ensure", `{"projectNumber":"1' OR '1'='1","projectName":"x"}`, 0),
	)
	for _, p := range []string{"/v1/assets/bpmn/x", "/v1/assets/forms/x", "/v1/assets/documents/x"} {
		add(hostileCase{name: "delete without database", method: "DELETE", path: p, want: 0})
	}
	add(hostileCase{name: "asset by bpmn id", method: "GET", path: "/v1/assets/bpmn/by-bpmn-id/" + strings.Repeat("p", 5000), want: 0})

	// The engine's Operaton facade.
	add(hostileCase{name: "engine: text/plain deployment", method: "POST", path: "/engine-rest/deployment/create", ctype: "text/plain", body: []byte("x"), want: 0},
		hostileCase{name: "engine: cross-site multipart deployment", method: "POST", path: "/engine-rest/deployment/create", ctype: "multipart/form-data; boundary=b",
			body: []byte("--b\r\nContent-Disposition: form-data; name=\"deployment-name\"\r\n\r\nx\r\n--b--\r\n"), header: []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, want: 403},
		hostileCase{name: "engine: malformed evaluate", method: "POST", path: "/engine-rest/decision-definition/key/SVB_LeeftijdsInformatie/evaluate", ctype: jsonType, body: []byte(`{bad`), want: 0},
		hostileCase{name: "engine: evaluate unknown key", method: "POST", path: "/engine-rest/decision-definition/key/nope/evaluate", ctype: jsonType, body: []byte(`{"variables":{}}`), want: 0},
		hostileCase{name: "engine: maxResults huge", method: "GET", path: "/engine-rest/decision-definition?maxResults=999999999999999999999", want: 0},
		hostileCase{name: "engine: unknown definition", method: "GET", path: "/engine-rest/decision-definition/" + strings.Repeat("d", 5000) + "/xml", want: 0},
	)

	// Routing, methods and headers.
	add(hostileCase{name: "unknown route", method: "GET", path: "/v1/" + strings.Repeat("x/", 2000), want: 404},
		hostileCase{name: "unknown legacy route", method: "GET", path: "/api/nope", want: 404},
		hostileCase{name: "wrong method", method: "PUT", path: "/v1/dmns", want: 405},
		hostileCase{name: "wrong method on validate", method: "GET", path: "/v1/dmns/validate", want: 0},
		hostileCase{name: "TRACE", method: "TRACE", path: "/v1/health", want: 405},
		hostileCase{name: "huge request id", method: "GET", path: "/", header: []string{"X-Request-ID", strings.Repeat("r", 100)}, want: 200},
		hostileCase{name: "preflight from another origin", method: "OPTIONS", path: "/v1/chains/export", header: []string{"Origin", "https://evil.example", "Access-Control-Request-Method", "POST"}, want: 403},
		hostileCase{name: "openapi with odd Accept", method: "GET", path: "/v1/openapi.json", header: []string{"Accept", "text/html;q=" + strings.Repeat("9", 1000)}, want: 200},
		hostileCase{name: "health", method: "GET", path: "/v1/health", want: 200},
		hostileCase{name: "legacy health", method: "GET", path: "/api/health", want: 200},
		hostileCase{name: "docmgmt status", method: "GET", path: "/v1/docmgmt/status", want: 200},
	)
	return cs
}

func concatChain(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "BIND(CONCAT(?y%d, ?y%d) AS ?y%d) ", i-1, i-1, i)
	}
	return b.String()
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	return b.String()
}

func manyIRIs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, ", <https://x.example/h%d>", i)
	}
	return b.String()
}

func billionLaughs() string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">`)
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, `<!ENTITY lol%d "`, i)
		prev := "lol"
		if i > 1 {
			prev = fmt.Sprintf("lol%d", i-1)
		}
		b.WriteString(strings.Repeat("&"+prev+";", 10))
		b.WriteString(`">`)
	}
	b.WriteString(`]><definitions>&lol9;</definitions>`)
	return b.String()
}

// documented5xx is the 5xx answers the specification documents for the
// embedded defaults: asset storage without a database (503
// DB_NOT_CONFIGURED), a Timeout bound (503 LIMIT_EXCEEDED), a decision the
// engine could not evaluate (500 EXECUTION_ERROR naming the model and the
// cause, spec §7), and for cases marked upstream an endpoint that fails
// (502) or is too slow (504).
func documented5xx(status int, code string, body []byte, c hostileCase) bool {
	switch {
	case status == http.StatusServiceUnavailable && strings.HasPrefix(c.path, "/v1/sparql") && bytes.Contains(body, []byte("exceeded Timeout")):
		return true // the SPARQL protocol answers in plain text, not the envelope
	case status == http.StatusInternalServerError && code == "EXECUTION_ERROR":
		return true
	case status == http.StatusServiceUnavailable && code == "DB_NOT_CONFIGURED":
		return true
	case status == http.StatusServiceUnavailable && code == "LIMIT_EXCEEDED":
		return true // a Timeout bound: documented, and bounded in time
	case c.upstream && (status == http.StatusBadGateway || status == http.StatusGatewayTimeout):
		return true
	}
	return false
}

func TestHostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile-input suite is not short")
	}
	// Embedded defaults, except a 3s evaluation time bound so that the
	// queries only a Timeout stops keep the suite short.
	a, _ := newTestApp(t, map[string]string{"EVAL_TIMEOUT": "3s"})
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/sparql"
	ln.Close()
	client := &http.Client{Timeout: 60 * time.Second}

	// Warm up (first-use caches), then measure the heap of the server
	// alone: the case table (some 200 MB of bodies) is built after and
	// dropped before the second measurement.
	for _, p := range []string{"/v1/dmns?endpoint=/v1/sparql", "/v1/chains?endpoint=/v1/sparql", "/v1/norms"} {
		resp, err := client.Get(srv.URL + p)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	heapBefore := heapInUse()

	cases := hostileCases(dead)
	all := os.Getenv("REGELKIT_HOSTILE_ALL") == "1"
	var disabled = map[string]int{}
	var run []hostileCase
	for _, c := range cases {
		var missing []string
		for _, n := range c.needs {
			if !fixed[n] {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 && !all {
			disabled[strings.Join(missing, " + ")]++
			continue
		}
		run = append(run, c)
	}
	if len(run) < 300 {
		t.Fatalf("only %d enabled cases; the suite needs at least 300", len(run))
	}

	start := time.Now()
	var slowest time.Duration
	var slowestName string
	for _, c := range run {
		label := fmt.Sprintf("%s %s (%s)", c.method, shortPath(c.path), c.name)
		req, err := http.NewRequestWithContext(context.Background(), c.method, srv.URL+c.path, bytes.NewReader(c.body))
		if err != nil {
			t.Errorf("%s: %v", label, err)
			continue
		}
		if c.body == nil {
			req.Body = http.NoBody
		}
		if c.ctype != "" {
			req.Header.Set("Content-Type", c.ctype)
		}
		for i := 0; i+1 < len(c.header); i += 2 {
			req.Header.Set(c.header[i], c.header[i+1])
		}
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("%s: no answer: %v", label, err)
			continue
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		size, _ := io.Copy(io.Discard, resp.Body)
		size += int64(len(body))
		resp.Body.Close()
		if c.maxBody > 0 && size > int64(c.maxBody) {
			t.Errorf("%s: response of %d bytes, bound %d", label, size, c.maxBody)
		}
		took := time.Since(t0)
		if took > slowest {
			slowest, slowestName = took, label
		}
		if took >= 35*time.Second {
			t.Errorf("%s took %v (bound: 35s)", label, took)
		}
		var env struct {
			Error *struct{ Code string } `json:"error"`
		}
		_ = json.Unmarshal(body, &env)
		code := ""
		if env.Error != nil {
			code = env.Error.Code
		}
		switch {
		case resp.StatusCode >= 500 && !documented5xx(resp.StatusCode, code, body, c):
			t.Errorf("%s: %d %s", label, resp.StatusCode, excerptBody(body))
		case c.want != 0 && resp.StatusCode != c.want && !documented5xx(resp.StatusCode, code, body, c):
			t.Errorf("%s: status %d, want %d: %s", label, resp.StatusCode, c.want, excerptBody(body))
		}
	}
	n := len(run)
	cases, run = nil, nil
	client.CloseIdleConnections()
	heapAfter := heapInUse()
	t.Logf("%d requests in %v (slowest %v: %s); heap in use %d MB before, %d MB after",
		n, time.Since(start).Round(time.Millisecond), slowest.Round(time.Millisecond), slowestName, heapBefore>>20, heapAfter>>20)
	for need, n := range disabled {
		t.Logf("DISABLED %d case(s) until %s lands (enable in fixed)", n, need)
	}
	if heapAfter > 2*heapBefore {
		t.Errorf("heap grew from %d MB to %d MB over the suite (bound: 2x)", heapBefore>>20, heapAfter>>20)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func shortPath(p string) string {
	if len(p) > 80 {
		return p[:80] + "…"
	}
	return p
}

func excerptBody(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
