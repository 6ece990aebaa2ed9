package tracker

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/servers/internal/outbound"
)

// Config configures the tracker routes and the guards.
type Config struct {
	BaseURL      string // e.g. https://gitlab.example.nl; empty: not configured
	Token        string // PRIVATE-TOKEN; empty: not configured
	ProjectPath  string // group/project or a numeric id; empty: not configured
	UseCaseLabel string // "" = uc::submitted

	AltchaKey string // HMAC key; empty: ALTCHA off
	MediaKey  string // bearer key of the media aggregator search; empty: open

	// MaxForms bounds the multipart forms held in memory at once (each up
	// to 51 MB); further writes wait their turn. 0 = 4.
	MaxForms int

	Strict    bool   // outbound policy for redirects (production)
	UserAgent string // sent to the tracker
	Logger    *slog.Logger
	Now       func() time.Time
	// Wrap, when set, wraps the transport of the tracker's client (a
	// server's metrics).
	Wrap func(http.RoundTripper) http.RoundTripper
}

// Limits of the multipart routes (spec §8).
const (
	MaxFileBytes   = 10 << 20 // one screenshot or upload
	MaxScreenshots = 5
	maxFieldBytes  = 1 << 20 // all text fields of one form
	// Body limits: the files plus the fields plus multipart framing.
	feedbackBodyLimit = MaxScreenshots*MaxFileBytes + maxFieldBytes + 64<<10
	uploadBodyLimit   = MaxFileBytes + maxFieldBytes + 64<<10
)

// Tracker serves the tracker routes.
type Tracker struct {
	cfg    Config
	gl     *gitlab // nil: not configured
	altcha *altcha // nil: ALTCHA off
	logger *slog.Logger
	now    func() time.Time
	forms  chan struct{} // one token per form held in memory
}

// New sets the tracker up; it never fails: missing settings make the
// routes answer 503.
func New(cfg Config) *Tracker {
	t := &Tracker{cfg: cfg, logger: cfg.Logger, now: cfg.Now}
	if t.logger == nil {
		t.logger = slog.New(slog.DiscardHandler)
	}
	if t.now == nil {
		t.now = time.Now
	}
	if t.cfg.MaxForms <= 0 {
		t.cfg.MaxForms = 4
	}
	t.forms = make(chan struct{}, t.cfg.MaxForms)
	if t.cfg.UseCaseLabel == "" {
		t.cfg.UseCaseLabel = "uc::submitted"
	}
	if cfg.BaseURL != "" && cfg.Token != "" && cfg.ProjectPath != "" {
		policy := &outbound.Policy{Strict: cfg.Strict, Allow: []string{cfg.BaseURL}, Timeout: 30 * time.Second}
		t.gl = &gitlab{base: strings.TrimRight(cfg.BaseURL, "/"), token: cfg.Token, project: projectID(cfg.ProjectPath),
			client: policy.Client(), userAgent: cfg.UserAgent, logger: t.logger}
		if cfg.Wrap != nil {
			t.gl.client.Transport = cfg.Wrap(t.gl.client.Transport)
		}
	}
	if cfg.AltchaKey != "" {
		t.altcha = newAltcha(cfg.AltchaKey, t.now)
	}
	return t
}

// Configured reports whether the tracker settings are complete.
func (t *Tracker) Configured() bool { return t.gl != nil }

func notConfigured() error {
	return httpapi.NewError(http.StatusServiceUnavailable, CodeNotConfigured, "The issue tracker is not configured")
}

// limited runs h behind limit, a middleware that answers refusals itself
// (the write limiter).
func limited(limit func(http.Handler) http.Handler, h httpapi.HandlerFunc) httpapi.HandlerFunc {
	if limit == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		var err error
		limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { err = h(w, r) })).ServeHTTP(w, r)
		return err
	}
}

