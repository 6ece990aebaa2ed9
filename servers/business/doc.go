// Command business is the business API server: the token-protected front of
// the decision and process engine for caseworkers, citizens' portals and
// machine clients (spec/business.md). It verifies RS256 tokens against the
// identity provider's JWKS (servers/internal/auth), limits requests per
// client IP (servers/internal/ratelimit), audits every authenticated request
// (internal/audit) and serves decision evaluation, the person-register
// lookup (brp) and health.
//
// With no environment at all it runs on embedded defaults: the embedded
// engine with the example decision models, a development identity whose
// tokens the token subcommand prints, the embedded register with fictional
// persons, and the audit log in the application log:
//
//	go run ./servers/business
//	TOKEN=$(go run ./servers/business token -role caseworker -municipality heusden)
package main
