package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/beevik/etree"
	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// bpmnNS is the BPMN model namespace; elements are matched by namespace,
// never by prefix (camundaNS and maxBPMNBytes: process.go).
const bpmnNS = bpmnModelNS

// ripDocuments are the phase-1 templates and their response fields.
var ripDocuments = []struct{ template, field string }{
	{"rip-intake-report", "intakeReport"},
	{"rip-psu-report", "psuReport"},
	{"rip-pdp", "pdp"},
}

// ripRoutes mounts /v1/rip (spec §4.6).
func (a *app) ripRoutes(r *httpapi.Router) {
	a.mounted["rip"] = "/v1/rip"
	guard := func(h httpapi.HandlerFunc) httpapi.HandlerFunc {
		return a.auth.Guard(h, auth.RequireTenant(a.cfg.TenantIsolation), auth.RequireRole(auth.RoleCaseworker))
	}
	tags := []string{"project phase"}
	resp := func(code string) map[string]openapi.Response {
		return map[string]openapi.Response{
			"200": {Description: "success"}, "403": {Description: "FORBIDDEN, MISSING_TENANT, TENANT_MISMATCH"},
			"404": {Description: "PROCESS_NOT_FOUND"}, "500": {Description: code}, "502": {Description: "OPERATON_ERROR"},
		}
	}
	r.Handle("GET", "/v1/rip/phase1/active", guard(a.handleRIPActive), openapi.Operation{
		Summary: "Running phase-1 projects of the caller's municipality",
		Description: "JWT with a municipality and role caseworker. data: [{id, startTime, projectNumber, projectName, docmgmtWorkspaceId}], " +
			"newest first, at most 200; a missing variable is null (docmgmtWorkspaceId falls back to edocsWorkspaceId).",
		Tags: tags, Responses: resp(codeRIPList),
	})
	r.Handle("GET", "/v1/rip/phase1/completed", guard(a.handleRIPCompleted), openapi.Operation{
		Summary:     "Completed phase-1 projects of the caller's municipality",
		Description: "data: as /active plus endTime, newest endTime first, at most 200.",
		Tags:        tags, Responses: resp(codeRIPCompletedList),
	})
	r.Handle("GET", "/v1/rip/phase1/{instanceId}/documents", guard(a.handleRIPDocuments), openapi.Operation{
		Summary: "The phase-1 document templates of a project with its current variables",
		Description: "data: {variables, intakeReport, psuReport, pdp}. Each template is the DocumentTemplate resource of the instance's " +
			"deployment, or null until the service task that files it (the serviceTask whose input documentTemplateId names it) has " +
			"finished. Unknown instance: 404 PROCESS_NOT_FOUND; another municipality's: 403 TENANT_MISMATCH.",
		Tags: tags, Parameters: []openapi.Parameter{{Name: "instanceId", In: "path", Required: true, Schema: openapi.String("")}},
		Responses: resp(codeRIPDocuments),
	})
}

func (a *app) ripList(w http.ResponseWriter, r *http.Request, finished bool, code string) error {
	p := auth.FromContext(r.Context())
	pe, err := a.processEngine()
	if err != nil {
		return err
	}
	ctx, cancel := a.engineContext(r)
	defer cancel()
	list, err := a.historicList(ctx, pe, ripProcessKey, p.Tenant, finished)
	if err != nil {
		return docsEngineFailure(err, code, "Listing projects failed")
	}
	vars, err := instanceVariables(ctx, pe, ids(list), "projectNumber", "projectName", "docmgmtWorkspaceId", "edocsWorkspaceId")
	if err != nil {
		return docsEngineFailure(err, code, "Listing projects failed")
	}
	out := make([]map[string]any, 0, len(list))
	for _, h := range list {
		v := vars[h.ID]
		ws := value(v, "docmgmtWorkspaceId")
		if ws == nil {
			ws = value(v, "edocsWorkspaceId")
		}
		item := map[string]any{"id": h.ID, "startTime": engineTime(&h.StartTime),
			"projectNumber": value(v, "projectNumber"), "projectName": value(v, "projectName"), "docmgmtWorkspaceId": ws}
		if finished {
			item["endTime"] = engineTime(h.EndTime)
		}
		out = append(out, item)
	}
	return httpapi.WriteData(w, http.StatusOK, out)
}

func (a *app) handleRIPActive(w http.ResponseWriter, r *http.Request) error {
	return a.ripList(w, r, false, codeRIPList)
}

func (a *app) handleRIPCompleted(w http.ResponseWriter, r *http.Request) error {
	return a.ripList(w, r, true, codeRIPCompletedList)
}

