package auth

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Error codes of refused requests (business spec §7).
const (
	CodeUnauthorized          = "UNAUTHORIZED"
	CodeMissingToken          = "MISSING_TOKEN"
	CodeInvalidToken          = "INVALID_TOKEN"
	CodeForbidden             = "FORBIDDEN"
	CodeLoAInsufficient       = "LOA_INSUFFICIENT"
	CodeMissingTenant         = "MISSING_TENANT"
	CodeTenantMismatch        = "TENANT_MISMATCH"
	CodeM2MClientNotAllowed   = "M2M_CLIENT_NOT_ALLOWED"
	CodeDocmgmtClientNotAllow = "DOCMGMT_CLIENT_NOT_ALLOWED"
	CodeOperationNotPermitted = "OPERATION_NOT_PERMITTED"
)

// Failure is a refused request: 401 (Reason MISSING_TOKEN or
// INVALID_TOKEN) or 403.
type Failure struct {
	Status  int
	Code    string
	Message string
	Reason  string // 401 only: MISSING_TOKEN or INVALID_TOKEN
}

func (f *Failure) Error() string { return f.Code + ": " + f.Message }

// APIError is f as the envelope error of the router: a 401 becomes
// UNAUTHORIZED with details.reason.
func (f *Failure) APIError() *httpapi.Error {
	e := httpapi.NewError(f.Status, f.Code, f.Message)
	if f.Reason != "" {
		e.Details = map[string]string{"reason": f.Reason}
	}
	return e
}

var (
	failMissingToken = &Failure{Status: http.StatusUnauthorized, Code: CodeUnauthorized,
		Message: "Authorization header missing or invalid", Reason: CodeMissingToken}
	failInvalidToken = &Failure{Status: http.StatusUnauthorized, Code: CodeUnauthorized,
		Message: "Token validation failed", Reason: CodeInvalidToken}
)

// Rule is one authorisation check on a verified principal; nil allows.
type Rule func(p *Principal) *Failure

// RequireRole admits principals holding any of roles (403 FORBIDDEN
// "Insufficient permissions" otherwise).
func RequireRole(roles ...string) Rule {
	return func(p *Principal) *Failure {
		if p.HasRole(roles...) {
			return nil
		}
		return &Failure{Status: http.StatusForbidden, Code: CodeForbidden, Message: "Insufficient permissions"}
	}
}

// LoA levels, lowest first.
var loaLadder = []string{"basis", "midden", "substantieel", "hoog"}

// LoARank returns the rank of an assurance level on the ladder basis <
// midden < substantieel < hoog (0–3) after trimming and lower-casing, or -1
// for anything else: "substantial", "high", "" all fail closed.
func LoARank(level string) int {
	return slices.Index(loaLadder, strings.ToLower(strings.TrimSpace(level)))
}

// RequireLoA admits principals whose loa is at least min (403
// LOA_INSUFFICIENT otherwise). An unknown min admits nobody.
func RequireLoA(min string) Rule {
	want := LoARank(min)
	return func(p *Principal) *Failure {
		if got := LoARank(p.LoA); want >= 0 && got >= want {
			return nil
		}
		return &Failure{Status: http.StatusForbidden, Code: CodeLoAInsufficient,
			Message: fmt.Sprintf("Assurance level '%s' or higher required", min)}
	}
}

// RequireTenant is the tenant middleware: without a
// municipality claim the request is refused with 403 MISSING_TENANT, which
// is what a machine token gets on a tenant route. isolation=false (the
// ENABLE_TENANT_ISOLATION switch) skips the presence check only; the
// mismatch checks (CheckTenant) always apply.
func RequireTenant(isolation bool) Rule {
	return func(p *Principal) *Failure {
		if !isolation || p.Tenant != "" {
			return nil
		}
		return &Failure{Status: http.StatusForbidden, Code: CodeMissingTenant, Message: "Organisation information missing"}
	}
}

// CheckTenant admits access to data labelled with tenant label (the
// municipality process variable) iff the label is a non-empty string equal
// to the caller's tenant; a principal without tenant matches nothing.
// Otherwise 403 TENANT_MISMATCH.
func CheckTenant(p *Principal, label any) *Failure {
	s, ok := label.(string)
	if ok && s != "" && p != nil && p.Tenant != "" && s == p.Tenant {
		return nil
	}
	return &Failure{Status: http.StatusForbidden, Code: CodeTenantMismatch, Message: "Access denied: organisation mismatch"}
}

