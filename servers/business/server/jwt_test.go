package server

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// idp is a fake identity provider: its realm's JWKS at the Keycloak path,
// replaceable keys, a fetch counter.
type idp struct {
	*httptest.Server
	mu      sync.Mutex
	keys    map[string]*rsa.PublicKey
	fetches atomic.Int64
}

func newIDP(t *testing.T, keys map[string]*rsa.PublicKey) *idp {
	p := &idp{keys: keys}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/realms/ronl/protocol/openid-connect/certs" {
			http.NotFound(w, r)
			return
		}
		p.fetches.Add(1)
		p.mu.Lock()
		defer p.mu.Unlock()
		var set struct {
			Keys []map[string]string `json:"keys"`
		}
		for kid, k := range p.keys {
			set.Keys = append(set.Keys, map[string]string{
				"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
				"n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
				"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes()),
			})
		}
		_ = json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *idp) setKeys(keys map[string]*rsa.PublicKey) {
	p.mu.Lock()
	p.keys = keys
	p.mu.Unlock()
}

func newRSA(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func signJWT(t *testing.T, method jwt.SigningMethod, key any, kid string, c jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, c)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestJWTAttacks: every forged, stale or misdirected token is 401 through
// the real router, as UNAUTHORIZED/INVALID_TOKEN in the envelope and as an
// INVALID_TOKEN problem under /v1/brp/.
func TestJWTAttacks(t *testing.T) {
	key, other, otherRealm := newRSA(t), newRSA(t), newRSA(t)
	p := newIDP(t, map[string]*rsa.PublicKey{"k1": &key.PublicKey})
	ta := newTestApp(t, map[string]string{"IDP_URL": p.URL})
	issuer := p.URL + "/realms/ronl"
	claims := func(mod func(jwt.MapClaims)) jwt.MapClaims {
		now := time.Now()
		c := jwt.MapClaims{
			"iss": issuer, "aud": []string{"account", "ronl-business-api"}, "sub": "cw-1", "azp": "ronl-frontend",
			"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "municipality": "utrecht", "loa": "hoog",
			"realm_access": map[string]any{"roles": []string{"caseworker"}},
		}
		if mod != nil {
			mod(c)
		}
		return c
	}
	good := signJWT(t, jwt.SigningMethodRS256, key, "k1", claims(nil))
	body := `{"variables": {"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": null}}`
	ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", body, bearer(good)...).Data(t, 200, nil)

	// alg none: header {"alg":"none"}, no signature.
	enc := base64.RawURLEncoding.EncodeToString
	payload, _ := json.Marshal(claims(nil))
	algNone := enc([]byte(`{"alg":"none","typ":"JWT","kid":"k1"}`)) + "." + enc(payload) + "."
	// HS256 keyed with the RSA public key (the classic confusion attack).
	pubDER := key.PublicKey.N.Bytes()
	hs := signJWT(t, jwt.SigningMethodHS256, pubDER, "k1", claims(nil))
	parts := strings.Split(good, ".")
	tamperedClaims := claims(func(c jwt.MapClaims) { c["municipality"] = "amsterdam" })
	tp, _ := json.Marshal(tamperedClaims)
	tampered := parts[0] + "." + enc(tp) + "." + parts[2]
	huge := signJWT(t, jwt.SigningMethodRS256, key, "k1", claims(func(c jwt.MapClaims) { c["pad"] = strings.Repeat("x", 20<<10) }))

	for _, tc := range []struct{ name, token string }{
		{"alg none", algNone},
		{"HS256 with the public key as secret", hs},
		{"right kid, other modulus", signJWT(t, jwt.SigningMethodRS256, other, "k1", claims(nil))},
		{"expired", signJWT(t, jwt.SigningMethodRS256, key, "k1", claims(func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Minute).Unix() }))},
		{"not yet valid", signJWT(t, jwt.SigningMethodRS256, key, "k1", claims(func(c jwt.MapClaims) { c["nbf"] = time.Now().Add(time.Minute).Unix() }))},
		{"wrong audience", signJWT(t, jwt.SigningMethodRS256, key, "k1", claims(func(c jwt.MapClaims) { c["aud"] = "account" }))},
		{"wrong issuer", signJWT(t, jwt.SigningMethodRS256, key, "k1", claims(func(c jwt.MapClaims) { c["iss"] = "https://evil.example/realms/ronl" }))},
		{"tampered payload", tampered},
		{"another realm", signJWT(t, jwt.SigningMethodRS256, otherRealm, "other-realm-key", claims(func(c jwt.MapClaims) { c["iss"] = p.URL + "/realms/other" }))},
		{"20 KB token", huge},
		{"no kid", signJWT(t, jwt.SigningMethodRS256, key, "", claims(nil))},
	} {
		resp := ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", body, bearer(tc.token)...)
		msg := resp.ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		if env := resp.Envelope(t); !strings.Contains(string(env.Error.Details), `"reason":"INVALID_TOKEN"`) || msg != "Token validation failed" {
			t.Errorf("%s: %s", tc.name, resp.Body)
		}
		expectProblem(t, ta.c.Post("/v1/brp/personen", `{}`, bearer(tc.token)...), 401, "INVALID_TOKEN", "/v1/brp/personen")
	}
	resp := ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", body)
	resp.ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	if !strings.Contains(string(resp.Envelope(t).Error.Details), `"reason":"MISSING_TOKEN"`) {
		t.Errorf("no token: %s", resp.Body)
	}
	if strings.Contains(ta.logs.String(), parts[1]) {
		t.Error("a token reached the log")
	}
}

