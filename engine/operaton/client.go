package operaton

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// Defaults of Config.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 64 << 20
)

// Config configures a Client.
type Config struct {
	// BaseURL is the engine's REST root, e.g. http://localhost:8080/engine-rest.
	BaseURL string
	// Username and Password enable HTTP basic authentication.
	Username, Password string
	// Token is sent as "Authorization: Bearer <token>" (an API key); it
	// takes precedence over basic authentication.
	Token string
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
	// HTTPClient sends the requests; nil means a new http.Client.
	HTTPClient *http.Client
	// MaxResponseBytes bounds an answer's body; 0 means DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// Client talks to Operaton's REST API. It implements engine.ProcessEngine
// and is safe for concurrent use.
type Client struct {
	root    string // base URL without a trailing slash
	cfg     Config
	http    *http.Client
	timeout time.Duration
	max     int64
}

// New returns a client for the engine at cfg.BaseURL.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("operaton: base URL %q is not an http(s) URL", cfg.BaseURL)
	}
	u.RawQuery, u.Fragment = "", ""
	c := &Client{root: strings.TrimRight(u.String(), "/"), cfg: cfg, http: cfg.HTTPClient, timeout: cfg.Timeout, max: cfg.MaxResponseBytes}
	if c.http == nil {
		c.http = &http.Client{}
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.max <= 0 {
		c.max = DefaultMaxResponseBytes
	}
	return c, nil
}

// Do sends a request to p below the base URL (p's segments must already be
// escaped) with query parameters and a JSON body (nil: none), and decodes
// the JSON answer into out (nil: discard). It is the building block of
// every method and reaches endpoints the client has no method for yet.
// An answer with Operaton's {type, message} is an *engine.Error; failures
// to reach the engine, and answers that are not Operaton's, match
// engine.ErrUnavailable.
func (c *Client) Do(ctx context.Context, method, p string, query url.Values, body, out any) error {
	var rd io.Reader
	ct := ""
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("operaton: encode request: %w", err)
		}
		rd, ct = bytes.NewReader(b), "application/json"
	}
	return c.send(ctx, method, p, query, rd, ct, out)
}

func (c *Client) send(ctx context.Context, method, p string, query url.Values, body io.Reader, contentType string, out any) error {
	return c.sendWithin(ctx, c.timeout, method, p, query, body, contentType, out)
}

// sendWithin is send with its own timeout (a long poll waits longer).
func (c *Client) sendWithin(ctx context.Context, timeout time.Duration, method, p string, query url.Values, body io.Reader, contentType string, out any) error {
	status, _, data, err := c.roundTrip(ctx, timeout, method, p, query, body, contentType, "application/json")
	if err != nil {
		return err
	}
	if out == nil || status == http.StatusNoContent {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		var ve *engine.VariableError
		if errors.As(err, &ve) {
			return fmt.Errorf("operaton: %s %s: %w", method, p, err)
		}
		return engine.Unavailable(fmt.Errorf("operaton: %s %s: the answer is not the JSON expected: %v", method, p, err))
	}
	return nil
}

// roundTrip sends one request and reads the bounded answer; an answer
// outside 2xx is returned as its error.
func (c *Client) roundTrip(ctx context.Context, timeout time.Duration, method, p string, query url.Values, body io.Reader, contentType, accept string) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	u := c.root + p
	if q := query.Encode(); q != "" {
		u += "?" + q
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("operaton: %w", err)
	}
	req.Header.Set("Accept", accept)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	switch {
	case c.cfg.Token != "":
		req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	case c.cfg.Username != "":
		req.SetBasicAuth(c.cfg.Username, c.cfg.Password)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, engine.Unavailable(fmt.Errorf("operaton: %s %s: %w", method, p, err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.max+1))
	if err != nil {
		return 0, nil, nil, engine.Unavailable(fmt.Errorf("operaton: %s %s: reading the answer: %w", method, p, err))
	}
	if int64(len(data)) > c.max {
		return 0, nil, nil, engine.Unavailable(fmt.Errorf("operaton: %s %s: the answer is larger than %d bytes", method, p, c.max))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return 0, nil, nil, answerError(method, p, resp.StatusCode, data)
	}
	return resp.StatusCode, resp.Header, data, nil
}

