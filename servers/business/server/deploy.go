package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode"

	"github.com/beevik/etree"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/operaton"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Bundle deployment (spec §4.11).
const (
	codeDeployFailed  = "PROCESS_DEPLOY_FAILED"
	maxDeployBody     = 10 << 20
	maxBundleItems    = 100 // forms, documents and sub-processes each
	maxResourceName   = 200
	boardOwnerProp    = "boardOwner"
	deployPath        = "/v1/dmns/process/deploy"
	legacyDeployPath  = "/api/dmns/process/deploy"
	deploymentSource  = "regelkit-business"
	boardInfra        = "infra-board"
	boardCaseworker   = "caseworker"
	camundaPrefixWant = "camunda"
)

var deployRequestSchema = openapi.Object(map[string]openapi.Schema{
	"bpmnXml":          openapi.String("the main process; deployed as <deploymentName>.bpmn after boardOwner tagging"),
	"deploymentName":   openapi.String(""),
	"forms":            openapi.Array(openapi.Object(map[string]openapi.Schema{"id": openapi.String(""), "schema": openapi.AnyObject("form-js schema")}, "id", "schema"), "deployed as <id>.form"),
	"documents":        openapi.Array(openapi.Object(map[string]openapi.Schema{"id": openapi.String(""), "template": openapi.AnyObject("DocumentTemplate")}, "id", "template"), "deployed as <id>.document"),
	"subProcesses":     openapi.Array(openapi.Object(map[string]openapi.Schema{"filename": openapi.String(""), "xml": openapi.String("")}, "filename", "xml"), "called processes, deployed under their filename"),
	"operatonUrl":      openapi.String("another engine's REST root; only one listed in DEPLOY_ALLOWED_ENGINE_URLS"),
	"operatonUsername": openapi.String("basic-auth user of operatonUrl"),
	"operatonPassword": openapi.String("basic-auth password of operatonUrl"),
	"boardOwner":       openapi.String("absent: derived from candidate groups; \"\": untagged; else written as is"),
	"organization":     openapi.String("optional engine tenant of the deployment"),
}, "bpmnXml", "deploymentName")

// deployRoutes mounts the bundle deployment under its /v1 path and the
// spec's deprecated /api path.
func (a *app) deployRoutes(r *httpapi.Router) {
	op := func(deprecated bool) openapi.Operation {
		o := openapi.Operation{
			Summary: "Deploy a process bundle: BPMN, sub-processes, forms and document templates as one deployment",
			Description: "JWT. One deployment, because formRef (binding latest), called processes and ronl:documentRef resolve only " +
				"inside their own deployment. The main process is tagged <camunda:property name=\"boardOwner\">: derived from the " +
				"candidate groups (infra-projectteam, infra-medewerker, rip-* → infra-board; caseworker, case-workers, hr-medewerker → " +
				"caseworker) unless boardOwner is given (\"\" leaves it untagged). operatonUrl other than the configured engine must be in " +
				"DEPLOY_ALLOWED_ENGINE_URLS. data: {deploymentId, resourceCount}. 400 VALIDATION_ERROR names the field " +
				"(details.field); an engine rejection is 500 PROCESS_DEPLOY_FAILED; an unreachable engine 502 OPERATON_ERROR. " +
				"Audited as process.deploy. Body at most 10 MB.",
			Tags:        []string{"process"},
			RequestBody: openapi.Body(deployRequestSchema, "the bundle"),
			Responses: map[string]openapi.Response{
				"200": {Description: "{deploymentId, resourceCount}"},
				"400": {Description: "VALIDATION_ERROR, MALFORMED_BODY"},
				"413": {Description: "PAYLOAD_TOO_LARGE"},
				"500": {Description: "PROCESS_DEPLOY_FAILED"},
				"502": {Description: "OPERATON_ERROR"},
			},
		}
		if deprecated {
			o.Deprecated = true
			o.Summary = "Deprecated alias of " + deployPath
			o.Description = "Answers `Deprecation: true` and `Link: <" + deployPath + ">; rel=\"successor-version\"`. " + o.Description
		}
		return o
	}
	r.Handle("POST", deployPath, a.auth.Guard(a.handleDeploy), op(false), httpapi.BodyLimit(maxDeployBody))
	r.Handle("POST", legacyDeployPath, a.auth.Guard(func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Deprecation", "true")
		w.Header().Set("Link", "<"+deployPath+`>; rel="successor-version"`)
		return a.handleDeploy(w, r)
	}), op(true), httpapi.BodyLimit(maxDeployBody))
}

