// Package norms serves legal norms (rules published with the CPRMV
// vocabulary) from any sparql.Endpoint under the stability contract of the
// explorer specification ("GET /v1/norms", §9). It knows the three
// vocabulary versions with their namespaces and dataset-version models,
// queries rules and version records, and computes the validators
// (ETag, Last-Modified) that let clients cache fully versioned answers.
//
//	svc := norms.NewService(norms.Options{})
//	res, err := svc.Norms(ctx, endpoint, norms.Query{RulesetID: "BWBR0015703"})
//
// # The contract in Go terms
//
//   - Vocabularies: V030 (DefaultVersion, namespace
//     https://cprmv.open-regels.nl/0.3.0/, the only stable one), V032
//     (…/0.3.2/) and V041 (https://standaarden.open-regels.nl/standards/cprmv/0.4.1#).
//     0.3.x records are cprmv:Dataset (version dcat:version, published_at
//     dct:issued); 0.4.1 records are cprmv:RuleSet (both from
//     cprmv:validFrom). Rule JSON keys type, id, definition and contains
//     carry the requested namespace (Rule.MarshalJSON writes the keys in the
//     order the explorer answers them; Result.MarshalJSON the data object).
//   - Key (rulesetid, applicable_date, rulesetid_index) is immutable once
//     published. ParsePath derives it and the logical key rule_id_path_key
//     from the rule path; Current picks the current row of each logical
//     rule (latest applicable date, then highest index); MatchRecord finds
//     the version record of a rule (version equal to the applicable date,
//     else the newest legacy record).
//   - dataset_versions (Result.DatasetVersions) holds the records of the
//     returned rulesets, sorted by SortRecords: version descending, nulls
//     last, ties by published_at descending. A ruleset without a record is
//     absent; title is the data's dct:title (set on the primary ruleset).
//   - Result.Validators is set only when the result is fully versioned (at
//     least one ruleset, each with a record): a strong ETag over every
//     distinct (version, published_at) pair and the filter parameters
//     (titles excluded) and Last-Modified = the latest published_at; the
//     response then carries CacheControl, otherwise NoCache and no
//     validators. The ETag recipe: per ruleset id (sorted)
//     "<id>=<version|null>:<published_at>,…", rulesets joined by ";", then
//     "||" and the present filter parameters "k=v" sorted and joined by "|"
//     (cprmv_version always present), hex SHA-256, quoted.
//   - Service.Validators gives the same validators from cached records
//     alone for a single-ruleset query, so a 304 needs no rules query. It
//     assumes the ruleset has rules matching the query (when it has none,
//     the full answer is empty and uncacheable), so decide a 304 from it
//     only for an entity tag the client lists: that tag came from a full,
//     non-empty answer, and published rows never change.
//   - Records are cached 60 s (Options.MetadataTTL) per endpoint and
//     vocabulary version (Options.Now is the clock). A failed metadata
//     query is not cached and gives an answer without dataset versions,
//     hence uncacheable; a failed rules query is a *QueryError. For 0.4.1
//     a re-publication with an unchanged validFrom keeps the ETag, so a
//     stale answer may be served until max-age ends (spec caveat).
//   - Query.Validate enforces the patterns of the norms API, the
//     injection guard of the interpolated filters; the values are escaped
//     as SPARQL strings besides.
//
// Benchmarks (go test ./norms -run XXX -bench .) measure one ruleset's
// answer and the 304 short-circuit on the embedded example knowledge graph.
package norms
