package auth

import (
	"context"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

// Defaults of VerifierOptions.
const (
	DefaultMaxTokenBytes = 8 << 10
	DefaultCacheTTL      = 300 * time.Second
	// DefaultRefreshEvery spaces the JWKS reloads that an unknown key id
	// triggers: at most 10 per minute.
	DefaultRefreshEvery = 6 * time.Second
	defaultFetchTimeout = 10 * time.Second
	// DefaultVerifiedCacheSize and DefaultVerifiedMaxAge bound the cache of
	// verified tokens.
	DefaultVerifiedCacheSize = 10_000
	DefaultVerifiedMaxAge    = 60 * time.Second
	maxJWKSBytes             = 1 << 20
)

// VerifierOptions configure a Verifier. Exactly one of JWKSURL and Keys is
// set.
type VerifierOptions struct {
	// JWKSURL is the identity provider's key set, e.g.
	// {IDP_URL}/realms/{realm}/protocol/openid-connect/certs.
	JWKSURL string
	// Keys are fixed public keys by key id (the development identity).
	Keys map[string]*rsa.PublicKey

	Issuer   string // iss must equal it exactly
	Audience string // aud (string or array) must contain it

	// CacheTTL is how often the key set is reloaded in the background
	// (DefaultCacheTTL when 0).
	CacheTTL time.Duration
	// RefreshEvery is the minimum spacing of the reloads triggered by an
	// unknown key id (DefaultRefreshEvery when 0). A token with an unknown
	// kid never waits for the limiter: when no reload is due it fails.
	RefreshEvery time.Duration
	// FetchTimeout bounds one key-set request (10 s when 0).
	FetchTimeout time.Duration
	// HTTPClient fetches the key set (a plain client when nil). The body is
	// capped at 1 MiB whatever the client.
	HTTPClient *http.Client
	// MaxTokenBytes refuses longer tokens before parsing them
	// (DefaultMaxTokenBytes when 0).
	MaxTokenBytes int
	// Leeway tolerates clock skew on exp and nbf; zero by default (no
	// leeway).
	Leeway time.Duration
	// CacheSize bounds the cache of verified tokens, which spares the RSA
	// verification when a client sends the same token again
	// (DefaultVerifiedCacheSize when 0; negative disables the cache).
	CacheSize int
	// CacheMaxAge is how long a verified token is trusted without
	// verifying it again, at most until its exp (DefaultVerifiedMaxAge when
	// 0). It bounds how long a key withdrawn at the provider still counts.
	CacheMaxAge time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Logger receives key-set fetch failures (never token content).
	Logger *slog.Logger
}

// Verifier checks bearer tokens: RS256 only, a kid naming a known key,
// issuer, audience, exp (required) and nbf.
type Verifier struct {
	opts   VerifierOptions
	keys   keyfunc.Keyfunc
	parser *jwt.Parser
	cancel context.CancelFunc
	probe  func(ctx context.Context) error
	cache  *verifiedCache // nil when disabled
	// remote is the cached key set of JWKSURL; reloads limits the reloads
	// an unknown kid triggers. Both nil with fixed keys.
	remote  jwkset.Storage
	reloads *rate.Limiter
}

// NewVerifier returns a Verifier. With a JWKSURL the key set is fetched at
// once; a provider that does not answer is not fatal (the first tokens then
// trigger the reload) but is logged.
func NewVerifier(ctx context.Context, o VerifierOptions) (*Verifier, error) {
	if (o.JWKSURL == "") == (len(o.Keys) == 0) {
		return nil, errors.New("auth: exactly one of JWKSURL and Keys must be set")
	}
	if o.Issuer == "" || o.Audience == "" {
		return nil, errors.New("auth: Issuer and Audience are required")
	}
	if o.CacheTTL <= 0 {
		o.CacheTTL = DefaultCacheTTL
	}
	if o.RefreshEvery <= 0 {
		o.RefreshEvery = DefaultRefreshEvery
	}
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = defaultFetchTimeout
	}
	if o.MaxTokenBytes <= 0 {
		o.MaxTokenBytes = DefaultMaxTokenBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CacheSize == 0 {
		o.CacheSize = DefaultVerifiedCacheSize
	}
	if o.CacheMaxAge <= 0 {
		o.CacheMaxAge = DefaultVerifiedMaxAge
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	v := &Verifier{opts: o}
	if o.CacheSize > 0 {
		v.cache = &verifiedCache{max: o.CacheSize, m: make(map[[32]byte]cachedPrincipal)}
	}
	ctx, v.cancel = context.WithCancel(context.WithoutCancel(ctx))
	var err error
	if o.JWKSURL != "" {
		v.keys, err = v.remoteKeys(ctx)
		v.probe = v.probeJWKS
	} else {
		v.keys, err = staticKeys(ctx, o.Keys)
		v.probe = func(context.Context) error { return nil }
	}
	if err != nil {
		v.cancel()
		return nil, err
	}
	parserOpts := []jwt.ParserOption{
		jwt.WithValidMethods([]string{"RS256"}),
		jwt.WithIssuer(o.Issuer),
		jwt.WithAudience(o.Audience),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(o.Now),
	}
	if o.Leeway > 0 {
		parserOpts = append(parserOpts, jwt.WithLeeway(o.Leeway))
	}
	v.parser = jwt.NewParser(parserOpts...)
	return v, nil
}

func (v *Verifier) remoteKeys(ctx context.Context) (keyfunc.Keyfunc, error) {
	client := v.opts.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	capped := *client
	base := capped.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	capped.Transport = cappedTransport{base}
	logger := v.opts.Logger
	store, err := jwkset.NewStorageFromHTTP(v.opts.JWKSURL, jwkset.HTTPClientStorageOptions{
		Client:                    &capped,
		Ctx:                       ctx,
		HTTPTimeout:               v.opts.FetchTimeout,
		NoErrorReturnFirstHTTPReq: true,
		RefreshInterval:           v.opts.CacheTTL,
		RefreshErrorHandler: func(ctx context.Context, err error) {
			logger.WarnContext(ctx, "identity provider key set could not be loaded", "url", v.opts.JWKSURL, "error", err.Error())
		},
	})
	if err != nil {
		return nil, fmt.Errorf("auth: key set: %w", err)
	}
	v.remote = store
	v.reloads = rate.NewLimiter(rate.Every(v.opts.RefreshEvery), 1)
	keys, err := jwkset.NewHTTPClient(jwkset.HTTPClientOptions{
		HTTPURLs:          map[string]jwkset.Storage{v.opts.JWKSURL: store},
		RefreshUnknownKID: v.reloads,
		// Bounds the wait for the limiter and the reload itself; Verify
		// only asks for a reload when one is due, so nobody queues here.
		RateLimitWaitMax: v.opts.FetchTimeout,
	})
	if err != nil {
		return nil, fmt.Errorf("auth: key set: %w", err)
	}
	return keyfunc.New(keyfunc.Options{Ctx: ctx, Storage: keys})
}

func staticKeys(ctx context.Context, keys map[string]*rsa.PublicKey) (keyfunc.Keyfunc, error) {
	store := jwkset.NewMemoryStorage()
	for kid, pub := range keys {
		jwk, err := jwkset.NewJWKFromKey(pub, jwkset.JWKOptions{Metadata: jwkset.JWKMetadataOptions{
			KID: kid, ALG: jwkset.AlgRS256, USE: jwkset.UseSig,
		}})
		if err != nil {
			return nil, fmt.Errorf("auth: key %q: %w", kid, err)
		}
		if err := store.KeyWrite(ctx, jwk); err != nil {
			return nil, err
		}
	}
	return keyfunc.New(keyfunc.Options{Ctx: ctx, Storage: store})
}

// cappedTransport limits key-set bodies, so a hostile or broken provider
// cannot exhaust memory.
type cappedTransport struct{ base http.RoundTripper }

func (t cappedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, maxJWKSBytes), resp.Body}
	return resp, nil
}

