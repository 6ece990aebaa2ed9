package rest

import (
	"bytes"
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

	route("/process-definition", h.processDefinitions, get)
	route("/process-definition/count", h.processDefinitionCount, get)
	for _, p := range []string{"/process-definition/key/{key}", "/process-definition/key/{key}/tenant-id/{tenant}", "/process-definition/{id}"} {
		route(p, h.processDefinition, get)
		route(p+"/xml", h.processDefinitionXML, get)
		route(p+"/start", h.startProcess, post)
		route(p+"/deployed-start-form", h.deployedStartForm, get)
		route(p+"/startForm", h.startFormInfo, get)
	}

	route("/process-instance", h.processInstances, get)
	route("/process-instance", h.processInstances, post)
	route("/process-instance/count", h.processInstanceCount, get)
	route("/process-instance/count", h.processInstanceCount, post)
	route("/process-instance/{id}", h.processInstance, get)
	route("/process-instance/{id}", h.deleteProcessInstance, del)
	route("/process-instance/{id}/variables", h.processInstanceVariables, get)
	route("/process-instance/{id}/variables", h.modifyProcessInstanceVariables, post)
	route("/process-instance/{id}/variables/{name}", h.processInstanceVariable, get)
	route("/process-instance/{id}/suspended", h.suspendProcessInstance, put)

	route("/task", h.tasks, get)
	route("/task", h.tasks, post)
	route("/task/count", h.taskCount, get)
	route("/task/count", h.taskCount, post)
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

	route("/history/process-instance", h.historicProcessInstances, get)
	route("/history/process-instance", h.historicProcessInstances, post)
	route("/history/process-instance/count", h.historicProcessInstanceCount, get)
	route("/history/process-instance/count", h.historicProcessInstanceCount, post)
	route("/history/process-instance/{id}", h.historicProcessInstance, get)
	route("/history/task", h.historicTasks, get)
	route("/history/task/count", h.historicTaskCount, get)
	route("/history/variable-instance", h.historicVariables, get)
	route("/history/variable-instance", h.historicVariables, post)
	route("/history/variable-instance/count", h.historicVariableCount, get)
	route("/history/variable-instance/count", h.historicVariableCount, post)
	route("/history/activity-instance", h.historicActivities, get)
	route("/history/activity-instance/count", h.historicActivityCount, get)
	route("/history/decision-instance", h.historicDecisions, get)
	route("/history/decision-instance/count", h.historicDecisionCount, get)
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

// list makes a nil slice an empty JSON array.
func list[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func count(w http.ResponseWriter, n int) {
	writeJSON(w, http.StatusOK, map[string]int{"count": n})
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
	answer(h, w, r, list(res), err)
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

func (h *handler) processDefinitions(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseProcessDefinitionQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	defs, err := h.p.ProcessDefinitions(r.Context(), q)
	answer(h, w, r, list(defs), err)
}

func (h *handler) processDefinitionCount(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseProcessDefinitionQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	defs, err := h.p.ProcessDefinitions(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, len(defs))
}

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
// a start event's form key, so key and operatonFormRef are null; the
// deployed start form itself is served by …/deployed-start-form.
func (h *handler) startFormInfo(w http.ResponseWriter, r *http.Request) {
	d, ok := h.definition(w, r)
	if !ok {
		return
	}
	cp := h.contextPath(d.DeploymentID)
	writeJSON(w, http.StatusOK, formInfo{ContextPath: cp})
}

func (h *handler) contextPath(deploymentID string) *string {
	if deploymentID == "" {
		return nil
	}
	s := h.opts.BasePath + "/deployment/" + url.PathEscape(deploymentID)
	return &s
}

// ---- process instances

func (h *handler) processInstanceQuery(w http.ResponseWriter, r *http.Request) (engine.ProcessInstanceQuery, bool) {
	var (
		q   engine.ProcessInstanceQuery
		err error
	)
	if r.Method == http.MethodPost {
		body, ok := h.readJSON(w, r)
		if !ok {
			return q, false
		}
		q, err = engine.ParseProcessInstanceQueryJSON(body, r.URL.Query())
	} else {
		q, err = engine.ParseProcessInstanceQuery(r.URL.Query())
	}
	if err != nil {
		h.fail(w, r, err, "")
		return q, false
	}
	return q, true
}

func (h *handler) processInstances(w http.ResponseWriter, r *http.Request) {
	q, ok := h.processInstanceQuery(w, r)
	if !ok {
		return
	}
	pis, err := h.p.ProcessInstances(r.Context(), q)
	answer(h, w, r, list(pis), err)
}

func (h *handler) processInstanceCount(w http.ResponseWriter, r *http.Request) {
	q, ok := h.processInstanceQuery(w, r)
	if !ok {
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	pis, err := h.p.ProcessInstances(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, len(pis))
}

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

func (h *handler) taskQuery(w http.ResponseWriter, r *http.Request) (engine.TaskQuery, bool) {
	var (
		q   engine.TaskQuery
		err error
	)
	if r.Method == http.MethodPost {
		body, ok := h.readJSON(w, r)
		if !ok {
			return q, false
		}
		q, err = engine.ParseTaskQueryJSON(body, r.URL.Query())
	} else {
		q, err = engine.ParseTaskQuery(r.URL.Query())
	}
	if err != nil {
		h.fail(w, r, err, "")
		return q, false
	}
	return q, true
}

func (h *handler) tasks(w http.ResponseWriter, r *http.Request) {
	q, ok := h.taskQuery(w, r)
	if !ok {
		return
	}
	ts, err := h.p.Tasks(r.Context(), q)
	answer(h, w, r, list(ts), err)
}

func (h *handler) taskCount(w http.ResponseWriter, r *http.Request) {
	q, ok := h.taskQuery(w, r)
	if !ok {
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	n, err := h.p.TaskCount(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, n)
}

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

func (h *handler) taskFormInfo(w http.ResponseWriter, r *http.Request) {
	t, err := h.p.Task(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	info := formInfo{Key: nullableString(t.FormKey), OperatonFormRef: t.FormRef}
	if d, err := h.p.ProcessDefinition(r.Context(), t.ProcessDefinitionID); err == nil {
		info.ContextPath = h.contextPath(d.DeploymentID)
	}
	writeJSON(w, http.StatusOK, info)
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
	if f.WorkerID == "" {
		h.fail(w, r, engine.InvalidRequest("Cannot fetch and lock external tasks: workerId is required"), "")
		return
	}
	tasks, err := h.p.FetchAndLock(r.Context(), f)
	answer(h, w, r, list(tasks), err)
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

// ---- history

func (h *handler) historicProcessInstanceQuery(w http.ResponseWriter, r *http.Request) (engine.HistoricProcessInstanceQuery, bool) {
	var (
		q   engine.HistoricProcessInstanceQuery
		err error
	)
	if r.Method == http.MethodPost {
		body, ok := h.readJSON(w, r)
		if !ok {
			return q, false
		}
		q, err = engine.ParseHistoricProcessInstanceQueryJSON(body, r.URL.Query())
	} else {
		q, err = engine.ParseHistoricProcessInstanceQuery(r.URL.Query())
	}
	if err != nil {
		h.fail(w, r, err, "")
		return q, false
	}
	return q, true
}

func (h *handler) historicProcessInstances(w http.ResponseWriter, r *http.Request) {
	q, ok := h.historicProcessInstanceQuery(w, r)
	if !ok {
		return
	}
	his, err := h.p.HistoricProcessInstances(r.Context(), q)
	answer(h, w, r, list(his), err)
}

func (h *handler) historicProcessInstanceCount(w http.ResponseWriter, r *http.Request) {
	q, ok := h.historicProcessInstanceQuery(w, r)
	if !ok {
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	his, err := h.p.HistoricProcessInstances(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, len(his))
}

func (h *handler) historicProcessInstance(w http.ResponseWriter, r *http.Request) {
	hi, err := h.p.HistoricProcessInstance(r.Context(), mux.Vars(r)["id"])
	answer(h, w, r, hi, err)
}

func (h *handler) historicTasks(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseHistoricTaskQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	ts, err := h.p.HistoricTasks(r.Context(), q)
	answer(h, w, r, list(ts), err)
}

func (h *handler) historicTaskCount(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseHistoricTaskQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	ts, err := h.p.HistoricTasks(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, len(ts))
}

func (h *handler) historicVariableQuery(w http.ResponseWriter, r *http.Request) (engine.HistoricVariableQuery, bool) {
	var (
		q   engine.HistoricVariableQuery
		err error
	)
	if _, err := boolParam(r.URL.Query(), "deserializeValues"); err != nil {
		h.fail(w, r, err, "")
		return q, false
	}
	if r.Method == http.MethodPost {
		body, ok := h.readJSON(w, r)
		if !ok {
			return q, false
		}
		q, err = engine.ParseHistoricVariableQueryJSON(body, r.URL.Query())
	} else {
		q, err = engine.ParseHistoricVariableQuery(r.URL.Query())
	}
	if err != nil {
		h.fail(w, r, err, "")
		return q, false
	}
	return q, true
}

func (h *handler) historicVariables(w http.ResponseWriter, r *http.Request) {
	q, ok := h.historicVariableQuery(w, r)
	if !ok {
		return
	}
	vs, err := h.p.HistoricVariables(r.Context(), q)
	answer(h, w, r, list(vs), err)
}

func (h *handler) historicVariableCount(w http.ResponseWriter, r *http.Request) {
	q, ok := h.historicVariableQuery(w, r)
	if !ok {
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	vs, err := h.p.HistoricVariables(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, len(vs))
}

func (h *handler) historicActivities(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseHistoricActivityQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	as, err := h.p.HistoricActivities(r.Context(), q)
	answer(h, w, r, list(as), err)
}

func (h *handler) historicActivityCount(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseHistoricActivityQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	as, err := h.p.HistoricActivities(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, len(as))
}

func (h *handler) historicDecisions(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseHistoricDecisionQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	ds, err := h.p.HistoricDecisions(r.Context(), q)
	answer(h, w, r, list(ds), err)
}

func (h *handler) historicDecisionCount(w http.ResponseWriter, r *http.Request) {
	q, err := engine.ParseHistoricDecisionQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	q.FirstResult, q.MaxResults = 0, 0
	ds, err := h.p.HistoricDecisions(r.Context(), q)
	if err != nil {
		h.fail(w, r, err, "")
		return
	}
	count(w, len(ds))
}
