package feel

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// xpathRegexp translates an XML Schema / XPath regular expression with
// flags (s, m, i, x, q) to Go's RE2 syntax.
func xpathRegexp(p, flags string) (*regexp.Regexp, error) {
	prefix := ""
	dotAll, literal := false, false
	for _, f := range flags {
		switch f {
		case 's', 'm', 'i':
			if !strings.ContainsRune(prefix, f) {
				prefix += string(f)
			}
			if f == 's' {
				dotAll = true
			}
		case 'x':
			// white space is removed except inside character classes
			var b strings.Builder
			inClass := false
			for _, r := range p {
				switch {
				case r == '[':
					inClass = true
				case r == ']':
					inClass = false
				case !inClass && (r == ' ' || r == '\t' || r == '\n' || r == '\r'):
					continue
				}
				b.WriteRune(r)
			}
			p = b.String()
		case 'q':
			literal = true
		default:
			return nil, &regexpFlagError{f}
		}
	}
	if literal {
		p = regexp.QuoteMeta(p)
	} else {
		t, err := translateXSDRegexp(p, dotAll)
		if err != nil {
			return nil, err
		}
		p = t
	}
	if prefix != "" {
		p = "(?" + prefix + ")" + p
	}
	return regexp.Compile(p)
}

// xsdBlocks maps XML Schema Unicode block names to rune ranges.
var xsdBlocks = map[string]string{
	"IsBasicLatin":         `\x{0}-\x{7F}`,
	"IsLatin-1Supplement":  `\x{80}-\x{FF}`,
	"IsLatinExtended-A":    `\x{100}-\x{17F}`,
	"IsGreek":              `\x{370}-\x{3FF}`,
	"IsCyrillic":           `\x{400}-\x{4FF}`,
	"IsGeneralPunctuation": `\x{2000}-\x{206F}`,
}

// translateXSDRegexp rewrites the XML Schema regular expression features
// RE2 lacks or reads differently: "." matches neither \n nor \r, block
// escapes \p{IsX}, \i and \c, and character class subtraction
// [a-z-[aeiou]]. Back references are rejected.
func translateXSDRegexp(p string, dotAll bool) (string, error) {
	var b strings.Builder
	rs := []rune(p)
	inClass := false
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			c := rs[i+1]
			switch {
			case c >= '0' && c <= '9':
				return "", fmt.Errorf(`back references and octal escapes (\%c) are not supported`, c)
			case (c == 'p' || c == 'P') && i+2 < len(rs) && rs[i+2] == '{':
				end := i + 3
				for end < len(rs) && rs[end] != '}' {
					end++
				}
				if end >= len(rs) {
					return "", fmt.Errorf(`unterminated \%c{`, c)
				}
				name := string(rs[i+3 : end])
				if strings.HasPrefix(name, "Is") {
					rng, ok := xsdBlocks[name]
					if !ok {
						return "", fmt.Errorf("unknown block %s", name)
					}
					switch {
					case inClass && c == 'p':
						b.WriteString(rng)
					case inClass:
						return "", fmt.Errorf("a negated block inside a class is not supported")
					case c == 'p':
						b.WriteString("[" + rng + "]")
					default:
						b.WriteString("[^" + rng + "]")
					}
				} else {
					b.WriteString(string(rs[i : end+1]))
				}
				i = end
				continue
			case c == 'i':
				b.WriteString(`[\p{L}_:]`)
			case c == 'c':
				b.WriteString(`[\p{L}\p{N}._:-]`)
			default:
				b.WriteRune(r)
				b.WriteRune(c)
			}
			i++
		case r == '[' && !inClass:
			if cls, n, ok := classSubtraction(rs[i:]); ok {
				b.WriteString(cls)
				i += n - 1
				continue
			}
			inClass = true
			b.WriteRune(r)
		case r == ']' && inClass:
			inClass = false
			b.WriteRune(r)
		case r == '.' && !inClass && !dotAll:
			b.WriteString(`[^\n\r]`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

// classSubtraction rewrites [base-[minus]] where both parts are literal
// characters and ranges; it returns the equivalent class and the number of
// runes it read.
func classSubtraction(rs []rune) (string, int, bool) {
	i := 1
	neg := false
	if i < len(rs) && rs[i] == '^' {
		neg = true
		i++
	}
	start := i
	for i+1 < len(rs) && !(rs[i] == '-' && rs[i+1] == '[') {
		if rs[i] == ']' || rs[i] == '\\' {
			return "", 0, false
		}
		i++
	}
	if i+1 >= len(rs) {
		return "", 0, false
	}
	base := rs[start:i]
	j := i + 2
	mstart := j
	for j < len(rs) && rs[j] != ']' {
		if rs[j] == '\\' || rs[j] == '[' {
			return "", 0, false
		}
		j++
	}
	if j+1 >= len(rs) || rs[j+1] != ']' {
		return "", 0, false
	}
	minus := rs[mstart:j]
	set := func(items []rune) (map[rune]bool, bool) {
		m := map[rune]bool{}
		for k := 0; k < len(items); k++ {
			if k+2 < len(items) && items[k+1] == '-' {
				if items[k+2]-items[k] > 5000 {
					return nil, false
				}
				for c := items[k]; c <= items[k+2]; c++ {
					m[c] = true
				}
				k += 2
				continue
			}
			m[items[k]] = true
		}
		return m, true
	}
	bs, ok1 := set(base)
	ms, ok2 := set(minus)
	if !ok1 || !ok2 {
		return "", 0, false
	}
	var keep []rune
	for c := range bs {
		if !ms[c] {
			keep = append(keep, c)
		}
	}
	if len(keep) == 0 && !neg {
		return `[^\x{0}-\x{10FFFF}]`, j + 2, true // matches nothing
	}
	sort.Slice(keep, func(a, b int) bool { return keep[a] < keep[b] })
	var out strings.Builder
	out.WriteByte('[')
	if neg {
		out.WriteByte('^')
	}
	for _, c := range keep {
		out.WriteString(regexp.QuoteMeta(string(c)))
	}
	out.WriteByte(']')
	return out.String(), j + 2, true
}
