package docmgmt

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
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LiveConfig configures the eDOCS DM REST client.
type LiveConfig struct {
	// BaseURL is the REST base, e.g. https://host:port/edocsapi/v1.0 (not
	// ending in /connect).
	BaseURL string
	// Library is the eDOCS library, sent as ?library= on every call.
	Library string
	// UserID and Password are the service account's; UserID is also the
	// AUTHOR_ID and TYPIST_ID of every workspace and document.
	UserID   string
	Password string
	// Timeout bounds each HTTP call; 15 s when zero.
	Timeout time.Duration
	// LoginFailureTTL is how long Health reuses a failed login instead of
	// trying again (account lockout); 30 s when zero.
	LoginFailureTTL time.Duration
	// MaxResponseBytes bounds every answer, downloads included; 64 MB when
	// zero.
	MaxResponseBytes int64
	// HTTPClient sends the requests; a plain client when nil.
	HTTPClient *http.Client
	// Logger receives login events (never tokens, passwords or contents).
	Logger *slog.Logger
}

// Live is the OpenText eDOCS DM REST client. It is safe for concurrent use;
// one session is shared by all calls.
type Live struct {
	cfg  LiveConfig
	base string // without a trailing slash
	http *http.Client
	log  *slog.Logger
	now  func() time.Time

	loginMu  sync.Mutex // one login at a time
	ensureMu sync.Mutex // one workspace look-up-or-create at a time

	mu          sync.Mutex
	sess        *session
	failedLogin time.Time
	failedErr   error
}

type session struct{ dst, csrf string }

// Names of the eDOCS session cookies and header.
const (
	dstName  = "X-DM-DST"
	csrfName = "X-DM-CSRF-TOKEN"
)

var _ Client = (*Live)(nil)

