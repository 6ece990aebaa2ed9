package ratelimit

import (
	"net/netip"
	"testing"
)

// FuzzNormalizeIP: the result is empty or a canonical address that
// normalises to itself.
func FuzzNormalizeIP(f *testing.F) {
	for _, s := range []string{"192.0.2.1:80", "[2001:db8::1]:443", "::ffff:10.0.0.1", "fe80::1%eth0", "x", "[", "1.2.3.4:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ip := NormalizeIP(s)
		if ip == "" {
			return
		}
		a, err := netip.ParseAddr(ip)
		if err != nil || a.Is4In6() || a.Zone() != "" || NormalizeIP(ip) != ip {
			t.Fatalf("%q → %q", s, ip)
		}
	})
}