// deployRequest is the body; raw members keep "absent" apart from "".
type deployRequest struct {
	BPMNXML        string `json:"bpmnXml"`
	DeploymentName string `json:"deploymentName"`
	Forms          []struct {
		ID     string          `json:"id"`
		Schema json.RawMessage `json:"schema"`
	} `json:"forms"`
	Documents []struct {
		ID       string          `json:"id"`
		Template json.RawMessage `json:"template"`
	} `json:"documents"`
	SubProcesses []struct {
		Filename string `json:"filename"`
		XML      string `json:"xml"`
	} `json:"subProcesses"`
	OperatonURL      string  `json:"operatonUrl"`
	OperatonUsername string  `json:"operatonUsername"`
	OperatonPassword string  `json:"operatonPassword"`
	BoardOwner       *string `json:"boardOwner"`
	Organization     string  `json:"organization"`
}

func fieldError(field, format string, args ...any) error {
	e := httpapi.NewError(http.StatusBadRequest, codeValidation, field+" "+fmt.Sprintf(format, args...))
	e.Details = map[string]string{"field": field}
	return e
}

// resourceName checks a caller-chosen resource name: it becomes a file name
// in the deployment.
func resourceName(field, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fieldError(field, "is required")
	case len(name) > maxResourceName:
		return fieldError(field, "must be at most %d bytes", maxResourceName)
	case strings.ContainsAny(name, `/\`) || strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fieldError(field, "must not contain slashes or control characters")
	}
	return nil
}

func isJSONObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// bundle validates the request and returns the deployment's resources.
func (req *deployRequest) bundle() ([]engine.Resource, error) {
	if strings.TrimSpace(req.BPMNXML) == "" {
		return nil, fieldError("bpmnXml", "is required")
	}
	if err := resourceName("deploymentName", req.DeploymentName); err != nil {
		return nil, err
	}
	if len(req.Forms) > maxBundleItems || len(req.Documents) > maxBundleItems || len(req.SubProcesses) > maxBundleItems {
		return nil, fieldError("forms, documents, subProcesses", "may hold at most %d items each", maxBundleItems)
	}
	names := map[string]string{} // resource name → field that named it
	use := func(field, name string) error {
		if prev, dup := names[name]; dup {
			return fieldError(field, "names the resource %q a second time (first %s)", excerpt(name, 64), prev)
		}
		names[name] = field
		return nil
	}
	main := req.DeploymentName + ".bpmn"
	_ = use("deploymentName", main)
	rs := []engine.Resource{{Name: main}} // data after tagging
	for i, s := range req.SubProcesses {
		f := fmt.Sprintf("subProcesses[%d].filename", i)
		if err := resourceName(f, s.Filename); err != nil {
			return nil, err
		}
		if strings.TrimSpace(s.XML) == "" {
			return nil, fieldError(fmt.Sprintf("subProcesses[%d].xml", i), "is required")
		}
		if err := use(f, s.Filename); err != nil {
			return nil, err
		}
		rs = append(rs, engine.Resource{Name: s.Filename, Data: []byte(s.XML)})
	}
	for i, f := range req.Forms {
		field := fmt.Sprintf("forms[%d].id", i)
		if err := resourceName(field, f.ID); err != nil {
			return nil, err
		}
		if !isJSONObject(f.Schema) {
			return nil, fieldError(fmt.Sprintf("forms[%d].schema", i), "must be an object")
		}
		if err := use(field, f.ID+".form"); err != nil {
			return nil, err
		}
		rs = append(rs, engine.Resource{Name: f.ID + ".form", Data: bytes.TrimSpace(f.Schema)})
	}
	for i, d := range req.Documents {
		field := fmt.Sprintf("documents[%d].id", i)
		if err := resourceName(field, d.ID); err != nil {
			return nil, err
		}
		if !isJSONObject(d.Template) {
			return nil, fieldError(fmt.Sprintf("documents[%d].template", i), "must be an object")
		}
		if err := use(field, d.ID+".document"); err != nil {
			return nil, err
		}
		rs = append(rs, engine.Resource{Name: d.ID + ".document", Data: bytes.TrimSpace(d.Template)})
	}
	if req.Organization != "" {
		if err := resourceName("organization", req.Organization); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// deployTarget is the configured engine, or the allow-listed engine the
// request names (with the request's credentials, used only there).
func (a *app) deployTarget(req *deployRequest) (engine.Decisions, error) {
	u := strings.TrimSpace(req.OperatonURL)
	if u == "" || (a.cfg.EngineURL != "" && u == a.cfg.EngineURL) {
		return a.engine, nil
	}
	if !slices.Contains(a.cfg.DeployEngineURLs, u) {
		return nil, fieldError("operatonUrl", "is not an allowed engine (DEPLOY_ALLOWED_ENGINE_URLS)")
	}
	c, err := operaton.New(operaton.Config{BaseURL: u, Username: req.OperatonUsername, Password: req.OperatonPassword,
		Timeout: a.cfg.EngineTimeout})
	if err != nil {
		return nil, fieldError("operatonUrl", "is not a usable engine URL")
	}
	return c, nil
}

func (a *app) handleDeploy(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	var req deployRequest
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	rs, err := req.bundle()
	if err != nil {
		return err
	}
	target, err := a.deployTarget(&req)
	if err != nil {
		return err
	}
	xml := req.BPMNXML
	owner := ""
	if req.BoardOwner == nil {
		owner = deriveBoardOwner(xml)
	} else {
		owner = strings.TrimSpace(*req.BoardOwner)
	}
	if owner != "" {
		if tagged, err := tagBoardOwner(xml, owner); err == nil {
			xml = tagged
		} // else: not XML; the engine's parse error is the answer
	}
	rs[0].Data = []byte(xml)
	ctx, cancel := a.engineContext(r)
	defer cancel()
	dep, err := target.Deploy(ctx, engine.NewDeployment{Name: req.DeploymentName, Source: deploymentSource,
		TenantID: req.Organization, Resources: rs})
	row := auditRow{Action: "process.deploy", ResourceType: "deployment", ResourceID: dep.ID,
		Details: map[string]any{"deploymentName": req.DeploymentName, "resourceCount": len(rs), "boardOwner": owner,
			"remoteEngine": target != engine.Decisions(a.engine)}}
	if err != nil {
		mapped := deployFailure(err)
		row.Failed = true
		var he *httpapi.Error
		if errors.As(mapped, &he) {
			row.ErrorMessage = he.Message
		}
		a.audit.record(r.Context(), r, p, row)
		return mapped
	}
	a.audit.record(r.Context(), r, p, row)
	return httpapi.WriteData(w, http.StatusOK, map[string]any{"deploymentId": dep.ID, "resourceCount": len(rs)})
}

// deployFailure: unreachable → 502 OPERATON_ERROR; a rejected bundle (a
// parse error, a full store) → 500 PROCESS_DEPLOY_FAILED with the engine's
// message.
func deployFailure(err error) error {
	var de *engine.DeploymentError
	var ee *engine.Error
	msg := ""
	switch {
	case errors.As(err, &de):
		msg = de.Error()
	case errors.As(err, &ee) && !(ee.Status >= 500 && ee.Message == ""):
		msg = ee.Message
	case errors.Is(err, engine.ErrStorageFull):
		msg = err.Error()
	default:
		return docsEngineFailure(err, codeDeployFailed, "Process deployment failed")
	}
	e := httpapi.NewError(http.StatusInternalServerError, codeDeployFailed, "Process deployment failed: "+excerpt(msg, 1000))
	e.Details = map[string]string{"engine": excerpt(msg, 1000)}
	return e
}

// deriveBoardOwner reads the candidate groups of the BPMN:
// infra groups win over caseworker groups; neither leaves it untagged.
func deriveBoardOwner(xml string) string {
	doc := etree.NewDocument()
	if doc.ReadFromString(xml) != nil || doc.Root() == nil {
		return ""
	}
	infra, casework := false, false
	stack := []*etree.Element{doc.Root()}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, at := range e.Attr {
			if at.Key != "candidateGroups" || at.NamespaceURI() != camundaNS {
				continue
			}
			for _, g := range strings.Split(at.Value, ",") {
				switch g = strings.TrimSpace(g); {
				case g == "infra-projectteam", g == "infra-medewerker", strings.HasPrefix(g, "rip-"):
					infra = true
				case g == "caseworker", g == "case-workers", g == "hr-medewerker":
					casework = true
				}
			}
		}
		stack = append(stack, e.ChildElements()...)
	}
	switch {
	case infra:
		return boardInfra
	case casework:
		return boardCaseworker
	}
	return ""
}

// prefixFor is the prefix the root binds to ns ("" for the default
// namespace), or false.
func prefixFor(root *etree.Element, ns string) (string, bool) {
	for _, at := range root.Attr {
		if at.Value != ns {
			continue
		}
		if at.Space == "xmlns" {
			return at.Key, true
		}
		if at.Space == "" && at.Key == "xmlns" {
			return "", true
		}
	}
	return "", false
}

func qualified(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// tagBoardOwner writes <camunda:property name="boardOwner" value=owner/>
// into camunda:properties inside each process's extensionElements (both
// created when absent, extensionElements after any documentation), replacing
// an existing boardOwner, and declares the camunda namespace when missing.
func tagBoardOwner(xml, owner string) (string, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromString(xml); err != nil {
		return "", err
	}
	root := doc.Root()
	if root == nil || root.NamespaceURI() != bpmnNS {
		return "", errors.New("not a BPMN definitions document")
	}
	bpmnPrefix := root.Space
	cam, ok := prefixFor(root, camundaNS)
	if !ok || cam == "" {
		cam = camundaPrefixWant
		for i := 1; ; i++ {
			if _, taken := prefixTaken(root, cam); !taken {
				break
			}
			cam = fmt.Sprintf("%s%d", camundaPrefixWant, i)
		}
		root.CreateAttr("xmlns:"+cam, camundaNS)
	}
	for _, proc := range root.ChildElements() {
		if proc.Tag != "process" || proc.NamespaceURI() != bpmnNS {
			continue
		}
		var ext *etree.Element
		insertAt := 0
		for _, c := range proc.ChildElements() {
			if c.NamespaceURI() != bpmnNS {
				continue
			}
			if c.Tag == "documentation" {
				insertAt = c.Index() + 1
			}
			if c.Tag == "extensionElements" && ext == nil {
				ext = c
			}
		}
		if ext == nil {
			ext = etree.NewElement(qualified(bpmnPrefix, "extensionElements"))
			proc.InsertChildAt(insertAt, ext)
		}
		var props *etree.Element
		for _, c := range ext.ChildElements() {
			if c.Tag == "properties" && c.NamespaceURI() == camundaNS {
				props = c
				break
			}
		}
		if props == nil {
			props = ext.CreateElement(qualified(cam, "properties"))
		}
		var prop *etree.Element
		for _, c := range props.ChildElements() {
			if c.Tag == "property" && c.NamespaceURI() == camundaNS && c.SelectAttrValue("name", "") == boardOwnerProp {
				prop = c
				break
			}
		}
		if prop == nil {
			prop = props.CreateElement(qualified(cam, "property"))
			prop.CreateAttr("name", boardOwnerProp)
		}
		prop.CreateAttr("value", owner)
	}
	return doc.WriteToString()
}

func prefixTaken(root *etree.Element, prefix string) (string, bool) {
	for _, at := range root.Attr {
		if at.Space == "xmlns" && at.Key == prefix {
			return at.Value, true
		}
	}
	return "", false
}