// TestJWKSRotationThroughTheRouter: an unknown kid triggers one refetch,
// then 401; a key the provider adds later is accepted without a restart.
func TestJWKSRotationThroughTheRouter(t *testing.T) {
	k1, k2 := newRSA(t), newRSA(t)
	p := newIDP(t, map[string]*rsa.PublicKey{"k1": &k1.PublicKey})
	ta := newTestApp(t, map[string]string{"IDP_URL": p.URL})
	c := func() jwt.MapClaims {
		return jwt.MapClaims{"iss": p.URL + "/realms/ronl", "aud": "ronl-business-api", "sub": "cw", "municipality": "utrecht",
			"loa": "hoog", "exp": time.Now().Add(time.Minute).Unix(), "realm_access": map[string]any{"roles": []string{"caseworker"}}}
	}
	body := `{"variables": {"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": null}}`
	path := "/v1/decision/SVB_LeeftijdsInformatie/evaluate"
	start := p.fetches.Load()
	// Unknown kid: refetched once, still unknown → 401.
	ta.c.Post(path, body, bearer(signJWT(t, jwt.SigningMethodRS256, k2, "k2", c()))...).ExpectError(t, 401, "UNAUTHORIZED")
	if n := p.fetches.Load() - start; n != 1 {
		t.Fatalf("unknown kid caused %d fetches, want 1", n)
	}
	ta.c.Post(path, body, bearer(signJWT(t, jwt.SigningMethodRS256, k2, "k2", c()))...).ExpectError(t, 401, "UNAUTHORIZED")
	if n := p.fetches.Load() - start; n != 1 {
		t.Fatalf("a second unknown kid inside the rate limit fetched again (%d fetches)", n)
	}
	// Rotation without restart: the provider starts publishing k3; the
	// first token signed with it triggers the reload and passes. (A second
	// app, because the first spent its reload slot above.)
	ta2 := newTestApp(t, map[string]string{"IDP_URL": p.URL})
	ta2.c.Post(path, body, bearer(signJWT(t, jwt.SigningMethodRS256, k1, "k1", c()))...).Data(t, 200, nil)
	k3 := newRSA(t)
	p.setKeys(map[string]*rsa.PublicKey{"k1": &k1.PublicKey, "k3": &k3.PublicKey})
	ta2.c.Post(path, body, bearer(signJWT(t, jwt.SigningMethodRS256, k3, "k3", c()))...).Data(t, 200, nil)
	ta2.c.Post(path, body, bearer(signJWT(t, jwt.SigningMethodRS256, k1, "k1", c()))...).Data(t, 200, nil)
}

func TestJWTLeeway(t *testing.T) {
	key := newRSA(t)
	p := newIDP(t, map[string]*rsa.PublicKey{"k1": &key.PublicKey})
	expired := func() string {
		return signJWT(t, jwt.SigningMethodRS256, key, "k1", jwt.MapClaims{
			"iss": p.URL + "/realms/ronl", "aud": "ronl-business-api", "sub": "cw", "municipality": "utrecht", "loa": "hoog",
			"exp": time.Now().Add(-2 * time.Second).Unix(),
		})
	}
	body := `{"variables": {"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": null}}`
	strict := newTestApp(t, map[string]string{"IDP_URL": p.URL})
	strict.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", body, bearer(expired())...).ExpectError(t, 401, "UNAUTHORIZED")
	lenient := newTestApp(t, map[string]string{"IDP_URL": p.URL, "JWT_LEEWAY": "30s"})
	lenient.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", body, bearer(expired())...).Data(t, 200, nil)
}
