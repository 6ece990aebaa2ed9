// Package virtuosotest gives tests a real, throwaway Virtuoso 7 (Debian's
// virtuoso-opensource): a fresh database in a temporary directory, the SQL
// and HTTP listeners on free loopback ports, stopped and removed at test
// cleanup. Interop tests use it to check that a server answers the same
// over Virtuoso as over the embedded store.
//
// A test that cannot start Virtuoso (virtuoso-t and isql-vt not installed)
// is skipped with a message saying why, unless REGELKIT_REQUIRE_VIRTUOSO=1
// (set by CI after installing the package), which turns the skip into a
// failure. Use it like this:
//
//	func TestInterop(t *testing.T) {
//		v := virtuosotest.Start(t, virtuosotest.Options{AllowUpdate: true})
//		v.LoadTurtle(t, data, "urn:example:graph") // "" loads the default graph
//		client := sparql.NewClient(v.SPARQL(), sparql.ClientOptions{})
//		...
//	}
//
// Virtuoso's default graph is the union of all graphs for queries that name
// none, so data loaded into a named graph is seen by such queries too.
// AllowUpdate grants the anonymous SPARQL user the SPARQL_UPDATE role, so
// SPARQL Update over the plain /sparql endpoint works without digest
// authentication.
package virtuosotest