// Routes registers the tracker routes, the ALTCHA challenge and the media
// aggregator search on r; limit guards the three POST routes.
func (t *Tracker) Routes(r *httpapi.Router, limit func(http.Handler) http.Handler) {
	tags := []string{"public"}
	altchaNote := " With ALTCHA configured the body needs the field altcha (400 ALTCHA_MISSING, ALTCHA_INVALID, ALTCHA_ERROR)." +
		" 10 submissions per 15 minutes per client IP (429 RATE_LIMIT_EXCEEDED). 503 ISSUE_TRACKER_NOT_CONFIGURED without tracker settings;" +
		" 502 ISSUE_TRACKER_ERROR when the tracker refuses, ISSUE_TRACKER_UNREACHABLE when it cannot be reached."
	r.Handle("POST", "/v1/public/use-case", limited(limit, t.handleUseCase), openapi.Operation{
		Summary: "Submit a use case as a tracker issue (no token)",
		Description: "Body {title, description, altcha?}; both trimmed and required (400 USE_CASE_INVALID). Creates \"[Use Case] <title>\" " +
			"with the configured label. 201 data: {iid, web_url}." + altchaNote,
		Tags: tags,
		RequestBody: openapi.Body(openapi.Object(map[string]openapi.Schema{
			"title": openapi.String(""), "description": openapi.String("markdown"), "altcha": openapi.String("base64 ALTCHA solution"),
		}, "title", "description"), ""),
		Responses: map[string]openapi.Response{"201": {Description: "data: {iid, web_url}"}},
	})
	r.Handle("GET", "/v1/public/use-cases", t.handleUseCases, openapi.Operation{
		Summary: "Submitted use cases: the project's issues, newest first, at most 100 (no token)",
		Description: "Query state: closed, anything else means opened. data: [{iid, title, state, created_at, updated_at, web_url, labels, " +
			"assignees (names), description}]. 503 ISSUE_TRACKER_NOT_CONFIGURED, 502 ISSUE_TRACKER_ERROR / ISSUE_TRACKER_UNREACHABLE.",
		Tags:       tags,
		Parameters: []openapi.Parameter{openapi.Query("state", "opened (default) or closed", false)},
		Responses:  map[string]openapi.Response{"200": {Description: "data: issues"}},
	})
	r.Handle("POST", "/v1/public/feedback", limited(limit, t.handleFeedback), openapi.Operation{
		Summary: "Submit feedback with up to 5 screenshots as a tracker issue (no token)",
		Description: "multipart/form-data: name, contact, description (required, else 400 MISSING_FIELDS), org, role, altcha, and up to " +
			"5 image files under screenshots (a sixth: 400 VALIDATION_ERROR; a non-image is dropped; over 10 MB: 413 PAYLOAD_TOO_LARGE). " +
			"Images are uploaded first and embedded as markdown. 201 data: {iid, web_url}." + altchaNote,
		Tags:      tags,
		Responses: map[string]openapi.Response{"201": {Description: "data: {iid, web_url}"}},
	}, httpapi.BodyLimit(feedbackBodyLimit))
	r.Handle("POST", "/v1/public/upload-file", limited(limit, t.handleUpload), openapi.Operation{
		Summary: "Upload one file to the tracker (no token)",
		Description: "multipart/form-data with one file under file (any type, at most 10 MB: 413 PAYLOAD_TOO_LARGE; none: 400 NO_FILE) " +
			"and optionally altcha. 200 data: {markdown, url}: the tracker-hosted markdown reference." + altchaNote,
		Tags:      tags,
		Responses: map[string]openapi.Response{"200": {Description: "data: {markdown, url}"}},
	}, httpapi.BodyLimit(uploadBodyLimit))
	r.Handle("GET", "/v1/public/altcha/challenge", t.handleChallenge, openapi.Operation{
		Summary: "A new ALTCHA challenge, valid 10 minutes (no token)",
		Description: "The raw challenge {algorithm: SHA-256, challenge, maxnumber: 50000, salt, signature}, not wrapped in the envelope. " +
			"503 ALTCHA_NOT_CONFIGURED without ALTCHA_HMAC_KEY.",
		Tags:      tags,
		Responses: map[string]openapi.Response{"200": {Description: "the challenge"}},
	})
	r.Handle("GET", "/v1/media-aggregator/search", t.handleMediaSearch, openapi.Operation{
		Summary: "Media aggregator search",
		Description: "With MEDIA_AGGREGATOR_ACCEPT_KEY set, needs Authorization: Bearer <key> (401 UNAUTHORIZED otherwise); open when unset. " +
			"Answers the bare {articles: []}: the article fields have no specification yet.",
		Tags:      []string{"media aggregator"},
		Responses: map[string]openapi.Response{"200": {Description: "{articles}"}},
	})
}

// created writes 201 {iid, web_url} with meta.
func created(w http.ResponseWriter, c Created) error {
	ts := httpapi.Timestamp(time.Now())
	return httpapi.WriteJSON(w, http.StatusCreated, map[string]any{
		"success": true, "data": c, "meta": map[string]any{"generatedAt": ts}, "timestamp": ts,
	})
}

func (t *Tracker) checkAltcha(payload string) error {
	if t.altcha == nil {
		return nil
	}
	return t.altcha.verify(payload)
}