// raw GETs a resource that is not JSON (a deployed form, a resource's
// data) with its content type.
func (c *Client) raw(ctx context.Context, p string) (engine.Form, error) {
	_, h, data, err := c.roundTrip(ctx, c.timeout, http.MethodGet, p, nil, nil, "", "*/*")
	if err != nil {
		return engine.Form{}, err
	}
	return engine.Form{ContentType: h.Get("Content-Type"), Data: data}, nil
}

// doWithin is Do with its own timeout.
func (c *Client) doWithin(ctx context.Context, timeout time.Duration, method, p string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("operaton: encode request: %w", err)
	}
	return c.sendWithin(ctx, timeout, method, p, nil, bytes.NewReader(b), "application/json", out)
}

// answerError turns an error answer into an *engine.Error when it carries
// Operaton's {type, message}; a ParseException's first problem becomes an
// *engine.DeploymentError cause.
func answerError(method, p string, status int, data []byte) error {
	var body struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Details map[string]struct {
			Errors []struct {
				Message       string  `json:"message"`
				Line          int     `json:"line"`
				Column        int     `json:"column"`
				MainElementID *string `json:"mainElementId"`
			} `json:"errors"`
		} `json:"details"`
	}
	if json.Unmarshal(data, &body) != nil || (body.Type == "" && body.Message == "") {
		snippet := strings.TrimSpace(string(data))
		if len(snippet) > 200 {
			snippet = snippet[:200] + "…"
		}
		return engine.Unavailable(fmt.Errorf("operaton: %s %s: HTTP %d without an engine error: %q", method, p, status, snippet))
	}
	e := &engine.Error{Status: status, Type: body.Type, Message: body.Message}
	for res, rep := range body.Details {
		if len(rep.Errors) == 0 {
			continue
		}
		pe := rep.Errors[0]
		de := &engine.DeploymentError{Resource: res, Line: pe.Line, Column: pe.Column, Msg: pe.Message}
		if pe.MainElementID != nil {
			de.ElementID = *pe.MainElementID
		}
		e.Err = de
		break
	}
	return e
}

// Version returns the engine's version (GET /version); it is the health probe.
func (c *Client) Version(ctx context.Context) (string, error) {
	var out struct {
		Version string `json:"version"`
	}
	if err := c.Do(ctx, http.MethodGet, "/version", nil, nil, &out); err != nil {
		return "", err
	}
	return out.Version, nil
}

// Deploy sends POST /deployment/create as multipart/form-data: the fields
// deployment-name, enable-duplicate-filtering, deploy-changed-only,
// deployment-source and tenant-id (the last two only when set) and one part
// per resource (the first named "data", then "data1", …; the file name is
// the resource name).
func (c *Client) Deploy(ctx context.Context, d engine.NewDeployment) (engine.Deployment, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	field := func(name, value string) {
		mw.WriteField(name, value)
	}
	field("deployment-name", d.Name)
	field("enable-duplicate-filtering", fmt.Sprint(d.EnableDuplicateFiltering))
	field("deploy-changed-only", fmt.Sprint(d.DeployChangedOnly))
	if d.Source != "" {
		field("deployment-source", d.Source)
	}
	if d.TenantID != "" {
		field("tenant-id", d.TenantID)
	}
	for i, r := range d.Resources {
		name := "data"
		if i > 0 {
			name = fmt.Sprintf("data%d", i)
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, name, escapeQuotes(r.Name)))
		h.Set("Content-Type", contentType(r.Name))
		w, err := mw.CreatePart(h)
		if err != nil {
			return engine.Deployment{}, fmt.Errorf("operaton: %w", err)
		}
		w.Write(r.Data)
	}
	if err := mw.Close(); err != nil {
		return engine.Deployment{}, fmt.Errorf("operaton: %w", err)
	}
	var out engine.Deployment
	err := c.send(ctx, http.MethodPost, "/deployment/create", nil, &buf, mw.FormDataContentType(), &out)
	return out, err
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

func escapeQuotes(s string) string { return quoteEscaper.Replace(s) }

func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".dmn", ".bpmn", ".xml", ".cmmn":
		return "application/xml"
	case ".json", ".form", ".document":
		return "application/json"
	}
	return "application/octet-stream"
}

