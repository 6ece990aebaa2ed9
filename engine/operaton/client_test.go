package operaton

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// fake records requests and answers with a canned status and body.
type fake struct {
	mu     sync.Mutex
	reqs   []*http.Request
	bodies [][]byte
	status int
	body   string
	delay  time.Duration
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, r)
	f.bodies = append(f.bodies, b)
	status, body, delay := f.status, f.body, f.delay
	f.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if status == 0 {
		status = 200
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func (f *fake) last(t *testing.T) (*http.Request, []byte) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reqs) == 0 {
		t.Fatal("no request")
	}
	return f.reqs[len(f.reqs)-1], f.bodies[len(f.bodies)-1]
}

func newFake(t *testing.T, cfg Config, status int, body string) (*fake, *Client) {
	f := &fake{status: status, body: body}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/engine-rest/"
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func TestNewRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"", "localhost:8080", "ftp://x/engine-rest", "http://", "::"} {
		if _, err := New(Config{BaseURL: u}); err == nil {
			t.Errorf("New(%q) succeeded", u)
		}
	}
}

func TestAuthentication(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, ""},
		{Config{Username: "demo", Password: "s3cret"}, "Basic ZGVtbzpzM2NyZXQ="},
		{Config{Token: "key-1"}, "Bearer key-1"},
		{Config{Token: "key-1", Username: "demo", Password: "x"}, "Bearer key-1"},
	} {
		f, c := newFake(t, tc.cfg, 200, `{"version":"1.0.0"}`)
		v, err := c.Version(context.Background())
		if err != nil || v != "1.0.0" {
			t.Fatalf("version: %q, %v", v, err)
		}
		r, _ := f.last(t)
		if got := r.Header.Get("Authorization"); got != tc.want {
			t.Errorf("Authorization %q, want %q", got, tc.want)
		}
		if r.URL.Path != "/engine-rest/version" || r.Method != "GET" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
		}
	}
}

