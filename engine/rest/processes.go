package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/regelkit/regelkit/engine"
)

// DefaultMaxAsyncResponseTimeout bounds fetchAndLock's long polling, as
// Operaton's own maximum of 30 minutes.
const DefaultMaxAsyncResponseTimeout = 30 * time.Minute

// routeProcesses adds the process paths; called only when the engine
// implements engine.Processes. Fixed segments (count, key) are registered
// before the {id} routes they would otherwise match.
func (h *handler) routeProcesses(route func(string, http.HandlerFunc, string)) {
	get, post, put, del := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete

	route("/deployment/{id}", h.deleteDeployment, del)
	route("/deployment/{id}/resources", h.deploymentResources, get)
	route("/deployment/{id}/resources/{rid}", h.deploymentResource, get)
	route("/deployment/{id}/resources/{rid}/data", h.deploymentResourceData, get)

	p := h.p
	list, count := listRoutes(h, getQuery(h, engine.ParseProcessDefinitionQuery), p.ProcessDefinitions,
		func(q *engine.ProcessDefinitionQuery) { q.FirstResult, q.MaxResults = 0, 0 })
	route("/process-definition", list, get)
	route("/process-definition/count", count, get)
	for _, base := range []string{"/process-definition/key/{key}", "/process-definition/key/{key}/tenant-id/{tenant}", "/process-definition/{id}"} {
		route(base, h.processDefinition, get)
		route(base+"/xml", h.processDefinitionXML, get)
		route(base+"/start", h.startProcess, post)
		route(base+"/deployed-start-form", h.deployedStartForm, get)
		route(base+"/startForm", h.startFormInfo, get)
	}

	list, count = listRoutes(h, getOrPostQuery(h, engine.ParseProcessInstanceQuery, engine.ParseProcessInstanceQueryJSON),
		p.ProcessInstances, func(q *engine.ProcessInstanceQuery) { q.FirstResult, q.MaxResults = 0, 0 })
	for _, m := range []string{get, post} {
		route("/process-instance", list, m)
		route("/process-instance/count", count, m)
	}
	route("/process-instance/{id}", h.processInstance, get)
	route("/process-instance/{id}", h.deleteProcessInstance, del)
	route("/process-instance/{id}/variables", h.processInstanceVariables, get)
	route("/process-instance/{id}/variables", h.modifyProcessInstanceVariables, post)
	route("/process-instance/{id}/variables/{name}", h.processInstanceVariable, get)
	route("/process-instance/{id}/suspended", h.suspendProcessInstance, put)

	readTasks := getOrPostQuery(h, engine.ParseTaskQuery, engine.ParseTaskQueryJSON)
	list, _ = listRoutes(h, readTasks, p.Tasks, nil) // counted by TaskCount below
	count = func(w http.ResponseWriter, r *http.Request) {
		if q, ok := readTasks(w, r); ok {
			q.FirstResult, q.MaxResults = 0, 0
			n, err := p.TaskCount(r.Context(), q)
			answer(h, w, r, countBody{n}, err)
		}
	}
	for _, m := range []string{get, post} {
		route("/task", list, m)
		route("/task/count", count, m)
	}
	route("/task/{id}", h.task, get)
	route("/task/{id}/claim", h.claim, post)
	route("/task/{id}/unclaim", h.unclaim, post)
	route("/task/{id}/complete", h.completeTask, post)
	route("/task/{id}/variables", h.taskVariables, get)
	route("/task/{id}/form", h.taskFormInfo, get)
	route("/task/{id}/deployed-form", h.deployedTaskForm, get)
	route("/task/{id}/identity-links", h.identityLinks, get)

	route("/external-task/fetchAndLock", h.fetchAndLock, post)
	route("/external-task/{id}/complete", h.completeExternalTask, post)
	route("/external-task/{id}/failure", h.externalTaskFailure, post)
	route("/external-task/{id}/bpmnError", h.externalTaskBPMNError, post)
	route("/external-task/{id}/extendLock", h.extendLock, post)
	route("/external-task/{id}/retries", h.setExternalTaskRetries, put)

	readIncidents := getQuery(h, engine.ParseIncidentQuery)
	list, _ = listRoutes(h, readIncidents, p.Incidents, nil) // counted by IncidentCount below
	route("/incident", list, get)
	route("/incident/count", func(w http.ResponseWriter, r *http.Request) {
		if q, ok := readIncidents(w, r); ok {
			q.FirstResult, q.MaxResults = 0, 0
			n, err := p.IncidentCount(r.Context(), q)
			answer(h, w, r, countBody{n}, err)
		}
	}, get)

	list, count = listRoutes(h, getOrPostQuery(h, engine.ParseHistoricProcessInstanceQuery, engine.ParseHistoricProcessInstanceQueryJSON),
		p.HistoricProcessInstances, func(q *engine.HistoricProcessInstanceQuery) { q.FirstResult, q.MaxResults = 0, 0 })
	for _, m := range []string{get, post} {
		route("/history/process-instance", list, m)
		route("/history/process-instance/count", count, m)
	}
	route("/history/process-instance/{id}", h.historicProcessInstance, get)
	list, count = listRoutes(h, getQuery(h, engine.ParseHistoricTaskQuery), p.HistoricTasks,
		func(q *engine.HistoricTaskQuery) { q.FirstResult, q.MaxResults = 0, 0 })
	route("/history/task", list, get)
	route("/history/task/count", count, get)
	list, count = listRoutes(h, withDeserializeValues(getOrPostQuery(h, engine.ParseHistoricVariableQuery, engine.ParseHistoricVariableQueryJSON)),
		p.HistoricVariables, func(q *engine.HistoricVariableQuery) { q.FirstResult, q.MaxResults = 0, 0 })
	for _, m := range []string{get, post} {
		route("/history/variable-instance", list, m)
		route("/history/variable-instance/count", count, m)
	}
	list, count = listRoutes(h, getQuery(h, engine.ParseHistoricActivityQuery), p.HistoricActivities,
		func(q *engine.HistoricActivityQuery) { q.FirstResult, q.MaxResults = 0, 0 })
	route("/history/activity-instance", list, get)
	route("/history/activity-instance/count", count, get)
	list, count = listRoutes(h, getQuery(h, engine.ParseHistoricDecisionQuery), p.HistoricDecisions,
		func(q *engine.HistoricDecisionQuery) { q.FirstResult, q.MaxResults = 0, 0 })
	route("/history/decision-instance", list, get)
	route("/history/decision-instance/count", count, get)
}

