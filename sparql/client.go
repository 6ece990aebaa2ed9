package sparql

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql/graph"
)

// ClientOptions configure a Client. The zero value works.
type ClientOptions struct {
	// HTTPClient sends the requests; nil means a new client.
	HTTPClient *http.Client
	// Timeout bounds each request (on top of the caller's context); zero
	// means 30 seconds, a negative value none.
	Timeout time.Duration
	// UpdateURL is where updates go when it differs from the query URL.
	UpdateURL string
	// BearerToken, when set, is sent as "Authorization: Bearer ...".
	BearerToken string
	// Username and Password, when Username is set, are sent as basic auth.
	Username, Password string
	// MaxResponseBytes bounds a response body; zero means 64 MB.
	MaxResponseBytes int64
	// QueryMethod says how queries and updates travel; the zero value is
	// MethodForm, which every SPARQL 1.1 endpoint understands.
	QueryMethod QueryMethod
	// Form is the old spelling of QueryMethod: MethodForm.
	//
	// Deprecated: set QueryMethod.
	Form bool
	// Get is the old spelling of QueryMethod: MethodGet.
	//
	// Deprecated: set QueryMethod.
	Get bool
	// Header is added to every request (for example a User-Agent).
	Header http.Header
}

// QueryMethod is how a Client sends queries and updates (SPARQL 1.1
// Protocol §2.1 and §2.2).
type QueryMethod string

const (
	// MethodForm POSTs an application/x-www-form-urlencoded body with query=
	// (update= for updates). It is the default: Virtuoso 7, for one, never
	// answers a direct application/sparql-query POST.
	MethodForm QueryMethod = "form"
	// MethodDirect POSTs the text itself as application/sparql-query
	// (application/sparql-update for updates).
	MethodDirect QueryMethod = "direct"
	// MethodGet sends a query as GET ?query= when the whole URL stays under
	// MaxGetURL bytes, so caches and read-only replicas can serve it; a
	// longer query, and every update, is a form POST.
	MethodGet QueryMethod = "get"
)

// MaxGetURL is the longest URL MethodGet sends; many servers and proxies
// refuse request lines over 8 KB, so this stays well below.
const MaxGetURL = 4096

// ParseQueryMethod reads a QueryMethod by name ("form", "direct" or "get",
// any case); "" is MethodForm.
func ParseQueryMethod(s string) (QueryMethod, error) {
	switch m := QueryMethod(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return MethodForm, nil
	case MethodForm, MethodDirect, MethodGet:
		return m, nil
	}
	return "", fmt.Errorf("sparql: unknown query method %q (want form, direct or get)", s)
}

// Client talks to any SPARQL 1.1 Protocol endpoint (GraphDB, TriplyDB,
// Virtuoso, Fuseki, Oxigraph, memstore's Handler). It implements Endpoint
// and is safe for concurrent use.
type Client struct {
	url  string
	opts ClientOptions
	hc   *http.Client
}

var _ Endpoint = (*Client)(nil)

// NewClient returns a client for the endpoint at endpointURL.
func NewClient(endpointURL string, opts ClientOptions) *Client {
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = 64 << 20
	}
	if opts.QueryMethod == "" {
		switch {
		case opts.Get:
			opts.QueryMethod = MethodGet
		default:
			opts.QueryMethod = MethodForm
		}
	}
	return &Client{url: endpointURL, opts: opts, hc: hc}
}

