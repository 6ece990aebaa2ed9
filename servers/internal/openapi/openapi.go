package openapi

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// Document is an OpenAPI 3.1 document.
type Document struct {
	OpenAPI    string              `json:"openapi"`
	Info       Info                `json:"info"`
	Servers    []Server            `json:"servers,omitempty"`
	Tags       []Tag               `json:"tags,omitempty"`
	Paths      map[string]PathItem `json:"paths"`
	Components *Components         `json:"components,omitempty"`
	// DefaultResponse, when set, is added as the "default" response of every
	// operation added later that does not declare one (the error envelope).
	DefaultResponse *Response             `json:"-"`
	ops             map[string]*Operation // "METHOD path" -> operation, for lookups
}

// Info is the document's info object.
type Info struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	License     *struct {
		Name       string `json:"name"`
		Identifier string `json:"identifier,omitempty"`
	} `json:"license,omitempty"`
}

// Server is one entry of the servers list.
type Server struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// Tag groups operations.
type Tag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Components holds reusable schemas.
type Components struct {
	Schemas map[string]Schema `json:"schemas,omitempty"`
}

// PathItem maps a lower-case HTTP method to its operation.
type PathItem map[string]*Operation

// Operation describes one method on one path.
type Operation struct {
	OperationID string              `json:"operationId,omitempty"`
	Summary     string              `json:"summary,omitempty"`
	Description string              `json:"description,omitempty"`
	Tags        []string            `json:"tags,omitempty"`
	Deprecated  bool                `json:"deprecated,omitempty"`
	Parameters  []Parameter         `json:"parameters,omitempty"`
	RequestBody *RequestBody        `json:"requestBody,omitempty"`
	Responses   map[string]Response `json:"responses"`
}

// Parameter is a path, query or header parameter.
type Parameter struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Schema      Schema `json:"schema,omitempty"`
}

// RequestBody is an operation's request body.
type RequestBody struct {
	Description string               `json:"description,omitempty"`
	Required    bool                 `json:"required,omitempty"`
	Content     map[string]MediaType `json:"content"`
}

// Response is one response of an operation.
type Response struct {
	Description string               `json:"description"`
	Headers     map[string]Header    `json:"headers,omitempty"`
	Content     map[string]MediaType `json:"content,omitempty"`
}

// Header describes a response header.
type Header struct {
	Description string `json:"description,omitempty"`
	Schema      Schema `json:"schema,omitempty"`
}

// MediaType carries a schema for one content type.
type MediaType struct {
	Schema Schema `json:"schema,omitempty"`
}

// Schema is a JSON Schema object (OpenAPI 3.1 uses JSON Schema 2020-12).
type Schema map[string]any

// New returns an empty document.
func New(title, version, description string) *Document {
	return &Document{
		OpenAPI: "3.1.0",
		Info:    Info{Title: title, Version: version, Description: description},
		Paths:   map[string]PathItem{},
		ops:     map[string]*Operation{},
	}
}

var pathParam = regexp.MustCompile(`\{([^}:]+)(?::[^}]*)?\}`)

// PathParams returns the names of the {name} segments of a path template.
func PathParams(path string) []string {
	var names []string
	for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
		names = append(names, m[1])
	}
	return names
}

// Add records op for method and path. Path parameters the operation does not
// declare are added as required strings; an operation without an id gets
// one derived from method and path.
func (d *Document) Add(method, path string, op Operation) {
	method = strings.ToLower(method)
	declared := map[string]bool{}
	for _, p := range op.Parameters {
		if p.In == "path" {
			declared[p.Name] = true
		}
	}
	var params []Parameter
	for _, name := range PathParams(path) {
		if !declared[name] {
			params = append(params, Parameter{Name: name, In: "path", Required: true, Schema: String("")})
		}
	}
	op.Parameters = append(params, op.Parameters...)
	if op.OperationID == "" {
		op.OperationID = operationID(method, path)
	}
	responses := map[string]Response{}
	for k, v := range op.Responses {
		responses[k] = v
	}
	if _, ok := responses["default"]; !ok && d.DefaultResponse != nil {
		responses["default"] = *d.DefaultResponse
	}
	op.Responses = responses
	item := d.Paths[path]
	if item == nil {
		item = PathItem{}
		d.Paths[path] = item
	}
	stored := op
	item[method] = &stored
	d.ops[strings.ToUpper(method)+" "+path] = &stored
}

// Has reports whether the document describes method on path.
func (d *Document) Has(method, path string) bool {
	_, ok := d.ops[strings.ToUpper(method)+" "+path]
	return ok
}

// Operation returns the operation for method and path, or nil.
func (d *Document) Operation(method, path string) *Operation {
	return d.ops[strings.ToUpper(method)+" "+path]
}