// readJSON reads a JSON request body of at most MaxJSONBytes. As under
// Operaton's JAX-RS, a missing Content-Type is taken as JSON and a type
// that is not JSON is refused with 415.
func (h *handler) readJSON(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			writeJSON(w, http.StatusUnsupportedMediaType, errorBody{Type: "NotSupportedException",
				Message: "HTTP 415 Unsupported Media Type: this resource consumes application/json"})
			return nil, false
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxJSONBytes))
	if err != nil {
		h.fail(w, r, err, "")
		return nil, false
	}
	return body, true
}

// decode reads a JSON body into v; an empty body leaves v as it is. A
// malformed body is a 400 InvalidRequestException naming the problem.
func (h *handler) decode(w http.ResponseWriter, r *http.Request, what string, v any) bool {
	body, ok := h.readJSON(w, r)
	if !ok {
		return false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return true
	}
	if err := json.Unmarshal(body, v); err != nil {
		var ve *engine.VariableError
		if errors.As(err, &ve) {
			h.fail(w, r, err, "")
			return false
		}
		h.fail(w, r, engine.InvalidRequest("%s: the body is not the JSON expected: %v", what, err), "")
		return false
	}
	return true
}

// countBody is Operaton's CountResultDto.
type countBody struct {
	Count int `json:"count"`
}

// queryReader reads a query from a request, answering the error itself.
type queryReader[Q any] func(http.ResponseWriter, *http.Request) (Q, bool)

// getQuery reads a GET query string.
func getQuery[Q any](h *handler, parse func(url.Values) (Q, error)) queryReader[Q] {
	return func(w http.ResponseWriter, r *http.Request) (Q, bool) {
		q, err := parse(r.URL.Query())
		if err != nil {
			h.fail(w, r, err, "")
			return q, false
		}
		return q, true
	}
}

// getOrPostQuery reads a GET query string, or for POST (Operaton's query
// alias) a JSON body with paging in the query string.
func getOrPostQuery[Q any](h *handler, parse func(url.Values) (Q, error), parseBody func([]byte, url.Values) (Q, error)) queryReader[Q] {
	get := getQuery(h, parse)
	return func(w http.ResponseWriter, r *http.Request) (Q, bool) {
		if r.Method != http.MethodPost {
			return get(w, r)
		}
		var q Q
		body, ok := h.readJSON(w, r)
		if !ok {
			return q, false
		}
		q, err := parseBody(body, r.URL.Query())
		if err != nil {
			h.fail(w, r, err, "")
			return q, false
		}
		return q, true
	}
}

