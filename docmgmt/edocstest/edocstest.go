package edocstest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Credentials and library the fake accepts.
const (
	Library  = "RIJKS"
	UserID   = "svc-regelkit"
	Password = "correct horse battery staple"
	// BasePath is the REST base path under the server's URL.
	BasePath = "/edocsapi/v1.0"
	// FirstID is the first id handed out; eDOCS ids are integers.
	FirstID = 2993896
)

// Server is a fake eDOCS DM REST server.
type Server struct {
	*httptest.Server
	// BaseURL is the REST base to configure the client with.
	BaseURL string

	mu          sync.Mutex
	sessions    map[string]bool
	nextID      int64
	workspaces  map[int64]*Workspace
	documents   map[int64]*StoredDocument
	logins      int
	calls       []string
	failures    []failure
	createFails bool
	headerToken bool
}

// Workspace is a stored workspace.
type Workspace struct {
	ID        int64
	Name      string
	Documents []int64
}

// StoredDocument is an uploaded document as the fake stored it.
type StoredDocument struct {
	ID       int64
	Filename string
	Profile  map[string]any // the JSON profile part as sent
	Content  []byte
}

type failure struct {
	method, prefix string
	status         int
	message        string
}

// New starts a fake closed at the end of the test.
func New(t testing.TB) *Server {
	s := &Server{
		sessions:   map[string]bool{},
		nextID:     FirstID,
		workspaces: map[int64]*Workspace{},
		documents:  map[int64]*StoredDocument{},
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	s.BaseURL = s.Server.URL + BasePath
	t.Cleanup(s.Close)
	return s
}

// AddWorkspace stores a workspace and returns its id.
func (s *Server) AddWorkspace(name string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addWorkspace(name)
}

func (s *Server) addWorkspace(name string) int64 {
	id := s.nextID
	s.nextID++
	s.workspaces[id] = &Workspace{ID: id, Name: name}
	return id
}

// ExpireSessions invalidates every session token, as a server-side timeout
// does.
func (s *Server) ExpireSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions = map[string]bool{}
}

// Fail makes every call whose method matches (empty: any) and whose path
// below the base starts with prefix (e.g. "/documents") answer status with
// an eDOCS error body carrying message, until ClearFailures.
func (s *Server) Fail(method, prefix string, status int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, failure{method, prefix, status, message})
}

// ClearFailures ends every Fail.
func (s *Server) ClearFailures() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = nil
}

// RefuseWorkspaceCreation makes POST workspaces answer 500, as live eDOCS
// did.
func (s *Server) RefuseWorkspaceCreation(refuse bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.createFails = refuse
}

// TokenInHeader makes /connect answer the token in an X-DM-DST response
// header instead of cookies.
func (s *Server) TokenInHeader(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.headerToken = on
}

// Logins counts the /connect calls, successful or not.
func (s *Server) Logins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

// Calls lists "METHOD /path?query" of every call below the base, in order.
func (s *Server) Calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

// Document returns a stored document.
func (s *Server) Document(id int64) (StoredDocument, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.documents[id]
	if !ok {
		return StoredDocument{}, false
	}
	return *d, true
}

// Workspaces returns the stored workspaces sorted by id.
func (s *Server) Workspaces() []Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Workspace, 0, len(s.workspaces))
	for _, w := range s.workspaces {
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status, code int, message string) {
	writeJSON(w, status, map[string]any{"ERROR": map[string]any{
		"message": message, "rapi_code": code, "rapi_details": message,
	}})
}

var (
	filterRE    = regexp.MustCompile(`^DOCNAME like '((?:[^']|'')*)%'$`)
	workspaceRE = regexp.MustCompile(`^/workspaces/(\d+)$`)
	documentRE  = regexp.MustCompile(`^/documents/(\d+)$`)
	profileRE   = regexp.MustCompile(`^/documents/(\d+)/profile$`)
	versionsRE  = regexp.MustCompile(`^/documents/(\d+)/versions$`)
	versionRE   = regexp.MustCompile(`^/documents/(\d+)/versions/([^/]+)$`)
)