// NewLive checks cfg and returns a client. It contacts nothing: the first
// call logs in.
func NewLive(cfg LiveConfig) (*Live, error) {
	u, err := url.Parse(cfg.BaseURL)
	switch {
	case cfg.BaseURL == "":
		return nil, errors.New("docmgmt: the eDOCS base URL is required")
	case err != nil:
		return nil, fmt.Errorf("docmgmt: eDOCS base URL: %w", err)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return nil, fmt.Errorf("docmgmt: eDOCS base URL %q must be an absolute http(s) URL", cfg.BaseURL)
	case u.User != nil:
		return nil, errors.New("docmgmt: eDOCS base URL must not carry credentials; set the user id and password")
	case u.RawQuery != "" || u.Fragment != "":
		return nil, errors.New("docmgmt: eDOCS base URL must not have a query or fragment")
	case strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/connect"):
		return nil, fmt.Errorf("docmgmt: eDOCS base URL %q must be the REST base, not the /connect endpoint", cfg.BaseURL)
	case cfg.Library == "":
		return nil, errors.New("docmgmt: the eDOCS library is required")
	case cfg.UserID == "" || cfg.Password == "":
		return nil, errors.New("docmgmt: the eDOCS user id and password are required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 15 * time.Second
	}
	if cfg.LoginFailureTTL <= 0 {
		cfg.LoginFailureTTL = 30 * time.Second
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = 64 << 20
	}
	c := &Live{cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/"), http: cfg.HTTPClient, log: cfg.Logger, now: time.Now}
	if c.http == nil {
		c.http = &http.Client{}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// request is one eDOCS call; the body is kept so it can be sent again after
// a re-login.
type request struct {
	method      string
	path        string // relative to the base, segments escaped
	query       url.Values
	body        []byte
	contentType string
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// send makes one HTTP call with the session's cookies and header.
func (c *Live) send(ctx context.Context, op string, s *session, req request) (*response, error) {
	q := url.Values{}
	for k, v := range req.query {
		q[k] = v
	}
	q.Set("library", c.cfg.Library)
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.method, c.base+"/"+req.path+"?"+q.Encode(), body)
	if err != nil {
		return nil, &Error{Op: op, Message: err.Error(), Err: err}
	}
	hr.Header.Set("Accept", "application/json")
	if req.contentType != "" {
		hr.Header.Set("Content-Type", req.contentType)
	}
	if s != nil {
		hr.Header.Set(dstName, s.dst)
		hr.AddCookie(&http.Cookie{Name: dstName, Value: s.dst})
		if s.csrf != "" {
			hr.AddCookie(&http.Cookie{Name: csrfName, Value: s.csrf})
		}
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, &Error{Op: op, Message: fmt.Sprintf("no answer within %v", c.cfg.Timeout), Err: err}
		}
		return nil, &Error{Op: op, Message: "no answer: " + transportMessage(err), Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxResponseBytes+1))
	if err != nil {
		return nil, &Error{Op: op, Status: resp.StatusCode, Message: "reading the answer: " + err.Error(), Err: err}
	}
	if int64(len(data)) > c.cfg.MaxResponseBytes {
		return nil, &Error{Op: op, Status: resp.StatusCode,
			Message: fmt.Sprintf("the answer exceeds %d bytes", c.cfg.MaxResponseBytes)}
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

// transportMessage drops the URL net/http puts in front of a transport
// error; the operation already says what was called.
func transportMessage(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// call sends req within the session, logging in first when there is none,
// and once more after a 401/403 (an expired session). A non-2xx answer is an
// *Error carrying eDOCS's message.
func (c *Live) call(ctx context.Context, op string, req request) (*response, error) {
	s, err := c.session(ctx, op, false)
	if err != nil {
		return nil, err
	}
	resp, err := c.send(ctx, op, s, req)
	if err != nil {
		return nil, err
	}
	if resp.status == http.StatusUnauthorized || resp.status == http.StatusForbidden {
		c.log.DebugContext(ctx, "eDOCS session rejected; logging in again", "op", op, "status", resp.status)
		c.dropSession(s)
		if s, err = c.session(ctx, op, false); err != nil {
			return nil, err
		}
		if resp, err = c.send(ctx, op, s, req); err != nil {
			return nil, err
		}
	}
	if resp.status < 200 || resp.status > 299 {
		return nil, &Error{Op: op, Status: resp.status, Message: edocsMessage(resp)}
	}
	return resp, nil
}

// session returns the current session, logging in when there is none. A
// probe reuses a login failure younger than LoginFailureTTL.
func (c *Live) session(ctx context.Context, op string, probe bool) (*session, error) {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		return s, nil
	}
	c.loginMu.Lock()
	defer c.loginMu.Unlock()
	c.mu.Lock()
	s, failedAt, failedErr := c.sess, c.failedLogin, c.failedErr
	c.mu.Unlock()
	if s != nil {
		return s, nil // another call logged in meanwhile
	}
	if probe && failedErr != nil && c.now().Sub(failedAt) < c.cfg.LoginFailureTTL {
		return nil, failedErr
	}
	s, err := c.login(ctx, op)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.failedLogin, c.failedErr = c.now(), err
		return nil, err
	}
	c.sess, c.failedErr = s, nil
	return s, nil
}

func (c *Live) dropSession(s *session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == s {
		c.sess = nil
	}
}

// login posts the credentials to /connect and reads the session token from
// the X-DM-DST cookie (or header) and the CSRF cookie.
func (c *Live) login(ctx context.Context, op string) (*session, error) {
	op += ": login"
	body, _ := json.Marshal(map[string]any{"data": map[string]string{
		"userid": c.cfg.UserID, "password": c.cfg.Password, "library": c.cfg.Library,
	}})
	resp, err := c.send(ctx, op, nil, request{method: http.MethodPost, path: "connect", body: body, contentType: "application/json"})
	if err != nil {
		c.log.WarnContext(ctx, "eDOCS login failed", "error", err.Error())
		return nil, err
	}
	if resp.status < 200 || resp.status > 299 {
		err := &Error{Op: op, Status: resp.status, Message: edocsMessage(resp)}
		c.log.WarnContext(ctx, "eDOCS login failed", "status", resp.status, "error", err.Message)
		return nil, err
	}
	s := &session{}
	for _, ck := range (&http.Response{Header: resp.header}).Cookies() {
		switch ck.Name {
		case dstName:
			s.dst = ck.Value
		case csrfName:
			s.csrf = ck.Value
		}
	}
	if s.dst == "" {
		s.dst = resp.header.Get(dstName)
	}
	if s.dst == "" {
		err := &Error{Op: op, Status: resp.status, Message: "the answer carries no session token (" + dstName + ")"}
		c.log.WarnContext(ctx, "eDOCS login failed", "error", err.Message)
		return nil, err
	}
	c.log.DebugContext(ctx, "eDOCS login", "library", c.cfg.Library)
	return s, nil
}

// Health measures reachability and latency with an unauthenticated GET
// libraries, then checks the login: an existing session counts, otherwise it
// logs in, reusing a failed login younger than LoginFailureTTL.
func (c *Live) Health(ctx context.Context) Health {
	h := Health{Status: StatusDown, Library: c.cfg.Library}
	start := time.Now()
	resp, err := c.send(ctx, "health", nil, request{method: http.MethodGet, path: "libraries"})
	h.Latency = time.Since(start)
	if err != nil {
		h.Err = err
		return h
	}
	if resp.status >= 500 {
		h.Err = &Error{Op: "health", Status: resp.status, Message: edocsMessage(resp)}
		return h
	}
	h.Reachable = true
	if _, err := c.session(ctx, "health", true); err != nil {
		h.Err = err
		return h
	}
	h.Authenticated = true
	h.Status = StatusUp
	return h
}

// EnsureWorkspace finds the project's workspace by its name prefix
// "<projectNumber> — " or creates it.
func (c *Live) EnsureWorkspace(ctx context.Context, req EnsureWorkspaceRequest) (Workspace, error) {
	if err := validateEnsure(req); err != nil {
		return Workspace{}, err
	}
	c.ensureMu.Lock()
	defer c.ensureMu.Unlock()
	if ws, ok, err := c.findWorkspace(ctx, req.ProjectNumber); err != nil || ok {
		return ws, err
	}
	name := WorkspaceName(req.ProjectNumber, req.ProjectName)
	body, _ := json.Marshal(map[string]any{"data": map[string]string{
		"DOCNAME": name, "AUTHOR_ID": c.cfg.UserID, "TYPIST_ID": c.cfg.UserID,
	}})
	const op = "ensure workspace: create"
	resp, err := c.call(ctx, op, request{method: http.MethodPost, path: "workspaces", body: body, contentType: "application/json"})
	if err != nil {
		return Workspace{}, err
	}
	v, err := decodeJSON(op, resp)
	if err != nil {
		return Workspace{}, err
	}
	id := firstID(v)
	if id == "" {
		return Workspace{}, &Error{Op: op, Status: resp.status, Message: "the answer carries no workspace id"}
	}
	return Workspace{ID: id, Name: name, Created: true}, nil
}

// findWorkspace looks the project number up with a prefix filter. The
// filter's LIKE also matches longer numbers (123 finds "1234 — …"), so only a
// name starting with "<projectNumber> — " counts.
func (c *Live) findWorkspace(ctx context.Context, projectNumber string) (Workspace, bool, error) {
	const op = "ensure workspace: find"
	q := url.Values{
		"filter": {"DOCNAME like '" + escapeFilterLiteral(projectNumber) + "%'"},
		"max":    {"25"},
	}
	resp, err := c.call(ctx, op, request{method: http.MethodGet, path: "workspaces", query: q})
	if err != nil {
		return Workspace{}, false, err
	}
	v, err := decodeJSON(op, resp)
	if err != nil {
		return Workspace{}, false, err
	}
	prefix := WorkspaceName(projectNumber, "")
	for _, item := range listItems(v) {
		name := field(item, "DOCNAME")
		id := itemID(item)
		if id != "" && strings.HasPrefix(name, prefix) {
			return Workspace{ID: id, Name: name}, true, nil
		}
	}
	return Workspace{}, false, nil
}

// escapeFilterLiteral doubles single quotes, the SQL way eDOCS filters
// quote literals. Validated project numbers carry none; this is the second
// line of defence.
func escapeFilterLiteral(s string) string { return strings.ReplaceAll(s, "'", "''") }

// Upload files a document with a multipart POST documents: part data is the
// JSON profile, part file the content.
func (c *Live) Upload(ctx context.Context, req UploadRequest) (UploadedDocument, error) {
	if err := validateUpload(req); err != nil {
		return UploadedDocument{}, err
	}
	profile := map[string]any{}
	for k, v := range req.Extra {
		profile[k] = v
	}
	profile["DOCNAME"] = req.DocName
	profile["AUTHOR_ID"] = c.cfg.UserID
	profile["TYPIST_ID"] = c.cfg.UserID
	if req.AppID != "" {
		profile["APP_ID"] = req.AppID
	}
	if req.Department != "" {
		profile["UV_AFD_NAAM"] = req.Department
	}
	restapi := map[string]any{}
	if req.FormName != "" {
		restapi["form_name"] = req.FormName
	}
	if req.WorkspaceID != "" {
		wsID, err := strconv.ParseInt(req.WorkspaceID, 10, 64)
		if err != nil || wsID <= 0 {
			return UploadedDocument{}, &RequestError{Field: "workspaceId", Message: "must be a numeric eDOCS workspace id"}
		}
		restapi["ref"] = map[string]any{"type": "workspace", "id": wsID, "lib": c.cfg.Library}
	}
	if len(restapi) > 0 {
		profile["_restapi"] = restapi
	}
	body, contentType, err := multipartBody(profile, req.Filename, req.Content)
	if err != nil {
		return UploadedDocument{}, &Error{Op: "upload", Message: err.Error(), Err: err}
	}
	const op = "upload"
	resp, err := c.call(ctx, op, request{method: http.MethodPost, path: "documents", body: body, contentType: contentType})
	if err != nil {
		return UploadedDocument{}, err
	}
	v, err := decodeJSON(op, resp)
	if err != nil {
		return UploadedDocument{}, err
	}
	if msgs := errorList(v); resp.status == http.StatusPartialContent || len(msgs) > 0 {
		msg := "the document was rejected"
		if len(msgs) > 0 {
			msg += ": " + strings.Join(msgs, "; ")
		}
		return UploadedDocument{}, &Error{Op: op, Status: resp.status, Message: msg}
	}
	items := listItems(v)
	var doc map[string]any
	if len(items) > 0 {
		doc = items[0]
	} else if d, ok := dataObject(v); ok {
		doc = d
	}
	id := itemID(doc)
	if id == "" {
		return UploadedDocument{}, &Error{Op: op, Status: resp.status, Message: "the answer carries no document id"}
	}
	number := documentNumber(doc)
	if number == "" {
		number = id
	}
	return UploadedDocument{DocumentID: id, DocumentNumber: number, WorkspaceID: req.WorkspaceID}, nil
}

func multipartBody(profile map[string]any, filename string, content []byte) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="data"`)
	h.Set("Content-Type", "application/json")
	part, err := w.CreatePart(h)
	if err != nil {
		return nil, "", err
	}
	if err := json.NewEncoder(part).Encode(profile); err != nil {
		return nil, "", err
	}
	file, err := w.CreateFormFile("file", filename)
	if err != nil {
		return nil, "", err
	}
	if _, err := file.Write(content); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// ListDocuments reads GET workspaces/{id}, whose items are the documents.
func (c *Live) ListDocuments(ctx context.Context, workspaceID string) ([]Document, error) {
	if err := requireID("workspaceId", workspaceID); err != nil {
		return nil, err
	}
	const op = "list documents"
	v, err := c.getJSON(ctx, op, "workspaces/"+url.PathEscape(workspaceID), nil)
	if err != nil {
		return nil, err
	}
	docs := []Document{}
	for _, item := range listItems(v) {
		id := itemID(item)
		if id == "" {
			continue
		}
		number := documentNumber(item)
		if number == "" {
			number = id
		}
		docs = append(docs, Document{ID: id, Name: field(item, "DOCNAME"), DocumentNumber: number})
	}
	return docs, nil
}

// ListWorkspaces reads GET workspaces?max=N.
func (c *Live) ListWorkspaces(ctx context.Context, req ListWorkspacesRequest) ([]WorkspaceSummary, error) {
	max := req.Max
	if max <= 0 {
		max = 10
	}
	v, err := c.getJSON(ctx, "list workspaces", "workspaces", url.Values{"max": {strconv.Itoa(max)}})
	if err != nil {
		return nil, err
	}
	out := []WorkspaceSummary{}
	for _, item := range listItems(v) {
		if id := itemID(item); id != "" {
			out = append(out, WorkspaceSummary{ID: id, Name: field(item, "DOCNAME")})
		}
	}
	return out, nil
}

// Profile reads GET documents/{id}/profile.
func (c *Live) Profile(ctx context.Context, documentID string) (map[string]any, error) {
	if err := requireID("documentId", documentID); err != nil {
		return nil, err
	}
	v, err := c.getJSON(ctx, "profile", "documents/"+url.PathEscape(documentID)+"/profile", nil)
	if err != nil {
		return nil, err
	}
	if d, ok := dataObject(v); ok {
		return d, nil
	}
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	return nil, &Error{Op: "profile", Status: http.StatusOK, Message: "the answer is not a profile object"}
}

// Versions reads GET documents/{id}/versions.
func (c *Live) Versions(ctx context.Context, documentID string) ([]Version, error) {
	if err := requireID("documentId", documentID); err != nil {
		return nil, err
	}
	v, err := c.getJSON(ctx, "versions", "documents/"+url.PathEscape(documentID)+"/versions", nil)
	if err != nil {
		return nil, err
	}
	out := []Version{}
	for _, item := range listItems(v) {
		out = append(out, Version{ID: field(item, "VERSION_ID"), Version: field(item, "VERSION")})
	}
	return out, nil
}

// Download reads GET documents/{id}/versions/{version} as raw bytes.
func (c *Live) Download(ctx context.Context, req DownloadRequest) ([]byte, error) {
	if err := requireID("documentId", req.DocumentID); err != nil {
		return nil, err
	}
	if err := requireID("version", req.Version); err != nil {
		return nil, err
	}
	path := "documents/" + url.PathEscape(req.DocumentID) + "/versions/" + url.PathEscape(req.Version)
	resp, err := c.call(ctx, "download", request{method: http.MethodGet, path: path})
	if err != nil {
		return nil, err
	}
	return resp.body, nil
}

// DeleteDocument sends DELETE documents/{id}.
func (c *Live) DeleteDocument(ctx context.Context, documentID string) error {
	if err := requireID("documentId", documentID); err != nil {
		return err
	}
	_, err := c.call(ctx, "delete document", request{method: http.MethodDelete, path: "documents/" + url.PathEscape(documentID)})
	return err
}

// DeleteWorkspace sends DELETE workspaces/{id}.
func (c *Live) DeleteWorkspace(ctx context.Context, workspaceID string) error {
	if err := requireID("workspaceId", workspaceID); err != nil {
		return err
	}
	_, err := c.call(ctx, "delete workspace", request{method: http.MethodDelete, path: "workspaces/" + url.PathEscape(workspaceID)})
	return err
}

func (c *Live) getJSON(ctx context.Context, op, path string, q url.Values) (any, error) {
	resp, err := c.call(ctx, op, request{method: http.MethodGet, path: path, query: q})
	if err != nil {
		return nil, err
	}
	return decodeJSON(op, resp)
}

func decodeJSON(op string, resp *response) (any, error) {
	if len(bytes.TrimSpace(resp.body)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(resp.body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &Error{Op: op, Status: resp.status, Message: "the answer is not JSON: " + err.Error(), Err: err}
	}
	return v, nil
}

// edocsMessage is eDOCS's own message from {ERROR:{message, rapi_details}},
// else the start of a plain-text answer, else the status text.
func edocsMessage(resp *response) string {
	var v map[string]any
	if json.Unmarshal(resp.body, &v) == nil {
		for _, key := range []string{"ERROR", "error"} {
			switch e := v[key].(type) {
			case map[string]any:
				if m := scalarString(e["message"]); m != "" {
					return m
				}
				if d := e["rapi_details"]; d != nil {
					if s := scalarString(d); s != "" {
						return s
					}
					b, _ := json.Marshal(d)
					return string(b)
				}
			case string:
				if e != "" {
					return e
				}
			}
		}
		if m := scalarString(v["message"]); m != "" {
			return m
		}
	}
	if ct := resp.header.Get("Content-Type"); strings.HasPrefix(ct, "text/plain") {
		if s := strings.TrimSpace(string(resp.body)); s != "" {
			if len(s) > 200 {
				s = s[:200] + "…"
			}
			return s
		}
	}
	if text := http.StatusText(resp.status); text != "" {
		return text
	}
	return "unexpected answer"
}

// listItems finds the items of a listing: data.list, data as an array, or
// list.
func listItems(v any) []map[string]any {
	m, _ := v.(map[string]any)
	var raw []any
	if d, ok := m["data"].(map[string]any); ok {
		raw, _ = d["list"].([]any)
	} else if a, ok := m["data"].([]any); ok {
		raw = a
	}
	if raw == nil {
		raw, _ = m["list"].([]any)
	}
	if raw == nil {
		raw, _ = v.([]any)
	}
	out := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		if item, ok := r.(map[string]any); ok {
			out = append(out, item)
		}
	}
	return out
}

func dataObject(v any) (map[string]any, bool) {
	m, _ := v.(map[string]any)
	d, ok := m["data"].(map[string]any)
	return d, ok
}

// field reads a profile field of a flat item, or of its nested data object
// (the older eDOCS shape).
func field(item map[string]any, name string) string {
	if s := scalarString(item[name]); s != "" {
		return s
	}
	if d, ok := item["data"].(map[string]any); ok {
		return scalarString(d[name])
	}
	return ""
}

func itemID(item map[string]any) string {
	for _, k := range []string{"id", "ID"} {
		if s := scalarString(item[k]); s != "" {
			return s
		}
	}
	return ""
}

func documentNumber(item map[string]any) string {
	for _, k := range []string{"DOCNUM", "DOCNUMBER"} {
		if s := field(item, k); s != "" {
			return s
		}
	}
	return ""
}

// firstID finds a created object's id: data.id, id, or data.list[0].id.
func firstID(v any) string {
	if d, ok := dataObject(v); ok {
		if id := itemID(d); id != "" {
			return id
		}
	}
	if m, ok := v.(map[string]any); ok {
		if id := itemID(m); id != "" {
			return id
		}
	}
	if items := listItems(v); len(items) > 0 {
		return itemID(items[0])
	}
	return ""
}

// errorList reads data.error_list (or error_list), the rejection list of a
// 206 answer.
func errorList(v any) []string {
	m, _ := v.(map[string]any)
	raw, ok := m["error_list"].([]any)
	if d, isObj := dataObject(v); !ok && isObj {
		raw, _ = d["error_list"].([]any)
	}
	var out []string
	for _, r := range raw {
		switch e := r.(type) {
		case map[string]any:
			msg := ""
			for _, k := range []string{"message", "MESSAGE", "error", "rapi_details"} {
				if msg = scalarString(e[k]); msg != "" {
					break
				}
			}
			if msg == "" {
				b, _ := json.Marshal(e)
				msg = string(b)
			}
			out = append(out, msg)
		default:
			if s := scalarString(r); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}
