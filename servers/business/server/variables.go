package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

const (
	codeReservedVariable = "RESERVED_VARIABLE"
	// maxWriteVariables bounds the variables of one start or completion:
	// every variable becomes a history row, so a 1 MB body of tiny
	// variables must not turn into tens of thousands of rows.
	maxWriteVariables = 1000
	// maxVariableName bounds a variable name (Operaton's column is 255).
	maxVariableName = 255
)

// Process variables the server stamps itself and that no client writes
// at task completion. municipality is the only tenant label,
// applicantId admits a citizen to reads, edocsAuthor* name the
// document-management author.
const (
	varMunicipality     = "municipality"
	varOriginTenant     = "originTenantId"
	varApplicantID      = "applicantId"
	varInitiator        = "initiator"
	varOrganisationType = "organisationType"
	varAssuranceLevel   = "assuranceLevel"
)

var reservedVariables = []string{varMunicipality, varOriginTenant, varApplicantID, "edocsAuthor", "edocsAuthorName"}

// m2mStartReserved are the names a machine client may not set on start:
// the tenant label and the channel; applicantId is allowed.
var m2mStartReserved = []string{varMunicipality, varOriginTenant}

// writeBody is the body of a start or a completion. Each field is decoded
// by hand so that a value of the wrong JSON type names its field.
type writeBody struct {
	BusinessKey json.RawMessage `json:"businessKey"`
	Variables   json.RawMessage `json:"variables"`
	Reason      json.RawMessage `json:"reason"`
	UserID      json.RawMessage `json:"userId"`
}

// readWriteBody decodes a JSON object body; an empty body is {}.
func readWriteBody(r *http.Request) (writeBody, error) {
	var raw json.RawMessage
	var b writeBody
	if err := httpapi.DecodeJSON(r, &raw); err != nil {
		return b, err
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return b, nil
	}
	if raw[0] != '{' {
		return b, httpapi.NewError(http.StatusBadRequest, codeValidation, "the body must be a JSON object")
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return b, httpapi.NewError(http.StatusBadRequest, httpapi.CodeMalformedBody, "malformed JSON body")
	}
	return b, nil
}

// optionalString reads a string field: absent or null → "", another JSON
// type → 400 VALIDATION_ERROR naming the field.
func optionalString(raw json.RawMessage, field string, maxLen int) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", httpapi.Errorf(http.StatusBadRequest, codeValidation, "%s must be a string", field)
	}
	if len(s) > maxLen {
		return "", httpapi.Errorf(http.StatusBadRequest, codeValidation, "%s is longer than %d bytes", field, maxLen)
	}
	return s, nil
}

// parseWriteVariables reads the variables of a write: absent or null → an
// empty map; not an object → 400 VALIDATION_ERROR. Each value is plain JSON
// (typed by inference) or an exact {value, type[, valueInfo]} wrapper with a
// known type, passed through. A plain object that looks
// exactly like such a wrapper is therefore read as one: clients wanting
// the object stored as Json wrap it themselves ({"value": "…", "type": "Json"}).
func parseWriteVariables(raw json.RawMessage) (engine.Variables, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return engine.Variables{}, nil
	}
	if raw[0] != '{' {
		return nil, httpapi.NewError(http.StatusBadRequest, codeValidation, "variables must be an object")
	}
	// Count before typing: typing 10,000 values to refuse them wastes work.
	var names map[string]json.RawMessage
	if err := json.Unmarshal(raw, &names); err != nil {
		return nil, httpapi.NewError(http.StatusBadRequest, httpapi.CodeMalformedBody, "malformed JSON body")
	}
	if len(names) > maxWriteVariables {
		return nil, httpapi.Errorf(http.StatusBadRequest, codeValidation,
			"variables holds %d entries; at most %d are accepted", len(names), maxWriteVariables)
	}
	for name := range names {
		if name == "" || len(name) > maxVariableName {
			return nil, httpapi.Errorf(http.StatusBadRequest, codeValidation,
				"variable names must be 1 to %d bytes long", maxVariableName)
		}
	}
	vars, err := engine.ParseValues(raw)
	if err != nil {
		var ve *engine.VariableError
		if errors.As(err, &ve) {
			return nil, httpapi.NewError(http.StatusBadRequest, codeValidation, httpapi.Excerpt(ve.Error(), 300))
		}
		return nil, httpapi.NewError(http.StatusBadRequest, codeValidation, "variables cannot be read")
	}
	return vars, nil
}

// refuseReserved answers 400 RESERVED_VARIABLE with details.reserved when
// vars names any of reserved (exact match).
func refuseReserved(vars engine.Variables, reserved []string) error {
	var found []string
	for _, name := range reserved {
		if _, ok := vars[name]; ok {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return nil
	}
	return &httpapi.Error{Status: http.StatusBadRequest, Code: codeReservedVariable,
		Message: fmt.Sprintf("Reserved variables cannot be set: %v", found),
		Details: map[string]any{"reserved": found}}
}

// plainVariables unwraps a variable map for a response: {name: value},
// Json parsed, Null as null: every read unwraps.
func plainVariables(vars engine.Variables) map[string]any {
	out := make(map[string]any, len(vars))
	for name, v := range vars {
		out[name] = v.Plain()
	}
	return out
}

// variableHint is one entry of variable-hints.
type variableHint struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// hintsOf deduplicates historic variables by name: the last type seen
// wins, a missing type is String; sorted by name in byte order.
func hintsOf(vars []engine.HistoricVariable) []variableHint {
	types := map[string]string{}
	for _, v := range vars {
		t := string(v.Value.Type)
		if t == "" {
			t = string(engine.TypeString)
		}
		types[v.Name] = t
	}
	out := make([]variableHint, 0, len(types))
	for name, t := range types {
		out = append(out, variableHint{Name: name, Type: t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
