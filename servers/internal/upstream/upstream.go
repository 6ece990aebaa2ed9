package upstream

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/outbound"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// quoteLen bounds how much of an endpoint's error text a message quotes.
const quoteLen = 300

// SPARQLError maps err, returned by a sparql.Endpoint call running a query
// the server wrote (discovery, norms, merged SHACL), to the answer of the
// route: code is the route's envelope code (QUERY_ERROR, DISCOVERY_ERROR,
// …), what says what failed ("Failed to list DMNs"). An endpoint that
// rejects the server's query is not the caller's fault: 502. See the
// package documentation for the rest of the mapping.
func SPARQLError(code, what string, err error) *httpapi.Error {
	return sparqlError(code, what, err, false)
}

// CallerQueryError is SPARQLError for a query the caller wrote (the query
// proxy): a syntax or evaluation error of the embedded store and an
// endpoint's 400 are the caller's, 400 with code, quoting the endpoint's
// message. An empty what leaves the message to say what the endpoint did
// ("SPARQL endpoint answered …").
func CallerQueryError(code, what string, err error) *httpapi.Error {
	return sparqlError(code, what, err, true)
}

func sparqlError(code, what string, err error, callerQuery bool) *httpapi.Error {
	if le := httpapi.LimitError(err); le != nil {
		return le
	}
	var (
		syntax  *memstore.SyntaxError
		eval    *memstore.EvaluationError
		form    *memstore.QueryFormError
		update  *memstore.UpdateError
		status  *sparql.HTTPError
		notRes  *sparql.NotSPARQLError
		refused *outbound.RefusedError
		netErr  net.Error
	)
	switch {
	case !callerQuery && (errors.As(err, &syntax) || errors.As(err, &eval) || errors.As(err, &form) || errors.As(err, &update) ||
		errors.As(err, &status) && status.StatusCode == http.StatusBadRequest):
		return with(http.StatusBadGateway, code, what+": the SPARQL endpoint rejected the server's query", err, err.Error())
	case errors.As(err, &syntax), errors.As(err, &eval), errors.As(err, &form), errors.As(err, &update):
		return with(http.StatusBadRequest, code, fmt.Sprintf("%s: %s", what, httpapi.Excerpt(err.Error(), quoteLen)), err, "")
	case errors.As(err, &status) && status.StatusCode == http.StatusBadRequest:
		msg := fmt.Sprintf("%s: SPARQL endpoint answered 400 Bad Request", what)
		if status.Body != "" {
			msg += ": " + httpapi.Excerpt(oneLine(status.Body), quoteLen)
		}
		return with(http.StatusBadRequest, code, msg, err, "")
	case errors.As(err, &refused):
		e := httpapi.InvalidRequest("%v", refused)
		e.Cause = err
		return e
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return with(http.StatusGatewayTimeout, code, what+": SPARQL endpoint did not answer in time", err, err.Error())
	case errors.Is(err, context.Canceled):
		return with(http.StatusServiceUnavailable, code, what+": the request was cancelled", err, "")
	case errors.As(err, &status):
		return with(http.StatusBadGateway, code,
			fmt.Sprintf("%s: SPARQL endpoint answered %d %s", what, status.StatusCode, http.StatusText(status.StatusCode)),
			err, httpapi.Excerpt(oneLine(status.Body), quoteLen))
	case errors.As(err, &notRes):
		return with(http.StatusBadGateway, code,
			fmt.Sprintf("%s: SPARQL endpoint did not answer with SPARQL results (Content-Type %q)", what, httpapi.Excerpt(notRes.ContentType, 100)),
			err, err.Error())
	case errors.Is(err, sparql.ErrResponseTooLarge):
		return with(http.StatusBadGateway, code, what+": the SPARQL endpoint's answer exceeds the size limit", err, "")
	case errors.As(err, &netErr):
		return with(http.StatusBadGateway, code, what+": SPARQL endpoint unreachable", err, err.Error())
	}
	return with(http.StatusBadGateway, code, what+": the SPARQL request failed", err, err.Error())
}

func with(status int, code, msg string, cause error, detail string) *httpapi.Error {
	msg = strings.TrimPrefix(msg, ": ")
	return &httpapi.Error{Status: status, Code: code, Message: msg, Cause: cause, DevDetail: detail}
}

// oneLine folds white space so a quoted error stays on one line.
func oneLine(s string) string {
	out := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\n' || c == '\r' || c == '\t' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	return string(out)
}

// Transport maps a failure to reach a service (a decision engine, a
// document store) at all: no answer in time is 504, a connection failure
// 502, with code and "<what> did not answer in time" / "<what> is
// unreachable" and the cause in DevDetail. Any other error (the service
// answered, with an error of its own) gives nil: the caller maps it.
func Transport(code, what string, err error) *httpapi.Error {
	var netErr net.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return with(http.StatusGatewayTimeout, code, what+" did not answer in time", err, err.Error())
	case errors.As(err, &netErr):
		return with(http.StatusBadGateway, code, what+" is unreachable", err, err.Error())
	}
	return nil
}