// Deployment returns a deployment (GET /deployment/{id}).
func (c *Client) Deployment(ctx context.Context, id string) (engine.Deployment, error) {
	var out engine.Deployment
	err := c.Do(ctx, http.MethodGet, "/deployment/"+url.PathEscape(id), nil, nil, &out)
	return out, err
}

// Deployments lists deployments (GET /deployment).
func (c *Client) Deployments(ctx context.Context, q engine.DeploymentQuery) ([]engine.Deployment, error) {
	var out []engine.Deployment
	err := c.Do(ctx, http.MethodGet, "/deployment", q.Values(), nil, &out)
	return out, err
}

// DecisionDefinitions lists decision definitions (GET /decision-definition).
func (c *Client) DecisionDefinitions(ctx context.Context, q engine.DecisionDefinitionQuery) ([]engine.DecisionDefinition, error) {
	var out []engine.DecisionDefinition
	err := c.Do(ctx, http.MethodGet, "/decision-definition", q.Values(), nil, &out)
	return out, err
}

// DecisionDefinitionCount counts decision definitions (GET /decision-definition/count).
func (c *Client) DecisionDefinitionCount(ctx context.Context, q engine.DecisionDefinitionQuery) (int, error) {
	q.FirstResult, q.MaxResults = 0, 0
	var out struct {
		Count int `json:"count"`
	}
	err := c.Do(ctx, http.MethodGet, "/decision-definition/count", q.Values(), nil, &out)
	return out.Count, err
}

// DecisionDefinition returns a decision definition (GET /decision-definition/{id}).
func (c *Client) DecisionDefinition(ctx context.Context, id string) (engine.DecisionDefinition, error) {
	var out engine.DecisionDefinition
	err := c.Do(ctx, http.MethodGet, "/decision-definition/"+url.PathEscape(id), nil, nil, &out)
	return out, err
}

func keyPath(key, tenantID string) string {
	p := "/decision-definition/key/" + url.PathEscape(key)
	if tenantID != "" {
		p += "/tenant-id/" + url.PathEscape(tenantID)
	}
	return p
}

// LatestDecisionDefinition returns the latest version for a key
// (GET /decision-definition/key/{key}[/tenant-id/{tenant}]).
func (c *Client) LatestDecisionDefinition(ctx context.Context, key, tenantID string) (engine.DecisionDefinition, error) {
	var out engine.DecisionDefinition
	err := c.Do(ctx, http.MethodGet, keyPath(key, tenantID), nil, nil, &out)
	return out, err
}

// DecisionDefinitionXML returns a definition's DMN XML (GET /decision-definition/{id}/xml).
func (c *Client) DecisionDefinitionXML(ctx context.Context, id string) (string, error) {
	var out struct {
		DmnXML string `json:"dmnXml"`
	}
	err := c.Do(ctx, http.MethodGet, "/decision-definition/"+url.PathEscape(id)+"/xml", nil, nil, &out)
	return out.DmnXML, err
}

type evaluateRequest struct {
	Variables engine.Variables `json:"variables"`
}

// Evaluate evaluates the latest version of a decision
// (POST /decision-definition/key/{key}[/tenant-id/{tenant}]/evaluate).
func (c *Client) Evaluate(ctx context.Context, key, tenantID string, vars engine.Variables) (engine.Result, error) {
	return c.evaluate(ctx, keyPath(key, tenantID)+"/evaluate", vars)
}

// EvaluateDefinition evaluates a decision definition by id
// (POST /decision-definition/{id}/evaluate).
func (c *Client) EvaluateDefinition(ctx context.Context, id string, vars engine.Variables) (engine.Result, error) {
	return c.evaluate(ctx, "/decision-definition/"+url.PathEscape(id)+"/evaluate", vars)
}

func (c *Client) evaluate(ctx context.Context, p string, vars engine.Variables) (engine.Result, error) {
	if vars == nil {
		vars = engine.Variables{}
	}
	var out engine.Result
	if err := c.Do(ctx, http.MethodPost, p, nil, evaluateRequest{Variables: vars}, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = engine.Result{}
	}
	return out, nil
}

var _ engine.Engine = (*Client)(nil)
