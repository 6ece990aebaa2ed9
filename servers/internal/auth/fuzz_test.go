package auth

import (
	"context"
	"path/filepath"
	"testing"
)

// FuzzVerify: no token text makes the verifier panic or accept it.
func FuzzVerify(f *testing.F) {
	dev, err := LoadDevIdentity(filepath.Join(f.TempDir(), "k.pem"))
	if err != nil {
		f.Fatal(err)
	}
	v, err := NewVerifier(context.Background(), VerifierOptions{Keys: dev.Keys(), Issuer: testIssuer, Audience: testAudience, CacheSize: -1})
	if err != nil {
		f.Fatal(err)
	}
	defer v.Close()
	good, err := dev.Token(TokenClaims{Issuer: testIssuer, Audience: testAudience, Subject: "s"})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{good, "", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", good[:len(good)-2] + "xx", good + "."} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, token string) {
		p, err := v.Verify(context.Background(), token)
		if err == nil && token != good {
			t.Fatalf("accepted a token that was not minted: %q → %+v", token, p)
		}
	})
}
