package norms

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
)

// Key is the immutable identity of a published rule row: once published,
// the row with this key never changes and may be cached permanently. A
// correction is a new row with a higher Index; a law amendment a new row
// with a new ApplicableDate.
type Key struct {
	RulesetID      string
	ApplicableDate string // YYYY-MM-DD
	Index          int    // rulesetid_index
}

// String is the canonical path prefix of the key, e.g.
// "BWBR0015703_2026-01-01_1".
func (k Key) String() string {
	return k.RulesetID + "_" + k.ApplicableDate + "_" + strconv.Itoa(k.Index)
}

// Compare orders keys by ruleset, then applicable date, then index; for two
// rows of one logical rule the greater key is the more current row.
func (k Key) Compare(o Key) int {
	if c := cmp.Compare(k.RulesetID, o.RulesetID); c != 0 {
		return c
	}
	if c := cmp.Compare(k.ApplicableDate, o.ApplicableDate); c != 0 {
		return c
	}
	return cmp.Compare(k.Index, o.Index)
}

// RulePath is a canonical rule path "<ruleset>_<YYYY-MM-DD>_<index>" with an
// optional ", <article>" part, parsed.
type RulePath struct {
	Key
	// Article is the part after the comma, e.g. "Artikel 5 lid 2"; empty
	// when the path names the ruleset itself.
	Article string
}

// LogicalKey is rule_id_path_key: the identity of the logical rule across
// its versions, "<ruleset>, <article>" or "<ruleset>" alone.
func (p RulePath) LogicalKey() string {
	if p.Article == "" {
		return p.RulesetID
	}
	return p.RulesetID + ", " + p.Article
}

// rulePathRE is the path grammar of the rule keys the explorer answers.
var rulePathRE = regexp.MustCompile(`^([^_]+)_(\d{4}-\d{2}-\d{2})_(\d+)(?:,\s*(.+))?$`)

// ParsePath parses a rule path such as "BWBR0015703_2026-01-01_3, Artikel 5
// lid 2". It reports false for a non-canonical path (legacy data), whose
// derived fields are then null in the JSON, and for an index beyond int.
func ParsePath(path string) (RulePath, bool) {
	m := rulePathRE.FindStringSubmatch(path)
	if m == nil {
		return RulePath{}, false
	}
	index, err := strconv.Atoi(m[3])
	if err != nil {
		return RulePath{}, false
	}
	return RulePath{Key: Key{RulesetID: m[1], ApplicableDate: m[2], Index: index}, Article: m[4]}, true
}

// Current returns the current row of every logical rule among rules: per
// rule_id_path_key the row with the latest applicable date, then the
// highest index, sorted by logical key. Rules with a non-canonical path
// have no logical key and are left out.
func Current(rules []Rule) []Rule {
	best := map[string]int{}
	for i, r := range rules {
		if r.Path == nil {
			continue
		}
		lk := r.Path.LogicalKey()
		j, ok := best[lk]
		if !ok || r.Path.Key.Compare(rules[j].Path.Key) > 0 {
			best[lk] = i
		}
	}
	out := make([]Rule, 0, len(best))
	for _, i := range best {
		out = append(out, rules[i])
	}
	slices.SortFunc(out, func(a, b Rule) int { return cmp.Compare(a.Path.LogicalKey(), b.Path.LogicalKey()) })
	return out
}
