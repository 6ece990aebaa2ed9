package auth_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/regelkit/regelkit/servers/internal/auth"
)

// A development identity mints a token that a verifier on its keys accepts.
func ExampleDevIdentity() {
	dir, _ := os.MkdirTemp("", "devkey")
	defer os.RemoveAll(dir)
	dev, err := auth.LoadDevIdentity(filepath.Join(dir, "dev.pem"))
	if err != nil {
		panic(err)
	}
	iss, aud := "http://localhost:8080/realms/ronl", "ronl-business-api"
	token, _ := dev.Token(auth.TokenClaims{Issuer: iss, Audience: aud, Subject: "cw-1",
		Municipality: "heusden", Roles: []string{"caseworker"}, LoA: "midden"})
	v, _ := auth.NewVerifier(context.Background(), auth.VerifierOptions{Keys: dev.Keys(), Issuer: iss, Audience: aud})
	defer v.Close()
	p, err := v.Verify(context.Background(), token)
	fmt.Println(p.UserID, p.Tenant, p.HasRole("caseworker"), err)
	fmt.Println(auth.RequireLoA("substantieel")(p).Code)
	// Output:
	// cw-1 heusden true <nil>
	// LOA_INSUFFICIENT
}
