package chainapi

import (
	"github.com/regelkit/regelkit/chain"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

type route struct {
	method, path string
	handle       httpapi.HandlerFunc
	op           openapi.Operation
	legacy       bool // also under /api (explorer spec §9)
}

var (
	endpointParam = openapi.Query("endpoint", "URL of the SPARQL endpoint (URL-encoded); required", true)
	refreshParam  = openapi.Query("refresh", "true or 1 bypasses the 5-minute listing cache (cached is then false)", false)
	modelTags     = []string{"models"}
	chainTags     = []string{"chains"}
)

func badEndpoint() openapi.Response {
	return openapi.Failure("endpoint missing or refused by the outbound policy", httpapi.CodeInvalidRequest)
}

// routes lists the routes in registration order: the literal /v1/dmns/…
// paths before /v1/dmns/{identifier}.
func (h *handlers) routes() []route {
	queryFailure := openapi.Failure("the knowledge-graph endpoint failed (502) or did not answer in time (504); the message carries the reason", CodeQueryError)
	return []route{
		{"GET", "/v1/dmns", h.listDMNs, openapi.Operation{
			Summary: "Decision models published in a knowledge graph",
			Description: "Every resource typed cprmv:DecisionModel (CPRMV 0.3.0 or 0.4.1) with identifier and title, its inputs, " +
				"outputs, governance and vendor services, ordered by identifier. Cached per endpoint for 5 minutes; cached says " +
				"whether this answer came from the cache.",
			Tags:       modelTags,
			Parameters: []openapi.Parameter{endpointParam, refreshParam},
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the listing", listingSchema),
				"400": badEndpoint(),
				"502": queryFailure,
			},
		}, true},
		{"GET", "/v1/dmns/enhanced-chain-links", h.discovery(CodeQueryError, "Failed to find connectable pairs", connectablePairs), openapi.Operation{
			Summary: "Connectable variable pairs: outputs that can feed inputs of another model",
			Description: "Pairs of an output (cpsv:Output) of dmn1 and an input (cpsv:Input) of dmn2 with equal types (compared " +
				"case-insensitively) that share the identifier (matchType exact, sharedConcept null) or a skos:exactMatch concept " +
				"(semantic, sharedConcept the concept IRI). A pair matching both ways appears twice, exact first.",
			Tags:       modelTags,
			Parameters: []openapi.Parameter{endpointParam},
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the pairs", openapi.Array(pairSchema, "")),
				"400": badEndpoint(),
				"502": queryFailure,
			},
		}, false},
		{"GET", "/v1/dmns/semantic-equivalences", h.discovery(CodeQueryError, "Failed to find semantic equivalences", semanticEquivalences), openapi.Operation{
			Summary:     "Variables of different models whose concepts share a skos:exactMatch target",
			Description: "Both orderings of each pair are listed, ordered by shared concept and model titles.",
			Tags:        modelTags,
			Parameters:  []openapi.Parameter{endpointParam},
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the equivalences", openapi.Array(equivalenceSchema, "")),
				"400": badEndpoint(),
				"502": queryFailure,
			},
		}, false},
		{"GET", "/v1/dmns/cycles", h.discovery(CodeQueryError, "Failed to find cycles", cycles), openapi.Operation{
			Summary:     "Circular dependencies of three models",
			Description: "Three distinct models where an output of each feeds an input of the next by identifier or shared concept. Every rotation is its own item.",
			Tags:        modelTags,
			Parameters:  []openapi.Parameter{endpointParam},
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the cycles", openapi.Array(cycleSchema, "")),
				"400": badEndpoint(),
				"502": queryFailure,
			},
		}, false},
		{"GET", "/v1/dmns/{identifier}", h.getDMN, openapi.Operation{
			Summary:     "One decision model by its dct:identifier",
			Description: "Served from the same per-endpoint cache as the listing.",
			Tags:        modelTags,
			Parameters: []openapi.Parameter{{Name: "identifier", In: "path", Required: true,
				Description: "the model's dct:identifier", Schema: openapi.String("")}, endpointParam, refreshParam},
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the model", dmnRecordSchema),
				"400": badEndpoint(),
				"404": openapi.Failure("no model with that identifier (DMN not found: <identifier>)", httpapi.CodeNotFound),
				"502": queryFailure,
			},
		}, true},
		{"GET", "/v1/dmns/{identifier}/xml", h.getDMNXML, openapi.Operation{
			Summary:     "The DMN XML of a deployed model",
			Description: "Read from the decision engine by key (the identifier), latest version. Not wrapped in the envelope; errors are.",
			Tags:        modelTags,
			Parameters: []openapi.Parameter{{Name: "identifier", In: "path", Required: true,
				Description: "the engine's decision key (= dct:identifier)", Schema: openapi.String("")}},
			Responses: map[string]openapi.Response{
				"200": {Description: "the DMN XML", Content: map[string]openapi.MediaType{"application/xml": {Schema: openapi.String("DMN XML")}}},
				"404": openapi.Failure("no decision with that key is deployed", httpapi.CodeNotFound),
				"500": openapi.Failure("the engine failed", CodeExecutionError),
			},
		}, false},
		{"GET", "/v1/chains", h.discovery(CodeDiscoveryError, "Failed to discover chains", chains), openapi.Operation{
			Summary: "Chains discoverable by identifier",
			Description: "Per source model (identifier), the models its outputs feed because an input has the same identifier. " +
				"total is the number of source models.",
			Tags:       chainTags,
			Parameters: []openapi.Parameter{endpointParam},
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the chains", chainsSchema),
				"400": badEndpoint(),
				"502": openapi.Failure("the discovery query failed (502) or did not answer in time (504)", CodeDiscoveryError),
			},
		}, true},
		{"POST", "/v1/chains/execute", h.execute, openapi.Operation{
			Summary: "Execute a chain of models, or a DRD from its entry point",
			Description: "Sequential: the models (looked up in the listing of endpoint; unknown → 404 before any evaluation) run " +
				"in order, each sent all accumulated variables; its outputs are merged over them. Before a step, a declared input " +
				"that is still absent is taken from the most recent earlier step whose output shares its skos:exactMatch concept. " +
				"results holds the merged outputs. isDrd: chain holds one engine key (e.g. dmn2_RONL_LocalpassEindresultaat from " +
				"an export), evaluated once. Several matched rules give, per output, the list of values; none is EXECUTION_ERROR " +
				"\"<model>: no rule matched (<decision>)\". Numbers keep their exact decimal text; dates are YYYY-MM-DD strings.",
			Tags:        chainTags,
			RequestBody: openapi.Body(executeRequestSchema, "the chain and its inputs"),
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the execution", executionSchema),
				"400": openapi.Failure("a missing or invalid field, a chain over 100 models, an identifier over 256 characters, or an input the engine cannot take", httpapi.CodeInvalidRequest, httpapi.CodeMalformedBody),
				"404": openapi.Failure("a model of the chain is not in the listing (DMN not found: <identifier>)", httpapi.CodeNotFound),
				"413": openapi.Failure("body over 10 MB", httpapi.CodePayloadTooLarge),
				"500": openapi.Failure("the engine failed or no rule matched (EXECUTION_ERROR, naming the model), or the knowledge graph failed (QUERY_ERROR)",
					CodeExecutionError, CodeQueryError),
			},
		}, true},
		{"POST", "/v1/chains/execute/localpass", h.executeLocalPass, openapi.Operation{
			Summary: "Execute the local-pass chain",
			Description: "SVB_LeeftijdsInformatie -> SZW_BijstandsnormInformatie -> RONL_LocalpassEindresultaat on the decision " +
				"engine; no knowledge graph is needed. Present inputs are type-checked (dates YYYY-MM-DD, booleans, a number); " +
				"missing ones go to the models as null. steps only with options.includeIntermediateSteps; each step's inputs are " +
				"the variables its model declares. A date outside the norm periods is EXECUTION_ERROR naming the model and that " +
				"no rule matched. Target under 1000 ms.",
			Tags:        chainTags,
			RequestBody: openapi.Body(localPassRequestSchema, "the applicant's data"),
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the result", fixedResultSchema),
				"400": openapi.Failure("inputs missing, empty or a field of the wrong type (named)", httpapi.CodeInvalidRequest, httpapi.CodeMalformedBody),
				"413": openapi.Failure("body over 10 MB", httpapi.CodePayloadTooLarge),
				"500": openapi.Failure("the engine failed or no rule matched, naming the model", CodeExecutionError),
			},
		}, true},
		{"POST", "/v1/chains/export", h.export, openapi.Operation{
			Summary: "Assemble a DRD from a chain and deploy it",
			Description: "Reads each model's DMN XML from the engine, prefixes every id of model i with dmn{i}_, makes each " +
				"model's main decision require the previous one's, and deploys one DMN 1.3 document. entryPointId is the key to " +
				"execute (isDrd). The deployment is named name, with duplicate filtering, and replaces earlier deployments " +
				"of that name in the embedded engine, so exporting again adds nothing. The chain must be DRD-compatible, else " +
				"400 names the step: every model in the knowledge graph and the engine, none twice, and every input fed by an " +
				"earlier model by identifier (not only semantically, not by a later model: a cycle) or declared as inputData.",
			Tags:        chainTags,
			RequestBody: openapi.Body(exportRequestSchema, "the chain and the deployment name"),
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the deployed DRD", exportSchema),
				"400": openapi.Failure("fewer than 2 or more than 100 models, an identifier or name over 256 characters, no name, no endpoint, or a chain that is not DRD-compatible (naming the step)", httpapi.CodeInvalidRequest, httpapi.CodeMalformedBody),
				"500": openapi.Failure("the engine refused the deployment (its status and message) or the knowledge graph failed",
					CodeExecutionError, CodeQueryError),
				"507": openapi.Failure("the embedded engine holds as much as it is configured to (its ceiling named)", CodeStorageFull),
			},
		}, false},
		{"POST", "/v1/graphdb/query", h.query, openapi.Operation{
			Summary: "Run a SPARQL query on any endpoint (proxy)",
			Description: "For browsers held back by cross-origin rules. SELECT and ASK; data is the SPARQL 1.1 JSON result " +
				"document. The endpoint must pass the outbound policy.",
			Tags:        []string{"knowledge graph"},
			RequestBody: openapi.Body(queryRequestSchema, "the endpoint and the query"),
			Responses: map[string]openapi.Response{
				"200": openapi.Success("the SPARQL JSON result", sparqlResultSchema),
				"400": openapi.Failure("endpoint or query missing, endpoint refused, a CONSTRUCT/DESCRIBE query (INVALID_REQUEST), or the endpoint rejected the query as malformed (QUERY_ERROR, quoting it)", httpapi.CodeInvalidRequest, httpapi.CodeMalformedBody, CodeQueryError),
				"502": openapi.Failure("the endpoint failed (502) or did not answer in time (504); the message carries its status", CodeQueryError),
			},
		}, false},
	}
}

