// Package layered is the explorer's publishing check: Turtle is validated
// against three SHACL layers — CPSV-AP 3.2.0, CPRMV 0.4.1 and the custom
// publishing invariants — whose shapes are embedded and compiled once, and
// every finding becomes an issue with a SHACL-<COMPONENT> code, a severity,
// a message listing the values on the path and a location. A layer without
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
// Its speed and peak memory on 1.05 million triples, next to the npm
// package shacl-engine on the same files, are in the README's performance table. The
// side-by-side run reads the data with go test -run ValidateFile
// -shacl.benchfile=FILE, written by -run WriteBenchmarkData
// -shacl.benchdata=DIR.
//
// Output is bounded: a message quotes at most 20 values (MaxQuotedValues),
// each cut to 200 characters (MaxQuotedRunes), and counts the rest in the
// message ("… and 4,980 more") and in the truncated field; the
// results of one per-value constraint on one focus node and path become
// one issue. A rule with 5,000 plain-string titles (44 KB of Turtle) gives
// one SHACL-DATATYPE issue and a 565-byte JSON result, where it used to
// give 5,000 issues listing all 5,000 titles: 170 MB
// (TestOutputStaysSmallForManyValues). Validation runs under shacl.Limits
// (NewWith, BuiltinWith): a *shacl.LimitError ends Check.
//
// Layer keys, labels and issue rules follow the explorer specification
// ("SHACL validation").
package layered
