package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/examples"
)

type part struct{ name, filename, data string }

func multipartBody(t testing.TB, parts ...part) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.filename != "" {
			w, err = mw.CreateFormFile(p.name, p.filename)
		} else {
			w, err = mw.CreateFormField(p.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.data)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

type server struct {
	t   testing.TB
	srv *httptest.Server
}

func newServer(t testing.TB, opts Options) *server {
	now := time.Date(2025, 12, 24, 10, 30, 0, 0, time.UTC)
	h := NewHandler(local.New(local.Options{Now: func() time.Time { return now }}), opts)
	s := &server{t: t, srv: httptest.NewServer(h)}
	t.Cleanup(s.srv.Close)
	return s
}

// do sends a request and decodes the JSON answer into a generic value.
func (s *server) do(method, path, contentType string, body io.Reader) (int, any) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		s.t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		s.t.Fatalf("%s %s: answer %q is not JSON: %v", method, path, data, err)
	}
	return resp.StatusCode, v
}

func (s *server) deployLocalPass(extra ...part) map[string]any {
	s.t.Helper()
	parts := []part{{"deployment-name", "", "localpass"}, {"enable-duplicate-filtering", "", "false"}}
	for i, m := range examples.LocalPass {
		data, err := examples.FS.ReadFile(m.Path)
		if err != nil {
			s.t.Fatal(err)
		}
		parts = append(parts, part{fmt.Sprintf("data%d", i), m.Identifier + ".dmn", string(data)})
	}
	parts = append(parts, extra...)
	body, ct := multipartBody(s.t, parts...)
	status, v := s.do("POST", "/engine-rest/deployment/create", ct, body)
	if status != 200 {
		s.t.Fatalf("deploy: %d %v", status, v)
	}
	return v.(map[string]any)
}

func evalBody(vars string) io.Reader { return strings.NewReader(`{"variables":` + vars + `}`) }

const step2Vars = `{"dagVanAanvraag":{"value":"2025-12-24","type":"String"},"aanvragerAlleenstaand":{"value":true,"type":"Boolean"},
	"aanvragerHeeftKinderen":{"value":true,"type":"Boolean"},"aanvragerIs181920":{"value":false,"type":"Boolean"},
	"aanvragerIsTenminste21":{"value":true,"type":"Boolean"},"aanvragerHeeftAOWLeeftijd":{"value":false,"type":"Boolean"},
	"partnerIs181920":{"value":false,"type":"Boolean"},"partnerIsTenminste21":{"value":true,"type":"Boolean"},
	"partnerHeeftAOWLeeftijd":{"value":false,"type":"Boolean"}}`

