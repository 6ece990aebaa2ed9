package validate

import (
	"net/url"
	"strings"
)

var (
	rulesetTypes = []string{"decision-table", "conditional-calculation", "constraint-table", "derivation-table"}
	ruleTypes    = []string{"temporal-period", "conditional", "derivation", "constraint", "decision-rule", "default"}
	confidences  = []string{"low", "medium", "high"}
)

// cprmvAttr returns the value of a CPRMV attribute in either accepted namespace.
func cprmvAttr(e *element, local string) (string, bool) {
	for _, ns := range cprmvNamespaces {
		if v, ok := e.attrNS(ns, local); ok {
			return v, true
		}
	}
	return "", false
}

// checkCPRMV runs layer 3: the CPRMV extension attributes.
func (v *validator) checkCPRMV() {
	if !v.m.hasCPRMV {
		v.add(LayerExecution, "EXEC-001", nil, "the model carries no CPRMV attribute (namespace %s or %s); the CPRMV checks are skipped",
			cprmvNamespaces[0], cprmvNamespaces[1])
		return
	}
	for _, d := range v.m.dmn["decision"] {
		if s, ok := cprmvAttr(d, "rulesetType"); ok && !oneOf(s, rulesetTypes) {
			v.add(LayerExecution, "EXEC-002", d, "decision %s has cprmv:rulesetType %s; allowed: %s", describe(d), excerpt(s), strings.Join(rulesetTypes, ", "))
		}
		if s, ok := cprmvAttr(d, "implements"); ok && !isBWBR(s) {
			v.add(LayerExecution, "EXEC-003", d, "decision %s has cprmv:implements %s; expected BWBR followed by 7 digits, e.g. BWBR0015703", describe(d), excerpt(s))
		}
	}
	for _, r := range v.m.dmn["rule"] {
		v.checkRuleCPRMV(r)
	}
	for _, kind := range []string{"inputEntry", "outputEntry"} {
		for _, c := range v.m.dmn[kind] {
			v.checkCellCPRMV(c)
		}
	}
}

func (v *validator) checkRuleCPRMV(r *element) {
	ruleType, hasType := cprmvAttr(r, "ruleType")
	if hasType && !oneOf(ruleType, ruleTypes) {
		v.add(LayerExecution, "EXEC-004", r, "rule %s has cprmv:ruleType %s; allowed: %s", describe(r), excerpt(ruleType), strings.Join(ruleTypes, ", "))
	}
	if s, ok := cprmvAttr(r, "confidence"); ok && !oneOf(s, confidences) {
		v.add(LayerExecution, "EXEC-005", r, "rule %s has cprmv:confidence %s; allowed: %s", describe(r), excerpt(s), strings.Join(confidences, ", "))
	}
	from, hasFrom := cprmvAttr(r, "validFrom")
	until, hasUntil := cprmvAttr(r, "validUntil")
	fromOK, untilOK := hasFrom && isDate(from), hasUntil && isDate(until)
	if hasFrom && !fromOK {
		v.add(LayerExecution, "EXEC-006", r, "rule %s has cprmv:validFrom %s, not a YYYY-MM-DD date", describe(r), excerpt(from))
	}
	if hasUntil && !untilOK {
		v.add(LayerExecution, "EXEC-007", r, "rule %s has cprmv:validUntil %s, not a YYYY-MM-DD date", describe(r), excerpt(until))
	}
	if fromOK && untilOK && from >= until {
		v.add(LayerExecution, "EXEC-008", r, "rule %s: cprmv:validFrom %s is not before cprmv:validUntil %s", describe(r), from, until)
	}
	if ruleType == "temporal-period" {
		if !hasFrom {
			v.add(LayerExecution, "EXEC-009", r, "temporal-period rule %s has no cprmv:validFrom", describe(r))
		}
		if !hasUntil {
			v.add(LayerExecution, "EXEC-010", r, "temporal-period rule %s has no cprmv:validUntil", describe(r))
		}
	}
	if s, ok := cprmvAttr(r, "extends"); ok && !isCitation(s) {
		v.add(LayerExecution, "EXEC-013", r, "rule %s has cprmv:extends %s, neither a JuriConnect citation (jci1.3:c:BWBR…&artikel=…) nor an http(s) URL", describe(r), excerpt(s))
	}
}

