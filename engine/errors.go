package engine

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotFound matches (errors.Is) every error about an unknown deployment,
// decision definition or key, from any engine.
var ErrNotFound = errors.New("engine: not found")

// ErrUnavailable matches (errors.Is) failures to reach a remote engine:
// connection errors, timeouts, answers that are not Operaton's.
var ErrUnavailable = errors.New("engine: unavailable")

// Error is an engine failure in Operaton's terms: the HTTP status Operaton
// answers with and its {type, message} body. Remote engines return it as
// received; the embedded engine returns it for the cases Operaton names
// the same way (an unknown key: 404 RestException "No matching decision
// definition with key: …"), so callers handle both alike.
type Error struct {
	Status  int    // 400, 404, 500, …
	Type    string // RestException, InvalidRequestException, ParseException, ProcessEngineException, …
	Message string
	// Err is the cause when it is known, e.g. a *DeploymentError
	// reconstructed from a ParseException.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("engine: ")
	if e.Type != "" {
		b.WriteString(e.Type)
		b.WriteString(" ")
	}
	fmt.Fprintf(&b, "(HTTP %d)", e.Status)
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes a 404 match ErrNotFound.
func (e *Error) Is(target error) bool { return target == ErrNotFound && e.Status == 404 }

// NotFound returns Operaton's 404 RestException with the message.
func NotFound(format string, args ...any) *Error {
	return &Error{Status: 404, Type: "RestException", Message: fmt.Sprintf(format, args...)}
}

// InvalidRequest returns Operaton's 400 InvalidRequestException with the message.
func InvalidRequest(format string, args ...any) *Error {
	return &Error{Status: 400, Type: "InvalidRequestException", Message: fmt.Sprintf(format, args...)}
}

type unavailableError struct{ err error }

func (e *unavailableError) Error() string        { return "engine: unavailable: " + e.err.Error() }
func (e *unavailableError) Unwrap() error        { return e.err }
func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }

// Unavailable wraps err so that it matches ErrUnavailable (and still
// matches err, e.g. context.DeadlineExceeded).
func Unavailable(err error) error { return &unavailableError{err} }

// ErrStorageFull matches (errors.Is) a deployment an engine refuses because
// it already holds as much as it is configured to hold.
var ErrStorageFull = errors.New("engine: storage full")

// StorageFullError is a deployment refused because the engine would then
// hold more than its ceiling (the embedded engine's Options.MaxBytes or
// MaxDeployments) even after dropping every superseded deployment. Nothing
// of the deployment is kept. HTTP fronts answer 507 Insufficient Storage:
// the request is fine, the server has no room for it.
type StorageFullError struct {
	Limit string // the option at its ceiling: "MaxBytes" or "MaxDeployments"
	Max   int64  // its value
	Need  int64  // what the engine would hold with this deployment (bytes or deployments)
}

func (e *StorageFullError) Error() string {
	if e.Limit == "MaxBytes" {
		return fmt.Sprintf("engine: storage full: with this deployment the engine would hold an estimated %d bytes, over its ceiling of %d (MaxBytes); delete or replace deployments", e.Need, e.Max)
	}
	return fmt.Sprintf("engine: storage full: the engine holds its ceiling of %d deployments (%s); delete or replace deployments", e.Max, e.Limit)
}

// Is makes a StorageFullError match ErrStorageFull.
func (e *StorageFullError) Is(target error) bool { return target == ErrStorageFull }

// VariableError is a variable that cannot be read or converted: an unknown
// type, a value that does not fit its type, a value FEEL cannot hold.
type VariableError struct {
	Name   string // the variable's name, when known
	Type   Type   // the declared type, when there is one
	Value  string // the offending value (JSON text, shortened)
	Reason string
}

func (e *VariableError) Error() string {
	var b strings.Builder
	b.WriteString("engine: ")
	if e.Name != "" {
		fmt.Fprintf(&b, "variable %q: ", e.Name)
	}
	switch {
	case e.Value != "" && e.Type != "":
		fmt.Fprintf(&b, "cannot convert value %s to type %s: ", e.Value, e.Type)
	case e.Value != "":
		fmt.Fprintf(&b, "value %s: ", e.Value)
	case e.Type != "":
		fmt.Fprintf(&b, "type %s: ", e.Type)
	}
	b.WriteString(e.Reason)
	return b.String()
}

// DeploymentError is a resource of a deployment that cannot be deployed:
// a DMN file that does not parse or whose decisions cannot be wired.
type DeploymentError struct {
	Resource     string
	Line, Column int    // 0 when unknown
	ElementID    string // the offending element's id, when it has one
	Msg          string
}

func (e *DeploymentError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "engine: resource %q: ", e.Resource)
	switch {
	case e.Line > 0 && e.Column > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.ElementID != "" {
		fmt.Fprintf(&b, "element %q: ", e.ElementID)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// EvaluationError is a decision evaluation that failed, as Operaton fails
// it: a decision referenced a variable that is not there, a single-hit
// table matched several rules with different results, an expression does
// not compile. NoRuleMatched names the earlier decision whose table
// matched no rule and so did not provide Variable; the explorer reports
// that as "<key>: no rule matched (<id>)".
type EvaluationError struct {
	DecisionKey   string // the decision evaluated (by key)
	DefinitionID  string // its decision definition id
	DecisionID    string // the decision that failed: the key or one it requires
	Variable      string // the unknown variable, when that is the cause
	NoRuleMatched string // id of the decision that matched no rule, or ""
	Err           error  // the cause otherwise
}

func (e *EvaluationError) Error() string {
	var b strings.Builder
	b.WriteString(e.DecisionKey)
	switch {
	case e.NoRuleMatched != "":
		fmt.Fprintf(&b, ": no rule matched (%s): decision %s needs %q", e.NoRuleMatched, e.DecisionID, e.Variable)
	case e.Variable != "":
		fmt.Fprintf(&b, ": decision %s: unknown variable %q", e.DecisionID, e.Variable)
	default:
		fmt.Fprintf(&b, ": decision %s", e.DecisionID)
		if e.Err != nil {
			b.WriteString(": ")
			b.WriteString(e.Err.Error())
		}
	}
	return b.String()
}

func (e *EvaluationError) Unwrap() error { return e.Err }
