package cprmv

import (
	"regexp"
	"strings"
)

// Pattern is a compiled unformat pattern: the compatible
// subset of Python's parse syntax. {name:param_value} matches one or more
// characters greedily, {name} lazily, {{ and }} are literal braces, all other
// text is literal; matching is case-insensitive, "." crosses lines, and the
// match is unanchored.
type Pattern struct {
	re    *regexp.Regexp
	names []string
}

var fieldName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// maxPattern bounds a pattern's length; the query string is bounded anyway,
// and Go's regexp runs in linear time.
const maxPattern = 1000

// CompilePattern compiles an unformat pattern; anything outside the subset
// gives ErrPattern.
func CompilePattern(p string) (*Pattern, error) {
	if p == "" || len(p) > maxPattern {
		return nil, ErrPattern
	}
	var b strings.Builder
	b.WriteString("(?is)")
	var lit strings.Builder
	seen := map[string]bool{}
	var names []string
	flushLit := func() {
		b.WriteString(regexp.QuoteMeta(lit.String()))
		lit.Reset()
	}
	for i := 0; i < len(p); {
		switch {
		case strings.HasPrefix(p[i:], "{{"):
			lit.WriteByte('{')
			i += 2
		case strings.HasPrefix(p[i:], "}}"):
			lit.WriteByte('}')
			i += 2
		case p[i] == '}':
			return nil, ErrPattern
		case p[i] == '{':
			end := strings.IndexByte(p[i:], '}')
			if end < 0 {
				return nil, ErrPattern
			}
			field := p[i+1 : i+end]
			name, spec, hasSpec := strings.Cut(field, ":")
			if !fieldName.MatchString(name) || seen[name] || (hasSpec && spec != "param_value") {
				return nil, ErrPattern
			}
			seen[name] = true
			names = append(names, name)
			flushLit()
			if hasSpec {
				b.WriteString("(.+)")
			} else {
				b.WriteString("(.+?)")
			}
			i += end + 1
		default:
			lit.WriteByte(p[i])
			i++
		}
	}
	flushLit()
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, ErrPattern
	}
	return &Pattern{re: re, names: names}, nil
}

// Match returns the field values of the first match in text, after
// non-breaking spaces are normalised, or nil.
func (p *Pattern) Match(text string) map[string]string {
	sub := p.re.FindStringSubmatch(strings.ReplaceAll(text, "\u00a0", " "))
	if sub == nil {
		return nil
	}
	out := make(map[string]string, len(p.names))
	for i, n := range p.names {
		out[n] = sub[i+1]
	}
	return out
}

// apply matches the last matched rule's definition and returns the keys
// it gains: each field, then rulesetid and rule_id_path.
func (p *Pattern) apply(rulesetID string, matched []*Rule) [][2]string {
	last := matched[len(matched)-1]
	sub := p.re.FindStringSubmatch(strings.ReplaceAll(last.Definition, "\u00a0", " "))
	if sub == nil {
		return nil
	}
	var out [][2]string
	for i, n := range p.names {
		out = append(out, [2]string{ExtNS + n, sub[i+1]})
	}
	ids := []string{rulesetID}
	for _, r := range matched {
		ids = append(ids, r.ID)
	}
	out = append(out, [2]string{ExtNS + "rulesetid", rulesetID}, [2]string{ExtNS + "rule_id_path", strings.Join(ids, ", ")})
	return out
}