func (v *validator) checkCellCPRMV(c *element) {
	for _, a := range c.attrs {
		switch {
		case a.space == dctNamespace && numberedName(a.local, "source"):
			if !isUUID(a.value) && !isPNAURL(a.value) {
				v.add(LayerExecution, "EXEC-011", c, "cell %s has dct:%s %s, neither a UUID nor an http(s) URL on pna-web.com", describe(c), clipText(a.local, maxIDExcerpt), excerpt(a.value))
			}
		case isCPRMV(a.space) && numberedName(a.local, "isBasedOn"):
			if !isCitation(a.value) {
				v.add(LayerExecution, "EXEC-012", c, "cell %s has cprmv:%s %s, neither a JuriConnect citation (jci1.3:c:BWBR…&artikel=…) nor an http(s) URL", describe(c), clipText(a.local, maxIDExcerpt), excerpt(a.value))
			}
		}
	}
}

func oneOf(s string, allowed []string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

// numberedName reports whether name is base or base followed by digits.
func numberedName(name, base string) bool {
	if !strings.HasPrefix(name, base) {
		return false
	}
	for _, c := range name[len(base):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isBWBR matches BWBR followed by exactly 7 digits.
func isBWBR(s string) bool {
	return len(s) == 11 && strings.HasPrefix(s, "BWBR") && isDigits(s[4:])
}

// isDate matches YYYY-MM-DD with month 01–12 and day 01–31.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !isDigits(s[:4]) || !isDigits(s[5:7]) || !isDigits(s[8:]) {
		return false
	}
	month := int(s[5]-'0')*10 + int(s[6]-'0')
	day := int(s[8]-'0')*10 + int(s[9]-'0')
	return month >= 1 && month <= 12 && day >= 1 && day <= 31
}

// isUUID matches the 8-4-4-4-12 hexadecimal form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// httpURL parses an absolute http(s) URL with a host.
func httpURL(s string) (*url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, false
	}
	return u, true
}

// isPNAURL matches an http(s) URL whose host is pna-web.com or a subdomain of it.
func isPNAURL(s string) bool {
	u, ok := httpURL(s)
	if !ok {
		return false
	}
	host := strings.ToLower(u.Hostname())
	return host == "pna-web.com" || strings.HasSuffix(host, ".pna-web.com")
}

// isCitation matches a JuriConnect citation, jci<d>.<d>:<letter>:<id>
// followed by &key=value pairs (case-insensitive), or an http(s) URL.
func isCitation(s string) bool {
	if _, ok := httpURL(s); ok {
		return true
	}
	if len(s) < 3 || !strings.EqualFold(s[:3], "jci") {
		return false
	}
	rest := s[3:]
	// <d>.<d>
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(rest) || rest[i] != '.' {
		return false
	}
	rest = rest[i+1:]
	i = 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(rest) || rest[i] != ':' {
		return false
	}
	rest = rest[i+1:]
	// :<letter>:
	if len(rest) < 3 || !isLetter(rest[0]) || rest[1] != ':' {
		return false
	}
	rest = rest[2:]
	parts := strings.Split(rest, "&")
	if !citationToken(parts[0]) {
		return false
	}
	for _, kv := range parts[1:] {
		k, val, ok := strings.Cut(kv, "=")
		if !ok || !citationToken(k) || !citationToken(val) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// citationToken is a non-empty run without white space, '&' or '='.
func citationToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r', '&', '=':
			return false
		}
	}
	return true
}
