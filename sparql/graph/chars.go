package graph

import "unicode/utf8"

// Character classes of the Turtle family grammars (Turtle 1.1 §6.5).

func isPNCharsBase(r rune) bool {
	switch {
	case r < 0x80:
		return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

func isPNCharsU(r rune) bool { return r == '_' || isPNCharsBase(r) }

func isPNChars(r rune) bool {
	switch {
	case r == '-', r >= '0' && r <= '9', r == 0xB7, r >= 0x300 && r <= 0x36F, r >= 0x203F && r <= 0x2040:
		return true
	}
	return isPNCharsU(r)
}

// isLocalEscapable reports whether r may follow '\' in a PN_LOCAL (PN_LOCAL_ESC).
func isLocalEscapable(c byte) bool {
	switch c {
	case '_', '~', '.', '-', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '/', '?', '#', '@', '%':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	default:
		return rune(c - 'A' + 10)
	}
}

// validPrefixName reports whether s is a PN_PREFIX (or empty).
func validPrefixName(s string) bool {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			return false
		case i == 0:
			if !isPNCharsBase(r) {
				return false
			}
		case r == '.':
			if i == len(s)-1 {
				return false
			}
		case !isPNChars(r):
			return false
		}
	}
	return true
}

// validLocalName reports whether s can be written as a PN_LOCAL without
// backslash escapes ('%' must start a %hh escape, which stays in the IRI).
func validLocalName(s string) bool {
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w <= 1 {
			return false
		}
		switch {
		case r == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			w = 3
		case r == ':':
		case i == 0:
			if !isPNCharsU(r) && !(r >= '0' && r <= '9') {
				return false
			}
		case r == '.':
			if i+w == len(s) {
				return false
			}
		case !isPNChars(r):
			return false
		}
		i += w
	}
	return true
}

// validLangTag reports whether s matches LANGTAG without the '@'.
func validLangTag(s string) bool {
	if s == "" {
		return false
	}
	seg, first := 0, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			seg++
		case c >= '0' && c <= '9' && !first:
			seg++
		case c == '-' && seg > 0:
			seg, first = 0, false
		default:
			return false
		}
	}
	return seg > 0
}

// iriCharsValid reports whether s holds no character that an IRIREF must
// not contain, so it can be written in every syntax.
func iriCharsValid(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= 0x20, c == '<', c == '>', c == '"', c == '{', c == '}', c == '|', c == '^', c == '`', c == '\\':
			return false
		}
	}
	return utf8.ValidString(s)
}