func (t *Tracker) handleUseCase(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Altcha      string `json:"altcha"`
	}
	if t.gl == nil {
		return notConfigured()
	}
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		return err
	}
	if err := t.checkAltcha(body.Altcha); err != nil {
		return err
	}
	title, desc := strings.TrimSpace(body.Title), strings.TrimSpace(body.Description)
	if title == "" || desc == "" {
		return httpapi.NewError(http.StatusBadRequest, CodeUseCase, "title and description are required")
	}
	c, err := t.gl.createIssue(r.Context(), issueTitle("[Use Case] ", title), desc, t.cfg.UseCaseLabel)
	if err != nil {
		return err
	}
	return created(w, c)
}

func (t *Tracker) handleUseCases(w http.ResponseWriter, r *http.Request) error {
	if t.gl == nil {
		return notConfigured()
	}
	state := "opened"
	if r.URL.Query().Get("state") == "closed" {
		state = "closed"
	}
	issues, err := t.gl.listIssues(r.Context(), state)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, issues)
}

// readChecked reads the multipart form of a write and verifies its ALTCHA
// field; an unconfigured tracker answers before any body is read. The
// form's files stay in memory until release is called, so at most MaxForms
// forms are read at once.
func (t *Tracker) readChecked(r *http.Request, fileField string, maxFiles int) (f *form, release func(), err error) {
	if t.gl == nil {
		return nil, nil, notConfigured()
	}
	select {
	case t.forms <- struct{}{}:
	case <-r.Context().Done():
		return nil, nil, r.Context().Err()
	}
	release = func() { <-t.forms }
	if f, err = readForm(r, fileField, maxFiles); err == nil {
		err = t.checkAltcha(f.fields["altcha"])
	}
	if err != nil {
		release()
		return nil, nil, err
	}
	return f, release, nil
}

func (t *Tracker) handleFeedback(w http.ResponseWriter, r *http.Request) error {
	form, release, err := t.readChecked(r, "screenshots", MaxScreenshots)
	if err != nil {
		return err
	}
	defer release()
	name, contact, desc := form.field("name"), form.field("contact"), strings.TrimSpace(form.fields["description"])
	var missing []string
	for _, f := range []struct{ name, value string }{{"name", name}, {"contact", contact}, {"description", desc}} {
		if f.value == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return &httpapi.Error{Status: http.StatusBadRequest, Code: CodeMissingFields,
			Message: "Required fields missing: " + strings.Join(missing, ", "), Details: map[string]any{"fields": missing}}
	}
	var shots []string
	for _, f := range form.files {
		if !strings.HasPrefix(f.contentType, "image/") {
			continue // not an image: dropped
		}
		up, err := t.gl.upload(r.Context(), f)
		if err != nil {
			return err
		}
		shots = append(shots, up.Markdown)
	}
	body := feedbackBody(name, form.field("org"), form.field("role"), contact, desc, t.now(), shots)
	c, err := t.gl.createIssue(r.Context(), issueTitle("[Feedback] ", name), body, "Feedback")
	if err != nil {
		return err
	}
	return created(w, c)
}

func (t *Tracker) handleUpload(w http.ResponseWriter, r *http.Request) error {
	form, release, err := t.readChecked(r, "file", 1)
	if err != nil {
		return err
	}
	defer release()
	if len(form.files) == 0 {
		return httpapi.NewError(http.StatusBadRequest, CodeNoFile, "No file under the form field file")
	}
	up, err := t.gl.upload(r.Context(), form.files[0])
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]string{"markdown": up.Markdown, "url": up.URL})
}

func (t *Tracker) handleChallenge(w http.ResponseWriter, r *http.Request) error {
	if t.altcha == nil {
		return httpapi.NewError(http.StatusServiceUnavailable, CodeAltchaNotConfigured, "ALTCHA is not configured")
	}
	c, err := t.altcha.challenge()
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return httpapi.WriteJSON(w, http.StatusOK, c)
}

// handleMediaSearch: the input guard in front of an empty result.
func (t *Tracker) handleMediaSearch(w http.ResponseWriter, r *http.Request) error {
	if t.cfg.MediaKey != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		// Compare digests so neither the content nor the length of the key
		// shows in the timing.
		a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(t.cfg.MediaKey))
		if !ok || subtle.ConstantTimeCompare(a[:], b[:]) != 1 {
			return httpapi.NewError(http.StatusUnauthorized, "UNAUTHORIZED", "A valid bearer key is required")
		}
	}
	return httpapi.WriteJSON(w, http.StatusOK, map[string]any{"articles": []any{}})
}

