package chainapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/chain"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/upstream"
	"github.com/regelkit/regelkit/sparql"
)

// Error codes of the explorer specification (§7) used here.
const (
	CodeQueryError     = "QUERY_ERROR"
	CodeExecutionError = "EXECUTION_ERROR"
	CodeDiscoveryError = "DISCOVERY_ERROR"
	// CodeStorageFull (507) is an export the decision engine has no room
	// for (engine.StorageFullError): the request is fine, the engine full.
	CodeStorageFull = "STORAGE_FULL"
)

// Deps are the endpoints' dependencies.
type Deps struct {
	// Resolve returns the SPARQL endpoint for a caller-supplied URL (never
	// called with ""). A refusal should be an *httpapi.Error (400); any
	// other error is reported as 400 INVALID_REQUEST too.
	Resolve func(ctx context.Context, endpoint string) (sparql.Endpoint, error)
	// Catalog is the one bounded cache of model listings (the models and
	// their JSON) per endpoint URL; every route that reads a listing goes
	// through it.
	Catalog *chain.Catalog
	// Engine evaluates chains and holds the deployed models.
	Engine engine.Decisions
	// LocalPass is the fixed local-pass chain (chain.NewLocalPass, or
	// LocalPassFromExamples for the example models).
	LocalPass *chain.FixedChain
	// Logger receives knowledge-graph degradations; nil discards them.
	Logger *slog.Logger
}

type handlers struct {
	Deps
}

// Register adds the model, chain and query-proxy routes; Resolve and
// Engine are required (it panics without them). Literal
// /v1/dmns/... paths are registered before /v1/dmns/{identifier}, which
// would otherwise shadow them.
func Register(r *httpapi.Router, deps Deps) {
	if deps.Resolve == nil || deps.Engine == nil {
		panic("chainapi: Deps.Resolve and Deps.Engine are required")
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Catalog == nil {
		deps.Catalog = &chain.Catalog{Logger: deps.Logger}
	}
	h := &handlers{Deps: deps}
	for _, rt := range h.routes() {
		var opts []httpapi.RouteOption
		if rt.legacy {
			opts = append(opts, httpapi.Legacy())
		}
		r.Handle(rt.method, rt.path, rt.handle, rt.op, opts...)
	}
}

// requireEndpoint resolves the caller's endpoint URL, which is required.
func (h *handlers) requireEndpoint(ctx context.Context, raw string) (string, sparql.Endpoint, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil, httpapi.InvalidRequest("endpoint is required (the URL of a SPARQL endpoint)")
	}
	ep, err := h.Resolve(ctx, raw)
	if err != nil {
		var apiErr *httpapi.Error
		if errors.As(err, &apiErr) {
			return "", nil, apiErr
		}
		return "", nil, httpapi.InvalidRequest("endpoint refused: %v", err)
	}
	return raw, ep, nil
}

// queryError maps a failed knowledge-graph read (upstream.SPARQLError): the
// caller's bad query is 400, an endpoint down 502, too slow 504.
func queryError(what string, err error) error {
	return upstream.SPARQLError(CodeQueryError, what, err)
}

// lookupOptions reads ?refresh=true (or 1), which bypasses the listing cache.
func lookupOptions(r *http.Request) chain.LookupOptions {
	v := r.URL.Query().Get("refresh")
	return chain.LookupOptions{Refresh: v == "true" || v == "1"}
}

func (h *handlers) listDMNs(w http.ResponseWriter, r *http.Request) error {
	key, ep, err := h.requireEndpoint(r.Context(), r.URL.Query().Get("endpoint"))
	if err != nil {
		return err
	}
	listing, err := h.Catalog.Listing(r.Context(), key, ep, lookupOptions(r))
	if err != nil {
		return queryError("Failed to list DMNs", err)
	}
	endpoint, err := httpapi.MarshalJSON(key)
	if err != nil {
		return err
	}
	// data is {dmns, endpoint, cached}; the listing's JSON comes encoded
	// from the catalog, so a cached answer is never encoded again.
	return httpapi.WriteEncodedData(w, http.StatusOK,
		[]byte(`{"dmns":`), listing.JSON,
		[]byte(`,"endpoint":`), bytes.TrimSuffix(endpoint, []byte("\n")),
		[]byte(`,"cached":`+strconv.FormatBool(listing.Cached)+`}`))
}