func jsonString(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestVersionAndEngine(t *testing.T) {
	s := newServer(t, Options{})
	if status, v := s.do("GET", "/engine-rest/version", "", nil); status != 200 || jsonString(t, v) != `{"version":"regelkit-embedded"}` {
		t.Errorf("version: %d %v", status, v)
	}
	if status, v := s.do("GET", "/engine-rest/engine", "", nil); status != 200 || jsonString(t, v) != `[{"name":"default"}]` {
		t.Errorf("engine: %d %v", status, v)
	}
}

func TestDeployAndQuery(t *testing.T) {
	s := newServer(t, Options{})
	dep := s.deployLocalPass()
	checkLocalPassDeployment(t, dep)

	// a second version of the same files
	s.deployLocalPass()
	byKey := checkDecisionDefinitionQueries(t, s)
	checkDecisionDefinitionXML(t, s, byKey)
	checkDeploymentQueries(t, s, dep)
}

// checkLocalPassDeployment checks the response of deploying the local-pass
// models: the deployment and its decision definitions.
func checkLocalPassDeployment(t *testing.T, dep map[string]any) {
	t.Helper()
	if dep["name"] != "localpass" || dep["deploymentTime"] != "2025-12-24T10:30:00.000+0000" || dep["tenantId"] != nil ||
		dep["deployedProcessDefinitions"] != nil || dep["source"] != nil {
		t.Errorf("deployment: %v", dep)
	}
	defs := dep["deployedDecisionDefinitions"].(map[string]any)
	if len(defs) != 13 { // 4 + 4 + 5 decisions
		t.Errorf("%d decision definitions deployed, want 13", len(defs))
	}
	if drds := dep["deployedDecisionRequirementsDefinitions"].(map[string]any); len(drds) != 3 {
		t.Errorf("%d DRDs deployed, want 3", len(drds))
	}
	var top, short map[string]any
	for id, d := range defs {
		m := d.(map[string]any)
		if m["id"] != id {
			t.Errorf("definition %s has id %v", id, m["id"])
		}
		switch m["key"] {
		case "SZW_BijstandsnormInformatie":
			top = m
		case "SVB_AOWLeeftijd":
			short = m
		}
	}
	// Operaton's ids: key:version:uuid, or the uuid alone beyond 64 characters
	if id := short["id"].(string); !strings.HasPrefix(id, "SVB_AOWLeeftijd:1:") || len(id) != len("SVB_AOWLeeftijd:1:")+36 {
		t.Errorf("id of SVB_AOWLeeftijd: %q", id)
	}
	checkTopDecisionDefinition(t, top, dep)
}

// checkTopDecisionDefinition checks SZW_BijstandsnormInformatie's
// definition in the deployment response: its values and exactly its fields.
func checkTopDecisionDefinition(t *testing.T, top, dep map[string]any) {
	t.Helper()
	if top == nil || len(top["id"].(string)) != 36 || strings.Contains(top["id"].(string), ":") || top["version"] != json.Number("1") ||
		top["resource"] != "SZW_BijstandsnormInformatie.dmn" || top["deploymentId"] != dep["id"] || top["name"] != "SZW Bijstandsnorminformatie" ||
		top["category"] != "http://camunda.org/schema/1.0/dmn" || top["decisionRequirementsDefinitionKey"] != "SZW_BijstandsnormInformatie_definitions" ||
		top["versionTag"] != nil || top["historyTimeToLive"] != nil {
		t.Errorf("top decision definition: %v", top)
	}
	wantFields := []string{"category", "decisionRequirementsDefinitionId", "decisionRequirementsDefinitionKey", "deploymentId", "historyTimeToLive",
		"id", "key", "name", "resource", "tenantId", "version", "versionTag"}
	if len(top) != len(wantFields) {
		t.Errorf("definition fields %v, want exactly %v", top, wantFields)
	}
	for _, f := range wantFields {
		if _, ok := top[f]; !ok {
			t.Errorf("definition lacks %q", f)
		}
	}
}

// checkDecisionDefinitionQueries checks the decision definition list,
// count and by-key queries after the second deployment; it returns the
// definition read by key.
func checkDecisionDefinitionQueries(t *testing.T, s *server) map[string]any {
	t.Helper()
	status, v := s.do("GET", "/engine-rest/decision-definition?key=SZW_BijstandsnormInformatie&sortBy=version&sortOrder=desc", "", nil)
	list := v.([]any)
	if status != 200 || len(list) != 2 || list[0].(map[string]any)["version"] != json.Number("2") {
		t.Errorf("list: %d %v", status, v)
	}
	status, v = s.do("GET", "/engine-rest/decision-definition?keyLike=SZW%25&latestVersion=true", "", nil)
	if status != 200 || len(v.([]any)) != 4 {
		t.Errorf("keyLike latest: %d %v", status, v)
	}
	if status, v := s.do("GET", "/engine-rest/decision-definition/count?latestVersion=true", "", nil); status != 200 || jsonString(t, v) != `{"count":13}` {
		t.Errorf("count: %d %v", status, v)
	}
	if status, v := s.do("GET", "/engine-rest/decision-definition?maxResults=0", "", nil); status != 200 || jsonString(t, v) != `[]` {
		t.Errorf("maxResults=0: %d %v", status, v)
	}
	status, v = s.do("GET", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie", "", nil)
	byKey := v.(map[string]any)
	if status != 200 || byKey["version"] != json.Number("2") {
		t.Errorf("by key: %d %v", status, v)
	}
	status, v = s.do("GET", "/engine-rest/decision-definition/"+byKey["id"].(string), "", nil)
	if status != 200 || v.(map[string]any)["key"] != "SZW_BijstandsnormInformatie" {
		t.Errorf("by id: %d %v", status, v)
	}
	return byKey
}

// checkDecisionDefinitionXML checks the XML of the definition byKey, read
// by key and by id, is the deployed file.
func checkDecisionDefinitionXML(t *testing.T, s *server, byKey map[string]any) {
	t.Helper()
	want, _ := examples.FS.ReadFile("models/localpass/SZW_BijstandsnormInformatie.dmn")
	for _, p := range []string{"/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie/xml", "/engine-rest/decision-definition/" + byKey["id"].(string) + "/xml"} {
		status, v := s.do("GET", p, "", nil)
		m, _ := v.(map[string]any)
		if status != 200 || m["dmnXml"] != string(want) || m["id"] != byKey["id"] {
			t.Errorf("%s: %d, id %v, %d bytes of XML", p, status, m["id"], len(fmt.Sprint(m["dmnXml"])))
		}
	}
}

// checkDeploymentQueries checks the deployment count, by id (without the
// deployed definitions) and list after the two deployments.
func checkDeploymentQueries(t *testing.T, s *server, dep map[string]any) {
	t.Helper()
	if status, v := s.do("GET", "/engine-rest/deployment/count", "", nil); status != 200 || jsonString(t, v) != `{"count":2}` {
		t.Errorf("deployment count: %d %v", status, v)
	}
	status, v := s.do("GET", "/engine-rest/deployment/"+dep["id"].(string), "", nil)
	if m := v.(map[string]any); status != 200 || m["id"] != dep["id"] || m["name"] != "localpass" {
		t.Errorf("deployment by id: %d %v", status, v)
	} else if _, has := m["deployedDecisionDefinitions"]; has {
		t.Errorf("GET /deployment/{id} carries deployed definitions: %v", m)
	}
	if status, v := s.do("GET", "/engine-rest/deployment?nameLike=local%25&maxResults=1", "", nil); status != 200 || len(v.([]any)) != 1 {
		t.Errorf("deployment list: %d %v", status, v)
	}
}

func TestEvaluate(t *testing.T) {
	s := newServer(t, Options{})
	s.deployLocalPass()
	status, v := s.do("POST", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie/evaluate", "application/json", evalBody(step2Vars))
	want := `[{"bijstandsNorm":{"type":"Double","value":1369.06,"valueInfo":{}},"bijstandsnormTermijn":{"type":"String","value":"2e helft 2025","valueInfo":{}},"toepasselijkeNorm":{"type":"String","value":"MK","valueInfo":{}}}]`
	if status != 200 || jsonString(t, v) != want {
		t.Errorf("evaluate: %d\n got %s\nwant %s", status, jsonString(t, v), want)
	}
	// by id, with untyped values (Operaton infers them)
	_, d := s.do("GET", "/engine-rest/decision-definition/key/SVB_AOWLeeftijd", "", nil)
	status, v = s.do("POST", "/engine-rest/decision-definition/"+d.(map[string]any)["id"].(string)+"/evaluate", "application/json",
		evalBody(`{"dagVanAanvraag":{"value":"2027-06-01"}}`))
	if status != 200 || jsonString(t, v) != `[{"aowLeeftijdInMaanden":{"type":"Integer","value":807,"valueInfo":{}}}]` {
		t.Errorf("evaluate by id: %d %s", status, jsonString(t, v))
	}
	// a table without a matching rule: an empty list
	status, v = s.do("POST", "/engine-rest/decision-definition/key/SVB_AOWLeeftijd/evaluate", "application/json",
		evalBody(`{"dagVanAanvraag":{"value":"2019-06-01","type":"String"}}`))
	if status != 200 || jsonString(t, v) != `[]` {
		t.Errorf("no match: %d %s", status, jsonString(t, v))
	}
}

func TestEvaluateErrors(t *testing.T) {
	s := newServer(t, Options{MaxJSONBytes: 4096})
	s.deployLocalPass()
	key := "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie/evaluate"
	_, d := s.do("GET", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie", "", nil)
	id := d.(map[string]any)["id"].(string)
	for _, tc := range []struct {
		name, path, body string
		status           int
		typ, message     string
	}{
		{"unknown key", "/engine-rest/decision-definition/key/nope/evaluate", `{}`, 404, "RestException", "No matching decision definition with key: nope and no tenant-id"},
		{"unknown key and tenant", "/engine-rest/decision-definition/key/nope/tenant-id/t1/evaluate", `{}`, 404, "RestException", "No matching decision definition with key: nope and tenant-id: t1"},
		{"unknown id", "/engine-rest/decision-definition/nope:1:x/evaluate", `{}`, 404, "RestException", "No matching definition with id nope:1:x"},
		{"wrong variable type", key, `{"variables":{"aanvragerAlleenstaand":{"value":"ja","type":"Boolean"}}}`, 400, "InvalidRequestException",
			`Cannot evaluate decision ` + id + `: variable "aanvragerAlleenstaand": cannot convert value "ja" to type Boolean: not a boolean`},
		{"unknown variable type", key, `{"variables":{"x":{"value":"a","type":"Banana"}}}`, 400, "InvalidRequestException",
			`Cannot evaluate decision ` + id + `: variable "x": cannot convert value a to type Banana: type has no FEEL value`},
		{"not JSON", key, `{"variables":`, 400, "InvalidRequestException", "Cannot evaluate decision " + id + ": the body is not a JSON object"},
		{"variables not an object", key, `{"variables":[1]}`, 400, "InvalidRequestException", "Cannot evaluate decision " + id + ": variables must be a JSON object"},
		{"no rule matched upstream", key, `{"variables":` + strings.Replace(step2Vars, "2025-12-24", "2026-01-01", 1) + `}`, 500, "RestException",
			"Cannot evaluate decision " + id + ": SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn): decision SZW_Bijstandsnorm needs \"bijstandsnormTermijn\""},
		{"missing variable", key, `{"variables":{}}`, 500, "RestException", "Cannot evaluate decision " + id + ": SZW_BijstandsnormInformatie: decision SZW_Bijstandsnormtermijn: unknown variable \"dagVanAanvraag\""},
		{"body too large", key, `{"variables":{"x":{"value":"` + strings.Repeat("a", 5000) + `"}}}`, 413, "InvalidRequestException", "The request body is larger than 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, v := s.do("POST", tc.path, "application/json", strings.NewReader(tc.body))
			m, _ := v.(map[string]any)
			if status != tc.status || m["type"] != tc.typ || !strings.HasPrefix(fmt.Sprint(m["message"]), tc.message) {
				t.Errorf("got %d %v\nwant %d %s %q", status, v, tc.status, tc.typ, tc.message)
			}
		})
	}
}

func TestDeployErrors(t *testing.T) {
	s := newServer(t, Options{MaxDeploymentBytes: 64 << 10, MaxParts: 5})
	broken := "<definitions xmlns=\"https://www.omg.org/spec/DMN/20191111/MODEL/\" id=\"d\" name=\"d\" namespace=\"urn:x\">\n  <decision id=\"a\" name=\"a\">\n    <decisionTable>\n  </decision>\n</definitions>"
	noDecision := `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="d" namespace="urn:x"/>`
	badRequirement := `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="d" namespace="urn:x">
  <decision id="a" name="a"><informationRequirement><requiredDecision href="#missing"/></informationRequirement>
    <literalExpression><text>1</text></literalExpression></decision>
</definitions>`
	type check struct {
		status       int
		typ, message string
	}
	for _, tc := range []struct {
		name  string
		ct    string
		parts []part
		raw   string
		want  check
	}{
		{"unparsable XML", "", []part{{"data", "broken.dmn", broken}}, "",
			check{400, "ParseException", `resource "broken.dmn": line 4, column 3: invalid XML`}},
		{"no decision", "", []part{{"data", "empty.dmn", noDecision}}, "", check{400, "ParseException", `resource "empty.dmn": line 1, column 1: the model has no decision`}},
		{"unknown required decision", "", []part{{"data", "req.dmn", badRequirement}}, "",
			check{400, "ParseException", `resource "req.dmn": line 2, column 3: element "a": required decision "#missing" is not a decision of this model`}},
		{"no resources", "", []part{{"deployment-name", "", "x"}}, "", check{400, "InvalidRequestException", "No deployment resources contained in the form upload."}},
		{"too many parts", "", []part{{"a", "a.txt", "1"}, {"b", "b.txt", "1"}, {"c", "c.txt", "1"}, {"d", "d.txt", "1"}, {"e", "e.txt", "1"}, {"f", "f.txt", "1"}}, "",
			check{400, "InvalidRequestException", "A deployment may have at most 5 parts"}},
		{"too large", "", []part{{"data", "big.dmn", strings.Repeat("x", 70<<10)}}, "", check{413, "InvalidRequestException", "The deployment is larger than 65536 bytes"}},
		{"not multipart", "application/json", nil, `{"a":1}`, check{400, "InvalidRequestException", "A deployment is a multipart/form-data request"}},
		{"broken multipart", "multipart/form-data; boundary=xyz", nil, "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end", check{400, "InvalidRequestException", "Malformed multipart body"}},
		{"same resource twice", "", []part{{"a", "x.txt", "1"}, {"b", "x.txt", "2"}}, "", check{400, "InvalidRequestException", "The deployment contains the resource 'x.txt' twice"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(tc.raw)
			ct := tc.ct
			if tc.parts != nil {
				body, ct = multipartBody(t, tc.parts...)
			}
			status, v := s.do("POST", "/engine-rest/deployment/create", ct, body)
			m, _ := v.(map[string]any)
			if status != tc.want.status || m["type"] != tc.want.typ || !strings.HasPrefix(fmt.Sprint(m["message"]), tc.want.message) {
				t.Errorf("got %d %v\nwant %d %s %q", status, v, tc.want.status, tc.want.typ, tc.want.message)
			}
		})
	}
	// the ParseException carries Operaton's details with line and column
	body, ct := multipartBody(t, part{"data", "broken.dmn", broken})
	_, v := s.do("POST", "/engine-rest/deployment/create", ct, body)
	details := jsonString(t, v.(map[string]any)["details"])
	if !strings.Contains(details, `"broken.dmn":{"errors":[{`) || !strings.Contains(details, `"message":"invalid XML: element \u003cdecisionTable\u003e closed by \u003c/decision\u003e"`) || !strings.Contains(details, `"line":4`) || !strings.Contains(details, `"column":3`) {
		t.Errorf("details: %s", details)
	}
	// nothing was deployed by the failed requests
	if status, v := s.do("GET", "/engine-rest/deployment/count", "", nil); status != 200 || jsonString(t, v) != `{"count":0}` {
		t.Errorf("deployments after failures: %d %v", status, v)
	}
}

func TestTenantsAndDuplicateFiltering(t *testing.T) {
	s := newServer(t, Options{})
	first := s.deployLocalPass(part{"tenant-id", "", "gemeente-a"}, part{"enable-duplicate-filtering", "", "true"})
	if first["tenantId"] != "gemeente-a" {
		t.Errorf("tenant: %v", first["tenantId"])
	}
	again := s.deployLocalPass(part{"tenant-id", "", "gemeente-a"}, part{"enable-duplicate-filtering", "", "true"})
	if again["id"] != first["id"] || again["deployedDecisionDefinitions"] != nil {
		t.Errorf("duplicate filtering deployed again: %v", again["id"])
	}
	if status, v := s.do("GET", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie", "", nil); status != 404 ||
		v.(map[string]any)["message"] != "No matching decision definition with key: SZW_BijstandsnormInformatie and no tenant-id" {
		t.Errorf("untenanted lookup: %d %v", status, v)
	}
	status, v := s.do("GET", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie/tenant-id/gemeente-a", "", nil)
	if status != 200 || v.(map[string]any)["tenantId"] != "gemeente-a" || v.(map[string]any)["version"] != json.Number("1") {
		t.Errorf("tenant lookup: %d %v", status, v)
	}
	status, v = s.do("POST", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie/tenant-id/gemeente-a/evaluate", "application/json", evalBody(step2Vars))
	if status != 200 || !strings.Contains(jsonString(t, v), `"toepasselijkeNorm":{"type":"String","value":"MK"`) {
		t.Errorf("tenant evaluate: %d %v", status, v)
	}
	status, v = s.do("GET", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie/tenant-id/gemeente-a/xml", "", nil)
	if status != 200 || !strings.HasPrefix(v.(map[string]any)["dmnXml"].(string), "<?xml") {
		t.Errorf("tenant xml: %d", status)
	}
	if status, v := s.do("GET", "/engine-rest/decision-definition?tenantIdIn=gemeente-a&latestVersion=true", "", nil); status != 200 || len(v.([]any)) != 13 {
		t.Errorf("tenant query: %d %d", status, len(v.([]any)))
	}
}

func TestRoutingErrors(t *testing.T) {
	s := newServer(t, Options{})
	for _, tc := range []struct {
		method, path string
		status       int
		typ          string
	}{
		{"GET", "/engine-rest/nothing-here", 404, "NotFoundException"},
		{"GET", "/elsewhere", 404, "NotFoundException"},
		{"DELETE", "/engine-rest/version", 405, "NotAllowedException"},
		{"GET", "/engine-rest/decision-definition?sortBy=color&sortOrder=asc", 400, "InvalidRequestException"},
		{"GET", "/engine-rest/deployment?firstResult=x", 400, "InvalidRequestException"},
		{"GET", "/engine-rest/deployment/unknown", 404, "RestException"},
		{"GET", "/engine-rest/decision-definition/unknown/xml", 404, "RestException"},
	} {
		status, v := s.do(tc.method, tc.path, "", nil)
		if status != tc.status || v.(map[string]any)["type"] != tc.typ {
			t.Errorf("%s %s: %d %v, want %d %s", tc.method, tc.path, status, v, tc.status, tc.typ)
		}
	}
}

func TestBasePath(t *testing.T) {
	for _, tc := range []struct{ base, path string }{{"/", "/version"}, {"/api/engine/", "/api/engine/version"}} {
		s := newServer(t, Options{BasePath: tc.base})
		if status, _ := s.do("GET", tc.path, "", nil); status != 200 {
			t.Errorf("base %q: GET %s = %d", tc.base, tc.path, status)
		}
	}
}

// stub is an engine whose every call fails with err.
type stub struct {
	engine.Engine
	err error
}

func (s stub) Version(context.Context) (string, error) { return "", s.err }
func (s stub) LatestDecisionDefinition(context.Context, string, string) (engine.DecisionDefinition, error) {
	return engine.DecisionDefinition{ID: "k:1:u"}, nil
}
func (s stub) EvaluateDefinition(context.Context, string, engine.Variables) (engine.Result, error) {
	return nil, s.err
}

func TestEngineFailures(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	for _, tc := range []struct {
		err    error
		status int
		typ    string
	}{
		{&engine.Error{Status: 0, Type: "Odd", Message: "no status"}, 500, "Odd"},
		{&engine.Error{Status: 409, Type: "OptimisticLockingException", Message: "conflict"}, 409, "OptimisticLockingException"},
		{engine.Unavailable(errors.New("dial tcp: refused")), 503, "RestException"},
		{context.DeadlineExceeded, 503, "RestException"},
		{errors.New("boom"), 500, "RestException"},
	} {
		srv := httptest.NewServer(NewHandler(stub{err: tc.err}, Options{Logger: logger}))
		resp, err := http.Get(srv.URL + "/engine-rest/version")
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		srv.Close()
		if resp.StatusCode != tc.status || body["type"] != tc.typ {
			t.Errorf("%v: got %d %v, want %d %s", tc.err, resp.StatusCode, body, tc.status, tc.typ)
		}
	}
	// an evaluation failure is logged by decision, never with its message
	logs.Reset()
	srv := httptest.NewServer(NewHandler(stub{err: &engine.EvaluationError{DecisionKey: "k", DecisionID: "d",
		Err: errors.New("output 45 of applicant 1980-01-23 does not conform")}}, Options{Logger: logger}))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/engine-rest/decision-definition/key/k/evaluate", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 || !strings.Contains(logs.String(), "decision=k failedDecision=d") || strings.Contains(logs.String(), "1980") {
		t.Errorf("status %d, log %q", resp.StatusCode, logs.String())
	}
}

// TestStorageFull: a deployment the embedded engine has no room for is
// 507 StorageFullException naming the ceiling, and nothing is deployed.
func TestStorageFull(t *testing.T) {
	model := func(key string) string {
		return `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d_` + key + `" name="n" namespace="urn:t"><decision id="` + key + `" name="` + key + `"><variable name="out"/><literalExpression><text>1</text></literalExpression></decision></definitions>`
	}
	// deployment name and five times the XML, per deployment
	max := int64(1+5*len(model("A"))) + int64(1+5*len(model("B")))
	s := &server{t: t, srv: httptest.NewServer(NewHandler(local.New(local.Options{MaxBytes: max}), Options{}))}
	t.Cleanup(s.srv.Close)
	for _, key := range []string{"A", "B"} {
		body, ct := multipartBody(t, part{"deployment-name", "", key}, part{"data", key + ".dmn", model(key)})
		if status, v := s.do("POST", "/engine-rest/deployment/create", ct, body); status != http.StatusOK {
			t.Fatalf("deploy %s: %d %v", key, status, v)
		}
	}
	body, ct := multipartBody(t, part{"deployment-name", "", "C"}, part{"data", "C.dmn", model("C")})
	status, v := s.do("POST", "/engine-rest/deployment/create", ct, body)
	want := fmt.Sprintf(`{"message":"storage full: with this deployment the engine would hold an estimated %d bytes, over its ceiling of %d (MaxBytes); delete or replace deployments","type":"StorageFullException"}`, max+int64(1+5*len(model("C"))), max)
	if got := jsonString(t, v); status != http.StatusInsufficientStorage || got != want {
		t.Fatalf("third deployment: %d %s\nwant 507 %s", status, got, want)
	}
	if status, v := s.do("GET", "/engine-rest/deployment/count", "", nil); status != http.StatusOK || jsonString(t, v) != `{"count":2}` {
		t.Errorf("count after the refusal: %d %s", status, jsonString(t, v))
	}
}
