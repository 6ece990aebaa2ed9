package ratelimit

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP returns the client address of r: the
// socket peer, or with trustProxy the last X-Forwarded-For entry (the one
// the single trusted proxy appended). A ":port" suffix (Azure sends
// a.b.c.d:port) and IPv6 brackets are stripped and an IPv4-mapped IPv6
// address becomes plain IPv4. A value that is not an IP address falls back
// to the socket peer, so a forged header cannot invent arbitrary keys.
func ClientIP(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if ip := NormalizeIP(last); ip != "" {
				return ip
			}
		}
	}
	if ip := NormalizeIP(r.RemoteAddr); ip != "" {
		return ip
	}
	return r.RemoteAddr
}

// NormalizeIP returns s as a canonical IP address without port, brackets or
// IPv4 mapping, or "" when s is not an address.
func NormalizeIP(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if addr, err := netip.ParseAddr(s); err == nil {
		return addr.Unmap().WithZone("").String()
	}
	// host:port, [v6]:port, or [v6].
	host := s
	if h, _, err := net.SplitHostPort(s); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		return addr.Unmap().WithZone("").String()
	}
	return ""
}
