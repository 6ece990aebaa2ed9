// Command stack runs the four servers in one process — explorer (8081),
// business API (3002), editor (8084) and rules API (8083) — sharing one
// embedded decision engine and one embedded knowledge graph, so that a DRD
// the explorer exports is evaluable through the business API and readable
// through the rules API's DMN method (/rules/DMN1.3_…). It prints
// development tokens for the business API at start and drains all four
// together on SIGTERM.
//
//	go run ./servers/stack
//
// Each server reads the rest of its configuration from the environment as
// when it runs alone; only the ports are the stack's own settings (see the
// README).
package main
