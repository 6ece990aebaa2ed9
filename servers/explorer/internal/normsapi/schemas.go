package normsapi

import (
	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

func operation(deprecated bool) openapi.Operation {
	record := openapi.Object(map[string]openapi.Schema{
		"version":      openapi.Nullable(openapi.String("dcat:version (0.3.x) or cprmv:validFrom (0.4.1); null only for legacy data")),
		"published_at": openapi.String("dct:issued (0.3.x) or cprmv:validFrom (0.4.1)"),
		"title":        openapi.Nullable(openapi.String("dct:title where the data has it (the primary ruleset), otherwise null; not part of the ETag")),
	}, "version", "published_at", "title")
	rule := openapi.Schema{
		"type": "object",
		"description": "Keys in this order: " + norms.RDFType + " (<ns>Rule), <ns>id, <ns>definition, <ns>contains (only with " +
			"children: object keyed by child id, each {type, <ns>id, <ns>definition}), situatie, norm, per (only when bound), " +
			"rulesetid, applicable_date, rulesetid_index, rule_id_path, rule_id_path_key. <ns> is the requested vocabulary's " +
			"namespace. The tuple (rulesetid, applicable_date, rulesetid_index) never changes once published; " +
			"rule_id_path_key identifies the logical rule across versions. The derived fields are null for a non-canonical path.",
		"properties": map[string]any{
			"situatie":         openapi.String("optional"),
			"norm":             openapi.String("optional"),
			"per":              openapi.String("optional"),
			"rulesetid":        openapi.String(""),
			"applicable_date":  openapi.Nullable(openapi.String("YYYY-MM-DD from the rule path")),
			"rulesetid_index":  openapi.Nullable(openapi.Integer("index from the rule path; a correction has a higher index")),
			"rule_id_path":     openapi.String("e.g. BWBR0015703_2026-01-01_1 or BWBR0015703_2026-01-01_3, Artikel 5 lid 2"),
			"rule_id_path_key": openapi.Nullable(openapi.String("\"<rulesetid>, <article>\" or \"<rulesetid>\"")),
		},
		"required":             []string{"rulesetid", "applicable_date", "rulesetid_index", "rule_id_path", "rule_id_path_key"},
		"additionalProperties": true,
	}
	data := openapi.Object(map[string]openapi.Schema{
		"total": openapi.Integer("number of rules"),
		"dataset_versions": openapi.Schema{"type": "object", "additionalProperties": openapi.Array(record, ""),
			"description": "rulesetid → version records, newest first (version descending, nulls last; ties by published_at " +
				"descending); rulesets without a record are absent"},
		"cprmv_version": openapi.Enum("echo of the requested vocabulary version", string(norms.V030), string(norms.V032), string(norms.V041)),
		"aggregations": openapi.Object(map[string]openapi.Schema{
			"norms_per_rulesetid": openapi.Schema{"type": "object", "additionalProperties": openapi.Integer("")},
		}, "norms_per_rulesetid"),
		"rules": openapi.Array(rule, "ordered by rulesetid, rule_id_path"),
	}, "total", "dataset_versions", "cprmv_version", "aggregations", "rules")
	envelope := openapi.Object(map[string]openapi.Schema{
		"success":   openapi.Boolean("always true"),
		"data":      data,
		"timestamp": openapi.String("ISO 8601 UTC with milliseconds"),
	}, "success", "data", "timestamp")

	validatorHeaders := map[string]openapi.Header{
		"ETag": {Description: "only when every ruleset in the response has a version record: strong validator over every " +
			"(version, published_at) pair and the filter parameters (title excluded)", Schema: openapi.String("")},
		"Last-Modified": {Description: "with ETag: the latest published_at (HTTP-date)", Schema: openapi.String("")},
		"Cache-Control": {Description: "public, max-age=3600 with validators; no-cache otherwise", Schema: openapi.String("")},
	}
	if deprecated {
		validatorHeaders["Deprecation"] = openapi.Header{Description: "RFC 9745: when /v1/norms was deprecated", Schema: openapi.String("")}
		validatorHeaders["Sunset"] = openapi.Header{Description: "RFC 8594: when /v1/norms stops answering", Schema: openapi.String("")}
	}
	return openapi.Operation{
		Summary: "Legal norms under the stability contract",
		Description: "Rules of one or all rulesets with their dataset versions. Only cprmv_version 0.3.0 (the default) is " +
			"covered by the stability guarantee; 0.3.2 and 0.4.1 are experimental. For 0.4.1 published_at equals the " +
			"applicable date, so a re-publication with an unchanged validFrom keeps the ETag. Conditional requests: " +
			"If-None-Match (list, *, weak comparison) decides when present, otherwise If-Modified-Since; a match gets 304 " +
			"with no body. For a single rulesetid the 304 decision is made before the rules query runs.",
		Tags:       []string{"norms"},
		Deprecated: deprecated,
		Parameters: []openapi.Parameter{
			{Name: "rulesetid", In: "query", Description: "restrict to one ruleset; must match ^[A-Za-z0-9_-]+$",
				Schema: openapi.Schema{"type": "string", "pattern": "^[A-Za-z0-9_-]+$"}},
			{Name: "applicable_date", In: "query", Description: "keep rules whose path carries this applicable date (YYYY-MM-DD)",
				Schema: openapi.Schema{"type": "string", "pattern": `^\d{4}-\d{2}-\d{2}$`}},
			{Name: "cprmv_version", In: "query", Description: "vocabulary version; default 0.3.0",
				Schema: openapi.Enum("", string(norms.V030), string(norms.V032), string(norms.V041))},
			{Name: "endpoint", In: "query", Description: "URL of a SPARQL endpoint; default the configured knowledge graph",
				Schema: openapi.String("")},
			{Name: "If-None-Match", In: "header", Schema: openapi.String("")},
			{Name: "If-Modified-Since", In: "header", Schema: openapi.String("")},
		},
		Responses: map[string]openapi.Response{
			"200": {Description: "the rules", Headers: validatorHeaders, Content: openapi.JSON(envelope)},
			"304": {Description: "not modified: no body; carries ETag, Last-Modified, Cache-Control and API-Version",
				Headers: validatorHeaders},
			"400": openapi.Failure("an invalid parameter (INVALID_REQUEST; the message names it)", httpapi.CodeInvalidRequest),
			"502": openapi.Failure("the rules query failed (504: not in time)", CodeQueryError),
		},
	}
}
