// Command regelkit-validate checks DMN models and RDF publications before
// they are published, for CI pipelines: the same checks as the explorer's
// POST /v1/dmns/validate (package dmn/validate) and POST /v1/shacl/validate
// (package shacl/layered), run over local files.
//
//	go run ./examples/regelkit-validate dmn models/*.dmn
//	go run ./examples/regelkit-validate shacl -format sarif -fail-on warning kg/*.ttl > shacl.sarif
//
// Output is human ("file:line:column: severity code: message"), JSON or
// SARIF 2.1.0 (-format). The exit code is 0 when no issue reaches the
// -fail-on severity (default error), 1 when one does and 2 on a usage or
// I/O error (a missing, unreadable or oversized file), which takes
// precedence: a run that could not read every file never passes.
//
// Every input is bounded: a file over -max-bytes (default 10 MiB, the
// servers' request limit) is refused unread, DMN validation keeps
// dmn/validate's own depth and output bounds, and SHACL validation runs
// under shacl.DefaultLimits with a per-file -timeout.
package main
