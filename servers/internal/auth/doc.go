// Package auth authenticates and authorises requests to regelkit's
// token-protected servers: it verifies RS256 bearer tokens (JWTs) against an
// identity provider's JWKS, turns their claims into a Principal, and guards
// routes by role, assurance level (LoA), tenant and client (azp).
//
// Keys come from a JWKS URL, fetched and cached with MicahParks/keyfunc and
// refetched (rate limited) when a token names an unknown key id, so a key
// rotation at the provider is picked up without a restart; or, for local
// development, from a key pair kept in a file (DevIdentity), which also
// mints tokens.
//
// The one call a newcomer needs wraps a handler so that it only runs for a
// verified caseworker:
//
//	v, err := auth.NewVerifier(ctx, auth.VerifierOptions{JWKSURL: certsURL, Issuer: iss, Audience: "ronl-business-api"})
//	a := &auth.Authenticator{Verifier: v}
//	h := a.Guard(handler, auth.RequireRole("caseworker")) // an httpapi.HandlerFunc
//
// Failures are *Failure values with the status, code and message of the
// business API specification (401 UNAUTHORIZED with reason MISSING_TOKEN or
// INVALID_TOKEN, 403 FORBIDDEN, LOA_INSUFFICIENT, MISSING_TENANT, …); the
// token's content is never logged.
package auth
