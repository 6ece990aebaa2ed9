package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/regelkit/regelkit/engine"
)

// Defaults of Options.
const (
	DefaultBasePath           = "/engine-rest"
	DefaultMaxDeploymentBytes = 50 << 20
	DefaultMaxParts           = 100
	DefaultMaxJSONBytes       = 10 << 20
)

// Options configure the handler. Zero values take the defaults above.
type Options struct {
	// BasePath is the path prefix the handler serves under, as Operaton's
	// /engine-rest. Mount the handler at that prefix without stripping it.
	BasePath string
	// MaxDeploymentBytes bounds the multipart body of a deployment; a
	// larger one is refused with 413.
	MaxDeploymentBytes int64
	// MaxParts bounds the number of parts of a deployment (400 beyond).
	MaxParts int
	// MaxJSONBytes bounds JSON request bodies (413 beyond).
	MaxJSONBytes int64
	// MaxAsyncResponseTimeout bounds the long polling of fetchAndLock
	// (asyncResponseTimeout); a longer wait is refused with 400.
	MaxAsyncResponseTimeout time.Duration
	// Logger receives one record per 500 answer (no variable values);
	// nil logs nothing.
	Logger *slog.Logger
}

type handler struct {
	e    engine.Engine
	p    engine.Processes // nil when e has no process side
	opts Options
	r    *mux.Router
}

