package chain

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// values collects the distinct terms seen for one property. Upstream kept
// "the first row", and SPARQL row order is not stable; these functions
// choose deterministically instead.
type values []graph.Term

func (v *values) add(t graph.Term) {
	if !t.IsZero() && !slices.Contains(*v, t) {
		*v = append(*v, t)
	}
}

// text prefers a Dutch literal, then an untagged one, then any other; the
// lexically smallest wins within each group. IRIs count as untagged.
func (v values) text() string {
	best, bestRank := "", 3
	for _, t := range v {
		rank := 2
		switch {
		case t.Lang == "nl" || strings.HasPrefix(t.Lang, "nl-"):
			rank = 0
		case t.Lang == "":
			rank = 1
		}
		if rank < bestRank || rank == bestRank && t.Value < best {
			best, bestRank = t.Value, rank
		}
	}
	return best
}

// iri returns the lexically smallest IRI, or "".
func (v values) iri() string {
	best := ""
	for _, t := range v {
		if t.IsIRI() && (best == "" || t.Value < best) {
			best = t.Value
		}
	}
	return best
}

// date renders the chosen value as YYYY-MM-DD, truncating a dateTime.
func (v values) date() string {
	s := v.text()
	if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
		return s[:10]
	}
	return s
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// testValue coerces a schema:value by the variable's type:
// Integer → integer, Double → number (null when unparsable), Boolean →
// true iff the lower-cased text is "true", anything else a string.
func testValue(lexical, typ string) json.RawMessage {
	var v any = lexical
	switch strings.ToLower(typ) {
	case "integer", "int", "long":
		n, err := strconv.ParseInt(strings.TrimSpace(lexical), 10, 64)
		if err != nil {
			return json.RawMessage("null")
		}
		v = n
	case "double", "decimal", "number", "float":
		f, err := strconv.ParseFloat(strings.TrimSpace(lexical), 64)
		if err != nil {
			return json.RawMessage("null")
		}
		// Keep the lexical form when it is already a JSON number, so
		// 1369.06 stays 1369.06 and no float rounding shows.
		if json.Valid([]byte(strings.TrimSpace(lexical))) && !strings.ContainsAny(lexical, "+") {
			return json.RawMessage(strings.TrimSpace(lexical))
		}
		v = f
	case "boolean", "bool":
		v = strings.ToLower(strings.TrimSpace(lexical)) == "true"
	}
	data, _ := json.Marshal(v)
	return data
}