func (h *handlers) getDMN(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["identifier"]
	key, ep, err := h.requireEndpoint(r.Context(), r.URL.Query().Get("endpoint"))
	if err != nil {
		return err
	}
	listing, err := h.Catalog.Listing(r.Context(), key, ep, lookupOptions(r))
	if err != nil {
		return queryError("Failed to list DMNs", err)
	}
	m, ok := listing.Model(id)
	if !ok {
		return httpapi.NotFound("DMN not found: %s", id)
	}
	return httpapi.WriteData(w, http.StatusOK, m)
}

// getDMNXML answers the DMN XML of a deployed model, by key, as
// application/xml (the listing's xmlUrl points here).
func (h *handlers) getDMNXML(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["identifier"]
	def, err := h.Engine.LatestDecisionDefinition(r.Context(), id, "")
	if err == nil {
		var xml string
		if xml, err = h.Engine.DecisionDefinitionXML(r.Context(), def.ID); err == nil {
			w.Header().Set("Content-Type", "application/xml; charset=utf-8")
			w.WriteHeader(http.StatusOK)
			_, err = w.Write([]byte(xml))
			return err
		}
	}
	if errors.Is(err, engine.ErrNotFound) {
		return httpapi.NotFound("DMN not found: %s", id)
	}
	return executionError((&chain.ModelXMLError{Identifier: id, Err: err}).Error(), err)
}

// discovery answers a knowledge-graph query of the caller's endpoint;
// a failure is code with the message what: reason.
func (h *handlers) discovery(code, what string, run func(context.Context, sparql.Endpoint) (any, error)) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		_, ep, err := h.requireEndpoint(r.Context(), r.URL.Query().Get("endpoint"))
		if err != nil {
			return err
		}
		data, err := run(r.Context(), ep)
		if err != nil {
			return upstream.SPARQLError(code, what, err)
		}
		return httpapi.WriteData(w, http.StatusOK, data)
	}
}

func connectablePairs(ctx context.Context, ep sparql.Endpoint) (any, error) {
	pairs, err := chain.ConnectablePairs(ctx, ep)
	if pairs == nil {
		pairs = []chain.Pair{}
	}
	return pairs, err
}

func semanticEquivalences(ctx context.Context, ep sparql.Endpoint) (any, error) {
	return chain.SemanticEquivalences(ctx, ep)
}

func cycles(ctx context.Context, ep sparql.Endpoint) (any, error) { return chain.Cycles(ctx, ep) }

// chainsList is GET /v1/chains.
type chainsList struct {
	Total  int           `json:"total"`
	Chains []chain.Group `json:"chains"`
}

func chains(ctx context.Context, ep sparql.Endpoint) (any, error) {
	groups, err := chain.Chains(ctx, ep)
	return chainsList{Total: len(groups), Chains: groups}, err
}

// Bounds of a chain in a request: its length (each model is an engine
// call, each export step an XML read and parse) and the length of an
// identifier, which error messages quote.
const (
	maxChainLength      = 100
	maxIdentifierLength = 256
)

// maxMessage bounds an error message built from engine answers, which
// may quote the caller's variable names and values.
const maxMessage = 1000

// checkChain refuses a chain over the bounds (400 naming the entry).
func checkChain(ids []string) error {
	if len(ids) > maxChainLength {
		return httpapi.InvalidRequest("chain has %d models, at most %d are allowed", len(ids), maxChainLength)
	}
	for i, id := range ids {
		if n := utf8.RuneCountInString(id); n > maxIdentifierLength {
			return httpapi.InvalidRequest("chain[%d] is %d characters long, at most %d are allowed", i, n, maxIdentifierLength)
		}
	}
	return nil
}

// identifiers reads a JSON array of non-empty strings; ok is false for
// anything else (absent, null, another type, an empty string).
func identifiers(raw json.RawMessage) (ids []string, ok bool) {
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &ids) != nil || ids == nil {
		return nil, false
	}
	for _, id := range ids {
		if strings.TrimSpace(id) == "" {
			return nil, false
		}
	}
	return ids, true
}

// inputObject reads a non-empty JSON object.
func inputObject(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return nil, false
	}
	return m, true
}

type executeRequest struct {
	Chain    json.RawMessage `json:"chain"`
	DMNIDs   json.RawMessage `json:"dmnIds"` // upstream's name, accepted as an alias
	Inputs   json.RawMessage `json:"inputs"`
	Endpoint string          `json:"endpoint"`
	IsDrd    bool            `json:"isDrd"`
}

// chainOrAlias returns chain, or dmnIds (upstream's name) when chain is
// absent or null.
func chainOrAlias(chain, dmnIDs json.RawMessage) json.RawMessage {
	if c := bytes.TrimSpace(chain); len(c) == 0 || string(c) == "null" {
		return dmnIDs
	}
	return chain
}

