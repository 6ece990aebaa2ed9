package outbound

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	strict := &Policy{Strict: true, Allow: []string{"https://graph.internal.example/sparql", "kg.local"}}
	lax := &Policy{} // development: loopback and http pass, other non-public addresses do not
	cases := []struct {
		url           string
		strict, lax   bool
		reasonContain string
	}{
		{"https://api.open-regels.triply.cc/datasets/x/sparql", true, true, ""},
		{"http://api.example.org/sparql", false, true, "only https"},
		{"ftp://example.org/x", false, false, "only http and https"},
		{"file:///etc/passwd", false, false, "not an absolute URL"},
		{"https://user:pw@example.org/", false, false, "user information"},
		{"https://localhost:7200/repositories/x", false, true, "local addresses"},
		{"https://foo.localhost/", false, true, "local addresses"},
		{"https://127.0.0.1/", false, true, "loopback"},
		{"https://[::1]/", false, true, "loopback"},
		{"https://10.1.2.3/", false, false, "private"},
		{"https://172.20.0.1/", false, false, "private"},
		{"https://192.168.1.1/", false, false, "private"},
		{"https://169.254.169.254/latest/meta-data", false, false, "link-local"},
		{"http://169.254.169.254/latest/meta-data", false, false, ""},
		{"http://metadata.google.internal/computeMetadata/v1/", false, false, ""},
		{"https://METADATA.google.internal./x", false, false, "metadata"},
		{"https://instance-data/latest", false, false, "metadata"},
		{"http://[fd00:ec2::254]/latest", false, false, ""},
		{"https://100.100.100.200/latest", false, false, "carrier-grade NAT"},
		{"http://127.0.0.1:7200/repositories/x", false, true, "only https"},
		{"http://10.0.0.5:8890/sparql", false, false, ""},
		{"https://100.64.0.1/", false, false, "carrier-grade NAT"},
		{"https://[fd00:ec2::254]/", false, false, "private"},
		{"https://[fe80::1]/", false, false, "link-local"},
		{"https://[::ffff:127.0.0.1]/", false, true, "loopback"},
		{"https://[64:ff9b::a9fe:a9fe]/", false, false, "link-local"},
		{"https://[2002:c0a8:0101::1]/", false, false, "private"},
		{"https://224.0.0.1/", false, false, "multicast"},
		{"https://0.0.0.0/", false, false, "reserved"},
		{"https://8.8.8.8/", true, true, ""},
		{"https://graph.internal.example/sparql", true, true, ""},
		{"https://graph.internal.example/sparql/sub", true, true, ""},
		{"https://graph.internal.example/other", true, true, ""}, // passes statically; checked at dial time
		{"http://kg.local:3030/ds/sparql", true, true, ""},       // bare host allowed: any scheme and port
	}
	for _, tc := range cases {
		_, err := strict.Check(tc.url)
		if (err == nil) != tc.strict {
			t.Errorf("strict %s: err = %v, want allowed=%v", tc.url, err, tc.strict)
		}
		if err != nil && tc.reasonContain != "" && !strings.Contains(err.Error(), tc.reasonContain) {
			t.Errorf("strict %s: %v does not say %q", tc.url, err, tc.reasonContain)
		}
		var refused *RefusedError
		if err != nil && !errors.As(err, &refused) {
			t.Errorf("strict %s: error is %T, want *RefusedError", tc.url, err)
		}
		_, err = lax.Check(tc.url)
		if (err == nil) != tc.lax {
			t.Errorf("lax %s: err = %v, want allowed=%v", tc.url, err, tc.lax)
		}
		if err != nil && tc.reasonContain != "" && !strings.Contains(err.Error(), tc.reasonContain) {
			t.Errorf("lax %s: %v does not say %q", tc.url, err, tc.reasonContain)
		}
	}
	devAllow := &Policy{Allow: []string{"10.0.0.5", "http://192.168.1.1"}}
	for _, u := range []string{"http://10.0.0.5:8890/sparql", "http://192.168.1.1/sparql"} {
		if _, err := devAllow.Check(u); err != nil {
			t.Errorf("allow-listed %s refused: %v", u, err)
		}
	}
	if _, err := strict.Check("https://user:secret@x.example/"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("refusal must not echo the password: %v", err)
	}
}

func TestForbiddenTeredo(t *testing.T) {
	// Teredo with the client address 127.0.0.1 stored inverted (0x80ff:fffe).
	if r := forbidden(netip.MustParseAddr("2001:0:4136:e378:8000:63bf:80ff:fffe")); r != "loopback" {
		t.Errorf("teredo loopback: %q", r)
	}
	if r := forbidden(netip.MustParseAddr("2606:4700::1111")); r != "" {
		t.Errorf("public v6: %q", r)
	}
}

// TestDialTimeCheck serves on loopback and shows that a strict client refuses
// a name resolving there, while the allow-list and lax mode get through.
func TestDialTimeCheck(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	strict := &Policy{Strict: true}
	_, err := strict.Client().Get("http://localhost:" + port + "/")
	if err == nil {
		t.Fatal("strict client fetched from loopback")
	}
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(refused.Reason, "loopback") {
		t.Errorf("err = %v, want a loopback refusal", err)
	}
	allowed := &Policy{Strict: true, Allow: []string{"localhost"}}
	if resp, err := allowed.Client().Get("http://localhost:" + port + "/"); err != nil {
		t.Errorf("allow-listed host refused: %v", err)
	} else {
		resp.Body.Close()
	}
	if resp, err := (&Policy{}).Client().Get(srv.URL); err != nil {
		t.Errorf("lax client: %v", err)
	} else {
		resp.Body.Close()
	}
}

func TestRedirectIsChecked(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer target.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.org/", http.StatusFound)
	}))
	defer redirector.Close()
	_, err := (&Policy{}).Client().Get(redirector.URL)
	if err == nil || !strings.Contains(err.Error(), "only http and https") {
		t.Errorf("redirect to ftp: err = %v", err)
	}
}

// TestDevelopmentDialCheck: the address check the dialer applies to every
// resolved address lets loopback through in development only.
func TestDevelopmentDialCheck(t *testing.T) {
	dev := &Policy{}
	for _, ip := range []string{"10.0.0.1", "169.254.169.254", "fd00:ec2::254", "192.168.0.10", "100.100.100.200"} {
		if r := dev.refusal(netip.MustParseAddr(ip)); r == "" {
			t.Errorf("development dials %s", ip)
		}
	}
	for _, ip := range []string{"127.0.0.1", "::1", "::ffff:127.0.0.1", "8.8.8.8"} {
		if r := dev.refusal(netip.MustParseAddr(ip)); r != "" {
			t.Errorf("development refuses %s: %s", ip, r)
		}
	}
	if r := (&Policy{Strict: true}).refusal(netip.MustParseAddr("127.0.0.1")); r != "loopback" {
		t.Errorf("strict loopback: %q", r)
	}
}