// RequireClient admits tokens whose azp is in allowed (exact,
// case-sensitive; an empty list admits nobody), refusing others with 403 and
// the given code and message.
func RequireClient(allowed []string, code, message string) Rule {
	list := slices.Clone(allowed)
	return func(p *Principal) *Failure {
		if p.Client != "" && slices.Contains(list, p.Client) {
			return nil
		}
		return &Failure{Status: http.StatusForbidden, Code: code, Message: message}
	}
}

// RequireM2MClient is RequireClient with the /v1/m2m code and message.
func RequireM2MClient(allowed []string) Rule {
	return RequireClient(allowed, CodeM2MClientNotAllowed, "This API is only available to registered M2M clients.")
}

// RequireDocmgmtClient is RequireClient with the /v1/docmgmt code and message.
func RequireDocmgmtClient(allowed []string) Rule {
	return RequireClient(allowed, CodeDocmgmtClientNotAllow,
		"This API is only available to registered document-management clients.")
}

// M2MAllowedOperations is the compiled-in M2M operation gate:
// one name per route of spec §4.9, in its order. Removing a name switches
// that route off (403 OPERATION_NOT_PERMITTED).
var M2MAllowedOperations = []string{
	"process.list", "process.start", "process.history", "process.status", "process.variables",
	"process.historic-variables", "process.decision-document", "process.start-form", "process.variable-hints",
	"process.delete", "task.list", "task.get", "task.variables", "task.form-schema", "task.claim",
	"task.complete", "decision.evaluate", "decision.get",
}

// RequireOperation admits the M2M operation op when it is in allowed
// (M2MAllowedOperations in the server).
func RequireOperation(allowed []string, op string) Rule {
	on := slices.Contains(allowed, op)
	return func(*Principal) *Failure {
		if on {
			return nil
		}
		return &Failure{Status: http.StatusForbidden, Code: CodeOperationNotPermitted,
			Message: "This operation is not available on the M2M API."}
	}
}

// Authenticator authenticates requests with a Verifier and applies rules.
type Authenticator struct {
	Verifier *Verifier
	// Logger records refusals: the reason of a 401 and the code of a 403,
	// with the request id; never the token.
	Logger *slog.Logger
}

// Check authenticates r and applies rules in order: the principal, or the
// first failure.
func (a *Authenticator) Check(r *http.Request, rules ...Rule) (*Principal, *Failure) {
	p, err := a.Verifier.Authenticate(r)
	if err != nil {
		f := failInvalidToken
		var te *TokenError
		reasonAttr := "missing"
		switch {
		case errors.Is(err, ErrMissingToken):
			f = failMissingToken
		case errors.As(err, &te):
			reasonAttr = te.Reason
		}
		a.log(r, "request refused", "status", f.Status, "reason", reasonAttr)
		return nil, f
	}
	for _, rule := range rules {
		if f := rule(p); f != nil {
			a.log(r, "request refused", "status", f.Status, "code", f.Code, "user", p.UserID)
			return p, f
		}
	}
	return p, nil
}

func (a *Authenticator) log(r *http.Request, msg string, args ...any) {
	if a.Logger == nil {
		return
	}
	args = append(args, "method", r.Method, "path", r.URL.Path, "request_id", httpapi.RequestID(r.Context()))
	a.Logger.InfoContext(r.Context(), msg, args...)
}

// Guard wraps an API handler: it runs with the principal in its context
// (FromContext) when the token verifies and every rule passes; otherwise the
// router writes the failure envelope.
func (a *Authenticator) Guard(h httpapi.HandlerFunc, rules ...Rule) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, f := a.Check(r, rules...)
		if p != nil {
			r = r.WithContext(WithPrincipal(r.Context(), p))
		}
		if f != nil {
			return f.APIError()
		}
		return h(w, r)
	}
}

// GuardHTTP wraps a plain handler that writes its own responses (the
// register route, whose errors are problem details): refuse writes the
// failure. For a 401, refuse gets Code = the reason (MISSING_TOKEN or
// INVALID_TOKEN), the codes that route uses.
func (a *Authenticator) GuardHTTP(h http.Handler, refuse func(http.ResponseWriter, *http.Request, *Failure), rules ...Rule) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, f := a.Check(r, rules...)
		if p != nil {
			r = r.WithContext(WithPrincipal(r.Context(), p))
		}
		if f != nil {
			if f.Reason != "" {
				specific := *f
				specific.Code = f.Reason
				f = &specific
			}
			refuse(w, r, f)
			return
		}
		h.ServeHTTP(w, r)
	})
}