func (h *handlers) execute(w http.ResponseWriter, r *http.Request) error {
	var req executeRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	ids, ok := identifiers(chainOrAlias(req.Chain, req.DMNIDs))
	if !ok || len(ids) == 0 {
		return httpapi.InvalidRequest("chain array is required and must not be empty")
	}
	if err := checkChain(ids); err != nil {
		return err
	}
	raw, ok := inputObject(req.Inputs)
	if !ok {
		return httpapi.InvalidRequest("inputs object is required")
	}
	if req.IsDrd && len(ids) != 1 {
		return httpapi.InvalidRequest("isDrd requires chain to hold exactly one entry-point identifier, got %d", len(ids))
	}
	key, ep, err := h.requireEndpoint(r.Context(), req.Endpoint)
	if err != nil {
		return err
	}
	vars := engine.Variables{}
	for name, v := range raw {
		x, err := engine.InferJSON(v)
		if err != nil {
			return httpapi.InvalidRequest("inputs.%s: %s", shorten(name, 100), shorten(strings.TrimPrefix(err.Error(), "engine: "), 300))
		}
		vars[name] = x
	}
	var ex *chain.Execution
	if req.IsDrd {
		// The entry point is an engine key (dmn2_…), not a model of the
		// knowledge graph: it is not looked up in the listing.
		ex, err = chain.ExecuteDRD(r.Context(), h.Engine, ids[0], vars)
	} else {
		models, lerr := h.models(r.Context(), key, ep, ids)
		if lerr != nil {
			return lerr
		}
		ex, err = chain.Execute(r.Context(), h.Engine, ep, models, vars)
	}
	if err != nil {
		return chainError(err)
	}
	return httpapi.WriteData(w, http.StatusOK, ex)
}

// models looks the identifiers up in the (cached) listing, before any
// engine call: an unknown one is 404.
func (h *handlers) models(ctx context.Context, key string, ep sparql.Endpoint, ids []string) ([]chain.Model, error) {
	listing, err := h.Catalog.Listing(ctx, key, ep, chain.LookupOptions{})
	if err != nil {
		return nil, queryError("Failed to list DMNs", err)
	}
	byID := make(map[string]chain.Model, len(listing.Models))
	for _, m := range listing.Models {
		byID[m.Identifier] = m
	}
	out := make([]chain.Model, len(ids))
	for i, id := range ids {
		m, ok := byID[id]
		if !ok {
			return nil, httpapi.NotFound("DMN not found: %s", id)
		}
		out[i] = m
	}
	return out, nil
}

func executionError(msg string, cause error) *httpapi.Error {
	e := httpapi.NewError(http.StatusInternalServerError, CodeExecutionError, msg)
	e.Cause = cause
	return e
}

// chainError maps a failed chain run.
func chainError(err error) error {
	if le := httpapi.LimitError(err); le != nil {
		return le
	}
	var se *chain.StepError
	// An engine that cannot be reached: 502/504 without its address.
	if te := upstream.Transport(CodeExecutionError, "the decision engine", err); te != nil {
		if errors.As(err, &se) {
			te.Message = se.Model + ": " + te.Message
		}
		return te
	}
	var ve *engine.VariableError
	switch {
	case errors.As(err, &se) && errors.As(err, &ve):
		// An input the engine cannot take is the caller's to fix.
		return httpapi.InvalidRequest("%s", shorten(se.Error(), maxMessage))
	case errors.As(err, &se):
		return executionError(shorten(se.Error(), maxMessage), err)
	}
	// The semantic links are read from the knowledge graph.
	return queryError("Failed to read the semantic links of the chain", err)
}

type localPassRequest struct {
	Inputs  json.RawMessage `json:"inputs"`
	Options struct {
		IncludeIntermediateSteps bool `json:"includeIntermediateSteps"`
	} `json:"options"`
}

func (h *handlers) executeLocalPass(w http.ResponseWriter, r *http.Request) error {
	var req localPassRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	if _, ok := inputObject(req.Inputs); !ok {
		return httpapi.InvalidRequest("inputs object is required")
	}
	if h.LocalPass == nil {
		return executionError("the local-pass chain is not configured", nil)
	}
	var inputs map[string]any
	dec := json.NewDecoder(bytes.NewReader(req.Inputs))
	dec.UseNumber() // decimals stay exact: 1505.96 is not 1505.9599999…
	if err := dec.Decode(&inputs); err != nil {
		return httpapi.InvalidRequest("inputs object is required")
	}
	vars, err := h.LocalPass.Variables(inputs)
	if err != nil {
		return httpapi.InvalidRequest("%v", err)
	}
	res, err := h.LocalPass.Run(r.Context(), h.Engine, vars, chain.RunOptions{Steps: req.Options.IncludeIntermediateSteps})
	if err != nil {
		return chainError(err)
	}
	return httpapi.WriteData(w, http.StatusOK, fixedResponse{Success: true, FixedResult: res})
}

