// Package outbound is the one policy for URLs a caller names (SPARQL
// endpoints in explorer requests): only http and https, no user info,
// bounded timeouts and response sizes, and never a private, link-local,
// cloud-metadata (169.254.169.254, fd00:ec2::254, metadata.google.internal,
// …), CGNAT, multicast or reserved address, checked on the resolved
// address at dial time so DNS cannot point a permitted name at a forbidden
// address. The policy is on in every environment: development (the zero
// Policy) permits http and loopback so the embedded and local endpoints
// work; strict mode (the production default) requires https and refuses
// loopback too. The configured default endpoint and an allow-list always
// pass.
//
//	p := &outbound.Policy{Strict: true, Allow: []string{"https://graph.internal.example"}}
//	u, err := p.Check(callerURL)          // *RefusedError → 400 INVALID_REQUEST
//	resp, err := p.Client().Do(req)       // dials only permitted addresses
package outbound
