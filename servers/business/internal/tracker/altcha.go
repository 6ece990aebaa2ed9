package tracker

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// ALTCHA error codes.
const (
	CodeAltchaMissing       = "ALTCHA_MISSING"
	CodeAltchaInvalid       = "ALTCHA_INVALID"
	CodeAltchaError         = "ALTCHA_ERROR"
	CodeAltchaNotConfigured = "ALTCHA_NOT_CONFIGURED"
)

const (
	altchaAlgorithm = "SHA-256"
	altchaMaxNumber = 50000
	altchaLifetime  = 10 * time.Minute
	// maxSpent bounds the table of solutions already used; a solution is
	// kept until its challenge expires.
	maxSpent = 100_000
)

// Challenge is an ALTCHA challenge: the client finds number in
// [0, maxnumber] with hex(sha256(salt + number)) == challenge.
type Challenge struct {
	Algorithm string `json:"algorithm"`
	Challenge string `json:"challenge"`
	MaxNumber int    `json:"maxnumber"`
	Salt      string `json:"salt"`
	Signature string `json:"signature"`
}

// altcha issues and verifies challenges signed with an HMAC key.
type altcha struct {
	key []byte
	now func() time.Time

	mu    sync.Mutex
	spent map[string]time.Time // signature → expiry: a solution counts once
}

func newAltcha(key string, now func() time.Time) *altcha {
	return &altcha{key: []byte(key), now: now, spent: map[string]time.Time{}}
}

func (a *altcha) sign(challenge string) string {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte(challenge))
	return hex.EncodeToString(m.Sum(nil))
}

func hashHex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// challenge makes a new challenge expiring in 10 minutes; the expiry rides
// in the salt, which the signature covers through the challenge hash.
func (a *altcha) challenge() (Challenge, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Challenge{}, err
	}
	n, err := rand.Int(rand.Reader, big.NewInt(altchaMaxNumber+1))
	if err != nil {
		return Challenge{}, err
	}
	salt := hex.EncodeToString(b[:]) + "?expires=" + strconv.FormatInt(a.now().Add(altchaLifetime).Unix(), 10)
	ch := hashHex(salt + n.String())
	return Challenge{Algorithm: altchaAlgorithm, Challenge: ch, MaxNumber: altchaMaxNumber, Salt: salt, Signature: a.sign(ch)}, nil
}

// verify checks a base64 JSON solution {algorithm, challenge, number,
// salt, signature}: missing → ALTCHA_MISSING, undecodable → ALTCHA_ERROR,
// wrong, expired or reused → ALTCHA_INVALID.
func (a *altcha) verify(payload string) error {
	payload = strings.TrimSpace(payload)
	if payload == "" {
		return httpapi.NewError(http.StatusBadRequest, CodeAltchaMissing, "The altcha field is required")
	}
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return httpapi.NewError(http.StatusBadRequest, CodeAltchaError, "The altcha field is not base64-encoded JSON")
	}
	var s struct {
		Algorithm string      `json:"algorithm"`
		Challenge string      `json:"challenge"`
		Number    json.Number `json:"number"`
		Salt      string      `json:"salt"`
		Signature string      `json:"signature"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return httpapi.NewError(http.StatusBadRequest, CodeAltchaError, "The altcha field is not base64-encoded JSON")
	}
	invalid := httpapi.NewError(http.StatusBadRequest, CodeAltchaInvalid, "The altcha solution is not valid")
	n, err := strconv.Atoi(s.Number.String())
	if err != nil || n < 0 || n > altchaMaxNumber || s.Algorithm != altchaAlgorithm {
		return invalid
	}
	expires := a.expiry(s.Salt)
	if expires.IsZero() || !a.now().Before(expires) {
		return httpapi.NewError(http.StatusBadRequest, CodeAltchaInvalid, "The altcha challenge has expired")
	}
	if subtle.ConstantTimeCompare([]byte(hashHex(s.Salt+strconv.Itoa(n))), []byte(s.Challenge)) != 1 ||
		subtle.ConstantTimeCompare([]byte(a.sign(s.Challenge)), []byte(s.Signature)) != 1 {
		return invalid
	}
	if !a.spend(s.Signature, expires) {
		return httpapi.NewError(http.StatusBadRequest, CodeAltchaInvalid, "The altcha solution was already used")
	}
	return nil
}

// expiry reads the expires parameter of a salt.
func (a *altcha) expiry(salt string) time.Time {
	_, query, ok := strings.Cut(salt, "?")
	if !ok {
		return time.Time{}
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return time.Time{}
	}
	sec, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(sec, 0)
}

// spend records a solution; false when it was used before. The table is
// bounded: expired entries go first, and a table still full is reset.
func (a *altcha) spend(sig string, expires time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, used := a.spent[sig]; used {
		return false
	}
	if len(a.spent) >= maxSpent {
		now := a.now()
		for k, exp := range a.spent {
			if !now.Before(exp) {
				delete(a.spent, k)
			}
		}
		if len(a.spent) >= maxSpent {
			clear(a.spent)
		}
	}
	a.spent[sig] = expires
	return true
}
