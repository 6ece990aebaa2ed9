// Package enginetest holds fixtures shared by the engine packages' tests
// and benchmarks, so that they measure and check the same things: the
// example local-pass models as deployment resources and a 10-rule
// decision table with inputs that reach its last rule.
//
//	rs, err := enginetest.LocalPass()
package enginetest
