package graph

import "strings"

// ResolveIRI resolves the IRI reference ref against base following RFC 3986
// §5.2 (strict: a reference with a scheme is taken as absolute). An empty base
// returns ref unchanged. Neither argument is validated or normalised beyond
// the removal of dot segments that §5.2 prescribes.
func ResolveIRI(base, ref string) string {
	if base == "" {
		return ref
	}
	r := splitIRI(ref)
	if r.hasScheme {
		if !hasDotSegment(r.path) {
			return ref
		}
		r.path = removeDotSegments(r.path)
		return r.String()
	}
	b := splitIRI(base)
	var t iriParts
	switch {
	case r.hasAuth:
		t.hasAuth, t.authority = true, r.authority
		t.path = removeDotSegments(r.path)
		t.hasQuery, t.query = r.hasQuery, r.query
	case r.path == "":
		t.hasAuth, t.authority = b.hasAuth, b.authority
		t.path = b.path
		if r.hasQuery {
			t.hasQuery, t.query = true, r.query
		} else {
			t.hasQuery, t.query = b.hasQuery, b.query
		}
	default:
		t.hasAuth, t.authority = b.hasAuth, b.authority
		if r.path[0] == '/' {
			t.path = removeDotSegments(r.path)
		} else {
			t.path = removeDotSegments(mergePaths(b, r.path))
		}
		t.hasQuery, t.query = r.hasQuery, r.query
	}
	t.hasScheme, t.scheme = b.hasScheme, b.scheme
	t.hasFrag, t.fragment = r.hasFrag, r.fragment
	return t.String()
}

// IsAbsoluteIRI reports whether s starts with a scheme (RFC 3986 §3.1).
func IsAbsoluteIRI(s string) bool {
	return schemeEnd(s) > 0
}

// schemeEnd returns the index of the ':' that ends s's scheme, or -1.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && i > 0:
			return i
		default:
			return -1
		}
	}
	return -1
}

type iriParts struct {
	scheme, authority, path, query, fragment string
	hasScheme, hasAuth, hasQuery, hasFrag    bool
}

func splitIRI(s string) iriParts {
	var p iriParts
	if i := schemeEnd(s); i > 0 {
		p.hasScheme, p.scheme = true, s[:i]
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		p.hasFrag, p.fragment = true, s[i+1:]
		s = s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		p.hasQuery, p.query = true, s[i+1:]
		s = s[:i]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		p.hasAuth, p.authority = true, s[:i]
		s = s[i:]
	}
	p.path = s
	return p
}

func (p iriParts) String() string {
	var b strings.Builder
	b.Grow(len(p.scheme) + len(p.authority) + len(p.path) + len(p.query) + len(p.fragment) + 6)
	if p.hasScheme {
		b.WriteString(p.scheme)
		b.WriteByte(':')
	}
	if p.hasAuth {
		b.WriteString("//")
		b.WriteString(p.authority)
	}
	b.WriteString(p.path)
	if p.hasQuery {
		b.WriteByte('?')
		b.WriteString(p.query)
	}
	if p.hasFrag {
		b.WriteByte('#')
		b.WriteString(p.fragment)
	}
	return b.String()
}

func mergePaths(base iriParts, ref string) string {
	if base.hasAuth && base.path == "" {
		return "/" + ref
	}
	i := strings.LastIndexByte(base.path, '/')
	return base.path[:i+1] + ref
}

func hasDotSegment(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] == '.' && (i == 0 || path[i-1] == '/') {
			rest := path[i+1:]
			if rest == "" || rest[0] == '/' || rest[0] == '.' && (len(rest) == 1 || rest[1] == '/') {
				return true
			}
		}
	}
	return false
}

// removeDotSegments implements RFC 3986 §5.2.4.
func removeDotSegments(in string) string {
	if !hasDotSegment(in) {
		return in
	}
	out := make([]string, 0, strings.Count(in, "/")+1)
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "/..":
			in = "/"
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			start := 0
			if in[0] == '/' {
				start = 1
			}
			end := strings.IndexByte(in[start:], '/')
			if end < 0 {
				end = len(in)
			} else {
				end += start
			}
			out = append(out, in[:end])
			in = in[end:]
		}
	}
	return strings.Join(out, "")
}
