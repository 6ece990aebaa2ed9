package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

const (
	testIssuer   = "https://idp.example/realms/ronl"
	testAudience = "ronl-business-api"
)

func rsaKey(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// jwksServer serves a key set that tests can replace, counting fetches.
type jwksServer struct {
	*httptest.Server
	mu      sync.Mutex
	keys    map[string]*rsa.PublicKey
	fetches atomic.Int64
	delay   atomic.Int64 // nanoseconds before each answer: a provider far away
}

func newJWKSServer(t *testing.T, keys map[string]*rsa.PublicKey) *jwksServer {
	s := &jwksServer{keys: keys}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fetches.Add(1)
		time.Sleep(time.Duration(s.delay.Load()))
		s.mu.Lock()
		defer s.mu.Unlock()
		var set struct {
			Keys []map[string]string `json:"keys"`
		}
		for kid, k := range s.keys {
			set.Keys = append(set.Keys, map[string]string{
				"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
				"n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
				"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes()),
			})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jwksServer) set(keys map[string]*rsa.PublicKey) {
	s.mu.Lock()
	s.keys = keys
	s.mu.Unlock()
}

func sign(t testing.TB, key *rsa.PrivateKey, kid string, c jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validClaims() jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{
		"iss": testIssuer, "aud": []string{"account", testAudience}, "sub": "u-1",
		"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(),
		"municipality": "utrecht", "loa": "hoog", "azp": "ronl-frontend",
		"realm_access": map[string]any{"roles": []string{"caseworker"}},
		"name":         "Jan van der Berg", "employeeId": "emp-001", "bsn": "999992235",
	}
}

func newRemoteVerifier(t *testing.T, url string, o VerifierOptions) *Verifier {
	t.Helper()
	o.JWKSURL, o.Issuer, o.Audience = url, testIssuer, testAudience
	v, err := NewVerifier(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

func TestVerifyPrincipal(t *testing.T) {
	key := rsaKey(t)
	srv := newJWKSServer(t, map[string]*rsa.PublicKey{"k1": &key.PublicKey})
	v := newRemoteVerifier(t, srv.URL, VerifierOptions{})
	p, err := v.Verify(context.Background(), sign(t, key, "k1", validClaims()))
	if err != nil {
		t.Fatal(err)
	}
	if p.UserID != "u-1" || p.Tenant != "utrecht" || p.LoA != "hoog" || p.Client != "ronl-frontend" ||
		p.EmployeeID != "emp-001" || p.BSN != "999992235" || !p.HasRole("caseworker") || p.IsCitizen() {
		t.Errorf("principal: %+v", p)
	}
	if p.GivenName != "Jan" || p.FamilyName != "van der Berg" {
		t.Errorf("name split at the first space: %q / %q", p.GivenName, p.FamilyName)
	}
	// Audience as a plain string is accepted too.
	c := validClaims()
	c["aud"] = testAudience
	delete(c, "realm_access")
	p, err = v.Verify(context.Background(), sign(t, key, "k1", c))
	if err != nil {
		t.Fatal(err)
	}
	if p.Roles == nil || len(p.Roles) != 0 {
		t.Errorf("missing realm_access must give an empty role list, got %#v", p.Roles)
	}
}

func TestVerifyRefusals(t *testing.T) {
	key, other := rsaKey(t), rsaKey(t)
	srv := newJWKSServer(t, map[string]*rsa.PublicKey{"k1": &key.PublicKey})
	v := newRemoteVerifier(t, srv.URL, VerifierOptions{})
	with := func(k string, val any) jwt.MapClaims {
		c := validClaims()
		if val == nil {
			delete(c, k)
		} else {
			c[k] = val
		}
		return c
	}
	hs := jwt.NewWithClaims(jwt.SigningMethodHS256, validClaims())
	hs.Header["kid"] = "k1"
	hsToken, err := hs.SignedString([]byte("any secret"))
	if err != nil {
		t.Fatal(err)
	}
	good := sign(t, key, "k1", validClaims())
	parts := strings.Split(good, ".")
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"admin"}`)) + "." + parts[2]
	for _, tc := range []struct {
		name, token, reason string
	}{
		{"expired", sign(t, key, "k1", with("exp", time.Now().Add(-time.Second).Unix())), "expired"},
		{"no exp", sign(t, key, "k1", with("exp", nil)), "claims"},
		{"not yet valid", sign(t, key, "k1", with("nbf", time.Now().Add(time.Minute).Unix())), "not_yet_valid"},
		{"wrong audience", sign(t, key, "k1", with("aud", "other-api")), "audience"},
		{"wrong issuer", sign(t, key, "k1", with("iss", "https://idp.example/realms/other")), "issuer"},
		{"no kid", sign(t, key, "", validClaims()), "no_kid"},
		{"other modulus", sign(t, other, "k1", validClaims()), "signature"},
		{"hs256", hsToken, "algorithm"},
		{"tampered", tampered, "signature"},
		{"garbage", "not.a.token", "malformed"},
		{"too large", strings.Repeat("a", DefaultMaxTokenBytes+1), "too_large"},
	} {
		_, err := v.Verify(context.Background(), tc.token)
		var te *TokenError
		if !errors.As(err, &te) || te.Reason != tc.reason {
			t.Errorf("%s: err %v, want reason %s", tc.name, err, tc.reason)
		}
	}
}

// TestUnknownKIDRefetchesOnceAndRotates: a token with a kid the cache does
// not know triggers one reload (rate limited), and a key added at the
// provider is picked up without a restart.
func TestUnknownKIDRefetchesOnceAndRotates(t *testing.T) {
	k1, k2 := rsaKey(t), rsaKey(t)
	srv := newJWKSServer(t, map[string]*rsa.PublicKey{"k1": &k1.PublicKey})
	v := newRemoteVerifier(t, srv.URL, VerifierOptions{RefreshEvery: time.Hour})
	if n := srv.fetches.Load(); n != 1 {
		t.Fatalf("fetches at start: %d, want 1", n)
	}
	// Rotation: the provider now publishes k2 next to k1, and answers
	// slowly: the reload must not run on a shortened deadline.
	srv.set(map[string]*rsa.PublicKey{"k1": &k1.PublicKey, "k2": &k2.PublicKey})
	srv.delay.Store(int64(100 * time.Millisecond))
	if _, err := v.Verify(context.Background(), sign(t, k2, "k2", validClaims())); err != nil {
		t.Fatalf("rotated key not picked up: %v", err)
	}
	if n := srv.fetches.Load(); n != 2 {
		t.Fatalf("fetches after the unknown kid: %d, want 2", n)
	}
	// Another unknown kid within the rate limit: no fetch, refused at once.
	start := time.Now()
	_, err := v.Verify(context.Background(), sign(t, k2, "k3", validClaims()))
	var te *TokenError
	if !errors.As(err, &te) || te.Reason != "unknown_key" {
		t.Fatalf("unknown kid: %v", err)
	}
	if n := srv.fetches.Load(); n != 2 {
		t.Errorf("a second unknown kid inside the limit fetched again: %d fetches", n)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("an unknown kid waited %v for the limiter", d)
	}
	// Revocation: k1 withdrawn at the provider disappears at the next reload.
	srv.set(map[string]*rsa.PublicKey{"k2": &k2.PublicKey})
	v2 := newRemoteVerifier(t, srv.URL, VerifierOptions{})
	if _, err := v2.Verify(context.Background(), sign(t, k1, "k1", validClaims())); err == nil {
		t.Error("a withdrawn key still verifies")
	}
}

func TestBackgroundRefresh(t *testing.T) {
	k1, k2 := rsaKey(t), rsaKey(t)
	srv := newJWKSServer(t, map[string]*rsa.PublicKey{"k1": &k1.PublicKey})
	// No reloads on unknown kids at all: only the TTL reload can find k2.
	v := newRemoteVerifier(t, srv.URL, VerifierOptions{CacheTTL: 50 * time.Millisecond, RefreshEvery: time.Hour})
	_, _ = v.Verify(context.Background(), sign(t, k1, "kx", validClaims())) // spend the one reload
	srv.set(map[string]*rsa.PublicKey{"k2": &k2.PublicKey})
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := v.Verify(context.Background(), sign(t, k2, "k2", validClaims())); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the periodic reload never picked up the new key")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestProviderDownAtBoot(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	v := newRemoteVerifier(t, srv.URL, VerifierOptions{FetchTimeout: time.Second})
	if err := v.Probe(context.Background()); err == nil {
		t.Error("probe of an unreachable provider must fail")
	}
	key := rsaKey(t)
	if _, err := v.Verify(context.Background(), sign(t, key, "k1", validClaims())); err == nil {
		t.Error("a token verified without keys")
	}
}

func TestOversizedKeySetIsCut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"keys":[`))
		pad := []byte(strings.Repeat(" ", 1<<16))
		for range 64 { // 4 MiB of white space: never fully read
			if _, err := w.Write(pad); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	v := newRemoteVerifier(t, srv.URL, VerifierOptions{FetchTimeout: 5 * time.Second})
	key := rsaKey(t)
	if _, err := v.Verify(context.Background(), sign(t, key, "k1", validClaims())); err == nil {
		t.Error("verified against a truncated key set")
	}
}

func TestLoALadder(t *testing.T) {
	for _, tc := range []struct {
		have, min string
		ok        bool
	}{
		{"hoog", "basis", true}, {"basis", "basis", true}, {" Midden ", "midden", true},
		{"substantieel", "midden", true}, {"basis", "midden", false}, {"midden", "substantieel", false},
		{"substantial", "basis", false}, {"high", "basis", false}, {"", "basis", false},
		{"hoog", "unknown", false},
	} {
		f := RequireLoA(tc.min)(&Principal{LoA: tc.have})
		if (f == nil) != tc.ok {
			t.Errorf("loa %q for min %q: %+v", tc.have, tc.min, f)
		}
		if f != nil && (f.Code != CodeLoAInsufficient || f.Status != 403 ||
			f.Message != "Assurance level '"+tc.min+"' or higher required") {
			t.Errorf("refusal: %+v", f)
		}
	}
}

func TestTenantRules(t *testing.T) {
	machine := &Principal{UserID: "svc", Client: "operaton-mcp-client"}
	if f := RequireTenant(true)(machine); f == nil || f.Code != CodeMissingTenant || f.Status != 403 ||
		f.Message != "Organisation information missing" {
		t.Errorf("machine token on a tenant route: %+v", f)
	}
	if f := RequireTenant(false)(machine); f != nil {
		t.Errorf("isolation off skips the presence check: %+v", f)
	}
	utrecht := &Principal{Tenant: "utrecht"}
	for _, label := range []any{"amsterdam", "", nil, 7, "Utrecht"} {
		if f := CheckTenant(utrecht, label); f == nil || f.Code != CodeTenantMismatch {
			t.Errorf("label %#v: %+v", label, f)
		}
	}
	if CheckTenant(utrecht, "utrecht") != nil {
		t.Error("own tenant refused")
	}
	if CheckTenant(machine, "") == nil || CheckTenant(nil, "utrecht") == nil {
		t.Error("a principal without tenant must match nothing")
	}
}

func TestClientAndOperationRules(t *testing.T) {
	rule := RequireM2MClient([]string{"operaton-mcp-client"})
	if f := rule(&Principal{Client: "operaton-mcp-client"}); f != nil {
		t.Errorf("listed client refused: %+v", f)
	}
	for _, azp := range []string{"", "Operaton-MCP-client", "ronl-frontend"} {
		if f := rule(&Principal{Client: azp}); f == nil || f.Code != CodeM2MClientNotAllowed ||
			f.Message != "This API is only available to registered M2M clients." {
			t.Errorf("azp %q: %+v", azp, f)
		}
	}
	if f := RequireM2MClient(nil)(&Principal{Client: "x"}); f == nil {
		t.Error("an empty allow-list must admit nobody")
	}
	if f := RequireDocmgmtClient([]string{"a"})(&Principal{Client: "b"}); f == nil || f.Code != CodeDocmgmtClientNotAllow {
		t.Errorf("docmgmt: %+v", f)
	}
	if len(M2MAllowedOperations) != 18 {
		t.Errorf("the gate lists %d operations, want 18 (spec §4.9)", len(M2MAllowedOperations))
	}
	if f := RequireOperation(M2MAllowedOperations, "decision.evaluate")(nil); f != nil {
		t.Errorf("decision.evaluate is on: %+v", f)
	}
	if f := RequireOperation([]string{"task.list"}, "decision.evaluate")(nil); f == nil || f.Code != CodeOperationNotPermitted {
		t.Errorf("switched-off operation: %+v", f)
	}
	if f := RequireRole("caseworker", "admin")(&Principal{Roles: []string{"citizen"}}); f == nil ||
		f.Code != CodeForbidden || f.Message != "Insufficient permissions" {
		t.Errorf("role: %+v", f)
	}
}

func TestGuardAndHolder(t *testing.T) {
	dir := t.TempDir()
	dev, err := LoadDevIdentity(filepath.Join(dir, "k.pem"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(context.Background(), VerifierOptions{Keys: dev.Keys(), Issuer: testIssuer, Audience: testAudience})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	a := &Authenticator{Verifier: v}
	var seen *Principal
	h := a.Guard(func(w http.ResponseWriter, r *http.Request) error {
		seen = FromContext(r.Context())
		return nil
	}, RequireRole("admin"))
	tok, err := dev.Token(TokenClaims{Issuer: testIssuer, Audience: testAudience, Subject: "a-1", Roles: []string{"admin"}})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/", nil)
	ctx, holder := WithHolder(r.Context())
	r = r.WithContext(ctx)
	r.Header.Set("Authorization", "bearer "+tok) // the scheme is case-insensitive
	if err := h(httptest.NewRecorder(), r); err != nil {
		t.Fatal(err)
	}
	if seen == nil || seen.UserID != "a-1" || holder.Principal != seen {
		t.Errorf("principal in context %+v, holder %+v", seen, holder.Principal)
	}
	r.Header.Set("Authorization", "Basic abc")
	err = h(httptest.NewRecorder(), r)
	if err == nil || !strings.Contains(err.Error(), "UNAUTHORIZED") {
		t.Fatalf("non-bearer header: %v", err)
	}
}

func TestDevIdentitySharedThroughTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dev.pem")
	a, err := LoadDevIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", info.Mode().Perm())
	}
	b, err := LoadDevIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.KeyID() != b.KeyID() || !a.key.Equal(b.key) {
		t.Error("a second load must read the same key")
	}
	if err := os.WriteFile(path, []byte("junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDevIdentity(path); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("corrupt key file: %v", err)
	}
}

// TestVerifiedCache: a cached token is trusted only until its exp (and at
// most CacheMaxAge), the cache stays within its bound, and callers cannot
// change a cached principal.
func TestVerifiedCache(t *testing.T) {
	key := rsaKey(t)
	srv := newJWKSServer(t, map[string]*rsa.PublicKey{"k1": &key.PublicKey})
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(t time.Time) { mu.Lock(); now = t; mu.Unlock() }
	v := newRemoteVerifier(t, srv.URL, VerifierOptions{Now: clock, CacheSize: 5, CacheMaxAge: time.Hour})
	start := now
	c := validClaims()
	c["exp"] = start.Add(30 * time.Second).Unix()
	tok := sign(t, key, "k1", c)
	p, err := v.Verify(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	p.Roles[0], p.Tenant = "admin", "elsewhere"
	again, err := v.Verify(context.Background(), tok)
	if err != nil || again.Tenant != "utrecht" || v.cacheLen() != 1 {
		t.Fatalf("cached principal changed or not cached: %+v %v", again, err)
	}
	set(start.Add(31 * time.Second))
	var te *TokenError
	if _, err := v.Verify(context.Background(), tok); !errors.As(err, &te) || te.Reason != "expired" {
		t.Fatalf("a cached token outlived its exp: %v", err)
	}
	set(start)
	for i := range 20 {
		c := validClaims()
		c["jti"] = fmt.Sprint(i)
		if _, err := v.Verify(context.Background(), sign(t, key, "k1", c)); err != nil {
			t.Fatal(err)
		}
		if n := v.cacheLen(); n > 5 {
			t.Fatalf("cache grew to %d entries, bound 5", n)
		}
	}
	// CacheMaxAge bounds trust even before exp.
	short := newRemoteVerifier(t, srv.URL, VerifierOptions{Now: clock, CacheMaxAge: time.Second})
	tok2 := sign(t, key, "k1", validClaims())
	if _, err := short.Verify(context.Background(), tok2); err != nil {
		t.Fatal(err)
	}
	entry := short.cache.m[sha256.Sum256([]byte(tok2))]
	if !entry.until.Equal(start.Add(time.Second)) {
		t.Errorf("cached until %v, want verification time + CacheMaxAge (%v)", entry.until, start.Add(time.Second))
	}
	if short.cache.get(sha256.Sum256([]byte(tok2)), start.Add(time.Second)) != nil {
		t.Error("a cache entry was used at its end")
	}
}