// NewHandler serves e under Operaton's REST paths (below Options.BasePath):
//
//	GET  /version, /engine
//	POST /deployment/create                      (multipart)
//	GET  /deployment, /deployment/count, /deployment/{id}
//	GET  /decision-definition, /decision-definition/count
//	GET  /decision-definition/key/{key}[/tenant-id/{tenant}][/xml]
//	POST /decision-definition/key/{key}[/tenant-id/{tenant}]/evaluate
//	GET  /decision-definition/{id}[/xml]
//	POST /decision-definition/{id}/evaluate
//
// and, when e also implements engine.Processes:
//
//	DELETE /deployment/{id}?cascade=
//	GET  /deployment/{id}/resources[/{rid}[/data]]
//	GET  /process-definition, /process-definition/count
//	GET  /process-definition/{id}, …/key/{key}[/tenant-id/{tenant}]
//	     and below each: /xml, /deployed-start-form, /startForm; POST /start
//	GET|POST /process-instance, /process-instance/count
//	GET|DELETE /process-instance/{id}; PUT /process-instance/{id}/suspended
//	GET|POST /process-instance/{id}/variables; GET …/variables/{name}
//	GET|POST /task, /task/count; GET /task/{id}
//	POST /task/{id}/claim, /unclaim, /complete
//	GET  /task/{id}/variables, /form, /deployed-form, /identity-links
//	POST /external-task/fetchAndLock (long polling up to MaxAsyncResponseTimeout)
//	POST /external-task/{id}/complete, /failure, /bpmnError, /extendLock
//	PUT  /external-task/{id}/retries
//	GET  /incident, /incident/count
//	GET|POST /history/process-instance[/count]; GET /history/process-instance/{id}
//	GET  /history/task[/count], /history/activity-instance[/count],
//	     /history/decision-instance[/count]
//	GET|POST /history/variable-instance[/count]
//
// with Operaton's JSON shapes and status codes (204 for claim, complete,
// delete and the other commands without an answer): 404 for an unknown key or
// id, 400 InvalidRequestException for a bad variable or parameter, 400
// ParseException (with line and column) for a model that does not parse,
// 413 for an oversized body, 500 RestException "Cannot evaluate decision
// …" for an evaluation failure, 507 StorageFullException for a deployment
// the engine has no room for (engine.StorageFullError). Errors are {"type", "message"}.
func NewHandler(e engine.Engine, opts Options) http.Handler {
	if opts.BasePath == "" {
		opts.BasePath = DefaultBasePath
	}
	opts.BasePath = "/" + strings.Trim(opts.BasePath, "/")
	if opts.BasePath == "/" {
		opts.BasePath = ""
	}
	if opts.MaxDeploymentBytes <= 0 {
		opts.MaxDeploymentBytes = DefaultMaxDeploymentBytes
	}
	if opts.MaxParts <= 0 {
		opts.MaxParts = DefaultMaxParts
	}
	if opts.MaxJSONBytes <= 0 {
		opts.MaxJSONBytes = DefaultMaxJSONBytes
	}
	if opts.MaxAsyncResponseTimeout <= 0 {
		opts.MaxAsyncResponseTimeout = DefaultMaxAsyncResponseTimeout
	}
	h := &handler{e: e, opts: opts, r: mux.NewRouter()}
	route := func(path string, f http.HandlerFunc, method string) {
		h.r.HandleFunc(opts.BasePath+path, f).Methods(method)
	}
	route("/version", h.version, http.MethodGet)
	route("/engine", h.engines, http.MethodGet)
	route("/deployment/create", h.deploy, http.MethodPost)
	route("/deployment/count", h.deploymentCount, http.MethodGet)
	route("/deployment", h.deployments, http.MethodGet)
	route("/deployment/{id}", h.deployment, http.MethodGet)
	route("/decision-definition", h.definitions, http.MethodGet)
	route("/decision-definition/count", h.definitionCount, http.MethodGet)
	for _, p := range []string{"/decision-definition/key/{key}", "/decision-definition/key/{key}/tenant-id/{tenant}"} {
		route(p, h.definitionByKey, http.MethodGet)
		route(p+"/xml", h.xmlByKey, http.MethodGet)
		route(p+"/evaluate", h.evaluateByKey, http.MethodPost)
	}
	route("/decision-definition/{id}", h.definitionByID, http.MethodGet)
	route("/decision-definition/{id}/xml", h.xmlByID, http.MethodGet)
	route("/decision-definition/{id}/evaluate", h.evaluateByID, http.MethodPost)
	// after the decision routes: gorilla/mux tries routes in order, and
	// evaluation is the hot path
	if p, ok := e.(engine.Processes); ok {
		h.p = p
		h.routeProcesses(route)
	}
	h.r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody{Type: "NotFoundException", Message: "No resource at " + r.Method + " " + r.URL.Path})
	})
	h.r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Type: "NotAllowedException", Message: "Method " + r.Method + " is not allowed on " + r.URL.Path})
	})
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log(r, fmt.Errorf("panic: %v", v))
			writeJSON(w, http.StatusInternalServerError, errorBody{Type: "RestException", Message: "internal error"})
		}
	}()
	h.r.ServeHTTP(w, r)
}

