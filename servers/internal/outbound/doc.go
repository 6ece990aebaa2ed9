// Package outbound is the one policy for URLs a caller names (SPARQL
// endpoints in explorer requests): only http and https, no user info,
// bounded timeouts and response sizes, and in strict mode (the production
// default) https only and no loopback, private, link-local, CGNAT,
// multicast or reserved address, checked on the resolved address at dial
// time so DNS cannot point a permitted name at a forbidden address. The
// configured default endpoint and an allow-list always pass.
//
//	p := &outbound.Policy{Strict: true, Allow: []string{"https://graph.internal.example"}}
//	u, err := p.Check(callerURL)          // *RefusedError → 400 INVALID_REQUEST
//	resp, err := p.Client().Do(req)       // dials only permitted addresses
package outbound
