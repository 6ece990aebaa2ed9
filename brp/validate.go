package brp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// QueryType is the one query the lookup accepts.
const QueryType = "RaadpleegMetBurgerservicenummer"

// MaxDepth is the deepest nesting of arrays and objects Validate accepts in
// a body; the lookup needs two levels, so 32 leaves room for forwarded
// extension members while a hostile body cannot make the decoder recurse.
const MaxDepth = 32

// maxFields bounds the fields array: nine top-level fields and their
// sub-paths fit well below it.
const maxFields = 100

// maxInvalidParams bounds how many problems one answer lists, so a body with
// a million bad fields gets a short answer.
const maxInvalidParams = 10

// Fields are the top-level fields a lookup may ask for (spec §4.13).
var Fields = []string{
	"burgerservicenummer", "naam", "geboorte", "leeftijd", "partners",
	"kinderen", "geslacht", "nationaliteiten", "verblijfplaats",
}

// Request is a validated lookup body.
type Request struct {
	Type   string   // always QueryType
	BSN    string   // the one citizen number asked for (nine digits)
	Fields []string // the requested fields, as sent
	// Body is the body as received; it is forwarded unchanged, so members
	// Validate does not know reach the register as the client wrote them.
	Body []byte
}

// InvalidParam is one problem of a body, in Haal Centraal's invalidParams
// shape. Name is the member ("burgerservicenummer[0]"); Code is
// machine-readable ("required", "pattern", "maxItems", …); Reason is a
// sentence. None of them quotes the value, which may be a citizen number.
type InvalidParam struct {
	Name   string `json:"name"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// ValidationError reports a well-formed JSON body that is not a valid lookup
// (400 VALIDATION_ERROR). Params holds at most ten problems, in body order.
type ValidationError struct {
	Params []InvalidParam
}

func (e *ValidationError) Error() string {
	if len(e.Params) == 0 {
		return "brp: invalid lookup body"
	}
	p := e.Params[0]
	return "brp: invalid lookup body: " + p.Name + ": " + p.Reason
}

// Detail is the problem's detail sentence: the first problem.
func (e *ValidationError) Detail() string {
	if len(e.Params) == 0 {
		return "The request body is not a valid lookup."
	}
	return e.Params[0].Name + ": " + e.Params[0].Reason
}

// SyntaxError reports a body that is not one JSON value, or that nests
// deeper than MaxDepth (400 MALFORMED_BODY). Line and Column are 1-based.
type SyntaxError struct {
	Line, Column int
	Reason       string // without the position, never quoting the body
}

func (e *SyntaxError) Error() string { return "brp: " + e.describe() }

// describe is the error without the package prefix, for answers.
func (e *SyntaxError) describe() string {
	return fmt.Sprintf("malformed JSON body at line %d, column %d: %s", e.Line, e.Column, e.Reason)
}

// Validate checks a lookup body: a JSON object with
// type RaadpleegMetBurgerservicenummer, burgerservicenummer an array of
// exactly one nine-digit string, and fields a non-empty array of known
// fields or dotted sub-paths of them. It returns *SyntaxError for a body
// that is not JSON and *ValidationError for one that is not a lookup.
// Validate reads the body it is given; callers bound its size.
func Validate(body []byte) (*Request, error) {
	if err := checkDepth(body); err != nil {
		return nil, err
	}
	members, err := topLevel(body)
	if err != nil {
		return nil, err
	}
	var v validator
	req := &Request{Body: body}

	switch raw, ok := members["type"]; {
	case !ok:
		v.add("type", "required", "Parameter is required.")
	default:
		var s string
		if json.Unmarshal(raw, &s) != nil || s != QueryType {
			v.add("type", "value", "Value must be "+QueryType+".")
		} else {
			req.Type = s
		}
	}

	switch raw, ok := members["burgerservicenummer"]; {
	case !ok:
		v.add("burgerservicenummer", "required", "Parameter is required.")
	default:
		items, isArray := arrayOf(raw)
		switch {
		case !isArray:
			v.add("burgerservicenummer", "array", "Parameter must be an array.")
		case len(items) == 0:
			v.add("burgerservicenummer", "minItems", "Array must hold one item.")
		case len(items) > 1:
			v.add("burgerservicenummer", "maxItems", "Array must hold one item.")
		default:
			var s string
			if json.Unmarshal(items[0], &s) != nil {
				v.add("burgerservicenummer[0]", "string", "Value must be a string.")
			} else if !nineDigits(s) {
				v.add("burgerservicenummer[0]", "pattern", "Value does not match the pattern ^[0-9]{9}$.")
			} else {
				req.BSN = s
			}
		}
	}

	switch raw, ok := members["fields"]; {
	case !ok:
		v.add("fields", "required", "Parameter is required.")
	default:
		items, isArray := arrayOf(raw)
		switch {
		case !isArray:
			v.add("fields", "array", "Parameter must be an array.")
		case len(items) == 0:
			v.add("fields", "minItems", "Array must hold at least one item.")
		case len(items) > maxFields:
			v.add("fields", "maxItems", fmt.Sprintf("Array must hold at most %d items.", maxFields))
		default:
			for i, item := range items {
				name := fmt.Sprintf("fields[%d]", i)
				var s string
				if json.Unmarshal(item, &s) != nil {
					v.add(name, "string", "Value must be a string.")
				} else if !knownField(s) {
					v.add(name, "fields", "Parameter names a field that does not exist.")
				} else {
					req.Fields = append(req.Fields, s)
				}
			}
		}
	}

	if len(v.params) > 0 {
		return nil, &ValidationError{Params: v.params}
	}
	return req, nil
}

type validator struct{ params []InvalidParam }

func (v *validator) add(name, code, reason string) {
	if len(v.params) < maxInvalidParams {
		v.params = append(v.params, InvalidParam{Name: name, Code: code, Reason: reason})
	}
}

// checkDepth scans the body once, without recursion, and refuses nesting
// deeper than MaxDepth before any decoder sees it.
func checkDepth(body []byte) error {
	depth, inString, escaped := 0, false, false
	for i, b := range body {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			if depth > MaxDepth {
				line, col := position(body, i)
				return &SyntaxError{Line: line, Column: col, Reason: fmt.Sprintf("nesting deeper than %d", MaxDepth)}
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return nil
}

// topLevel decodes the body's top-level object into its members. A body
// that is not JSON is a *SyntaxError; JSON that is not an object, or an
// object naming a member twice, is a *ValidationError: a duplicate would let
// the audit record one number while the register reads another.
func topLevel(body []byte) (map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	// The whole body must be valid JSON first, so that a syntax error
	// anywhere is reported as one, with its position.
	var whole json.RawMessage
	if err := dec.Decode(&whole); err != nil {
		return nil, syntaxError(body, dec, err)
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		for end < len(body) && isSpace(body[end]) {
			end++
		}
		line, col := position(body, end)
		return nil, &SyntaxError{Line: line, Column: col, Reason: "unexpected data after the JSON value"}
	}
	trimmed := bytes.TrimSpace(whole)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &ValidationError{Params: []InvalidParam{{Name: "body", Code: "object", Reason: "The body must be a JSON object."}}}
	}
	dec = json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, syntaxError(trimmed, dec, err)
	}
	members := map[string]json.RawMessage{}
	var v validator
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxError(trimmed, dec, err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntaxError(trimmed, dec, err)
		}
		if _, dup := members[key]; dup {
			v.add(boundedName(key), "unique", "Parameter appears more than once.")
			continue
		}
		members[key] = raw
	}
	if len(v.params) > 0 {
		return nil, &ValidationError{Params: v.params}
	}
	return members, nil
}

func syntaxError(body []byte, dec *json.Decoder, err error) *SyntaxError {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		line, col := position(body, int(max(se.Offset-1, 0)))
		return &SyntaxError{Line: line, Column: col, Reason: se.Error()}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		line, col := position(body, len(body))
		return &SyntaxError{Line: line, Column: col, Reason: "unexpected end of input"}
	}
	line, col := position(body, int(dec.InputOffset()))
	return &SyntaxError{Line: line, Column: col, Reason: "invalid JSON"}
}

// arrayOf splits a JSON array into its elements; ok is false for any other
// value.
func arrayOf(raw json.RawMessage) (items []json.RawMessage, ok bool) {
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, false
	}
	return items, items != nil
}

func nineDigits(s string) bool {
	if len(s) != 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// knownField accepts a field of Fields or a dotted sub-path of one whose
// segments are letters ("naam.voornamen", "geboorte.datum.datum").
func knownField(s string) bool {
	if len(s) > 200 {
		return false
	}
	head, rest, dotted := strings.Cut(s, ".")
	found := false
	for _, f := range Fields {
		if f == head {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	if !dotted {
		return true
	}
	for _, seg := range strings.Split(rest, ".") {
		if seg == "" {
			return false
		}
		for _, r := range seg {
			if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
				return false
			}
		}
	}
	return true
}

// boundedName keeps a member name quoted in an answer short.
func boundedName(s string) string {
	const limit = 64
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line, col = 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