type errorBody struct {
	Type    string          `json:"type"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{Type: "RestException", Message: "cannot encode the answer: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// log records a failed request. Evaluation failures are logged by decision
// only: their messages may quote input values (personal data).
func (h *handler) log(r *http.Request, err error) {
	if h.opts.Logger == nil {
		return
	}
	var ee *engine.EvaluationError
	if errors.As(err, &ee) {
		h.opts.Logger.Error("engine-rest: evaluation failed", "method", r.Method, "path", r.URL.Path,
			"decision", ee.DecisionKey, "failedDecision", ee.DecisionID, "noRuleMatched", ee.NoRuleMatched)
		return
	}
	var e *engine.Error
	if errors.As(err, &e) {
		// the engine's own message may quote variable values (a script's
		// or an expression's failure): log what failed, not the message
		h.opts.Logger.Error("engine-rest: request failed", "method", r.Method, "path", r.URL.Path, "status", e.Status, "type", e.Type)
		return
	}
	h.opts.Logger.Error("engine-rest: request failed", "method", r.Method, "path", r.URL.Path, "error", err.Error())
}

// fail answers with Operaton's error for err; prefix is put before the
// message of evaluation failures ("Cannot evaluate decision <id>: ").
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error, prefix string) {
	status, body := errorFor(err, prefix)
	if status >= 500 {
		h.log(r, err)
	}
	writeJSON(w, status, body)
}

func errorFor(err error, prefix string) (int, errorBody) {
	msg := strings.TrimPrefix(err.Error(), "engine: ")
	var (
		ee  *engine.Error
		de  *engine.DeploymentError
		ve  *engine.VariableError
		eve *engine.EvaluationError
		mbe *http.MaxBytesError
		sfe *engine.StorageFullError
		le  interface{ LimitExceeded() string }
	)
	switch {
	case errors.As(err, &sfe):
		// Not the client's fault and no failure either: the engine holds
		// what it is configured to hold (Operaton has no such answer).
		return http.StatusInsufficientStorage, errorBody{Type: "StorageFullException", Message: msg}
	case errors.As(err, &de):
		return http.StatusBadRequest, parseException(de)
	case errors.As(err, &ee):
		status := ee.Status
		if status < 400 || status > 599 {
			status = http.StatusInternalServerError
		}
		return status, errorBody{Type: ee.Type, Message: ee.Message}
	case errors.As(err, &ve):
		return http.StatusBadRequest, errorBody{Type: "InvalidRequestException", Message: prefix + strings.TrimPrefix(ve.Error(), "engine: ")}
	case errors.As(err, &eve):
		return http.StatusInternalServerError, errorBody{Type: "RestException", Message: prefix + eve.Error()}
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge, errorBody{Type: "InvalidRequestException", Message: fmt.Sprintf("The request body is larger than %d bytes", mbe.Limit)}
	case errors.Is(err, engine.ErrNotFound):
		return http.StatusNotFound, errorBody{Type: "RestException", Message: msg}
	case errors.Is(err, engine.ErrUnavailable), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable, errorBody{Type: "RestException", Message: msg}
	case errors.As(err, &le):
		// A bound of the engine or its store (a query reading more rows
		// than pgstore's MaxScan, …): the request asks too much, so it is
		// the client's to narrow; a time bound is the engine's to report.
		if le.LimitExceeded() == "Timeout" {
			return http.StatusServiceUnavailable, errorBody{Type: "RestException", Message: msg}
		}
		return http.StatusBadRequest, errorBody{Type: "InvalidRequestException", Message: msg}
	}
	return http.StatusInternalServerError, errorBody{Type: "RestException", Message: prefix + msg}
}

// parseException is Operaton's ParseException body with the problem's
// position under details.<resource>.errors.
func parseException(de *engine.DeploymentError) errorBody {
	type problem struct {
		Message       string   `json:"message"`
		Line          int      `json:"line"`
		Column        int      `json:"column"`
		MainElementID *string  `json:"mainElementId"`
		ElementIDs    []string `json:"elementIds"`
	}
	type report struct {
		Errors   []problem `json:"errors"`
		Warnings []problem `json:"warnings"`
	}
	p := problem{Message: de.Msg, Line: de.Line, Column: de.Column, ElementIDs: []string{}}
	if de.ElementID != "" {
		p.MainElementID = &de.ElementID
		p.ElementIDs = []string{de.ElementID}
	}
	details, _ := json.Marshal(map[string]report{de.Resource: {Errors: []problem{p}, Warnings: []problem{}}})
	return errorBody{Type: "ParseException", Message: strings.TrimPrefix(de.Error(), "engine: "), Details: details}
}

func (h *handler) version(w http.ResponseWriter, r *http.Request) {
	v, err := h.e.Version(r.Context())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"version": v})
}

func (h *handler) engines(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, []map[string]string{{"name": "default"}})
}

// deploy reads Operaton's multipart deployment: the fields deployment-name,
// deployment-source, tenant-id, enable-duplicate-filtering and
// deploy-changed-only, and one part per resource named by its file name.
func (h *handler) deploy(w http.ResponseWriter, r *http.Request) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" {
		h.fail(w, r, engine.InvalidRequest("A deployment is a multipart/form-data request"), "")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxDeploymentBytes)
	mr, err := r.MultipartReader()
	if err != nil {
		h.fail(w, r, engine.InvalidRequest("Malformed multipart body: %v", err), "")
		return
	}
	var nd engine.NewDeployment
	parts := 0
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			h.failMultipart(w, r, err)
			return
		}
		parts++
		if parts > h.opts.MaxParts {
			h.fail(w, r, engine.InvalidRequest("A deployment may have at most %d parts", h.opts.MaxParts), "")
			return
		}
		data, err := io.ReadAll(part)
		if err != nil {
			h.failMultipart(w, r, err)
			return
		}
		name := part.FormName()
		switch name {
		case "deployment-name":
			nd.Name = string(data)
		case "deployment-source":
			nd.Source = string(data)
		case "tenant-id":
			nd.TenantID = string(data)
		case "enable-duplicate-filtering":
			nd.EnableDuplicateFiltering = strings.EqualFold(strings.TrimSpace(string(data)), "true")
		case "deploy-changed-only":
			nd.DeployChangedOnly = strings.EqualFold(strings.TrimSpace(string(data)), "true")
		default:
			rn := resourceName(part)
			if rn == "" {
				rn = name
			}
			nd.Resources = append(nd.Resources, engine.Resource{Name: rn, Data: data})
		}
	}
	if len(nd.Resources) == 0 {
		h.fail(w, r, engine.InvalidRequest("No deployment resources contained in the form upload."), "")
		return
	}
	dep, err := h.e.Deploy(r.Context(), nd)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, dep)
}

// resourceName is a part's file name as sent: Operaton keeps a path such
// as forms/review.html (forms and templates are found by it), where
// multipart.Part.FileName keeps only the base name.
func resourceName(part *multipart.Part) string {
	_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	if err != nil {
		return part.FileName()
	}
	return params["filename"]
}

func (h *handler) failMultipart(w http.ResponseWriter, r *http.Request, err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{Type: "InvalidRequestException",
			Message: fmt.Sprintf("The deployment is larger than %d bytes", mbe.Limit)})
		return
	}
	h.fail(w, r, engine.InvalidRequest("Malformed multipart body: %v", err), "")
}

func (h *handler) deployments(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseDeploymentQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	deps, err := h.e.Deployments(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	out := make([]json.RawMessage, len(deps))
	for i, d := range deps {
		out[i] = deploymentJSON(d)
	}
	writeJSON(w, http.StatusOK, out)
}

// deploymentJSON is Operaton's DeploymentDto (no deployed… maps).
func deploymentJSON(d engine.Deployment) json.RawMessage {
	b, _ := json.Marshal(d)
	var m map[string]json.RawMessage
	json.Unmarshal(b, &m)
	for _, k := range []string{"deployedProcessDefinitions", "deployedCaseDefinitions", "deployedDecisionDefinitions", "deployedDecisionRequirementsDefinitions"} {
		delete(m, k)
	}
	b, _ = json.Marshal(m)
	return b
}

func (h *handler) deploymentCount(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseDeploymentQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	deps, err := h.e.Deployments(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"count": len(deps)})
}

func (h *handler) deployment(w http.ResponseWriter, r *http.Request) {
	d, err := h.e.Deployment(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, deploymentJSON(d))
}

func (h *handler) definitions(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseDecisionDefinitionQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	defs, err := h.e.DecisionDefinitions(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	if defs == nil {
		defs = []engine.DecisionDefinition{}
	}
	writeJSON(w, http.StatusOK, defs)
}

func (h *handler) definitionCount(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseDecisionDefinitionQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	defs, err := h.e.DecisionDefinitions(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"count": len(defs)})
}

// byKey resolves the latest definition of the key (and tenant).
func (h *handler) byKey(w http.ResponseWriter, r *http.Request) (engine.DecisionDefinition, bool) {
	v := mux.Vars(r)
	d, err := h.e.LatestDecisionDefinition(r.Context(), v["key"], v["tenant"])
	if err != nil {
		h.fail(w, r, err, "")
		return d, false
	}
	return d, true
}

func (h *handler) definitionByKey(w http.ResponseWriter, r *http.Request) {
	if d, ok := h.byKey(w, r); ok {
		writeJSON(w, http.StatusOK, d)
	}
}

func (h *handler) definitionByID(w http.ResponseWriter, r *http.Request) {
	d, err := h.e.DecisionDefinition(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (h *handler) xmlByKey(w http.ResponseWriter, r *http.Request) {
	if d, ok := h.byKey(w, r); ok {
		h.writeXML(w, r, d.ID)
	}
}

func (h *handler) xmlByID(w http.ResponseWriter, r *http.Request) {
	h.writeXML(w, r, mux.Vars(r)["id"])
}

func (h *handler) writeXML(w http.ResponseWriter, r *http.Request, id string) {
	x, err := h.e.DecisionDefinitionXML(r.Context(), id)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": id, "dmnXml": x})
}

func (h *handler) evaluateByKey(w http.ResponseWriter, r *http.Request) {
	d, ok := h.byKey(w, r)
	if !ok {
		return
	}
	h.evaluate(w, r, d.ID)
}

func (h *handler) evaluateByID(w http.ResponseWriter, r *http.Request) {
	h.evaluate(w, r, mux.Vars(r)["id"])
}

// evaluate reads {"variables": {…}} and answers with the result rows.
func (h *handler) evaluate(w http.ResponseWriter, r *http.Request, id string) {
	prefix := "Cannot evaluate decision " + id + ": "
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxJSONBytes))
	if err != nil {
		h.fail(w, r, err, prefix)
		return
	}
	var req struct {
		Variables json.RawMessage `json:"variables"`
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			h.fail(w, r, engine.InvalidRequest("%sthe body is not a JSON object {\"variables\": {…}}: %v", prefix, err), "")
			return
		}
	}
	vars, err := engine.ParseVariables(req.Variables)
	if err != nil {
		h.fail(w, r, err, prefix)
		return
	}
	res, err := h.e.EvaluateDefinition(r.Context(), id, vars)
	if err != nil {
		h.fail(w, r, err, prefix)
		return
	}
	out, err := resultJSON(res)
	if err != nil {
		h.fail(w, r, err, prefix)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(out)
}

// resultJSON writes the rows as Operaton does: [{name: {type, value, valueInfo}}].
func resultJSON(res engine.Result) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, row := range res {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		first := true
		for _, name := range sortedNames(row) {
			v := row[name]
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			vb, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("output %q: %w", name, err)
			}
			if len(v.ValueInfo) == 0 {
				// Operaton always sends valueInfo; regelkit's Variable leaves it out when empty
				vb = append(vb[:len(vb)-1], `,"valueInfo":{}}`...)
			}
			b.Write(vb)
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

func sortedNames(row map[string]engine.Variable) []string {
	names := make([]string, 0, len(row))
	for k := range row {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Route is one path NewHandler serves: a method and a path template with
// the base path (gorilla/mux syntax, e.g. /engine-rest/task/{id}/claim).
type Route struct {
	Method, Path string
}

// Routes lists, in registration order, the routes NewHandler(e, opts)
// serves, so that a server documents exactly what it mounts.
func Routes(e engine.Engine, opts Options) []Route {
	h := NewHandler(e, opts).(*handler)
	var out []Route
	_ = h.r.Walk(func(r *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		p, err := r.GetPathTemplate()
		if err != nil {
			return nil
		}
		ms, _ := r.GetMethods()
		for _, m := range ms {
			out = append(out, Route{Method: m, Path: p})
		}
		return nil
	})
	return out
}
