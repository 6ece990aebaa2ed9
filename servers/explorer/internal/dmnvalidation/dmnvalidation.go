package dmnvalidation

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/regelkit/regelkit/dmn/validate"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Path is the route of the validation endpoint.
const Path = "/v1/dmns/validate"

// Register mounts POST /v1/dmns/validate on r with the 10 MB body limit of
// the specification.
func Register(r *httpapi.Router) {
	r.Handle(http.MethodPost, Path, handle, operation(), httpapi.BodyLimit(httpapi.DefaultMaxBodyBytes))
}

type request struct {
	Content *string `json:"content"`
}

func handle(w http.ResponseWriter, r *http.Request) error {
	var req request
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	if req.Content == nil {
		return httpapi.InvalidRequest("content is required: a string holding the DMN XML")
	}
	return httpapi.WriteData(w, http.StatusOK, validate.Validate([]byte(*req.Content)))
}

func operation() openapi.Operation {
	issue := openapi.Object(map[string]openapi.Schema{
		"severity": openapi.Enum("", "error", "warning", "info"),
		"code":     openapi.String("issue code, see the table in the operation description"),
		"message":  openapi.String("what is wrong, naming the element, rule or cell"),
		"location": openapi.Nullable(openapi.String(`element path, e.g. <decision id="d1"> > <rule id="r3">; null for document-wide issues`)),
		"line":     openapi.Nullable(openapi.Integer("1-based line of the element's start tag, or of the XML parse error")),
		"column":   openapi.Nullable(openapi.Integer("1-based column in bytes")),
	}, "severity", "code", "message", "location", "line", "column")
	layer := func(label string) openapi.Schema {
		return openapi.Object(map[string]openapi.Schema{
			"label":  openapi.Enum("", label),
			"issues": openapi.Array(issue, ""),
		}, "label", "issues")
	}
	report := openapi.Object(map[string]openapi.Schema{
		"valid":      openapi.Boolean("true when the XML parsed and no issue is an error"),
		"parseError": openapi.Nullable(openapi.String("the XML parse failure (with line and column), null when the document parsed")),
		"layers": openapi.Object(map[string]openapi.Schema{
			"base":        layer(validate.LayerBase.Label()),
			"business":    layer(validate.LayerBusiness.Label()),
			"execution":   layer(validate.LayerExecution.Label()),
			"interaction": layer(validate.LayerInteraction.Label()),
			"content":     layer(validate.LayerContent.Label()),
		}, "base", "business", "execution", "interaction", "content"),
		"summary": openapi.Object(map[string]openapi.Schema{
			"errors":   openapi.Integer(""),
			"warnings": openapi.Integer(""),
			"infos":    openapi.Integer(""),
		}, "errors", "warnings", "infos"),
	}, "valid", "parseError", "layers", "summary")
	envelope := openapi.Object(map[string]openapi.Schema{
		"success":   openapi.Boolean("always true"),
		"data":      report,
		"timestamp": openapi.String("ISO 8601 UTC with milliseconds"),
	}, "success", "data", "timestamp")
	failure := openapi.Object(map[string]openapi.Schema{
		"success": openapi.Boolean("always false"),
		"error": openapi.Object(map[string]openapi.Schema{
			"code":    openapi.String(""),
			"message": openapi.String(""),
		}, "code", "message"),
		"timestamp": openapi.String("ISO 8601 UTC with milliseconds"),
	}, "success", "error", "timestamp")
	return openapi.Operation{
		OperationID: "validateDmn",
		Summary:     "Validate DMN XML in five layers",
		Description: description(),
		Tags:        []string{"validation"},
		RequestBody: openapi.Body(openapi.Object(map[string]openapi.Schema{
			"content": openapi.String("the DMN XML document"),
		}, "content"), "the DMN XML to validate; the whole body at most 10 MB"),
		Responses: map[string]openapi.Response{
			"200": {Description: "the validation report; problems of the model, a parse error included, are issues, not failures",
				Content: openapi.JSON(envelope)},
			"400": {Description: "INVALID_REQUEST: content missing or not a string; MALFORMED_BODY: the body is no JSON",
				Content: openapi.JSON(failure)},
			"413": {Description: "PAYLOAD_TOO_LARGE: the body exceeds 10 MB", Content: openapi.JSON(failure)},
		},
	}
}

// description documents the layers and every issue code from the code
// table of dmn/validate, so the document cannot drift from the checks.
func description() string {
	var b strings.Builder
	b.WriteString("Unauthenticated. Checks the DMN XML in `content` in five layers: 1 structure (`base`, ")
	b.WriteString("Base DMN), 2 decision tables (`business`, Business Rules), 3 CPRMV extension attributes ")
	b.WriteString("(`execution`, Execution Rules), 4 the decision requirements diagram (`interaction`, ")
	b.WriteString("Interaction Rules), 5 metadata quality (`content`, Content). A layer-1 failure skips ")
	b.WriteString("layers 2–5. The XML is parsed without DTDs or entity expansion, at most ")
	fmt.Fprintf(&b, "%d levels deep. Accepted root namespaces: %s.\n\n", validate.MaxDepth, strings.Join(validate.AcceptedNamespaces(), ", "))
	b.WriteString("| code | severity | layer | rule |\n|---|---|---|---|\n")
	for _, c := range validate.Codes() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.Code, c.Severity, c.Layer, c.Rule)
	}
	return b.String()
}