// Schemas of the request and response bodies.
var (
	variableSchema = openapi.Object(map[string]openapi.Schema{
		"identifier":  openapi.String("dct:identifier"),
		"title":       openapi.String("dct:title; the identifier when the graph has none"),
		"type":        openapi.String("dct:type, e.g. Date, Boolean, Integer, Double, String; \"\" when absent"),
		"description": openapi.String("dct:description, when stated"),
		"testValue":   openapi.Schema{"description": "schema:value coerced by type (Integer/Double → number or null, Boolean → boolean, else string), when stated"},
	}, "identifier", "title", "type")

	vendorSchema = openapi.Object(map[string]openapi.Schema{
		"uri":               openapi.String("vendor-service IRI"),
		"title":             openapi.String(""),
		"vendor":            openapi.String("provider name; Unknown Vendor when none"),
		"basedOn":           openapi.String("model IRI"),
		"basedOnIdentifier": openapi.String("model identifier"),
		"implementedBy":     openapi.String("platform IRI"),
		"implementedByName": openapi.String("platform label"),
		"provider": openapi.Object(map[string]openapi.Schema{
			"name":     openapi.String(""),
			"logoUrl":  openapi.String(""),
			"homepage": openapi.String(""),
			"contactPoint": openapi.Object(map[string]openapi.Schema{
				"name": openapi.String(""), "email": openapi.String(""), "telephone": openapi.String(""),
			}),
		}, "name"),
		"serviceUrl":  openapi.String(""),
		"license":     openapi.String(""),
		"accessType":  openapi.String("e.g. fair-use, iam-required"),
		"description": openapi.String(""),
	}, "uri", "vendor", "basedOn", "basedOnIdentifier")

	optionalString = func(d string) openapi.Schema { return openapi.String(d + "; omitted when the graph does not state it") }

	dmnRecordSchema = openapi.Object(map[string]openapi.Schema{
		"id":               openapi.String("the model's IRI"),
		"identifier":       openapi.String("dct:identifier, the engine's decision key"),
		"title":            openapi.String("dct:title (Dutch preferred)"),
		"description":      optionalString("dct:description"),
		"inputs":           openapi.Array(variableSchema, "ordered by identifier"),
		"outputs":          openapi.Array(variableSchema, "ordered by identifier"),
		"validationStatus": openapi.Nullable(openapi.String("e.g. validated, in-review, not-validated")),
		"validatedByName":  openapi.Nullable(openapi.String("name of the validating organisation")),
		"validatedAt":      openapi.Nullable(openapi.String("YYYY-MM-DD")),
		"vendorCount":      openapi.Integer("number of vendors"),
		"vendors":          openapi.Array(vendorSchema, "vendor services based on the model"),
		"deploymentId":     optionalString(""),
		"deployedAt":       optionalString(""),
		"implementedBy":    optionalString("engine evaluation URL"),
		"lastTested":       optionalString(""),
		"testStatus":       optionalString("passed, failed or pending"),
		"service":          optionalString("IRI of the public service"),
		"serviceTitle":     optionalString(""),
		"organization":     optionalString("IRI of the competent authority"),
		"organizationName": optionalString(""),
		"logoUrl":          optionalString(""),
		"validatedBy":      optionalString("IRI of the validating organisation"),
		"validationNote":   optionalString(""),
		"xmlUrl":           openapi.String("/v1/dmns/<identifier>/xml"),
	}, "id", "identifier", "title", "inputs", "outputs", "validationStatus", "validatedByName", "validatedAt", "vendorCount", "vendors")

	listingSchema = openapi.Object(map[string]openapi.Schema{
		"dmns":     openapi.Array(dmnRecordSchema, "ordered by identifier"),
		"endpoint": openapi.String("the endpoint as given"),
		"cached":   openapi.Boolean("true when served from the 5-minute cache"),
	}, "dmns", "endpoint", "cached")

	modelRefSchema = openapi.Object(map[string]openapi.Schema{
		"uri": openapi.String(""), "identifier": openapi.String(""), "title": openapi.String(""),
	}, "uri", "identifier", "title")

	pairSchema = openapi.Object(map[string]openapi.Schema{
		"dmn1":           openapi.Describe(modelRefSchema, "the model with the output"),
		"dmn2":           openapi.Describe(modelRefSchema, "the model with the input"),
		"outputVariable": openapi.String(""),
		"inputVariable":  openapi.String(""),
		"variableType":   openapi.String("the output's dct:type"),
		"matchType":      openapi.Enum("", chain.MatchExact, chain.MatchSemantic),
		"sharedConcept":  openapi.Nullable(openapi.String("null for exact; the skos:exactMatch target for semantic")),
	}, "dmn1", "dmn2", "outputVariable", "inputVariable", "variableType", "matchType", "sharedConcept")

	titledRefSchema = openapi.Object(map[string]openapi.Schema{"uri": openapi.String(""), "title": openapi.String("")}, "uri", "title")

	conceptSchema = openapi.Object(map[string]openapi.Schema{
		"uri":      openapi.String("the skos:Concept"),
		"label":    openapi.String("skos:prefLabel"),
		"notation": openapi.String("skos:notation, when stated"),
		"variable": openapi.Object(map[string]openapi.Schema{
			"uri": openapi.String(""), "identifier": openapi.String(""), "type": openapi.String(""),
		}, "uri", "identifier", "type"),
	}, "uri", "label", "variable")

	equivalenceSchema = openapi.Object(map[string]openapi.Schema{
		"sharedConcept": openapi.String("the skos:exactMatch target"),
		"concept1":      conceptSchema,
		"concept2":      conceptSchema,
		"dmn1":          titledRefSchema,
		"dmn2":          titledRefSchema,
	}, "sharedConcept", "concept1", "concept2", "dmn1", "dmn2")

	cycleSchema = openapi.Object(map[string]openapi.Schema{
		"path": openapi.Array(titledRefSchema, "three models; the last feeds the first"),
		"type": openapi.Enum("", "three-hop"),
	}, "path", "type")

	chainsSchema = openapi.Object(map[string]openapi.Schema{
		"total": openapi.Integer("number of source models"),
		"chains": openapi.Array(openapi.Object(map[string]openapi.Schema{
			"from": openapi.String("source model identifier"),
			"connections": openapi.Array(openapi.Object(map[string]openapi.Schema{
				"to":           openapi.String("target model identifier"),
				"variable":     openapi.String("the shared variable identifier"),
				"variableType": openapi.String("the output's dct:type"),
			}, "to", "variable", "variableType"), ""),
		}, "from", "connections"), "in order of source identifier"),
	}, "total", "chains")

	valuesSchema = openapi.AnyObject("variable name → value (numbers exact, dates YYYY-MM-DD strings)")

	executeRequestSchema = openapi.Object(map[string]openapi.Schema{
		"chain":    openapi.Array(openapi.String(""), "model identifiers in execution order; with isDrd one engine key"),
		"dmnIds":   openapi.Array(openapi.String(""), "alias of chain (upstream's name)"),
		"inputs":   openapi.Describe(valuesSchema, "non-empty"),
		"endpoint": openapi.String("SPARQL endpoint URL"),
		"isDrd":    openapi.Boolean("chain holds one DRD entry-point key, evaluated once"),
	}, "chain", "inputs", "endpoint")

	executionSchema = openapi.Object(map[string]openapi.Schema{
		"results": openapi.Describe(valuesSchema, "merged outputs of all steps"),
		"steps": openapi.Array(openapi.Object(map[string]openapi.Schema{
			"dmn":      openapi.String("model identifier (engine key)"),
			"inputs":   openapi.Describe(valuesSchema, "the variables sent"),
			"outputs":  openapi.Describe(valuesSchema, "several matched rules: a list per output"),
			"duration": openapi.Number("milliseconds"),
		}, "dmn", "inputs", "outputs", "duration"), ""),
		"totalDuration": openapi.Number("milliseconds"),
	}, "results", "steps", "totalDuration")

	localPassRequestSchema = openapi.Object(map[string]openapi.Schema{
		"inputs": localPassInputsSchema(),
		"options": openapi.Object(map[string]openapi.Schema{
			"includeIntermediateSteps": openapi.Boolean("add steps to the result"),
		}),
	}, "inputs")

	fixedResultSchema = openapi.Object(map[string]openapi.Schema{
		"success":       openapi.Boolean(""),
		"chainId":       openapi.String("the identifiers joined with ->"),
		"executionTime": openapi.Number("milliseconds"),
		"finalOutputs": openapi.Object(map[string]openapi.Schema{
			"aanmerkingLocalPass":  openapi.Boolean(""),
			"aanmerkingKindPakket": openapi.Boolean(""),
		}, "aanmerkingLocalPass", "aanmerkingKindPakket"),
		"steps": openapi.Array(openapi.Object(map[string]openapi.Schema{
			"dmnId":         openapi.String(""),
			"dmnTitle":      openapi.String(""),
			"inputs":        openapi.Describe(valuesSchema, "the variables the model declares, as sent"),
			"outputs":       valuesSchema,
			"executionTime": openapi.Number("milliseconds"),
		}, "dmnId", "dmnTitle", "inputs", "outputs", "executionTime"), "only with options.includeIntermediateSteps"),
	}, "success", "chainId", "executionTime", "finalOutputs")

	exportRequestSchema = openapi.Object(map[string]openapi.Schema{
		"chain":    openapi.Array(openapi.String(""), "at least 2 model identifiers in chain order"),
		"dmnIds":   openapi.Array(openapi.String(""), "alias of chain"),
		"name":     openapi.String("deployment name and DRD name"),
		"endpoint": openapi.String("SPARQL endpoint URL"),
	}, "chain", "name", "endpoint")

	exportSchema = openapi.Object(map[string]openapi.Schema{
		"deploymentId": openapi.String("the engine's deployment id"),
		"entryPointId": openapi.String("executable key, e.g. dmn2_RONL_LocalpassEindresultaat"),
		"xml":          openapi.String("the DRD (DMN 1.3)"),
	}, "deploymentId", "entryPointId", "xml")

	queryRequestSchema = openapi.Object(map[string]openapi.Schema{
		"endpoint": openapi.String("SPARQL endpoint URL"),
		"query":    openapi.String("SPARQL 1.1 SELECT or ASK query"),
	}, "endpoint", "query")

	sparqlResultSchema = openapi.Object(map[string]openapi.Schema{
		"head": openapi.Object(map[string]openapi.Schema{
			"vars": openapi.Array(openapi.String(""), ""),
			"link": openapi.Array(openapi.String(""), ""),
		}),
		"results": openapi.Object(map[string]openapi.Schema{
			"bindings": openapi.Array(openapi.AnyObject("variable → {type, value, xml:lang?, datatype?}"), ""),
		}, "bindings"),
		"boolean": openapi.Boolean("ASK queries"),
	}, "head")
)

func localPassInputsSchema() openapi.Schema {
	props := map[string]openapi.Schema{}
	for _, f := range chain.LocalPassFields {
		switch f.Type {
		case chain.FieldDate:
			props[f.Name] = openapi.Schema{"type": []string{"string", "null"}, "format": "date", "description": "YYYY-MM-DD"}
		case chain.FieldBoolean:
			props[f.Name] = openapi.Nullable(openapi.Boolean(""))
		case chain.FieldNumber:
			props[f.Name] = openapi.Nullable(openapi.Number("euro per month"))
		}
	}
	s := openapi.Object(props)
	s["description"] = "non-empty; a missing or null field goes to the models as null"
	return s
}
