// Package algebra parses SPARQL 1.1 queries and updates and translates them
// into the SPARQL algebra (SPARQL 1.1 §18): a plain tree of nodes that the
// engine evaluates and that String prints for tests and debugging. Parsing
// (parse.go, syntax.go) builds a syntax tree and reports every error of the
// text with its position; the translation (translate.go) turns the tree
// into algebra.
//
//	q, err := algebra.ParseQuery(src, algebra.Options{Base: base})
//	fmt.Println(algebra.String(q.Pattern))
package algebra