func (a *app) handleRIPDocuments(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	id := mux.Vars(r)["instanceId"]
	pe, err := a.processEngine()
	if err != nil {
		return err
	}
	ctx, cancel := a.engineContext(r)
	defer cancel()
	fail := func(err error) error {
		return docsEngineFailure(err, codeRIPDocuments, "Reading the project documents failed")
	}
	rows, err := pe.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: id, MaxResults: maxHistoricVariables})
	if err != nil && !errors.Is(err, engine.ErrNotFound) {
		return fail(err)
	}
	if len(rows) == 0 {
		return httpapi.Errorf(http.StatusNotFound, codeProcessNotFound, "Process instance '%s' not found", excerpt(id, 100))
	}
	vars := flattenHistoric(rows, id)
	if f := auth.CheckTenant(p, vars[tenantVariable]); f != nil {
		return f.APIError()
	}
	hist, err := pe.HistoricProcessInstance(ctx, id)
	if err != nil {
		return fail(err)
	}
	def, err := pe.ProcessDefinition(ctx, hist.ProcessDefinitionID)
	if err != nil {
		return fail(err)
	}
	resources, err := pe.DeploymentResources(ctx, def.DeploymentID)
	if err != nil {
		return fail(err)
	}
	xml, err := pe.ProcessDefinitionXML(ctx, def.ID)
	if err != nil {
		return fail(err)
	}
	filers, err := documentFilers(xml, def.Key)
	if err != nil {
		return fail(err)
	}
	out := map[string]any{"variables": vars}
	for _, d := range ripDocuments {
		tmpl, err := a.ripTemplate(ctx, pe, id, def.DeploymentID, resources, filers, d.template)
		if err != nil {
			return fail(err)
		}
		out[d.field] = tmpl
	}
	return httpapi.WriteData(w, http.StatusOK, out)
}

// ripTemplate is the parsed template, or nil when its resource is absent or
// the service task filing it has not finished.
func (a *app) ripTemplate(ctx context.Context, pe engine.Processes, instanceID, deploymentID string,
	resources []engine.DeploymentResource, filers map[string]string, template string) (any, error) {
	var res *engine.DeploymentResource
	for i := range resources {
		if name := resources[i].Name; name == template+".document" || strings.HasSuffix(name, "/"+template+".document") {
			res = &resources[i]
			break
		}
	}
	if res == nil {
		return nil, nil
	}
	if task, ok := filers[template]; ok {
		done, err := pe.HistoricActivities(ctx, engine.HistoricActivityQuery{
			ProcessInstanceID: instanceID, ActivityID: task, Finished: true, MaxResults: 1,
		})
		if err != nil {
			return nil, err
		}
		if len(done) == 0 {
			return nil, nil
		}
	}
	data, err := pe.DeploymentResourceData(ctx, deploymentID, res.ID)
	if err != nil {
		return nil, err
	}
	if len(data) > maxDocumentResourceLen {
		return nil, errors.New("document template " + template + " is larger than 4 MiB")
	}
	var out any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, errors.New("document template " + template + " is not JSON: " + err.Error())
	}
	return out, nil
}

// documentFilers maps each template id to the id of the service task of
// process key whose camunda:inputOutput has the input documentTemplateId
// with that value.
func documentFilers(xml, key string) (map[string]string, error) {
	if len(xml) > maxBPMNBytes {
		return nil, errors.New("BPMN larger than 16 MiB")
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromString(xml); err != nil {
		return nil, err
	}
	out := map[string]string{}
	root := doc.Root()
	if root == nil {
		return out, nil
	}
	for _, proc := range root.ChildElements() {
		if proc.Tag != "process" || proc.NamespaceURI() != bpmnNS || proc.SelectAttrValue("id", "") != key {
			continue
		}
		// Iterative walk: sub-processes nest service tasks.
		stack := append([]*etree.Element(nil), proc.ChildElements()...)
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if e.NamespaceURI() == bpmnNS && e.Tag == "serviceTask" {
				if t := templateInput(e); t != "" {
					if _, dup := out[t]; !dup {
						out[t] = e.SelectAttrValue("id", "")
					}
				}
				continue
			}
			stack = append(stack, e.ChildElements()...)
		}
	}
	return out, nil
}

// templateInput is the literal value of the documentTemplateId input
// parameter of a task, or "".
func templateInput(task *etree.Element) string {
	for _, ext := range task.ChildElements() {
		if ext.Tag != "extensionElements" || ext.NamespaceURI() != bpmnNS {
			continue
		}
		for _, io := range ext.ChildElements() {
			if io.Tag != "inputOutput" || io.NamespaceURI() != camundaNS {
				continue
			}
			for _, in := range io.ChildElements() {
				if in.Tag == "inputParameter" && in.NamespaceURI() == camundaNS && in.SelectAttrValue("name", "") == "documentTemplateId" {
					return strings.TrimSpace(in.Text())
				}
			}
		}
	}
	return ""
}
