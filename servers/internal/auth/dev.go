package auth

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// DevIdentity is a development identity provider: one RSA key pair kept in a
// file, so that a server and a token command run separately share it. Use
// it only in development; servers refuse it elsewhere.
type DevIdentity struct {
	key *rsa.PrivateKey
	kid string
}

// LoadDevIdentity reads the PEM key at path, or creates it (mode 0600, its
// directory 0700) when it does not exist yet.
func LoadDevIdentity(path string) (*DevIdentity, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createDevIdentity(path)
	}
	if err != nil {
		return nil, fmt.Errorf("auth: development key: %w", err)
	}
	return parseDevIdentity(path, data)
}

func parseDevIdentity(path string, data []byte) (*DevIdentity, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("auth: development key %s is not PEM; delete it to have a new one made", path)
	}
	key, err := x509.ParsePKCS1PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("auth: development key %s: %w; delete it to have a new one made", path, err)
	}
	return newDevIdentity(key), nil
}

func createDevIdentity(path string) (*DevIdentity, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("auth: development key: %w", err)
	}
	pemData := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	// O_EXCL: when the server and the token command start together, one
	// creates the key and the other reads it.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		time.Sleep(100 * time.Millisecond)
		return LoadDevIdentity(path)
	}
	if err != nil {
		return nil, fmt.Errorf("auth: development key: %w", err)
	}
	if _, err := f.Write(pemData); err != nil {
		f.Close()
		return nil, fmt.Errorf("auth: development key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("auth: development key: %w", err)
	}
	return newDevIdentity(key), nil
}

func newDevIdentity(key *rsa.PrivateKey) *DevIdentity {
	sum := sha256.Sum256(x509.MarshalPKCS1PublicKey(&key.PublicKey))
	return &DevIdentity{key: key, kid: "dev-" + base64.RawURLEncoding.EncodeToString(sum[:9])}
}

// Keys returns the public key by its key id, for VerifierOptions.Keys.
func (d *DevIdentity) Keys() map[string]*rsa.PublicKey {
	return map[string]*rsa.PublicKey{d.kid: &d.key.PublicKey}
}

// KeyID is the key id tokens carry.
func (d *DevIdentity) KeyID() string { return d.kid }

// TokenClaims are the claims of a development token.
type TokenClaims struct {
	Issuer, Audience string
	Subject          string
	Username         string
	Name             string
	Municipality     string // empty for machine tokens
	OrganisationType string
	LoA              string
	BSN              string
	EmployeeID       string // employeeId
	Roles            []string
	Client           string // azp
	IssuedAt         time.Time
	TTL              time.Duration
}

// Token mints an RS256 token signed with the development key.
func (d *DevIdentity) Token(c TokenClaims) (string, error) {
	if c.IssuedAt.IsZero() {
		c.IssuedAt = time.Now()
	}
	if c.TTL <= 0 {
		c.TTL = time.Hour
	}
	m := jwt.MapClaims{
		"iss": c.Issuer,
		"aud": c.Audience,
		"sub": c.Subject,
		"iat": c.IssuedAt.Unix(),
		"nbf": c.IssuedAt.Unix(),
		"exp": c.IssuedAt.Add(c.TTL).Unix(),
		"azp": c.Client,
		"realm_access": map[string]any{
			"roles": append([]string{}, c.Roles...),
		},
	}
	set := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	set("preferred_username", c.Username)
	set("name", c.Name)
	set("municipality", c.Municipality)
	set("organisation_type", c.OrganisationType)
	set("loa", c.LoA)
	set("bsn", c.BSN)
	set("employeeId", c.EmployeeID)
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, m)
	t.Header["kid"] = d.kid
	return t.SignedString(d.key)
}
