// Package convert serves the two FLINT converters over HTTP:
// RDFToJSON answers POST /process_graph (Turtle or TriG → editor JSON) and the
// standalone graph-picker pages; JSONToRDF answers POST /process_and_save
// (editor JSON → TriG). The conversion itself is package flint.
//
// The one call a newcomer needs:
//
//	mux.Handle("/process_graph", convert.RDFToJSON(convert.Options{}))
package convert
