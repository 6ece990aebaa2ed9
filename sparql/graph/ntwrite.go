package graph

import "unicode/utf8"

// appendTermNT appends t in N-Triples syntax, writing a blank node with the
// given label.
func appendTermNT(dst []byte, t Term, label string) []byte {
	switch t.Kind {
	case KindIRI:
		dst = appendIRIRef(dst, t.Value)
	case KindBlank:
		dst = append(dst, "_:"...)
		dst = append(dst, label...)
	case KindLiteral:
		dst = append(dst, '"')
		dst = appendEscaped(dst, t.Value, false)
		dst = append(dst, '"')
		switch {
		case t.Lang != "":
			dst = append(dst, '@')
			dst = append(dst, t.Lang...)
		case t.Datatype != XSDString && t.Datatype != "":
			dst = append(dst, "^^"...)
			dst = appendIRIRef(dst, t.Datatype)
		}
	}
	return dst
}

// appendIRIRef appends <iri>, escaping with UCHAR the characters an IRIREF
// may not hold raw.
func appendIRIRef(dst []byte, s string) []byte {
	dst = append(dst, '<')
	for _, r := range s {
		switch {
		case r <= 0x20, r == '<', r == '>', r == '"', r == '{', r == '}', r == '|', r == '^', r == '`', r == '\\':
			dst = appendUCHAR(dst, r)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '>')
}

// appendEscaped appends the body of a quoted string: quotes, backslashes
// and control characters escaped. In long form (Turtle """...""") line
// feeds stay raw.
func appendEscaped(dst []byte, s string, long bool) []byte {
	for _, r := range s {
		switch r {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			if long {
				dst = append(dst, '\n')
			} else {
				dst = append(dst, '\\', 'n')
			}
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			if r < 0x20 || r == 0x7f {
				dst = appendUCHAR(dst, r)
			} else {
				dst = utf8.AppendRune(dst, r)
			}
		}
	}
	return dst
}

func appendUCHAR(dst []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	if r > 0xFFFF {
		dst = append(dst, '\\', 'U')
		for shift := 28; shift >= 0; shift -= 4 {
			dst = append(dst, hex[(r>>uint(shift))&0xF])
		}
		return dst
	}
	dst = append(dst, '\\', 'u')
	for shift := 12; shift >= 0; shift -= 4 {
		dst = append(dst, hex[(r>>uint(shift))&0xF])
	}
	return dst
}