// Close stops the background key-set refresh.
func (v *Verifier) Close() { v.cancel() }

// Probe checks that the key source answers: the JWKS URL gives 2xx (the
// business API's identity_provider health probe). Fixed keys are always up.
func (v *Verifier) Probe(ctx context.Context) error { return v.probe(ctx) }

func (v *Verifier) probeJWKS(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.opts.JWKSURL, nil)
	if err != nil {
		return err
	}
	client := v.opts.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxJWKSBytes))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("identity provider answered %d", resp.StatusCode)
	}
	return nil
}

// ErrMissingToken is returned for a request without a bearer token.
var ErrMissingToken = errors.New("auth: authorization header missing or not a bearer token")

// TokenError is a token that failed verification. Reason says why, for the
// log (never the token itself); clients only learn INVALID_TOKEN.
type TokenError struct {
	Reason string // too_large, malformed, algorithm, no_kid, unknown_key, signature, expired, not_yet_valid, audience, issuer, claims
	Err    error
}

func (e *TokenError) Error() string { return "auth: invalid token (" + e.Reason + ")" }
func (e *TokenError) Unwrap() error { return e.Err }

// BearerToken returns the token of an "Authorization: Bearer <token>"
// header (scheme matched case-insensitively), or "".
func BearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// Authenticate verifies the request's bearer token: ErrMissingToken
// without one, a *TokenError when it fails.
func (v *Verifier) Authenticate(r *http.Request) (*Principal, error) {
	token := BearerToken(r)
	if token == "" {
		return nil, ErrMissingToken
	}
	return v.Verify(r.Context(), token)
}

