package mcptools

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addCPRMV registers the rule-serving provider's tools in-process, for a
// server without the hosted rule-serving API: rules are read from the
// norms of the knowledge graph by their rule id path; the reference and
// CELEX look-ups need the hosted API and answer "not configured".
func addCPRMV(s *mcp.Server, o Options, caller who) {
	g := o.Graph
	add(s, caller, "rules_rules__rule_id_path__get",
		"The rules (norms) with a rule id path, e.g. BWBR0015703_2025-07-01_2 (a ruleset version: all its rules) "+
			"or BWBR0015703_2025-07-01_2, Artikel 21 onderdeel b (one rule): id, definition, situation, norm amount and period.",
		objectSchema(map[string]any{"rule_id_path": str("<rulesetid>_<applicable date>_<index>[, <article>]")}, "rule_id_path"),
		func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			if g == nil {
				return notConfigured("rules_rules__rule_id_path__get", "no knowledge graph"), nil
			}
			path, err := stringArg(args, "rule_id_path", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			if len(path) > 256 {
				return errorResult("rule_id_path is longer than 256 characters"), nil
			}
			lit := sparqlString(strings.TrimSpace(path))
			res, err := g.Select(ctx, `PREFIX cprmv: <https://cprmv.open-regels.nl/0.3.0/>
SELECT ?ruleIdPath ?id ?definition ?situatie ?norm ?per WHERE {
  ?rule cprmv:ruleIdPath ?ruleIdPath .
  FILTER(?ruleIdPath = `+lit+` || STRSTARTS(?ruleIdPath, CONCAT(`+lit+`, ", ")))
  OPTIONAL { ?rule cprmv:id ?id } OPTIONAL { ?rule cprmv:definition ?definition }
  OPTIONAL { ?rule cprmv:situatie ?situatie } OPTIONAL { ?rule cprmv:norm ?norm } OPTIONAL { ?rule cprmv:per ?per }
} ORDER BY ?ruleIdPath LIMIT 200`)
			if err != nil {
				return nil, err
			}
			if len(res.Solutions) == 0 {
				return errorResult("no rule with the rule id path " + path), nil
			}
			return jsonResult(rows(res))
		})
	for _, name := range []string{"ref_ref__referencemethod___reference__get", "celex_cellar_by_celex__celexid___language___format__get"} {
		add(s, caller, name, "Look-up of the hosted rule-serving API; not available on this server.", json.RawMessage(`{"type":"object"}`),
			func(context.Context, map[string]any) (*mcp.CallToolResult, error) {
				return notConfigured(name, "the hosted rule-serving API is not enabled (CPRMV_MCP_ENABLED)"), nil
			})
	}
}

// sparqlString quotes s as a SPARQL string literal: the model's text never
// leaves the literal.
func sparqlString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}
