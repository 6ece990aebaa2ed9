package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

func TestParseWriteVariables(t *testing.T) {
	vars, err := parseWriteVariables(json.RawMessage(`{"a": 1, "b": {"value": "1", "type": "Long"}, "c": {"value": 1, "type": "long"}}`))
	if err != nil || vars["a"].String() != "Integer(1)" || vars["b"].String() != "Long(1)" ||
		vars["c"].String() != `Json("{\"value\": 1, \"type\": \"long\"}")` && vars["c"].String() != `Json("{\"value\":1,\"type\":\"long\"}")` {
		t.Errorf("vars %v, %v", vars, err)
	}
	for _, v := range []string{``, `null`} {
		if vars, err := parseWriteVariables(json.RawMessage(v)); err != nil || len(vars) != 0 {
			t.Errorf("%q: %v %v", v, vars, err)
		}
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range maxWriteVariables + 1 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `"v%d": %d`, i, i)
	}
	many.WriteString("}")
	for _, bad := range []string{`[1]`, `"x"`, `5`, `{"x": {"value": "abc", "type": "Integer"}}`, `{"": 1}`,
		`{"` + strings.Repeat("n", maxVariableName+1) + `": 1}`, many.String()} {
		_, err := parseWriteVariables(json.RawMessage(bad))
		var e *httpapi.Error
		if !errors.As(err, &e) || e.Status != 400 || e.Code != "VALIDATION_ERROR" {
			t.Errorf("%.40q: %v, want 400 VALIDATION_ERROR", bad, err)
		}
	}
}

func TestRefuseReserved(t *testing.T) {
	vars := engine.Variables{"applicantId": engine.String("x"), "ok": engine.Null(), "edocsAuthorName": engine.Null()}
	var e *httpapi.Error
	if !errors.As(refuseReserved(vars, reservedVariables), &e) || e.Code != "RESERVED_VARIABLE" ||
		fmt.Sprint(e.Details) != "map[reserved:[applicantId edocsAuthorName]]" {
		t.Errorf("refusal %v", e)
	}
	if err := refuseReserved(vars, m2mStartReserved); err != nil {
		t.Errorf("applicantId is allowed on an m2m start: %v", err)
	}
	if err := refuseReserved(engine.Variables{"Municipality": engine.Null()}, reservedVariables); err != nil {
		t.Errorf("names match exactly: %v", err)
	}
}

func TestHintsOf(t *testing.T) {
	got := hintsOf([]engine.HistoricVariable{
		{Name: "b", Value: engine.Variable{Type: engine.TypeInteger}}, {Name: "a", Value: engine.Variable{}},
		{Name: "b", Value: engine.Variable{Type: engine.TypeDouble}}, {Name: "B", Value: engine.Variable{Type: engine.TypeBoolean}},
	})
	if fmt.Sprint(got) != "[{B Boolean} {a String} {b Double}]" {
		t.Errorf("hints %v", got)
	}
}
