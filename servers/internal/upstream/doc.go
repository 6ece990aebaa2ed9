// Package upstream maps the failures of services a server calls on a
// client's behalf (SPARQL endpoints, named by the caller or configured) to
// the HTTP answer the caller deserves: the caller's own mistakes are 4xx,
// an endpoint that is down or answers nonsense is 502, one that is too
// slow is 504, and outside development no answer carries internal causes.
//
// A handler passes the error of any sparql.Endpoint call with its envelope
// code and a short description of what failed:
//
//	res, err := ep.Select(ctx, q)
//	if err != nil {
//		return upstream.SPARQLError(chainapi.CodeQueryError, "Failed to list DMNs", err)
//	}
//
// The mapping, error by error:
//
//   - an engine limit (any error with LimitExceeded() string): 400, or 503
//     for Timeout, code LIMIT_EXCEEDED (httpapi.LimitError);
//   - a syntax or evaluation error of the embedded store, or an endpoint's
//     400 answer: for a query the caller wrote (CallerQueryError, the query
//     proxy) 400 with the given code, quoting the endpoint's message (at
//     most 300 characters); for the server's own query (SPARQLError) 502,
//     since the endpoint does not understand the server;
//   - a URL the outbound policy refuses (also at dial time): 400
//     INVALID_REQUEST;
//   - no answer in time (context deadline, network time-out): 504;
//   - any other status of the endpoint, a non-SPARQL answer, an answer over
//     the client's size limit, a connection failure: 502.
//
// Transport does the same for other services (a decision engine, a
// document store) when the failure is in reaching them at all.
//
// 502 and 504 messages say what failed in words; the cause (addresses,
// the endpoint's own error text) goes into httpapi.Error.DevDetail, which
// the router shows in development only and logs.
package upstream
