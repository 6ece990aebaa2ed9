package norms

import (
	"bytes"
	"encoding/json"
	"sort"
)

// object is a JSON object that keeps its members in the given order;
// encoding/json sorts map keys, and the contract fixes the key order.
type object []member

type member struct {
	key   string
	value any
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalJSON writes the rule with the keys the explorer answers, in
// their order: rdf:type, <ns>id, <ns>definition, <ns>contains (only with
// children), situatie, norm, per (only when bound), rulesetid,
// applicable_date, rulesetid_index, rule_id_path, rule_id_path_key.
func (r Rule) MarshalJSON() ([]byte, error) {
	o := make(object, 0, 12)
	o = append(o,
		member{RDFType, r.Namespace + "Rule"},
		member{r.Namespace + "id", r.ID},
		member{r.Namespace + "definition", r.Definition})
	if len(r.Contains) > 0 {
		children := make(object, 0, len(r.Contains))
		for _, c := range r.Contains {
			children = append(children, member{c.ID, object{
				{RDFType, r.Namespace + "Rule"},
				{r.Namespace + "id", c.ID},
				{r.Namespace + "definition", c.Definition},
			}})
		}
		o = append(o, member{r.Namespace + "contains", children})
	}
	for _, f := range []struct {
		key   string
		value *string
	}{{"situatie", r.Situatie}, {"norm", r.Norm}, {"per", r.Per}} {
		if f.value != nil {
			o = append(o, member{f.key, *f.value})
		}
	}
	o = append(o, member{"rulesetid", r.RulesetID})
	if r.Path != nil {
		o = append(o,
			member{"applicable_date", r.Path.ApplicableDate},
			member{"rulesetid_index", r.Path.Index},
			member{"rule_id_path", r.RuleIDPath},
			member{"rule_id_path_key", r.Path.LogicalKey()})
	} else {
		o = append(o,
			member{"applicable_date", nil},
			member{"rulesetid_index", nil},
			member{"rule_id_path", r.RuleIDPath},
			member{"rule_id_path_key", nil})
	}
	return o.MarshalJSON()
}

// MarshalJSON writes the response data of GET /v1/norms with its keys in
// the order the explorer answers: total, dataset_versions (ruleset
// ids sorted), cprmv_version, aggregations {norms_per_rulesetid}, rules.
func (res *Result) MarshalJSON() ([]byte, error) {
	ids := make([]string, 0, len(res.DatasetVersions))
	for id := range res.DatasetVersions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	versions := make(object, 0, len(ids))
	for _, id := range ids {
		versions = append(versions, member{id, res.DatasetVersions[id]})
	}
	counts := res.NormsPerRuleset()
	perRuleset := make(object, 0, len(counts))
	for _, c := range counts {
		perRuleset = append(perRuleset, member{c.RulesetID, c.Count})
	}
	rules := res.Rules
	if rules == nil {
		rules = []Rule{}
	}
	return object{
		{"total", len(res.Rules)},
		{"dataset_versions", versions},
		{"cprmv_version", string(res.Vocabulary.Version)},
		{"aggregations", object{{"norms_per_rulesetid", perRuleset}}},
		{"rules", rules},
	}.MarshalJSON()
}
