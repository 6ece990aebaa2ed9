package chainapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/upstream"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// rawQuerier is an endpoint that returns answers unparsed (sparql.Client).
type rawQuerier interface {
	Query(ctx context.Context, query string) (*sparql.Response, error)
}

// proxyError maps a failed proxied query: the endpoint's 400 (a syntax
// error) is the caller's, 400 QUERY_ERROR quoting it; a failing endpoint
// is 502, a slow one 504 (upstream.SPARQLError).
func proxyError(err error) *httpapi.Error {
	return upstream.CallerQueryError(CodeQueryError, "", err)
}

// graphAnswer is the refusal of a CONSTRUCT or DESCRIBE query.
func graphAnswer() *httpapi.Error {
	return httpapi.InvalidRequest("the query proxy answers SELECT and ASK queries with SPARQL JSON results; CONSTRUCT and DESCRIBE queries return graphs")
}

// runQuery runs a query on ep and returns the SPARQL 1.1 JSON result
// document: a remote endpoint's JSON body as it came (after checking it is
// a result document), XML results converted, the embedded store's results
// encoded.
func runQuery(ctx context.Context, ep sparql.Endpoint, query string) (json.RawMessage, error) {
	switch e := ep.(type) {
	case rawQuerier:
		resp, err := e.Query(ctx, query)
		if err != nil {
			return nil, proxyError(err)
		}
		var res *sparql.Results
		switch resp.ContentType {
		case sparql.MediaResultsJSON, "application/json", "":
			res, err = sparql.ReadJSON(bytes.NewReader(resp.Body))
			if err == nil && res.NormalizeAsk() {
				return json.Marshal(res) // Virtuoso's ASK table, as a boolean
			}
			if err == nil {
				var buf bytes.Buffer
				if json.Compact(&buf, resp.Body) == nil {
					return buf.Bytes(), nil
				}
			}
		case sparql.MediaResultsXML, "application/xml", "text/xml":
			res, err = sparql.ReadXML(bytes.NewReader(resp.Body))
		default:
			return nil, graphAnswer()
		}
		if err != nil {
			return nil, proxyError(&sparql.NotSPARQLError{ContentType: resp.ContentType, Cause: err})
		}
		res.NormalizeAsk()
		return json.Marshal(res)
	case *memstore.Store:
		res, err := e.Query(ctx, query)
		if err != nil {
			// The embedded store has no outage: a failure that is not a
			// bound or the request's end is the query's (a syntax error,
			// an unsupported feature such as SERVICE), worded as a remote
			// endpoint's 400 so a client sees one message whichever store
			// it named.
			if httpapi.LimitError(err) != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				return nil, proxyError(err)
			}
			e := httpapi.NewError(http.StatusBadRequest, CodeQueryError,
				"SPARQL endpoint answered 400 Bad Request: "+httpapi.Excerpt(err.Error(), 300))
			e.Cause = err
			return nil, e
		}
		if res.Results == nil {
			return nil, graphAnswer()
		}
		return json.Marshal(res.Results)
	}
	res, err := ep.Select(ctx, query)
	if err != nil {
		return nil, proxyError(err)
	}
	return json.Marshal(res)
}