// file is one uploaded file held in memory (at most MaxFileBytes).
type file struct {
	name, contentType string
	data              []byte
}

type form struct {
	fields map[string]string
	files  []file
}

// field is a text field trimmed.
func (f *form) field(name string) string { return strings.TrimSpace(f.fields[name]) }

// readForm reads a multipart form part by part (text fields and files in
// any order): at most maxFieldBytes of text, at most
// maxFiles files under fileField, each at most MaxFileBytes. Its type is
// sniffed from the content, never taken from the client.
func readForm(r *http.Request, fileField string, maxFiles int) (*form, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, httpapi.NewError(http.StatusBadRequest, CodeValidation, "The body must be multipart/form-data")
	}
	f := &form{fields: map[string]string{}}
	fieldBytes := 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return nil, formError(err)
		}
		name := part.FormName()
		if part.FileName() == "" {
			data, err := io.ReadAll(io.LimitReader(part, int64(maxFieldBytes-fieldBytes+1)))
			if err != nil {
				return nil, formError(err)
			}
			fieldBytes += len(data)
			if fieldBytes > maxFieldBytes {
				return nil, httpapi.Errorf(http.StatusRequestEntityTooLarge, httpapi.CodePayloadTooLarge, "The form's text fields exceed 1 MB")
			}
			if _, dup := f.fields[name]; !dup {
				f.fields[name] = string(data)
			}
			continue
		}
		if name != fileField {
			continue // an unexpected file: not read, not kept
		}
		if len(f.files) == maxFiles {
			return nil, httpapi.Errorf(http.StatusBadRequest, CodeValidation, "At most %d files under %s", maxFiles, fileField)
		}
		data, err := io.ReadAll(io.LimitReader(part, MaxFileBytes+1))
		if err != nil {
			return nil, formError(err)
		}
		if len(data) > MaxFileBytes {
			return nil, httpapi.Errorf(http.StatusRequestEntityTooLarge, httpapi.CodePayloadTooLarge, "%s exceeds 10 MB", fileField)
		}
		if len(data) == 0 {
			continue
		}
		ct := http.DetectContentType(data)
		if mt, _, err := mime.ParseMediaType(ct); err == nil {
			ct = mt
		}
		f.files = append(f.files, file{name: safeFileName(part.FileName()), contentType: ct, data: data})
	}
}

func formError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return httpapi.Errorf(http.StatusRequestEntityTooLarge, httpapi.CodePayloadTooLarge, "request body exceeds %d MB", tooLarge.Limit>>20)
	}
	return httpapi.Errorf(http.StatusBadRequest, CodeValidation, "Malformed multipart form: %v", err)
}

// safeFileName keeps the base name, without path or control characters,
// at most 128 bytes. The tracker quotes it in the markdown reference
// ![name](/uploads/.../name), so markdown and HTML punctuation becomes '_'.
func safeFileName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 || r == 0x7f:
			return -1
		case strings.ContainsRune("[]()<>|`*\"", r):
			return '_'
		}
		return r
	}, name)
	if name == "" {
		name = "file"
	}
	return truncate(name, 128)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// issueTitle is prefix + one line of text, within GitLab's 255 characters.
func issueTitle(prefix, text string) string {
	return truncate(prefix+strings.Join(strings.Fields(text), " "), 255)
}

// cell escapes a value for a markdown table cell: pipes escaped, line
// breaks flattened, '<' made harmless so no HTML reaches the tracker.
func cell(s string) string {
	if s == "" {
		return "—"
	}
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(`\`, `\\`, "|", `\|`, "<", "&lt;").Replace(s)
}

var amsterdam = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Amsterdam")
	if err != nil {
		return time.FixedZone("CET", 3600)
	}
	return loc
}()

// feedbackBody is the bilingual issue body a feedback submission becomes.
func feedbackBody(name, org, role, contact, description string, at time.Time, screenshots []string) string {
	var b strings.Builder
	b.WriteString("## Indiener · Submitter\n\n| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Naam | %s |\n| Organisatie | %s |\n| Functie | %s |\n| Contact | %s |\n| Datum | %s |\n",
		cell(name), cell(org), cell(role), cell(contact), at.In(amsterdam).Format("02-01-2006"))
	b.WriteString("\n## Beschrijving · Description\n\n")
	b.WriteString(description)
	b.WriteString("\n")
	if len(screenshots) > 0 {
		b.WriteString("\n## Screenshots\n\n")
		for _, s := range screenshots {
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}