// HTTPError is an answer with a non-2xx status.
type HTTPError struct {
	StatusCode int
	Body       string // the start of the response body
	URL        string
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("sparql: %s answered %d %s", e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// NotSPARQLError is a 2xx answer that is not a SPARQL result or RDF
// document of the expected kind (for example an HTML login page).
type NotSPARQLError struct {
	ContentType string
	Body        string // the start of the response body
	URL         string
	Cause       error // the parse error, if any
}

func (e *NotSPARQLError) Error() string {
	msg := fmt.Sprintf("sparql: %s did not answer with SPARQL results (Content-Type %q)", e.URL, e.ContentType)
	if e.Cause != nil {
		msg += ": " + e.Cause.Error()
	}
	return msg
}

func (e *NotSPARQLError) Unwrap() error { return e.Cause }

// ErrResponseTooLarge is returned when a response exceeds MaxResponseBytes.
var ErrResponseTooLarge = errors.New("sparql: response larger than the configured maximum")

// Response is a raw answer: its content type and body, unparsed.
type Response struct {
	ContentType string // media type without parameters
	Body        []byte
}

const excerptLen = 512

func excerpt(b []byte) string {
	if len(b) > excerptLen {
		b = b[:excerptLen]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
		return strings.TrimSpace(string(b)) + "…"
	}
	return strings.TrimSpace(string(b))
}

// do sends one request and returns the body of a 2xx answer.
func (c *Client) do(ctx context.Context, update bool, text, accept string) (*Response, error) {
	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
	}
	target := c.url
	if update && c.opts.UpdateURL != "" {
		target = c.opts.UpdateURL
	}
	param := "query"
	ctype := MediaQuery
	if update {
		param, ctype = "update", MediaUpdate
	}
	req, err := c.newRequest(ctx, target, param, ctype, text, update)
	if err != nil {
		return nil, fmt.Errorf("sparql: building request: %w", err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for k, vs := range c.opts.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	switch {
	case c.opts.BearerToken != "":
		req.Header.Set("Authorization", "Bearer "+c.opts.BearerToken)
	case c.opts.Username != "":
		req.SetBasicAuth(c.opts.Username, c.opts.Password)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("sparql: %s: %w", target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("sparql: reading the answer of %s: %w", target, err)
	}
	if int64(len(body)) > c.opts.MaxResponseBytes {
		return nil, ErrResponseTooLarge
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &HTTPError{StatusCode: resp.StatusCode, Body: excerpt(body), URL: target}
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return &Response{ContentType: mt, Body: body}, nil
}

// newRequest builds the request for one query or update in the client's
// QueryMethod.
func (c *Client) newRequest(ctx context.Context, target, param, ctype, text string, update bool) (*http.Request, error) {
	method := c.opts.QueryMethod
	if method == MethodGet && !update {
		u, err := url.Parse(target)
		if err != nil {
			return nil, fmt.Errorf("sparql: bad endpoint URL: %w", err)
		}
		q := u.Query()
		q.Set("query", text)
		u.RawQuery = q.Encode()
		if s := u.String(); len(s) <= MaxGetURL {
			return http.NewRequestWithContext(ctx, http.MethodGet, s, nil)
		}
	}
	var req *http.Request
	var err error
	if method == MethodDirect {
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(text))
	} else {
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(url.Values{param: {text}}.Encode()))
		ctype = MediaForm
	}
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", ctype)
	return req, nil
}

const resultsAccept = MediaResultsJSON + ", " + MediaResultsXML + ";q=0.9"

// Query sends any query and returns the answer unparsed, asking for SPARQL
// JSON results (or Turtle for CONSTRUCT and DESCRIBE). A proxy can pass
// the body on unchanged.
func (c *Client) Query(ctx context.Context, query string) (*Response, error) {
	return c.do(ctx, false, query, resultsAccept+", "+MediaTurtle+";q=0.8")
}

func (c *Client) results(ctx context.Context, query string) (*Results, error) {
	resp, err := c.do(ctx, false, query, resultsAccept)
	if err != nil {
		return nil, err
	}
	var res *Results
	switch resp.ContentType {
	case MediaResultsXML, "application/xml", "text/xml":
		res, err = ReadXML(bytes.NewReader(resp.Body))
	case MediaResultsJSON, "application/json", "":
		res, err = ReadJSON(bytes.NewReader(resp.Body))
	default:
		return nil, &NotSPARQLError{ContentType: resp.ContentType, Body: excerpt(resp.Body), URL: c.url}
	}
	if err != nil {
		return nil, &NotSPARQLError{ContentType: resp.ContentType, Body: excerpt(resp.Body), URL: c.url, Cause: err}
	}
	return res, nil
}

// Select implements Endpoint.
func (c *Client) Select(ctx context.Context, query string) (*Results, error) {
	res, err := c.results(ctx, query)
	if err != nil {
		return nil, err
	}
	if res.Boolean != nil {
		return nil, &NotSPARQLError{ContentType: MediaResultsJSON, URL: c.url, Cause: errors.New("got a boolean (ASK) result for a SELECT query")}
	}
	return res, nil
}

// Ask implements Endpoint.
func (c *Client) Ask(ctx context.Context, query string) (bool, error) {
	res, err := c.results(ctx, query)
	if err != nil {
		return false, err
	}
	res.NormalizeAsk()
	if res.Boolean == nil {
		return false, &NotSPARQLError{ContentType: MediaResultsJSON, URL: c.url, Cause: errors.New("got solutions for an ASK query")}
	}
	return *res.Boolean, nil
}

// Construct implements Endpoint: it asks for Turtle (or N-Triples,
// JSON-LD) and parses the graph.
func (c *Client) Construct(ctx context.Context, query string) (*graph.Graph, error) {
	resp, err := c.do(ctx, false, query, MediaTurtle+", "+MediaNTriples+";q=0.9, "+MediaJSONLD+";q=0.8")
	if err != nil {
		return nil, err
	}
	f, ok := graph.FormatFor(resp.ContentType)
	if !ok || resp.ContentType == "" {
		if resp.ContentType != "" && resp.ContentType != "text/plain" {
			return nil, &NotSPARQLError{ContentType: resp.ContentType, Body: excerpt(resp.Body), URL: c.url}
		}
		f = graph.Turtle
	}
	g, err := graph.ParseGraph(bytes.NewReader(resp.Body), f, graph.ParseOptions{})
	if err != nil {
		return nil, &NotSPARQLError{ContentType: resp.ContentType, Body: excerpt(resp.Body), URL: c.url, Cause: err}
	}
	return g, nil
}

// Update implements Endpoint.
func (c *Client) Update(ctx context.Context, update string) error {
	_, err := c.do(ctx, true, update, "")
	return err
}
