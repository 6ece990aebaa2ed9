// Package brp looks up persons in the Dutch person register (BRP) through
// the Haal Centraal "Personen bevragen" API: it validates the lookup body,
// forwards it to the register with a bounded client, and answers the
// business API's POST /v1/brp/personen with RFC 9457 problem details for
// every failure.
//
// A server mounts the one handler and turns each lookup's Event into its
// audit row; the handler itself never logs a citizen number or a body:
//
//	client := &brp.Client{BaseURL: "https://brp.example/haalcentraal/api/brp"}
//	h := brp.Handler(brp.HandlerOptions{
//		Upstream: client,
//		Observe: func(ctx context.Context, e brp.Event) { /* audit brp.personen.fetch with e.BSN */ },
//	})
//	router.Handle("/v1/brp/personen", h)
//
// Register is an embedded register for development holding the fictional
// persons of the Haal Centraal test set (Wessel Kooyman, 999992235, and his
// family); it is an Upstream itself and an http.Handler for POST /personen.
//
// Validate bounds its input: nesting deeper than MaxDepth is refused by one
// flat scan before any decoding, a body names at most 100 fields, and an
// answer lists at most ten problems. FuzzValidate exercises
// it: go test -run XXX -fuzz FuzzValidate -fuzztime 30s ./brp
package brp
