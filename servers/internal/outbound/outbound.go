package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Policy decides which caller-named URLs may be fetched. It is on in every
// mode: the zero value (development) permits http and loopback, so the
// embedded and local endpoints work, and refuses every other non-public
// address (private, link-local, cloud metadata, CGNAT, multicast,
// reserved) and the metadata host names; Strict also requires https and
// refuses loopback. The allow-list opens exceptions in both modes.
type Policy struct {
	// Strict requires https and refuses loopback too (production).
	Strict bool
	// Allow lists URLs (scheme://host[:port][/path-prefix]) or bare host
	// names that always pass, e.g. the configured default endpoint and
	// internal triple stores an operator trusts.
	Allow []string
	// Timeout bounds a whole request made with Client (30s when zero).
	Timeout time.Duration
	// Resolver resolves host names at dial time (net.DefaultResolver when nil).
	Resolver *net.Resolver
}

// RefusedError says why a URL was refused.
type RefusedError struct {
	URL    string
	Reason string
}

func (e *RefusedError) Error() string { return fmt.Sprintf("endpoint %s refused: %s", e.URL, e.Reason) }

// Check parses raw and applies the policy's static rules. A permitted host
// name can still be refused at dial time when it resolves to a forbidden
// address.
func (p *Policy) Check(raw string) (*url.URL, error) {
	refuse := func(reason string) error { return &RefusedError{URL: redact(raw), Reason: reason} }
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, refuse("not an absolute URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, refuse("only http and https URLs are allowed")
	}
	if u.User != nil {
		return nil, refuse("URLs with user information are not allowed")
	}
	if p.allowed(u) {
		return u, nil
	}
	if p.Strict && u.Scheme != "https" {
		return nil, refuse("only https URLs are allowed in this environment")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if metadataHost(host) {
		return nil, refuse("cloud metadata addresses are not allowed")
	}
	if p.Strict && (host == "localhost" || strings.HasSuffix(host, ".localhost")) {
		return nil, refuse("local addresses are not allowed in this environment")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if reason := p.refusal(ip); reason != "" {
			return nil, refuse(reason + " addresses are not allowed" + p.unless())
		}
	}
	return u, nil
}

// unless ends a refusal with what would permit the address.
func (p *Policy) unless() string {
	if p.Strict {
		return " in this environment"
	}
	return " unless allow-listed"
}

// refusal returns why ip may not be dialled under p, or "".
func (p *Policy) refusal(ip netip.Addr) string {
	r := forbidden(ip)
	if r == "loopback" && !p.Strict {
		return ""
	}
	return r
}

// metadataNames are the cloud instance-metadata host names; their
// addresses are link-local or private too, but a name may resolve through
// a local resolver the dial check trusts, so they are refused by name.
var metadataNames = []string{
	"metadata", "metadata.google.internal", "metadata.goog", "metadata.azure.internal",
	"instance-data", "instance-data.ec2.internal", "metadata.tencentyun.com", "metadata.oraclecloud.com",
}

func metadataHost(host string) bool {
	for _, m := range metadataNames {
		if host == m || strings.HasSuffix(host, "."+m) {
			return true
		}
	}
	return false
}

// allowed reports whether u matches the allow-list.
func (p *Policy) allowed(u *url.URL) bool {
	for _, a := range p.Allow {
		if !strings.Contains(a, "://") {
			if strings.EqualFold(a, u.Hostname()) {
				return true
			}
			continue
		}
		au, err := url.Parse(a)
		if err != nil {
			continue
		}
		if au.Scheme == u.Scheme && strings.EqualFold(au.Host, u.Host) && pathPrefix(u.Path, au.Path) {
			return true
		}
	}
	return false
}

func pathPrefix(path, prefix string) bool {
	prefix = strings.TrimSuffix(prefix, "/")
	return prefix == "" || path == prefix || strings.HasPrefix(path, prefix+"/")
}

func (p *Policy) hostAllowed(host string) bool {
	for _, a := range p.Allow {
		h := a
		if strings.Contains(a, "://") {
			au, err := url.Parse(a)
			if err != nil {
				continue
			}
			h = au.Hostname()
		}
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

// Client returns an HTTP client that applies the policy when dialling and
// refuses redirects to URLs the policy refuses.
func (p *Policy) Client() *http.Client {
	timeout := p.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // a proxy would dial on our behalf, past the address check
	tr.DialContext = p.dial
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("stopped after 5 redirects")
			}
			_, err := p.Check(req.URL.String())
			return err
		},
	}
}

func (p *Policy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if p.hostAllowed(host) {
		return d.DialContext(ctx, network, addr)
	}
	resolver := p.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	addrs, err := resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	var lastErr error = &RefusedError{URL: host, Reason: "it resolves to no permitted address"}
	for _, ip := range addrs {
		if reason := p.refusal(ip); reason != "" {
			lastErr = &RefusedError{URL: host, Reason: "it resolves to a " + reason + " address"}
			continue
		}
		// Dial the address that was checked, never the name again.
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

var blocked = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "reserved"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved"},
	{netip.MustParsePrefix("192.0.2.0/24"), "reserved"},
	{netip.MustParsePrefix("192.88.99.0/24"), "reserved"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved"},
	{netip.MustParsePrefix("198.51.100.0/24"), "reserved"},
	{netip.MustParsePrefix("203.0.113.0/24"), "reserved"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("::/128"), "reserved"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("100::/64"), "reserved"},
	{netip.MustParsePrefix("2001:db8::/32"), "reserved"},
	{netip.MustParsePrefix("fc00::/7"), "private"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "reserved"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	nat64L  = netip.MustParsePrefix("64:ff9b:1::/48")
	sixTo4  = netip.MustParsePrefix("2002::/16")
	teredo  = netip.MustParsePrefix("2001::/32")
	v4compa = netip.MustParsePrefix("::/96")
)

// forbidden returns why ip may not be dialled in strict mode, or "".
// IPv4 addresses embedded in IPv6 forms (mapped, compatible, NAT64, 6to4,
// Teredo) are judged by the IPv4 address they carry.
func forbidden(ip netip.Addr) string {
	ip = ip.WithZone("")
	if ip.Is4In6() {
		return forbidden(ip.Unmap())
	}
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip), nat64L.Contains(ip), v4compa.Contains(ip) && !ip.IsUnspecified() && ip != netip.IPv6Loopback():
			if r := forbidden(netip.AddrFrom4([4]byte(b[12:16]))); r != "" {
				return r
			}
		case sixTo4.Contains(ip):
			if r := forbidden(netip.AddrFrom4([4]byte(b[2:6]))); r != "" {
				return r
			}
		case teredo.Contains(ip):
			// The client address is stored inverted in the last 32 bits.
			v4 := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
			if r := forbidden(netip.AddrFrom4(v4)); r != "" {
				return r
			}
		}
	}
	for _, b := range blocked {
		if b.prefix.Contains(ip) {
			return b.reason
		}
	}
	if ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return "reserved"
	}
	return ""
}

// redact removes user information from a URL for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