const maxUploadLen = 32 << 20

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutPrefix(r.URL.Path, BasePath)
	if !ok {
		writeError(w, http.StatusNotFound, 404, "Not found")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	call := r.Method + " " + path
	if r.URL.RawQuery != "" {
		call += "?" + r.URL.RawQuery
	}
	s.calls = append(s.calls, call)
	for _, f := range s.failures {
		if (f.method == "" || f.method == r.Method) && strings.HasPrefix(path, f.prefix) {
			writeError(w, f.status, 1, f.message)
			return
		}
	}
	if r.URL.Query().Get("library") != Library {
		writeError(w, http.StatusBadRequest, 10, "Invalid or missing library")
		return
	}
	switch {
	case r.Method == http.MethodPost && path == "/connect":
		s.connect(w, r)
		return
	case r.Method == http.MethodGet && path == "/libraries":
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{map[string]any{"LIBRARY_NAME": Library}}})
		return
	}
	if !s.authorised(r) {
		writeError(w, http.StatusUnauthorized, 3, "The session is not valid or has expired")
		return
	}
	var m []string
	switch {
	case r.Method == http.MethodGet && path == "/workspaces":
		s.findWorkspaces(w, r)
	case r.Method == http.MethodPost && path == "/workspaces":
		s.createWorkspace(w, r)
	case r.Method == http.MethodPost && path == "/documents":
		s.upload(w, r)
	case r.Method == http.MethodGet && match(workspaceRE, path, &m):
		s.listWorkspace(w, m[1])
	case r.Method == http.MethodDelete && match(workspaceRE, path, &m):
		delete(s.workspaces, atoi(m[1]))
		writeJSON(w, http.StatusOK, map[string]any{})
	case r.Method == http.MethodGet && match(profileRE, path, &m):
		s.profile(w, m[1])
	case r.Method == http.MethodGet && match(versionsRE, path, &m):
		s.versions(w, m[1])
	case r.Method == http.MethodGet && match(versionRE, path, &m):
		s.content(w, m[1], m[2])
	case r.Method == http.MethodDelete && match(documentRE, path, &m):
		s.deleteDocument(w, m[1])
	default:
		writeError(w, http.StatusNotFound, 404, "Unknown resource "+r.Method+" "+path)
	}
}

// listWorkspace lists the documents of workspace id.
func (s *Server) listWorkspace(w http.ResponseWriter, id string) {
	ws, ok := s.workspaces[atoi(id)]
	if !ok {
		writeError(w, http.StatusNotFound, 404, "Workspace "+id+" not found")
		return
	}
	list := []any{}
	for _, docID := range ws.Documents {
		d := s.documents[docID]
		list = append(list, map[string]any{"id": d.ID, "DOCNAME": d.Profile["DOCNAME"], "DOCNUM": d.ID})
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"list": list}})
}

// profile serves the profile of document id.
func (s *Server) profile(w http.ResponseWriter, id string) {
	d, ok := s.documents[atoi(id)]
	if !ok {
		writeError(w, http.StatusNotFound, 404, "Document "+id+" not found")
		return
	}
	p := map[string]any{"DOCNUMBER": d.ID}
	for k, v := range d.Profile {
		if k != "_restapi" {
			p[k] = v
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": p})
}

// versions lists the one version of document id.
func (s *Server) versions(w http.ResponseWriter, id string) {
	if _, ok := s.documents[atoi(id)]; !ok {
		writeError(w, http.StatusNotFound, 404, "Document "+id+" not found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"list": []any{
		map[string]any{"VERSION_ID": atoi(id)*10 + 1, "VERSION": 1},
	}}})
}

// content serves the content of version of document id.
func (s *Server) content(w http.ResponseWriter, id, version string) {
	d, ok := s.documents[atoi(id)]
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, 404, "Document "+id+" not found")
	case version != "0": // live eDOCS serves only the current version, 0
		writeError(w, http.StatusBadRequest, 20, "Invalid version "+version)
	default:
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(d.Content)
	}
}

// deleteDocument deletes document id and takes it out of every workspace.
func (s *Server) deleteDocument(w http.ResponseWriter, idText string) {
	id := atoi(idText)
	if _, ok := s.documents[id]; !ok {
		writeError(w, http.StatusNotFound, 404, "Document "+idText+" not found")
		return
	}
	delete(s.documents, id)
	for _, ws := range s.workspaces {
		ws.Documents = removeID(ws.Documents, id)
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

func (s *Server) connect(w http.ResponseWriter, r *http.Request) {
	s.logins++
	var body struct {
		Data struct{ Userid, Password, Library string }
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, 2, "Invalid login request")
		return
	}
	if body.Data.Userid != UserID || body.Data.Password != Password || body.Data.Library != Library {
		writeError(w, http.StatusUnauthorized, 1, "Logon failure: unknown user name or bad password")
		return
	}
	token := randomToken()
	s.sessions[token] = true
	if s.headerToken {
		w.Header().Set("X-DM-DST", token)
	} else {
		http.SetCookie(w, &http.Cookie{Name: "X-DM-DST", Value: token, Path: "/", HttpOnly: true})
		http.SetCookie(w, &http.Cookie{Name: "X-DM-CSRF-TOKEN", Value: "csrf-" + token[:8], Path: "/"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"USER_ID": UserID}})
}

// authorised wants the token both as cookie and as header.
func (s *Server) authorised(r *http.Request) bool {
	header := r.Header.Get("X-DM-DST")
	cookie, err := r.Cookie("X-DM-DST")
	return err == nil && header != "" && cookie.Value == header && s.sessions[header]
}

func (s *Server) findWorkspaces(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	max := 10
	if v := q.Get("max"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			writeError(w, http.StatusBadRequest, 30, "Invalid max")
			return
		}
		max = n
	}
	prefix := ""
	if f := q.Get("filter"); f != "" {
		m := filterRE.FindStringSubmatch(f)
		if m == nil {
			writeError(w, http.StatusBadRequest, 31, "Invalid filter: "+f)
			return
		}
		prefix = strings.ReplaceAll(m[1], "''", "'")
	}
	ids := make([]int64, 0, len(s.workspaces))
	for id := range s.workspaces {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	list := []any{}
	for _, id := range ids {
		ws := s.workspaces[id]
		if len(list) < max && strings.HasPrefix(strings.ToLower(ws.Name), strings.ToLower(prefix)) {
			list = append(list, map[string]any{"id": ws.ID, "DOCNAME": ws.Name})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"list": list}})
}

