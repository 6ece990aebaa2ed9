package tracker

import (
	"bytes"
	"context"
	"encoding/json"

	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Error codes of the tracker routes.
const (
	CodeNotConfigured = "ISSUE_TRACKER_NOT_CONFIGURED"
	CodeTrackerError  = "ISSUE_TRACKER_ERROR"
	CodeUnreachable   = "ISSUE_TRACKER_UNREACHABLE"
	CodeUseCase       = "USE_CASE_INVALID"
	CodeMissingFields = "MISSING_FIELDS"
	CodeNoFile        = "NO_FILE"
	CodeValidation    = "VALIDATION_ERROR"
)

// maxTrackerResponse bounds a tracker answer (100 issues with their
// descriptions fit easily).
const maxTrackerResponse = 8 << 20

// gitlab is a GitLab REST v4 client for one project.
type gitlab struct {
	base, token, project string // project: URL-encoded once
	client               *http.Client
	userAgent            string
	logger               *slog.Logger
}

// projectID encodes a project path once; a value that already holds %2F
// is used as it is.
func projectID(path string) string {
	if strings.Contains(strings.ToUpper(path), "%2F") {
		return path
	}
	return url.PathEscape(path)
}

// Issue is a tracker issue as the use-case list answers it (spec §2.3).
type Issue struct {
	IID         int      `json:"iid"`
	Title       string   `json:"title"`
	State       string   `json:"state"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
	WebURL      string   `json:"web_url"`
	Labels      []string `json:"labels"`
	Assignees   []string `json:"assignees"`
	Description string   `json:"description"`
}

// Created is the answer to an issue-creating write.
type Created struct {
	IID    int    `json:"iid"`
	WebURL string `json:"web_url"`
}

// Upload is the tracker's answer to a file upload.
type Upload struct {
	Alt      string `json:"alt"`
	URL      string `json:"url"`
	FullPath string `json:"full_path"`
	Markdown string `json:"markdown"`
}

// do sends one request and decodes a 2xx answer into out. Tracker failures
// become 502s; the tracker's body goes to the log as an
// excerpt, never to the client.
func (g *gitlab) do(ctx context.Context, timeout time.Duration, method, path, contentType string, body []byte, out any) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, g.base+"/api/v4/projects/"+g.project+path, bytes.NewReader(body))
	if err != nil {
		return &httpapi.Error{Status: http.StatusBadGateway, Code: CodeUnreachable, Message: "The issue tracker could not be reached", Cause: err}
	}
	if body == nil {
		req.Body = http.NoBody
	}
	req.Header.Set("PRIVATE-TOKEN", g.token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", g.userAgent)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := g.client.Do(req)
	if err != nil {
		g.logger.WarnContext(ctx, "issue tracker unreachable", "method", method, "path", path, "error", err.Error())
		return &httpapi.Error{Status: http.StatusBadGateway, Code: CodeUnreachable, Message: "The issue tracker could not be reached", Cause: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxTrackerResponse+1))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		g.logger.WarnContext(ctx, "issue tracker refused the request", "method", method, "path", path,
			"status", resp.StatusCode, "body", excerpt(data))
		return httpapi.Errorf(http.StatusBadGateway, CodeTrackerError, "GitLab returned %d", resp.StatusCode)
	}
	if err == nil && len(data) > maxTrackerResponse {
		err = fmt.Errorf("answer exceeds %d bytes", maxTrackerResponse)
	}
	if err == nil {
		err = json.Unmarshal(data, out)
	}
	if err != nil {
		g.logger.WarnContext(ctx, "issue tracker answer unreadable", "method", method, "path", path, "error", err.Error())
		return &httpapi.Error{Status: http.StatusBadGateway, Code: CodeTrackerError, Message: "GitLab returned an unreadable answer", Cause: err}
	}
	return nil
}

func excerpt(b []byte) string {
	const n = 512
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// createIssue: POST /projects/:id/issues with labels as a comma string.
func (g *gitlab) createIssue(ctx context.Context, title, description, labels string) (Created, error) {
	body, _ := json.Marshal(map[string]string{"title": title, "description": description, "labels": labels})
	var out Created
	err := g.do(ctx, 10*time.Second, http.MethodPost, "/issues", "application/json", body, &out)
	return out, err
}

// upload: POST /projects/:id/uploads, multipart field file.
func (g *gitlab) upload(ctx context.Context, f file) (Upload, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", multipart.FileContentDisposition("file", f.name))
	h.Set("Content-Type", f.contentType)
	part, err := mw.CreatePart(h)
	if err == nil {
		_, err = part.Write(f.data)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		return Upload{}, err
	}
	var out Upload
	err = g.do(ctx, 15*time.Second, http.MethodPost, "/uploads", mw.FormDataContentType(), buf.Bytes(), &out)
	return out, err
}

// listIssues: all issues of the project in one state, newest first, at
// most 100.
func (g *gitlab) listIssues(ctx context.Context, state string) ([]Issue, error) {
	// GitLab's issue: the fields of Issue, assignees as objects.
	var raw []struct {
		Issue
		Assignees []struct {
			Name string `json:"name"`
		} `json:"assignees"`
	}
	q := url.Values{"state": {state}, "per_page": {"100"}, "order_by": {"created_at"}, "sort": {"desc"}}
	if err := g.do(ctx, 10*time.Second, http.MethodGet, "/issues?"+q.Encode(), "", nil, &raw); err != nil {
		return nil, err
	}
	out := make([]Issue, 0, min(len(raw), 100))
	for _, r := range raw[:min(len(raw), 100)] {
		it := r.Issue
		it.Assignees = []string{}
		if it.Labels == nil {
			it.Labels = []string{}
		}
		for _, a := range r.Assignees {
			it.Assignees = append(it.Assignees, a.Name)
		}
		out = append(out, it)
	}
	return out, nil
}
