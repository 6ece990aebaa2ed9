package shaclapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/servers/internal/upstream"
	"github.com/regelkit/regelkit/shacl/layered"
	"github.com/regelkit/regelkit/sparql"
)

// The routes.
const (
	ValidatePath = "/v1/shacl/validate"
	MergedPath   = "/v1/shacl/validate-merged"
)

// codeQueryError is the envelope code of a failed SPARQL read.
const codeQueryError = "QUERY_ERROR"

// Deps are what the handlers need.
type Deps struct {
	// Checker holds the compiled layers (layered.Builtin()).
	Checker *layered.Checker
	// Default is the configured knowledge graph, used by merged mode when
	// the request names no endpoint; nil when none is configured.
	Default sparql.Endpoint
	// Resolve turns a caller-named endpoint URL into an endpoint, applying
	// the outbound policy. A refusal should be an *httpapi.Error (400
	// INVALID_REQUEST); any other error is answered as 400 INVALID_REQUEST
	// with its text. Nil refuses every caller-named endpoint.
	Resolve func(ctx context.Context, url string) (sparql.Endpoint, error)
}

// Register mounts both routes on r with the 10 MB body limit. A nil
// Checker is a wiring mistake and panics here rather than on a request.
func Register(r *httpapi.Router, deps Deps) {
	if deps.Checker == nil {
		panic("shaclapi: Register needs a Checker (layered.Builtin())")
	}
	h := &handlers{deps: deps}
	r.Handle(http.MethodPost, ValidatePath, h.validate, validateOperation(), httpapi.BodyLimit(httpapi.DefaultMaxBodyBytes))
	r.Handle(http.MethodPost, MergedPath, h.validateMerged, mergedOperation(), httpapi.BodyLimit(httpapi.DefaultMaxBodyBytes))
}

// HealthExtra returns the function for health.Checker.Extra that adds
// `shacl: {complete, layers: {<key>: {label, loaded}}}` to the health body.
func HealthExtra(c *layered.Checker) func() map[string]any {
	return func() map[string]any { return map[string]any{"shacl": c.State()} }
}

type handlers struct {
	deps Deps
}

type request struct {
	Content  *string `json:"content"`
	Endpoint *string `json:"endpoint"`
}

func decode(r *http.Request) (request, error) {
	var req request
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return req, err
	}
	if req.Content == nil {
		return req, httpapi.InvalidRequest("content is required: a string holding the Turtle document")
	}
	return req, nil
}

func (h *handlers) validate(w http.ResponseWriter, r *http.Request) error {
	req, err := decode(r)
	if err != nil {
		return err
	}
	res, err := h.deps.Checker.CheckTurtle(r.Context(), *req.Content)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, res)
}

func (h *handlers) validateMerged(w http.ResponseWriter, r *http.Request) error {
	req, err := decode(r)
	if err != nil {
		return err
	}
	var src layered.Source
	if h.deps.Default != nil {
		src = h.deps.Default
	}
	if req.Endpoint != nil && strings.TrimSpace(*req.Endpoint) != "" {
		if h.deps.Resolve == nil {
			return httpapi.InvalidRequest("endpoint: caller-named SPARQL endpoints are not accepted by this server")
		}
		ep, err := h.deps.Resolve(r.Context(), strings.TrimSpace(*req.Endpoint))
		if err != nil {
			var apiErr *httpapi.Error
			if errors.As(err, &apiErr) {
				return apiErr
			}
			return httpapi.InvalidRequest("endpoint: %v", err)
		}
		src = ep
	}
	res, err := h.deps.Checker.CheckMerged(r.Context(), *req.Content, src)
	var qe *layered.QueryError
	var ie *layered.IRIError
	switch {
	case errors.Is(err, layered.ErrNoEndpoint):
		return httpapi.InvalidRequest("no SPARQL endpoint configured: name one in endpoint")
	case errors.As(err, &ie):
		return httpapi.InvalidRequest("%v", ie)
	case errors.As(err, &qe):
		return upstream.SPARQLError(codeQueryError, "reading the published triples failed", qe.Err)
	case err != nil:
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, res)
}

// Schemas of the OpenAPI description.