func (s *Server) createWorkspace(w http.ResponseWriter, r *http.Request) {
	if s.createFails {
		writeError(w, http.StatusInternalServerError, 500, "Internal server error while creating the workspace")
		return
	}
	var body struct {
		Data map[string]any `json:"data"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, 2, "Invalid JSON")
		return
	}
	name, _ := body.Data["DOCNAME"].(string)
	if name == "" || body.Data["AUTHOR_ID"] != UserID {
		writeError(w, http.StatusBadRequest, 40, "DOCNAME and AUTHOR_ID are required")
		return
	}
	id := s.addWorkspace(name)
	writeJSON(w, http.StatusCreated, map[string]any{"data": map[string]any{"id": id, "DOCNAME": name}})
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxUploadLen)
	mr, err := r.MultipartReader()
	if err != nil {
		writeError(w, http.StatusBadRequest, 50, "Expected multipart/form-data")
		return
	}
	var profile map[string]any
	var content []byte
	filename, gotFile := "", false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, 51, "Malformed multipart body")
			return
		}
		switch part.FormName() {
		case "data":
			dec := json.NewDecoder(part)
			dec.UseNumber()
			if err := dec.Decode(&profile); err != nil {
				writeError(w, http.StatusBadRequest, 52, "The data part is not a JSON object")
				return
			}
		case "file":
			filename, gotFile = part.FileName(), true
			if content, err = io.ReadAll(part); err != nil {
				writeError(w, http.StatusBadRequest, 51, "Malformed multipart body")
				return
			}
		}
	}
	var problems []any
	reject := func(msg string) { problems = append(problems, map[string]any{"message": msg}) }
	if profile == nil {
		reject("data: the profile part is missing")
	}
	if !gotFile {
		reject("file: the file part is missing")
	}
	for _, f := range []string{"DOCNAME", "AUTHOR_ID", "TYPIST_ID"} {
		if v, _ := profile[f].(string); v == "" {
			reject(f + ": required field is missing")
		}
	}
	if a, _ := profile["AUTHOR_ID"].(string); a != "" && a != UserID {
		reject("AUTHOR_ID: the service account cannot file documents for " + a)
	}
	var wsID int64
	if rest, ok := profile["_restapi"].(map[string]any); ok {
		if ref, ok := rest["ref"].(map[string]any); ok {
			n, isNum := ref["id"].(json.Number)
			id, err := n.Int64()
			switch {
			case !isNum || err != nil:
				reject("_restapi.ref.id: must be an integer")
			case ref["type"] != "workspace" || ref["lib"] != Library:
				reject("_restapi.ref: must reference a workspace of library " + Library)
			case s.workspaces[id] == nil:
				reject("_restapi.ref: workspace " + n.String() + " does not exist")
			default:
				wsID = id
			}
		}
	}
	if len(problems) > 0 {
		writeJSON(w, http.StatusPartialContent, map[string]any{"data": map[string]any{"error_list": problems}})
		return
	}
	id := s.nextID
	s.nextID++
	s.documents[id] = &StoredDocument{ID: id, Filename: filename, Profile: profile, Content: content}
	if wsID != 0 {
		s.workspaces[wsID].Documents = append(s.workspaces[wsID].Documents, id)
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"list": []any{
		map[string]any{"id": id, "DOCNUM": id, "DOCNAME": profile["DOCNAME"]},
	}}})
}

func match(re *regexp.Regexp, s string, m *[]string) bool {
	*m = re.FindStringSubmatch(s)
	return *m != nil
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func removeID(ids []int64, id int64) []int64 {
	out := ids[:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
