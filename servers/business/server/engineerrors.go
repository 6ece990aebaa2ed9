package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Codes of the process, task and machine routes.
const (
	codeProcessNotFound      = "PROCESS_NOT_FOUND"
	codeTaskNotFound         = "TASK_NOT_FOUND"
	codeFormNotFound         = "FORM_NOT_FOUND"
	codeDocumentNotFound     = "DOCUMENT_NOT_FOUND"
	codeUnsupportedFormType  = "UNSUPPORTED_FORM_TYPE"
	codeAmbiguousDeployment  = "AMBIGUOUS_DEPLOYMENT"
	codeProcessStartFailed   = "PROCESS_START_FAILED"
	codeProcessHistoryFailed = "PROCESS_HISTORY_FAILED"
	codeProcessDeleteFailed  = "PROCESS_DELETE_FAILED"
	codeHistoricVarsFailed   = "HISTORIC_VARIABLES_FAILED"
	codeVariableHintsFailed  = "VARIABLE_HINTS_FAILED"
	codeFormFetchFailed      = "FORM_FETCH_FAILED"
	codeDocumentFetchFailed  = "DOCUMENT_FETCH_FAILED"
	codeTaskListFailed       = "TASK_LIST_FAILED"
	codeTaskHistoryFailed    = "TASK_HISTORY_FAILED"
	codeTaskClaimFailed      = "TASK_CLAIM_FAILED"
	codeTaskCompleteFailed   = "TASK_COMPLETE_FAILED"
	codeTaskVariablesFailed  = "TASK_VARIABLES_FAILED"
	codeProcessListFailed    = "PROCESS_LIST_FAILED"
)

// onFailure names what a route answers for the two engine outcomes that
// differ per route: the engine does not know the named resource (NotFound;
// empty when a 404 is a rejection like any other, e.g. deleting an ended
// instance on /v1/m2m) and the engine rejects the operation (Failed).
type onFailure struct {
	NotFound        string // code of a 404, e.g. PROCESS_NOT_FOUND
	NotFoundMessage string
	Failed          string // code of a rejection, e.g. TASK_CLAIM_FAILED
	FailedMessage   string
}

// auditEngineCall finishes a route's engine call: a failure is mapped by
// engineFailure(err, f) and marks row failed; row is recorded either way,
// and the mapped error returned.
func (a *app) auditEngineCall(r *http.Request, p *auth.Principal, row auditRow, err error, f onFailure) error {
	if err != nil {
		err = engineFailure(err, f)
		row.Failed, row.ErrorMessage = true, failureMessage(err)
	}
	a.audit.record(r.Context(), r, p, row)
	return err
}

// engineFailure is the one mapping of engine failures:
//
//   - a limit of the shared limits contract → the router's LIMIT_EXCEEDED;
//   - unreachable, timed out, or a 5xx without a message → 502 OPERATON_ERROR;
//   - a 404 on the named resource → the route's not-found code;
//   - a variable that does not fit its type → 400 VALIDATION_ERROR;
//   - any other answer with a message (a rejection) → 500 with the route's
//     code and the engine's message in error.details.engine.
//
// The engine message stays out of error.message: a client reads the code,
// an operator the details.
func engineFailure(err error, f onFailure) error {
	var le limitError
	var ee *engine.Error
	var ve *engine.VariableError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le):
		return err // the router maps the limits contract
	case errors.Is(err, engine.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return &httpapi.Error{Status: http.StatusBadGateway, Code: codeOperatonError,
			Message: "The process engine could not be reached", Cause: err}
	case errors.As(err, &ee) && ee.Status >= 500 && strings.TrimSpace(ee.Message) == "":
		return &httpapi.Error{Status: http.StatusBadGateway, Code: codeOperatonError,
			Message: "The process engine failed", Cause: err}
	case f.NotFound != "" && errors.Is(err, engine.ErrNotFound):
		return &httpapi.Error{Status: http.StatusNotFound, Code: f.NotFound, Message: f.NotFoundMessage, Cause: err}
	case errors.As(err, &ve):
		return &httpapi.Error{Status: http.StatusBadRequest, Code: codeValidation,
			Message: httpapi.Excerpt(ve.Error(), 300), Cause: err}
	case errors.As(err, &ee):
		return &httpapi.Error{Status: http.StatusInternalServerError, Code: f.Failed, Message: f.FailedMessage,
			Details: map[string]string{"engine": httpapi.Excerpt(ee.Message, 500)}, Cause: err}
	}
	return &httpapi.Error{Status: http.StatusInternalServerError, Code: f.Failed, Message: f.FailedMessage, Cause: err}
}

// formFailure maps a form read: the engine's 404 and 400 (nothing linked)
// are FORM_NOT_FOUND (spec §4.10), other rejections FORM_FETCH_FAILED.
func formFailure(err error) error {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Status == http.StatusBadRequest {
		return &httpapi.Error{Status: http.StatusNotFound, Code: codeFormNotFound, Message: "No form is linked", Cause: err}
	}
	return engineFailure(err, onFailure{NotFound: codeFormNotFound, NotFoundMessage: "No form is linked",
		Failed: codeFormFetchFailed, FailedMessage: "The form could not be fetched"})
}

// isNoMatchingDefinition reports the engine's answer to a start on a tenant
// path where the tenant has no such definition; the start is then retried
// without a tenant.
func isNoMatchingDefinition(err error) bool {
	var ee *engine.Error
	return errors.As(err, &ee) && strings.Contains(ee.Message, "No matching process definition with key")
}

// failureMessage is the client message of a mapped error, for audit rows.
func failureMessage(err error) string {
	var e *httpapi.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "request failed"
}

// failureCode is the code of a mapped error, for audit rows.
func failureCode(err error) string {
	var e *httpapi.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return httpapi.CodeInternal
}
