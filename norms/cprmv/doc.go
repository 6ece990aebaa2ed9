// Package cprmv serves legal rules as CPRMV 0.4.1 RuleSet and Rule trees,
// read from publication repositories (BWB, CVDR, CELLAR Formex 4, DMN on
// Operaton) by rule set identifier and narrowed to a rule path. It owns the
// identifier grammar and detection, the repository adapters (a local
// directory laid out like the official repository, the official HTTP
// repositories with SRU look-ups, and both in turn), the streaming
// transformers from each document type, the output formats (cprmv-json and
// the RDF syntaxes of sparql/graph), unformat extraction and Juriconnect
// references. The methods graph (vocab/cprmvmethods.ttl) drives detection and
// document locations, so what /methods shows is what runs.
//
// The one call a newcomer needs:
//
//	svc, err := cprmv.New(cprmv.Options{Repository: cprmv.EmbeddedRepository()})
//	body, err := svc.Rules(ctx, cprmv.Request{Path: "BWBR0015703,Artikel 20,lid 1"})
//
// Every input is bounded: a document is read up to Limits.MaxBytes (50 MiB),
// its XML nesting up to Limits.MaxDepth, a repository request up to
// Limits.Timeout; converted rule sets of exact versions are kept in an LRU of
// Options.CacheEntries, and "latest" resolutions of the HTTP adapter for an
// hour, with concurrent misses sharing one request.
package cprmv
