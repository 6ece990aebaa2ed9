package norms

import (
	"strings"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// stringLiteral writes s as a SPARQL string literal (N-Triples escapes
// are SPARQL syntax). The parameters are already restricted by their
// patterns (§8.3); escaping keeps any interpolated value inside its literal.
func stringLiteral(s string) string { return graph.String(s).String() }

func iri(s string) string { return graph.IRI(s).String() }

// rulesQuery selects the rules of vocabulary v matching q: one row per rule
// and child, ordered by ruleset id, rule path and child id (the further
// keys only make the order total).
func rulesQuery(v Vocabulary, q Query) string {
	t := func(local string) string { return iri(v.Term(local)) }
	var b strings.Builder
	b.WriteString("SELECT ?rule ?id ?definition ?rulesetId ?path ?situatie ?norm ?per ?childId ?childDefinition WHERE {\n")
	b.WriteString("  ?rule a " + t("Rule") + " ;\n")
	b.WriteString("    " + t("id") + " ?id ;\n")
	b.WriteString("    " + t("definition") + " ?definition ;\n")
	b.WriteString("    " + t("rulesetId") + " ?rulesetId ;\n")
	b.WriteString("    " + t("ruleIdPath") + " ?path .\n")
	if q.RulesetID != "" {
		b.WriteString("  FILTER(STR(?rulesetId) = " + stringLiteral(q.RulesetID) + ")\n")
	}
	if q.ApplicableDate != "" {
		b.WriteString("  FILTER(CONTAINS(STR(?path), " + stringLiteral("_"+q.ApplicableDate+"_") + "))\n")
	}
	b.WriteString("  OPTIONAL { ?rule " + t("situatie") + " ?situatie }\n")
	b.WriteString("  OPTIONAL { ?rule " + t("norm") + " ?norm }\n")
	b.WriteString("  OPTIONAL { ?rule " + t("per") + " ?per }\n")
	b.WriteString("  OPTIONAL {\n    ?rule " + t("contains") + " ?child .\n")
	b.WriteString("    ?child a " + t("Rule") + " ; " + t("id") + " ?childId ; " + t("definition") + " ?childDefinition .\n  }\n")
	b.WriteString("}\nORDER BY ?rulesetId ?path ?childId ?rule ?id ?definition ?childDefinition")
	return b.String()
}

// rulesFrom groups the rows of rulesQuery by rule IRI, in row order. Where
// a rule has several values for one field, the first row's value wins (the
// ORDER BY makes that deterministic); a repeated child id keeps its first
// definition.
func rulesFrom(v Vocabulary, res *sparql.Results) []Rule {
	var rules []Rule
	index := map[graph.Term]int{}
	for _, row := range res.Solutions {
		ruleTerm := row["rule"]
		i, seen := index[ruleTerm]
		if !seen {
			r := Rule{
				IRI:        ruleTerm.Value,
				Namespace:  v.Namespace,
				ID:         row["id"].Value,
				Definition: row["definition"].Value,
				RulesetID:  row["rulesetId"].Value,
				RuleIDPath: row["path"].Value,
				Situatie:   optional(row, "situatie"),
				Norm:       optional(row, "norm"),
				Per:        optional(row, "per"),
			}
			if p, ok := ParsePath(r.RuleIDPath); ok {
				r.Path = &p
			}
			i = len(rules)
			index[ruleTerm] = i
			rules = append(rules, r)
		}
		if child, ok := row["childId"]; ok {
			r := &rules[i]
			dup := false
			for _, c := range r.Contains {
				if c.ID == child.Value {
					dup = true
					break
				}
			}
			if !dup {
				r.Contains = append(r.Contains, ChildRule{ID: child.Value, Definition: row["childDefinition"].Value})
			}
		}
	}
	return rules
}

func optional(row sparql.Solution, name string) *string {
	t, ok := row[name]
	if !ok {
		return nil
	}
	s := t.Value
	return &s
}

// recordsQuery selects the dataset-version records of vocabulary v.
func recordsQuery(v Vocabulary) string {
	var b strings.Builder
	b.WriteString("SELECT ?record ?rulesetId ?published ?version ?title WHERE {\n")
	b.WriteString("  ?record a " + iri(v.RecordClass) + " ;\n")
	b.WriteString("    " + iri(v.Term("rulesetId")) + " ?rulesetId ;\n")
	b.WriteString("    " + iri(v.PublishedPredicate) + " ?published .\n")
	if v.VersionPredicate != v.PublishedPredicate {
		b.WriteString("  OPTIONAL { ?record " + iri(v.VersionPredicate) + " ?version }\n")
	}
	b.WriteString("  OPTIONAL { ?record " + iri(DCT+"title") + " ?title }\n")
	b.WriteString("}")
	return b.String()
}

// recordsFrom builds the sorted records per ruleset id from the rows of
// recordsQuery: one record per metadata resource. Rows without a ruleset id
// or publication value are skipped. Where a resource has several values,
// the latest publication, the highest version and the preferred title
// (no language tag, then nl, then the smallest tag) win, so the result does
// not depend on row order. Identical records are kept once.
func recordsFrom(v Vocabulary, res *sparql.Results) map[string][]VersionRecord {
	type acc struct {
		rulesetID string
		published string
		version   *string
		title     *graph.Term
	}
	byRecord := map[graph.Term]*acc{}
	var order []*acc
	for _, row := range res.Solutions {
		rs, pub := row["rulesetId"].Value, row["published"].Value
		if rs == "" || pub == "" {
			continue
		}
		key := row["record"]
		a := byRecord[key]
		if a == nil {
			a = &acc{rulesetID: rs, published: pub}
			byRecord[key] = a
			order = append(order, a)
		}
		if rs > a.rulesetID {
			a.rulesetID = rs
		}
		if comparePublished(pub, a.published) < 0 {
			a.published = pub
		}
		if ver, ok := row["version"]; ok && (a.version == nil || ver.Value > *a.version) {
			s := ver.Value
			a.version = &s
		}
		if t, ok := row["title"]; ok && (a.title == nil || preferTitle(t, *a.title)) {
			tt := t
			a.title = &tt
		}
	}
	out := map[string][]VersionRecord{}
	for _, a := range order {
		rec := VersionRecord{PublishedAt: a.published, Version: a.version}
		if v.VersionPredicate == v.PublishedPredicate {
			p := a.published
			rec.Version = &p
		}
		if a.title != nil {
			s := a.title.Value
			rec.Title = &s
		}
		out[a.rulesetID] = append(out[a.rulesetID], rec)
	}
	for id, recs := range out {
		SortRecords(recs)
		out[id] = dedupeRecords(recs)
	}
	return out
}

// preferTitle reports whether title a is preferred over b.
func preferTitle(a, b graph.Term) bool {
	rank := func(t graph.Term) int {
		switch t.Lang {
		case "":
			return 0
		case "nl":
			return 1
		}
		return 2
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra < rb
	}
	if a.Lang != b.Lang {
		return a.Lang < b.Lang
	}
	return a.Value < b.Value
}

func dedupeRecords(recs []VersionRecord) []VersionRecord {
	out := recs[:0]
	for i, r := range recs {
		if i > 0 && sameRecord(r, out[len(out)-1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func sameRecord(a, b VersionRecord) bool {
	eq := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.PublishedAt == b.PublishedAt && eq(a.Version, b.Version) && eq(a.Title, b.Title)
}