func resultSchema() openapi.Schema {
	issue := openapi.Object(map[string]openapi.Schema{
		"severity": openapi.Enum("sh:Violation → error, sh:Warning → warning, sh:Info → info", "error", "warning", "info"),
		"code":     openapi.String("SHACL-<COMPONENT>, e.g. SHACL-MINCOUNT, SHACL-MAXCOUNT, SHACL-UNIQUELANG, SHACL-DATATYPE, SHACL-CLASS"),
		"message":  openapi.String("the shape's sh:message values joined by \"; \" (else the code); when the focus node has several values on the path, \" Found N values: v1, v2.\" lists every one in full"),
		"location": openapi.String("the focus node (IRI in full, blank node as _:label) and the path, compacted with foaf, skos, dct, cv, ronl, sh"),
	}, "severity", "code", "message")
	layer := func(label string) openapi.Schema {
		return openapi.Object(map[string]openapi.Schema{
			"label":  openapi.Enum("", label),
			"loaded": openapi.Boolean("false when the layer has no shape files; it was not evaluated and the result is not valid"),
			"issues": openapi.Array(issue, ""),
		}, "label", "loaded", "issues")
	}
	return openapi.Object(map[string]openapi.Schema{
		"valid":      openapi.Boolean("no parse error, no error-severity issue and every layer loaded"),
		"parseError": openapi.Nullable(openapi.String("the Turtle syntax error with line and column; null when the file parsed")),
		"layers": openapi.Object(map[string]openapi.Schema{
			layered.KeyCPSVAP: layer(layered.LabelCPSVAP),
			layered.KeyCPRMV:  layer(layered.LabelCPRMV),
			layered.KeyCustom: layer(layered.LabelCustom),
		}, layered.KeyCPSVAP, layered.KeyCPRMV, layered.KeyCustom),
		"summary": openapi.Object(map[string]openapi.Schema{
			"errors":   openapi.Integer(""),
			"warnings": openapi.Integer(""),
			"infos":    openapi.Integer(""),
		}, "errors", "warnings", "infos"),
		"complete": openapi.Boolean("every layer loaded"),
	}, "valid", "parseError", "layers", "summary", "complete")
}

func envelope() openapi.Schema {
	return openapi.Object(map[string]openapi.Schema{
		"success":   openapi.Boolean("always true"),
		"data":      resultSchema(),
		"timestamp": openapi.String("ISO 8601 UTC with milliseconds"),
	}, "success", "data", "timestamp")
}

func failure() openapi.Schema {
	return openapi.Object(map[string]openapi.Schema{
		"success": openapi.Boolean("always false"),
		"error": openapi.Object(map[string]openapi.Schema{
			"code":    openapi.String(""),
			"message": openapi.String(""),
		}, "code", "message"),
		"timestamp": openapi.String("ISO 8601 UTC with milliseconds"),
	}, "success", "error", "timestamp")
}

const layersDescription = "Three layers, each validated separately with SHACL Core: `cpsv-ap` (CPSV-AP 3.2.0, 32 node shapes), " +
	"`cprmv` (CPRMV 0.4.1, 20 node shapes incl. ParameterWaardeShape and TemporalRuleShape) and `custom` (publishing " +
	"invariants: one homepage, identifier and cv:spatial per organisation, one label per language; one rule title and " +
	"description per language). A Turtle syntax error is reported in data.parseError (HTTP 200), not as a failure."

func validateOperation() openapi.Operation {
	return openapi.Operation{
		OperationID: "validateShacl",
		Summary:     "Validate Turtle against the layered SHACL shapes, exactly as written",
		Description: layersDescription,
		Tags:        []string{"validation"},
		RequestBody: openapi.Body(openapi.Object(map[string]openapi.Schema{
			"content": openapi.String("the Turtle document"),
		}, "content"), "the Turtle to validate; the whole body at most 10 MB"),
		Responses: map[string]openapi.Response{
			"200": {Description: "the layered result", Content: openapi.JSON(envelope())},
			"400": {Description: "INVALID_REQUEST: content missing or not a string; MALFORMED_BODY: the body is no JSON", Content: openapi.JSON(failure())},
			"413": {Description: "PAYLOAD_TOO_LARGE: the body exceeds 10 MB", Content: openapi.JSON(failure())},
		},
	}
}

func mergedOperation() openapi.Operation {
	return openapi.Operation{
		OperationID: "validateShaclMerged",
		Summary:     "Validate Turtle merged with what is already published",
		Description: layersDescription + " Before validating, the triples already published for the file's IRI subjects " +
			"(their direct triples and one level of blank-node closure) are read from the SPARQL endpoint with read-only " +
			"CONSTRUCT queries (200 subjects each) and added to the file; nothing is ever written. The endpoint is `endpoint` " +
			"or the configured default. A MAXCOUNT issue here usually means the file's value differs from the published one.",
		Tags: []string{"validation"},
		RequestBody: openapi.Body(openapi.Object(map[string]openapi.Schema{
			"content":  openapi.String("the Turtle document"),
			"endpoint": openapi.String("SPARQL endpoint URL; the configured default when omitted"),
		}, "content"), "the Turtle to validate; the whole body at most 10 MB"),
		Responses: map[string]openapi.Response{
			"200": {Description: "the layered result over the union", Content: openapi.JSON(envelope())},
			"400": {Description: "INVALID_REQUEST: content missing or not a string, endpoint refused by the outbound policy, " +
				"no endpoint configured, or a subject IRI that cannot be queried; MALFORMED_BODY: the body is no JSON", Content: openapi.JSON(failure())},
			"413": {Description: "PAYLOAD_TOO_LARGE: the body exceeds 10 MB", Content: openapi.JSON(failure())},
			"502": {Description: "QUERY_ERROR: reading or parsing the published triples failed", Content: openapi.JSON(failure())},
			"504": {Description: "QUERY_ERROR: the endpoint did not answer in time", Content: openapi.JSON(failure())},
		},
	}
}