func TestDeployMultipart(t *testing.T) {
	f, c := newFake(t, Config{}, 200, `{"links":[],"id":"dep-1","name":"chain","source":null,"deploymentTime":"2025-12-24T10:30:00.000+0100","tenantId":"t1",
		"deployedProcessDefinitions":null,"deployedCaseDefinitions":null,"deployedDecisionRequirementsDefinitions":null,
		"deployedDecisionDefinitions":{"k:1:u":{"id":"k:1:u","key":"k","category":"urn:x","name":"K","version":1,"resource":"k.dmn","deploymentId":"dep-1",
		"decisionRequirementsDefinitionId":null,"decisionRequirementsDefinitionKey":null,"tenantId":"t1","versionTag":null,"historyTimeToLive":null}}}`)
	dep, err := c.Deploy(context.Background(), engine.NewDeployment{Name: "chain", TenantID: "t1", Resources: []engine.Resource{
		{Name: "k.dmn", Data: []byte("<definitions/>")}, {Name: `odd "name".form`, Data: []byte(`{}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	if dep.ID != "dep-1" || dep.TenantID != "t1" || len(dep.DeployedDecisionDefinitions) != 1 || dep.DeployedDecisionDefinitions[0].Key != "k" ||
		!dep.Time.Equal(time.Date(2025, 12, 24, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("deployment %+v", dep)
	}
	r, body := f.last(t)
	if r.Method != "POST" || r.URL.Path != "/engine-rest/deployment/create" {
		t.Errorf("request %s %s", r.Method, r.URL.Path)
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("content type %q", r.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(strings.NewReader(string(body)), params["boundary"])
	got := map[string]string{}
	var files []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		if p.FileName() != "" {
			files = append(files, p.FormName()+"|"+p.FileName()+"|"+p.Header.Get("Content-Type")+"|"+string(data))
			continue
		}
		got[p.FormName()] = string(data)
	}
	want := map[string]string{"deployment-name": "chain", "enable-duplicate-filtering": "false", "deploy-changed-only": "false", "tenant-id": "t1"}
	if len(got) != len(want) {
		t.Errorf("fields %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("field %s = %q, want %q", k, got[k], v)
		}
	}
	if len(files) != 2 || files[0] != "data|k.dmn|application/xml|<definitions/>" || files[1] != `data1|odd "name".form|application/json|{}` {
		t.Errorf("files %q", files)
	}
}

func TestEvaluateRequestAndAnswer(t *testing.T) {
	f, c := newFake(t, Config{}, 200, `[{"result":{"type":"String","value":"management","valueInfo":null},
		"amount":{"type":"Double","value":12345678901234567890.5,"valueInfo":{}},
		"map":{"type":"Object","value":"{\"a\":1}","valueInfo":{"objectTypeName":"java.util.HashMap","serializationDataFormat":"application/json"}}}]`)
	vars := engine.Variables{"amount": engine.Integer(600), "when": engine.String("2025-12-24")}
	res, err := c.Evaluate(context.Background(), "invoice approval", "gemeente/x", vars)
	if err != nil {
		t.Fatal(err)
	}
	r, body := f.last(t)
	if r.URL.EscapedPath() != "/engine-rest/decision-definition/key/invoice%20approval/tenant-id/gemeente%2Fx/evaluate" {
		t.Errorf("path %s", r.URL.EscapedPath())
	}
	if r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("content type %q", r.Header.Get("Content-Type"))
	}
	if string(body) != `{"variables":{"amount":{"type":"Integer","value":600},"when":{"type":"String","value":"2025-12-24"}}}` {
		t.Errorf("body %s", body)
	}
	if len(res) != 1 || !res[0]["result"].Equal(engine.String("management")) ||
		res[0]["amount"].Value != json.Number("12345678901234567890.5") || res[0]["map"].Type != engine.TypeObject {
		t.Errorf("result %v", res)
	}
	x, err := local.FEEL(res[0]["map"])
	if err != nil || x == nil {
		t.Errorf("Object as JSON to FEEL: %v, %v", x, err)
	}
	if _, err := c.EvaluateDefinition(context.Background(), "k:1:u", nil); err != nil {
		t.Fatal(err)
	}
	if r, body := f.last(t); r.URL.Path != "/engine-rest/decision-definition/k:1:u/evaluate" || string(body) != `{"variables":{}}` {
		t.Errorf("by id: %s %s", r.URL.Path, body)
	}
}

func TestQueries(t *testing.T) {
	f, c := newFake(t, Config{}, 200, `[]`)
	ctx := context.Background()
	defs, err := c.DecisionDefinitions(ctx, engine.DecisionDefinitionQuery{Key: "k", LatestVersion: true, TenantIDIn: []string{"a", "b"}, MaxResults: -1})
	if err != nil || len(defs) != 0 {
		t.Fatalf("%v, %v", defs, err)
	}
	r, _ := f.last(t)
	if r.URL.Path != "/engine-rest/decision-definition" || r.URL.RawQuery != "key=k&latestVersion=true&maxResults=0&tenantIdIn=a%2Cb" {
		t.Errorf("query %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	f.body = `{"count":7}`
	if n, err := c.DecisionDefinitionCount(ctx, engine.DecisionDefinitionQuery{KeyLike: "k%", FirstResult: 3}); err != nil || n != 7 {
		t.Errorf("count %d, %v", n, err)
	}
	if r, _ := f.last(t); r.URL.Path != "/engine-rest/decision-definition/count" || r.URL.RawQuery != "keyLike=k%25" {
		t.Errorf("count query %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	f.body = `{"id":"k:2:u","dmnXml":"<definitions/>"}`
	if x, err := c.DecisionDefinitionXML(ctx, "k:2:u"); err != nil || x != "<definitions/>" {
		t.Errorf("xml %q, %v", x, err)
	}
	f.body = `{"id":"k:2:u","key":"k","version":2,"tenantId":null}`
	if d, err := c.LatestDecisionDefinition(ctx, "k", ""); err != nil || d.Version != 2 || d.TenantID != "" {
		t.Errorf("latest %+v, %v", d, err)
	}
	if r, _ := f.last(t); r.URL.Path != "/engine-rest/decision-definition/key/k" {
		t.Errorf("latest path %s", r.URL.Path)
	}
	f.body = `[{"links":[],"id":"d1","name":"n","source":null,"deploymentTime":"2025-01-01T00:00:00.000+0000","tenantId":null}]`
	if deps, err := c.Deployments(ctx, engine.DeploymentQuery{NameLike: "n%"}); err != nil || len(deps) != 1 || deps[0].ID != "d1" {
		t.Errorf("deployments %+v, %v", deps, err)
	}
}

func TestErrorMapping(t *testing.T) {
	ctx := context.Background()
	t.Run("404", func(t *testing.T) {
		_, c := newFake(t, Config{}, 404, `{"type":"RestException","message":"No matching decision definition with key: x and no tenant-id"}`)
		_, err := c.Evaluate(ctx, "x", "", nil)
		var e *engine.Error
		if !errors.Is(err, engine.ErrNotFound) || !errors.As(err, &e) || e.Type != "RestException" || !strings.HasPrefix(e.Message, "No matching decision definition") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("evaluation failure", func(t *testing.T) {
		_, c := newFake(t, Config{}, 500, `{"type":"RestException","message":"Cannot evaluate decision k:1:u: DMN-01002 Unable to evaluate expression","code":0}`)
		_, err := c.Evaluate(ctx, "k", "", engine.Variables{})
		var e *engine.Error
		if !errors.As(err, &e) || e.Status != 500 || e.Message != "Cannot evaluate decision k:1:u: DMN-01002 Unable to evaluate expression" ||
			errors.Is(err, engine.ErrNotFound) || errors.Is(err, engine.ErrUnavailable) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("parse exception", func(t *testing.T) {
		_, c := newFake(t, Config{}, 400, `{"type":"ParseException","message":"ENGINE-09005 Could not parse BPMN process",
			"details":{"m.dmn":{"errors":[{"message":"bad","line":12,"column":5,"mainElementId":"d1","elementIds":["d1"]}],"warnings":[]}}}`)
		_, err := c.Deploy(ctx, engine.NewDeployment{Resources: []engine.Resource{{Name: "m.dmn", Data: []byte("x")}}})
		var de *engine.DeploymentError
		if !errors.As(err, &de) || de.Resource != "m.dmn" || de.Line != 12 || de.Column != 5 || de.ElementID != "d1" || de.Msg != "bad" {
			t.Errorf("got %v (%+v)", err, de)
		}
	})
	t.Run("not Operaton's answer", func(t *testing.T) {
		_, c := newFake(t, Config{}, 502, `<html>Bad Gateway</html>`)
		_, err := c.Version(ctx)
		var e *engine.Error
		if !errors.Is(err, engine.ErrUnavailable) || errors.As(err, &e) || !strings.Contains(err.Error(), "HTTP 502") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("unexpected JSON", func(t *testing.T) {
		_, c := newFake(t, Config{}, 200, `{"not":"a list"}`)
		_, err := c.Evaluate(ctx, "k", "", nil)
		if !errors.Is(err, engine.ErrUnavailable) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("bad variable in the answer", func(t *testing.T) {
		_, c := newFake(t, Config{}, 200, `[{"x":{"type":"Integer","value":"many"}}]`)
		_, err := c.Evaluate(ctx, "k", "", nil)
		var ve *engine.VariableError
		if !errors.As(err, &ve) || ve.Type != engine.TypeInteger {
			t.Errorf("got %v", err)
		}
	})
	t.Run("answer too large", func(t *testing.T) {
		_, c := newFake(t, Config{MaxResponseBytes: 10}, 200, `{"version":"7.24.0-operaton"}`)
		_, err := c.Version(ctx)
		if !errors.Is(err, engine.ErrUnavailable) || !strings.Contains(err.Error(), "larger than 10 bytes") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		f, c := newFake(t, Config{Timeout: 50 * time.Millisecond}, 200, `{"version":"1"}`)
		f.delay = 2 * time.Second
		start := time.Now()
		_, err := c.Version(ctx)
		if !errors.Is(err, engine.ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
			t.Errorf("got %v after %v", err, time.Since(start))
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		c, _ := New(Config{BaseURL: url + "/engine-rest"})
		_, err := c.Version(ctx)
		if !errors.Is(err, engine.ErrUnavailable) {
			t.Errorf("got %v", err)
		}
	})
}

func TestDo(t *testing.T) {
	f, c := newFake(t, Config{}, 200, `{"id":"p1","ended":false}`)
	var out struct {
		ID    string `json:"id"`
		Ended bool   `json:"ended"`
	}
	err := c.Do(context.Background(), "POST", "/process-definition/key/p/start", nil, map[string]any{"businessKey": "b-1"}, &out)
	if err != nil || out.ID != "p1" {
		t.Fatalf("%+v, %v", out, err)
	}
	r, body := f.last(t)
	if r.URL.Path != "/engine-rest/process-definition/key/p/start" || string(body) != `{"businessKey":"b-1"}` || r.Header.Get("Accept") != "application/json" {
		t.Errorf("request %s %s %v", r.URL.Path, body, r.Header)
	}
	if err := c.Do(context.Background(), "POST", "/x", nil, func() {}, nil); err == nil {
		t.Error("a body that cannot be encoded was sent")
	}
}
