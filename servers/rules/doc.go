// Command rules is the rule-serving API (spec "editor and rules", area B):
// the CPRMV methods graph, rules and rule sets from the official publication
// repositories narrowed to a rule path, Juriconnect references redirected to
// rule paths, and the CPRMV specification as a static site at /respec/.
// Handlers are thin: norms/cprmv does the work.
//
//	go run ./servers/rules    # :8083, the embedded offline repository
//	curl -s 'localhost:8083/rules/BWBR0015703_2025-07-01_0,Artikel%2020,lid%201'
//
// Configuration is the environment (see config.go and the README table).
package main
