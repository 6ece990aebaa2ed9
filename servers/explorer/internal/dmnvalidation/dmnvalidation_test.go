package dmnvalidation

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

const testVersion = "9.9.9-test"

func newClient(t *testing.T) (*apitest.Client, *httpapi.Router) {
	t.Helper()
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	Register(r)
	return apitest.New(t, httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: testVersion})), r
}

const validDMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="defs" name="Leeftijd" namespace="http://example.com/leeftijd">
  <decision id="d1" name="Groep">
    <informationRequirement id="ir1"><requiredInput href="#age"/></informationRequirement>
    <decisionTable id="dt1">
      <input id="i1" label="Leeftijd"><inputExpression id="ie1" typeRef="number"><text>age</text></inputExpression></input>
      <output id="o1" name="groep" typeRef="string"/>
      <rule id="r1"><inputEntry id="r1i"><text>&lt; 18</text></inputEntry><outputEntry id="r1o"><text>"minderjarig"</text></outputEntry></rule>
      <rule id="r2"><inputEntry id="r2i"><text>&gt;= 18</text></inputEntry><outputEntry id="r2o"><text>"meerderjarig"</text></outputEntry></rule>
    </decisionTable>
  </decision>
  <inputData id="age" name="age"><variable id="agev" name="age" typeRef="number"/></inputData>
</definitions>`

// response is the exact shape of a successful validation response.
type response struct {
	Success   *bool  `json:"success"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		Valid      *bool   `json:"valid"`
		ParseError *string `json:"parseError"`
		Layers     map[string]struct {
			Label  string           `json:"label"`
			Issues []map[string]any `json:"issues"`
		} `json:"layers"`
		Summary map[string]int `json:"summary"`
	} `json:"data"`
}

var labels = map[string]string{
	"base": "Base DMN", "business": "Business Rules", "execution": "Execution Rules",
	"interaction": "Interaction Rules", "content": "Content",
}

func post(t *testing.T, c *apitest.Client, body any) response {
	t.Helper()
	resp := c.Post(Path, body).ExpectStatus(t, http.StatusOK)
	resp.Envelope(t)
	if got := resp.Header.Get("API-Version"); got != testVersion {
		t.Errorf("API-Version = %q", got)
	}
	var out response
	resp.Decode(t, &out)
	if out.Success == nil || !*out.Success || out.Data.Valid == nil {
		t.Fatalf("body %s", resp.Body)
	}
	if len(out.Data.Layers) != 5 {
		t.Fatalf("layers %v", out.Data.Layers)
	}
	for key, label := range labels {
		l, ok := out.Data.Layers[key]
		if !ok || l.Label != label || l.Issues == nil {
			t.Errorf("layer %s = %+v (body %s)", key, l, resp.Body)
		}
	}
	for _, k := range []string{"errors", "warnings", "infos"} {
		if _, ok := out.Data.Summary[k]; !ok {
			t.Errorf("summary.%s missing: %s", k, resp.Body)
		}
	}
	return out
}

func TestValidModel(t *testing.T) {
	c, _ := newClient(t)
	out := post(t, c, map[string]any{"content": validDMN})
	if !*out.Data.Valid || out.Data.ParseError != nil {
		t.Errorf("valid %v parseError %v", *out.Data.Valid, out.Data.ParseError)
	}
	if s := out.Data.Summary; s["errors"] != 0 || s["warnings"] != 0 || s["infos"] != 1 {
		t.Errorf("summary %v", s)
	}
	// The model carries no CPRMV attributes: one info, with null location and position.
	exec := out.Data.Layers["execution"].Issues
	if len(exec) != 1 || exec[0]["code"] != "EXEC-001" || exec[0]["severity"] != "info" {
		t.Fatalf("execution issues %v", exec)
	}
	for _, k := range []string{"location", "line", "column"} {
		if v, ok := exec[0][k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
}

func TestParseError(t *testing.T) {
	c, _ := newClient(t)
	out := post(t, c, map[string]any{"content": "<definitions>\n  <decision>\n</definitions>"})
	if *out.Data.Valid || out.Data.ParseError == nil || !strings.Contains(*out.Data.ParseError, "line 3, column 1") {
		t.Fatalf("valid %v parseError %v", *out.Data.Valid, out.Data.ParseError)
	}
	base := out.Data.Layers["base"].Issues
	if len(base) != 1 {
		t.Fatalf("base %v", base)
	}
	is := base[0]
	if is["code"] != "BASE-PARSE" || is["severity"] != "error" || is["line"] != float64(3) || is["column"] != float64(1) || is["location"] != nil {
		t.Errorf("issue %v", is)
	}
	for key := range labels {
		if key != "base" && len(out.Data.Layers[key].Issues) != 0 {
			t.Errorf("layer %s: %v", key, out.Data.Layers[key].Issues)
		}
	}
	if s := out.Data.Summary; s["errors"] != 1 || s["warnings"] != 0 || s["infos"] != 0 {
		t.Errorf("summary %v", s)
	}
}

func TestIssuesCarryLocations(t *testing.T) {
	c, _ := newClient(t)
	content := strings.Replace(validDMN, `<text>&gt;= 18</text>`, `<text>&gt;= 16</text>`, 1)
	out := post(t, c, map[string]any{"content": content})
	if *out.Data.Valid {
		t.Fatal("overlapping UNIQUE rules reported valid")
	}
	biz := out.Data.Layers["business"].Issues
	if len(biz) != 1 {
		t.Fatalf("business %v", biz)
	}
	want := map[string]any{
		"severity": "error", "code": "BIZ-016",
		"message":  `rules "r1" and "r2" of this UNIQUE table overlap: both match for example Leeftijd = 16`,
		"location": `<decision id="d1"> > <rule id="r2">`, "line": float64(9), "column": float64(7),
	}
	for k, v := range want {
		if biz[0][k] != v {
			t.Errorf("%s = %v, want %v", k, biz[0][k], v)
		}
	}
}

func TestBadRequests(t *testing.T) {
	c, _ := newClient(t)
	cases := []struct {
		name     string
		body     any
		status   int
		code     string
		contains string
	}{
		{"no body", nil, 400, "INVALID_REQUEST", "content is required"},
		{"empty object", `{}`, 400, "INVALID_REQUEST", "content is required"},
		{"content null", `{"content": null}`, 400, "INVALID_REQUEST", "content is required"},
		{"content number", `{"content": 42}`, 400, "INVALID_REQUEST", "content must be a string"},
		{"content object", `{"content": {"xml": "<a/>"}}`, 400, "INVALID_REQUEST", "content must be a string"},
		{"body array", `["<a/>"]`, 400, "INVALID_REQUEST", "must be an object"},
		{"malformed JSON", `{"content": "<a/>"`, 400, "MALFORMED_BODY", ""},
		{"too large", `{"content": "` + strings.Repeat("x", httpapi.DefaultMaxBodyBytes) + `"}`, 413, "PAYLOAD_TOO_LARGE", "10 MB"},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			resp := c.Post(Path, cs.body)
			msg := resp.ExpectError(t, cs.status, cs.code)
			if !strings.Contains(msg, cs.contains) {
				t.Errorf("message %q lacks %q", msg, cs.contains)
			}
			if resp.Header.Get("API-Version") != testVersion {
				t.Error("API-Version missing on the error")
			}
		})
	}
}

