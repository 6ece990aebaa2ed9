package chainapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// rawQuerier is an endpoint that returns answers unparsed (sparql.Client).
type rawQuerier interface {
	Query(ctx context.Context, query string) (*sparql.Response, error)
}

func proxyError(msg string, cause error) *httpapi.Error {
	e := httpapi.NewError(http.StatusInternalServerError, CodeQueryError, msg)
	e.Cause = cause
	return e
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
			return nil, proxyError(proxyMessage(err), err)
		}
		var res *sparql.Results
		switch resp.ContentType {
		case sparql.MediaResultsJSON, "application/json", "":
			res, err = sparql.ReadJSON(bytes.NewReader(resp.Body))
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
			return nil, proxyError(proxyMessage(&sparql.NotSPARQLError{ContentType: resp.ContentType, Cause: err}), err)
		}
		return json.Marshal(res)
	case *memstore.Store:
		res, err := e.Query(ctx, query)
		if err != nil {
			var se *memstore.SyntaxError
			if errors.As(err, &se) {
				return nil, proxyError(fmt.Sprintf("SPARQL endpoint answered 400 Bad Request: %v", err), err)
			}
			return nil, proxyError(proxyMessage(err), err)
		}
		if res.Results == nil {
			return nil, graphAnswer()
		}
		return json.Marshal(res.Results)
	}
	res, err := ep.Select(ctx, query)
	if err != nil {
		return nil, proxyError(proxyMessage(err), err)
	}
	return json.Marshal(res)
}
