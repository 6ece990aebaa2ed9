// Package layered is the explorer's publishing check: Turtle is validated
// against three SHACL layers — CPSV-AP 3.2.0, CPRMV 0.4.1 and the custom
// publishing invariants — whose shapes are embedded and compiled once, and
// every finding becomes an issue with a SHACL-<COMPONENT> code, a severity,
// a message listing every offending value and a location. A layer without
// shape files is reported as not loaded and makes every result invalid
// (fail closed); merged mode first reads the already-published triples of
// the file's subjects with read-only CONSTRUCT queries and validates the
// union, so collisions between publications show before publishing.
//
// The one call a newcomer needs:
//
//	checker, err := layered.Builtin()
//	result, err := checker.CheckTurtle(ctx, turtle)
//
// Layer keys, labels and issue rules follow the explorer specification
// ("SHACL validation") and its reference notes §6.
package layered