// TestJustUnderTheLimit: a body of exactly 10 MB is validated, not refused.
func TestJustUnderTheLimit(t *testing.T) {
	c, _ := newClient(t)
	head, tail := `{"content": "<a>`, `</a>"}`
	body := head + strings.Repeat("x", httpapi.DefaultMaxBodyBytes-len(head)-len(tail)) + tail
	out := post(t, c, body)
	// A 10 MB <a> root is no definitions element: a structural error, not a refusal.
	if *out.Data.Valid || out.Data.Layers["base"].Issues[0]["code"] != "BASE-ROOT" {
		t.Errorf("base %v", out.Data.Layers["base"].Issues)
	}
}

func TestBillionLaughs(t *testing.T) {
	c, _ := newClient(t)
	content := `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><definitions name="&c;"/>`
	out := post(t, c, map[string]any{"content": content})
	if out.Data.ParseError == nil || !strings.Contains(*out.Data.ParseError, "DOCTYPE") {
		t.Errorf("parseError %v", out.Data.ParseError)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	c, _ := newClient(t)
	c.Get(Path).ExpectError(t, http.StatusMethodNotAllowed, httpapi.CodeMethodNotAllowed)
}

func TestOpenAPI(t *testing.T) {
	_, r := newClient(t)
	op := r.Doc().Operation("POST", Path)
	if op == nil {
		t.Fatal("POST /v1/dmns/validate is not documented")
	}
	for _, code := range []string{"BASE-PARSE", "BIZ-001", "BIZ-014", "BIZ-015", "BIZ-016", "EXEC-013", "INT-007", "CON-005",
		"https://www.camunda.org/schema/1.0/dmn", "https://www.omg.org/spec/DMN/20230324/MODEL/"} {
		if !strings.Contains(op.Description, code) {
			t.Errorf("description lacks %s", code)
		}
	}
	for _, status := range []string{"200", "400", "413"} {
		if _, ok := op.Responses[status]; !ok {
			t.Errorf("response %s undocumented", status)
		}
	}
	b, err := json.Marshal(op)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"parseError"`, `"interaction"`, `"column"`, `"content"`} {
		if !strings.Contains(string(b), field) {
			t.Errorf("schema lacks %s", field)
		}
	}
}

// TestINT007ReproductionIsSmall is a 31 KB model whose input
// expression uses 4,000 undeclared names: the response used to repeat the
// whole expression in each of 4,000 issues (125 MB); now it lists 20 names
// and counts the rest, in well under 100 KB.
func TestINT007ReproductionIsSmall(t *testing.T) {
	c, _ := newClient(t)
	names := make([]string, 4000)
	for i := range names {
		names[i] = "v" + strconv.Itoa(i)
	}
	model := strings.Replace(validDMN, "<text>age</text>", "<text>"+strings.Join(names, " + ")+"</text>", 1)
	resp := c.Post(Path, map[string]string{"content": model}).ExpectStatus(t, http.StatusOK)
	if len(resp.Body) > 100_000 {
		t.Fatalf("response of %d bytes for a %d-byte model", len(resp.Body), len(model))
	}
	var out response
	resp.Decode(t, &out)
	issues := out.Data.Layers["interaction"].Issues
	if len(issues) != 21 {
		t.Fatalf("interaction issues: %d, want 21", len(issues))
	}
	last, _ := issues[20]["message"].(string)
	if !strings.Contains(last, "uses 3980 further names that no inputData declares") {
		t.Errorf("last issue: %s", last)
	}
}