// withDeserializeValues checks the deserializeValues flag: values are
// always deserialized here (a Json value is its text either way).
func withDeserializeValues[Q any](read queryReader[Q]) queryReader[Q] {
	return func(w http.ResponseWriter, r *http.Request) (Q, bool) {
		if _, err := boolParam(r.URL.Query(), "deserializeValues"); err != nil {
			var q Q
			status, body := errorFor(err, "")
			writeJSON(w, status, body)
			return q, false
		}
		return read(w, r)
	}
}

// listRoutes returns the list and the count handler of a query: the count
// runs the query without paging and counts the rows.
func listRoutes[Q any, T json.Marshaler](h *handler, read queryReader[Q], run func(context.Context, Q) ([]T, error), unpage func(*Q)) (list, count http.HandlerFunc) {
	list = func(w http.ResponseWriter, r *http.Request) {
		if q, ok := read(w, r); ok {
			items, err := run(r.Context(), q)
			answerList(h, w, r, items, err)
		}
	}
	count = func(w http.ResponseWriter, r *http.Request) {
		if q, ok := read(w, r); ok {
			unpage(&q)
			items, err := run(r.Context(), q)
			answer(h, w, r, countBody{len(items)}, err)
		}
	}
	return list, count
}

func noContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }

// answer writes v, or the error.
func answer[T any](h *handler, w http.ResponseWriter, r *http.Request, v T, err error) {
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// answerList writes a list of DTOs. It calls each MarshalJSON itself and
// joins the results: encoding/json would re-scan every element's output,
// which costs a third of a 1,000-task list.
func answerList[T json.Marshaler](h *handler, w http.ResponseWriter, r *http.Request, items []T, err error) {
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	b := make([]byte, 0, 64+len(items)*768)
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		ib, err := it.MarshalJSON()
		if err != nil {
			h.fail(w, r, err, "")
			return
		}
		b = append(b, ib...)
	}
	b = append(b, ']')
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

func done(h *handler, w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	noContent(w)
}

func writeVariables(h *handler, w http.ResponseWriter, r *http.Request, vs engine.Variables, err error) {
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	b, err := engine.MarshalOperatonVariables(vs)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// ---- deployments

func (h *handler) deleteDeployment(w http.ResponseWriter, r *http.Request) {
	cascade, err := boolParam(r.URL.Query(), "cascade")
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	done(h, w, r, h.p.DeleteDeployment(r.Context(), mux.Vars(r)["id"], engine.DeleteDeployment{Cascade: cascade}))
}

func boolParam(v url.Values, k string) (bool, error) {
	switch s := v.Get(k); s {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, engine.InvalidRequest("Cannot set query parameter '%s' to value '%s'", k, clipText(s))
	}
}

func clipText(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

func (h *handler) deploymentResources(w http.ResponseWriter, r *http.Request) {
	res, err := h.p.DeploymentResources(r.Context(), mux.Vars(r)["id"])
	answerList(h, w, r, res, err)
}

func (h *handler) findResource(w http.ResponseWriter, r *http.Request) (engine.DeploymentResource, bool) {
	v := mux.Vars(r)
	res, err := h.p.DeploymentResources(r.Context(), v["id"])
	if err != nil {
		h.fail(w, r, engine.NotFound("Deployment resources for deployment id '%s' do not exist.", v["id"]), "")
		return engine.DeploymentResource{}, false
	}
	for _, x := range res {
		if x.ID == v["rid"] {
			return x, true
		}
	}
	h.fail(w, r, engine.NotFound("Deployment resource with resource id '%s' for deployment id '%s' does not exist.", v["rid"], v["id"]), "")
	return engine.DeploymentResource{}, false
}

func (h *handler) deploymentResource(w http.ResponseWriter, r *http.Request) {
	if res, ok := h.findResource(w, r); ok {
		writeJSON(w, http.StatusOK, res)
	}
}

func (h *handler) deploymentResourceData(w http.ResponseWriter, r *http.Request) {
	res, ok := h.findResource(w, r)
	if !ok {
		return
	}
	data, err := h.p.DeploymentResourceData(r.Context(), res.DeploymentID, res.ID)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	w.Header().Set("Content-Type", resourceType(res.Name))
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": path.Base(res.Name)}))
	w.WriteHeader(http.StatusOK)
	w.Write(data)
}

// resourceType is the content type of a deployment resource, by its name.
func resourceType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".bpmn", ".dmn", ".cmmn", ".xml":
		return "application/xml"
	case ".json", ".form", ".document":
		return "application/json"
	case ".html", ".htm":
		return "text/html"
	case ".png":
		return "image/png"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}

// ---- process definitions

// definition resolves the route's definition: by id, or the latest of the
// key (and tenant).
func (h *handler) definition(w http.ResponseWriter, r *http.Request) (engine.ProcessDefinition, bool) {
	v := mux.Vars(r)
	var (
		d   engine.ProcessDefinition
		err error
	)
	if id, ok := v["id"]; ok {
		d, err = h.p.ProcessDefinition(r.Context(), id)
	} else {
		d, err = h.p.LatestProcessDefinition(r.Context(), v["key"], v["tenant"])
	}
	if err != nil {
		h.fail(w, r, err, "")
		return d, false
	}
	return d, true
}

func (h *handler) processDefinition(w http.ResponseWriter, r *http.Request) {
	if d, ok := h.definition(w, r); ok {
		writeJSON(w, http.StatusOK, d)
	}
}

func (h *handler) processDefinitionXML(w http.ResponseWriter, r *http.Request) {
	d, ok := h.definition(w, r)
	if !ok {
		return
	}
	x, err := h.p.ProcessDefinitionXML(r.Context(), d.ID)
	answer(h, w, r, map[string]string{"id": d.ID, "bpmn20Xml": x}, err)
}

func (h *handler) startProcess(w http.ResponseWriter, r *http.Request) {
	d, ok := h.definition(w, r)
	if !ok {
		return
	}
	s := engine.StartProcess{}
	if !h.decode(w, r, "Cannot instantiate process definition "+d.ID, &s) {
		return
	}
	s.DefinitionID = d.ID
	pi, err := h.p.StartProcess(r.Context(), s)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	if !s.WithVariablesInReturn {
		pi.Variables = nil
	}
	b, err := json.Marshal(pi)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	// Operaton links the new instance: [{method, href, rel: "self"}]
	var m map[string]json.RawMessage
	json.Unmarshal(b, &m)
	link, _ := json.Marshal([]map[string]string{{"method": http.MethodGet, "href": h.selfURL(r, "/process-instance/"+url.PathEscape(pi.ID)), "rel": "self"}})
	m["links"] = link
	writeJSON(w, http.StatusOK, m)
}

// selfURL is the absolute URL of a path below BasePath, as the request reached us.
func (h *handler) selfURL(r *http.Request, p string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + h.opts.BasePath + p
}

func writeForm(h *handler, w http.ResponseWriter, r *http.Request, f engine.Form, err error) {
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	ct := f.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(http.StatusOK)
	w.Write(f.Data)
}

func (h *handler) deployedStartForm(w http.ResponseWriter, r *http.Request) {
	d, ok := h.definition(w, r)
	if !ok {
		return
	}
	f, err := h.p.StartForm(r.Context(), d.ID)
	writeForm(h, w, r, f, err)
}

// formInfo is Operaton's FormDto.
type formInfo struct {
	Key             *string         `json:"key"`
	ContextPath     *string         `json:"contextPath"`
	OperatonFormRef *engine.FormRef `json:"operatonFormRef"`
}

// startFormInfo answers GET …/startForm. engine.Processes does not expose
// a start event's form key, so key and operatonFormRef are null (the
// deployed start form itself is served by …/deployed-start-form);
// contextPath, a process application's path, is null for deployments made
// over REST, as in Operaton.
func (h *handler) startFormInfo(w http.ResponseWriter, r *http.Request) {
	if _, ok := h.definition(w, r); ok {
		writeJSON(w, http.StatusOK, formInfo{})
	}
}

// ---- process instances

func (h *handler) processInstance(w http.ResponseWriter, r *http.Request) {
	pi, err := h.p.ProcessInstance(r.Context(), mux.Vars(r)["id"])
	pi.Variables = nil
	answer(h, w, r, pi, err)
}

func (h *handler) deleteProcessInstance(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	var o engine.DeleteProcessInstance
	var err error
	if o.SkipCustomListeners, err = boolParam(v, "skipCustomListeners"); err == nil {
		o.SkipIoMappings, err = boolParam(v, "skipIoMappings")
	}
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	o.Reason = v.Get("deleteReason")
	done(h, w, r, h.p.DeleteProcessInstance(r.Context(), mux.Vars(r)["id"], o))
}

func (h *handler) processInstanceVariables(w http.ResponseWriter, r *http.Request) {
	if _, err := boolParam(r.URL.Query(), "deserializeValues"); err != nil {
		h.fail(w, r, err, "")
		return
	}
	vs, err := h.p.ProcessInstanceVariables(r.Context(), mux.Vars(r)["id"])
	writeVariables(h, w, r, vs, err)
}

func (h *handler) processInstanceVariable(w http.ResponseWriter, r *http.Request) {
	v := mux.Vars(r)
	vs, err := h.p.ProcessInstanceVariables(r.Context(), v["id"])
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	x, ok := vs[v["name"]]
	if !ok {
		h.fail(w, r, engine.NotFound("process instance variable with name %s does not exist", v["name"]), "")
		return
	}
	b, err := engine.MarshalOperatonVariables(engine.Variables{"v": x})
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	var m map[string]json.RawMessage
	json.Unmarshal(b, &m)
	writeJSON(w, http.StatusOK, m["v"])
}

func (h *handler) modifyProcessInstanceVariables(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	var m engine.VariableModification
	if !h.decode(w, r, "Cannot modify variables for process instance "+id, &m) {
		return
	}
	done(h, w, r, h.p.SetProcessInstanceVariables(r.Context(), id, m))
}

func (h *handler) suspendProcessInstance(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Suspended *bool `json:"suspended"`
	}
	if !h.decode(w, r, "Cannot suspend or activate the process instance", &body) {
		return
	}
	if body.Suspended == nil {
		h.fail(w, r, engine.InvalidRequest("The body must carry {\"suspended\": true|false}"), "")
		return
	}
	id := mux.Vars(r)["id"]
	if *body.Suspended {
		done(h, w, r, h.p.SuspendProcessInstance(r.Context(), id))
		return
	}
	done(h, w, r, h.p.ActivateProcessInstance(r.Context(), id))
}

// ---- tasks

func (h *handler) task(w http.ResponseWriter, r *http.Request) {
	t, err := h.p.Task(r.Context(), mux.Vars(r)["id"])
	answer(h, w, r, t, err)
}

func (h *handler) claim(w http.ResponseWriter, r *http.Request) {
	var body struct {
		UserID string `json:"userId"`
	}
	if !h.decode(w, r, "Cannot claim task", &body) {
		return
	}
	if body.UserID == "" {
		h.fail(w, r, engine.InvalidRequest("Cannot claim task %s: the body must carry a userId", mux.Vars(r)["id"]), "")
		return
	}
	done(h, w, r, h.p.Claim(r.Context(), mux.Vars(r)["id"], body.UserID))
}

func (h *handler) unclaim(w http.ResponseWriter, r *http.Request) {
	done(h, w, r, h.p.Unclaim(r.Context(), mux.Vars(r)["id"]))
}

func (h *handler) completeTask(w http.ResponseWriter, r *http.Request) {
	id := mux.Vars(r)["id"]
	var body struct {
		Variables json.RawMessage `json:"variables"`
	}
	if !h.decode(w, r, "Cannot complete task "+id, &body) {
		return
	}
	vars, err := engine.ParseVariables(body.Variables)
	if err != nil {
		h.fail(w, r, err, "Cannot complete task "+id+": ")
		return
	}
	done(h, w, r, h.p.CompleteTask(r.Context(), id, vars))
}

func (h *handler) taskVariables(w http.ResponseWriter, r *http.Request) {
	vs, err := h.p.TaskVariables(r.Context(), mux.Vars(r)["id"])
	writeVariables(h, w, r, vs, err)
}

// taskFormInfo answers GET /task/{id}/form: the task's form key and
// reference (contextPath null, as for deployments made over REST).
func (h *handler) taskFormInfo(w http.ResponseWriter, r *http.Request) {
	t, err := h.p.Task(r.Context(), mux.Vars(r)["id"])
	answer(h, w, r, formInfo{Key: nullableString(t.FormKey), OperatonFormRef: t.FormRef}, err)
}

func nullableString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (h *handler) deployedTaskForm(w http.ResponseWriter, r *http.Request) {
	f, err := h.p.TaskForm(r.Context(), mux.Vars(r)["id"])
	writeForm(h, w, r, f, err)
}

type identityLink struct {
	UserID  *string `json:"userId"`
	GroupID *string `json:"groupId"`
	Type    string  `json:"type"`
}

func (h *handler) identityLinks(w http.ResponseWriter, r *http.Request) {
	t, err := h.p.Task(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	links := []identityLink{}
	if t.Assignee != "" {
		links = append(links, identityLink{UserID: nullableString(t.Assignee), Type: "assignee"})
	}
	if t.Owner != "" {
		links = append(links, identityLink{UserID: nullableString(t.Owner), Type: "owner"})
	}
	for _, u := range t.CandidateUsers {
		links = append(links, identityLink{UserID: nullableString(u), Type: "candidate"})
	}
	for _, g := range t.CandidateGroups {
		links = append(links, identityLink{GroupID: nullableString(g), Type: "candidate"})
	}
	if typ := r.URL.Query().Get("type"); typ != "" {
		kept := []identityLink{}
		for _, l := range links {
			if l.Type == typ {
				kept = append(kept, l)
			}
		}
		links = kept
	}
	writeJSON(w, http.StatusOK, links)
}

// ---- external tasks

func (h *handler) fetchAndLock(w http.ResponseWriter, r *http.Request) {
	var f engine.FetchAndLock
	if !h.decode(w, r, "Cannot fetch and lock external tasks", &f) {
		return
	}
	if f.AsyncResponseTimeout > h.opts.MaxAsyncResponseTimeout {
		h.fail(w, r, engine.InvalidRequest("The asynchronous response timeout cannot be set to a value greater than %d milliseconds",
			h.opts.MaxAsyncResponseTimeout.Milliseconds()), "")
		return
	}
	tasks, err := h.p.FetchAndLock(r.Context(), f)
	answerList(h, w, r, tasks, err)
}

func (h *handler) completeExternalTask(w http.ResponseWriter, r *http.Request) {
	var c engine.CompleteExternalTask
	if !h.decode(w, r, "Cannot complete external task", &c) {
		return
	}
	done(h, w, r, h.p.CompleteExternalTask(r.Context(), mux.Vars(r)["id"], c))
}

func (h *handler) externalTaskFailure(w http.ResponseWriter, r *http.Request) {
	var f engine.ExternalTaskFailure
	if !h.decode(w, r, "Cannot report a failure of external task", &f) {
		return
	}
	done(h, w, r, h.p.ExternalTaskFailure(r.Context(), mux.Vars(r)["id"], f))
}

func (h *handler) externalTaskBPMNError(w http.ResponseWriter, r *http.Request) {
	var e engine.ExternalTaskBPMNError
	if !h.decode(w, r, "Cannot throw a BPMN error from external task", &e) {
		return
	}
	done(h, w, r, h.p.ExternalTaskBPMNError(r.Context(), mux.Vars(r)["id"], e))
}

func (h *handler) extendLock(w http.ResponseWriter, r *http.Request) {
	var body struct {
		WorkerID    string `json:"workerId"`
		NewDuration int64  `json:"newDuration"`
	}
	if !h.decode(w, r, "Cannot extend the lock of external task", &body) {
		return
	}
	if body.NewDuration <= 0 {
		h.fail(w, r, engine.InvalidRequest("Cannot extend the lock: newDuration must be positive, got %d", body.NewDuration), "")
		return
	}
	done(h, w, r, h.p.ExtendLock(r.Context(), mux.Vars(r)["id"], body.WorkerID, time.Duration(body.NewDuration)*time.Millisecond))
}

func (h *handler) setExternalTaskRetries(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Retries *int `json:"retries"`
	}
	if !h.decode(w, r, "Cannot set retries of external task", &body) {
		return
	}
	if body.Retries == nil {
		h.fail(w, r, engine.InvalidRequest("The number of retries cannot be null"), "")
		return
	}
	done(h, w, r, h.p.SetExternalTaskRetries(r.Context(), mux.Vars(r)["id"], *body.Retries))
}

// ---- history

func (h *handler) historicProcessInstance(w http.ResponseWriter, r *http.Request) {
	hi, err := h.p.HistoricProcessInstance(r.Context(), mux.Vars(r)["id"])
	answer(h, w, r, hi, err)
}