// fixedResponse is the data of a fixed chain's answer: explorer spec §2.5
// repeats the envelope's success flag in it, ahead of the result.
type fixedResponse struct {
	Success bool `json:"success"`
	*chain.FixedResult
}

type exportRequest struct {
	Chain    json.RawMessage `json:"chain"`
	DMNIDs   json.RawMessage `json:"dmnIds"`
	Name     string          `json:"name"`
	Endpoint string          `json:"endpoint"`
}

func (h *handlers) export(w http.ResponseWriter, r *http.Request) error {
	var req exportRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	ids, ok := identifiers(chainOrAlias(req.Chain, req.DMNIDs))
	if !ok {
		return httpapi.InvalidRequest("chain array is required and must not be empty")
	}
	if len(ids) < 2 {
		return httpapi.InvalidRequest("DRD requires at least 2 DMNs")
	}
	if err := checkChain(ids); err != nil {
		return err
	}
	if strings.TrimSpace(req.Name) == "" {
		return httpapi.InvalidRequest("name is required")
	}
	if n := utf8.RuneCountInString(req.Name); n > maxIdentifierLength {
		return httpapi.InvalidRequest("name is %d characters long, at most %d are allowed", n, maxIdentifierLength)
	}
	key, ep, err := h.requireEndpoint(r.Context(), req.Endpoint)
	if err != nil {
		return err
	}
	// A chain that cannot be a DRD is the caller's to fix (400), naming
	// the step: a model the graph or the engine does not know, a model
	// twice, an input fed semantically, by a later step or by nothing.
	listing, err := h.Catalog.Listing(r.Context(), key, ep, chain.LookupOptions{})
	if err != nil {
		return queryError("Failed to list DMNs", err)
	}
	byID := make(map[string]chain.Model, len(listing.Models))
	for _, m := range listing.Models {
		byID[m.Identifier] = m
	}
	models := make([]chain.Model, len(ids))
	for i, id := range ids {
		m, ok := byID[id]
		if !ok {
			return httpapi.InvalidRequest("%v", &chain.IncompatibleError{Step: i + 1, Model: id, Msg: "no model with this identifier in the knowledge graph"})
		}
		models[i] = m
	}
	links, err := chain.SemanticLinks(r.Context(), ep, models)
	if err != nil {
		return queryError("Failed to read the semantic links of the chain", err)
	}
	if err := chain.CheckDRDCompatible(models, links); err != nil {
		return httpapi.InvalidRequest("%v", err)
	}
	exp, err := chain.ExportDRD(r.Context(), h.Engine, req.Name, ids, chain.ExportOptions{Models: models})
	if err != nil {
		var (
			xe  *chain.ModelXMLError
			ae  *chain.AssemblyError
			ie  *chain.IncompatibleError
			sfe *engine.StorageFullError
		)
		switch {
		case errors.As(err, &xe) && errors.Is(err, engine.ErrNotFound):
			return httpapi.InvalidRequest("%v", &chain.IncompatibleError{Step: xe.Step, Model: xe.Identifier, Msg: "the decision engine has no model with this key"})
		case errors.As(err, &ae):
			return httpapi.InvalidRequest("cannot assemble the DRD: %v", err)
		case errors.As(err, &ie):
			return httpapi.InvalidRequest("%v", err)
		case errors.As(err, &sfe):
			return httpapi.NewError(http.StatusInsufficientStorage, CodeStorageFull,
				"The decision engine has no room for the DRD: "+strings.TrimPrefix(sfe.Error(), "engine: "))
		}
		if te := upstream.Transport(CodeExecutionError, "the decision engine", err); te != nil {
			return te
		}
		return executionError(err.Error(), err)
	}
	return httpapi.WriteData(w, http.StatusOK, exp)
}

type queryRequest struct {
	Endpoint string `json:"endpoint"`
	Query    string `json:"query"`
}

func (h *handlers) query(w http.ResponseWriter, r *http.Request) error {
	var req queryRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Query) == "" {
		return httpapi.InvalidRequest("query is required")
	}
	_, ep, err := h.requireEndpoint(r.Context(), req.Endpoint)
	if err != nil {
		return err
	}
	doc, err := runQuery(r.Context(), ep, req.Query)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, doc)
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
