// Package sparql is how regelkit talks to knowledge graphs: the Endpoint
// interface (Select, Ask, Construct, Update) that discovery, norms, SHACL
// merged mode, the rule catalogue and the editor backend depend on, the
// SPARQL 1.1 result types with their JSON, XML, CSV and TSV formats, and a
// Client for any SPARQL 1.1 Protocol endpoint.
//
// The in-process implementation is memstore.Store; the HTTP Client talks
// to GraphDB, TriplyDB, Virtuoso, Fuseki, Oxigraph or memstore's Handler:
//
//	ep := sparql.NewClient("https://example.org/sparql", sparql.ClientOptions{BearerToken: token})
//	res, err := ep.Select(ctx, "SELECT ?s WHERE { ?s a <http://example.org/Model> }")
//
// Queries and updates travel as form-encoded POSTs unless
// ClientOptions.QueryMethod says otherwise (direct bodies, or GET for short
// queries): every SPARQL 1.1 endpoint accepts the form encoding.
//
// Failures are typed: *HTTPError (status, URL and the start of the body)
// for a non-2xx answer, *NotSPARQLError for a 2xx answer that is not a
// SPARQL document (an HTML login page, broken JSON), ErrResponseTooLarge,
// and context errors for timeouts. Results marshals to the exact SPARQL
// 1.1 JSON shape, and Client.Query returns the raw body for proxies.
package sparql