// Verify verifies one token and returns its principal.
func (v *Verifier) Verify(ctx context.Context, token string) (*Principal, error) {
	if len(token) > v.opts.MaxTokenBytes {
		return nil, &TokenError{Reason: "too_large"}
	}
	now := v.opts.Now()
	var sum [32]byte
	if v.cache != nil {
		sum = sha256.Sum256([]byte(token))
		if p := v.cache.get(sum, now); p != nil {
			return p, nil
		}
	}
	var c claims
	_, err := v.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		if kid == "" {
			return nil, errNoKID
		}
		if v.remote != nil {
			// An unknown kid reloads the key set only when a reload is due;
			// otherwise it fails at once instead of waiting for the limiter.
			if _, err := v.remote.KeyRead(ctx, kid); errors.Is(err, jwkset.ErrKeyNotFound) && v.reloads.Tokens() < 1 {
				return nil, errUnknownKID
			}
		}
		return v.keys.KeyfuncCtx(ctx)(t)
	})
	if err != nil {
		return nil, &TokenError{Reason: reason(err), Err: err}
	}
	p := c.principal()
	if v.cache != nil && c.ExpiresAt != nil {
		until := now.Add(v.opts.CacheMaxAge)
		if c.ExpiresAt.Before(until) {
			until = c.ExpiresAt.Time
		}
		v.cache.put(sum, cachedPrincipal{p: p, until: until}, now)
	}
	cp := *p
	return &cp, nil
}

// verifiedCache maps the SHA-256 of a verified token to its principal until
// min(exp, verification + CacheMaxAge). It holds at most max entries: a
// full cache first drops expired entries it meets, else an arbitrary one, so
// a flood of distinct valid tokens costs verifications, never memory.
type verifiedCache struct {
	mu  sync.RWMutex
	max int
	m   map[[32]byte]cachedPrincipal
}

type cachedPrincipal struct {
	p     *Principal
	until time.Time
}

func (c *verifiedCache) get(key [32]byte, now time.Time) *Principal {
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return nil
	}
	cp := *e.p // callers may not change the cached principal
	return &cp
}

func (c *verifiedCache) put(key [32]byte, e cachedPrincipal, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		evicted, seen := false, 0
		for k, old := range c.m {
			if !now.Before(old.until) {
				delete(c.m, k)
				evicted = true
			}
			if seen++; seen >= 64 {
				break
			}
		}
		if !evicted {
			for k := range c.m {
				delete(c.m, k)
				break
			}
		}
	}
	c.m[key] = e
}

// cacheLen reports the number of cached tokens (tests).
func (v *Verifier) cacheLen() int {
	if v.cache == nil {
		return 0
	}
	v.cache.mu.RLock()
	defer v.cache.mu.RUnlock()
	return len(v.cache.m)
}

var (
	errNoKID      = errors.New("token header has no kid")
	errUnknownKID = errors.New("unknown kid and no key-set reload due")
)

func reason(err error) string {
	switch {
	case errors.Is(err, errNoKID):
		return "no_kid"
	case errors.Is(err, errUnknownKID), errors.Is(err, jwkset.ErrKeyNotFound), errors.Is(err, keyfunc.ErrKeyfunc):
		// Not in the key set, also after the reload (or no reload was due).
		return "unknown_key"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "malformed"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		if strings.Contains(err.Error(), "signing method") {
			return "algorithm"
		}
		return "signature"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "not_yet_valid"
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return "audience"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return "issuer"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return "claims"
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return "unverifiable"
	}
	return "invalid"
}