// AddSchema registers a reusable component schema and returns a $ref to it.
func (d *Document) AddSchema(name string, s Schema) Schema {
	if d.Components == nil {
		d.Components = &Components{Schemas: map[string]Schema{}}
	}
	d.Components.Schemas[name] = s
	return Ref(name)
}

// MarshalJSON writes the document with paths in sorted order (encoding/json
// sorts map keys, which gives a stable document).
func (d *Document) MarshalJSON() ([]byte, error) {
	type plain Document
	return json.Marshal((*plain)(d))
}

// Methods lists "METHOD path" for every operation, sorted.
func (d *Document) Methods() []string {
	var out []string
	for k := range d.ops {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(method)
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '-' || r == '.' }) {
		part = strings.Trim(part, "{}")
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(part[1:])
	}
	return b.String()
}

// Ref refers to a component schema.
func Ref(name string) Schema { return Schema{"$ref": "#/components/schemas/" + name} }

// String is a string schema with an optional description.
func String(description string) Schema { return withDesc(Schema{"type": "string"}, description) }

// Enum is a string schema restricted to values.
func Enum(description string, values ...string) Schema {
	return withDesc(Schema{"type": "string", "enum": values}, description)
}

// Boolean is a boolean schema.
func Boolean(description string) Schema { return withDesc(Schema{"type": "boolean"}, description) }

// Number is a number schema.
func Number(description string) Schema { return withDesc(Schema{"type": "number"}, description) }

// Integer is an integer schema.
func Integer(description string) Schema { return withDesc(Schema{"type": "integer"}, description) }

// Nullable allows null besides s's type.
func Nullable(s Schema) Schema {
	out := Schema{}
	for k, v := range s {
		out[k] = v
	}
	if t, ok := s["type"].(string); ok {
		out["type"] = []string{t, "null"}
	}
	return out
}

// Array is an array schema of items.
func Array(items Schema, description string) Schema {
	return withDesc(Schema{"type": "array", "items": items}, description)
}

// Object is an object schema with the given properties; required names the
// mandatory ones.
func Object(props map[string]Schema, required ...string) Schema {
	s := Schema{"type": "object"}
	if len(props) > 0 {
		p := map[string]any{}
		for k, v := range props {
			p[k] = v
		}
		s["properties"] = p
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// AnyObject is an object schema with arbitrary members.
func AnyObject(description string) Schema {
	return withDesc(Schema{"type": "object", "additionalProperties": true}, description)
}

// Describe returns a copy of s with a description.
func Describe(s Schema, description string) Schema {
	out := Schema{}
	for k, v := range s {
		out[k] = v
	}
	return withDesc(out, description)
}

func withDesc(s Schema, description string) Schema {
	if description != "" {
		s["description"] = description
	}
	return s
}

// JSON returns a content map for application/json with schema s.
func JSON(s Schema) map[string]MediaType {
	return map[string]MediaType{"application/json": {Schema: s}}
}

// Body is a required JSON request body.
func Body(s Schema, description string) *RequestBody {
	return &RequestBody{Description: description, Required: true, Content: JSON(s)}
}

// Query is an optional or required query parameter of type string.
func Query(name, description string, required bool) Parameter {
	return Parameter{Name: name, In: "query", Description: description, Required: required, Schema: String("")}
}

const timestampDescription = "ISO 8601 UTC with milliseconds"

// Envelope is the schema of a success envelope {success, data, timestamp}
// around data.
func Envelope(data Schema) Schema {
	return Object(map[string]Schema{
		"success":   Boolean("always true"),
		"data":      data,
		"timestamp": String(timestampDescription),
	}, "success", "data", "timestamp")
}

// ErrorEnvelope is the schema of a failure envelope {success:false,
// error:{code, message, details?}, timestamp}; codes, when given, restrict
// error.code.
func ErrorEnvelope(codes ...string) Schema {
	code := String("error code")
	if len(codes) > 0 {
		code = Enum("error code", codes...)
	}
	return Object(map[string]Schema{
		"success": Boolean("always false"),
		"error": Object(map[string]Schema{
			"code":    code,
			"message": String("what went wrong, naming the field, parameter, model or operation"),
			"details": AnyObject("optional structured details"),
		}, "code", "message"),
		"timestamp": String(timestampDescription),
	}, "success", "error", "timestamp")
}

// Failure is a response carrying the failure envelope with the given codes.
func Failure(description string, codes ...string) Response {
	return Response{Description: description, Content: JSON(ErrorEnvelope(codes...))}
}

// Success is a 2xx response carrying the success envelope around data.
func Success(description string, data Schema) Response {
	return Response{Description: description, Content: JSON(Envelope(data))}
}
