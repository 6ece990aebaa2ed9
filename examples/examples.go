package examples

import "embed"

// FS holds the example files under their paths in this directory.
//
//go:embed models knowledge-graph
var FS embed.FS

// LocalPass lists the local-pass chain in execution order: model
// identifier (the dct:identifier in the knowledge graph and the engine's
// decision key) and the path of its DMN file in FS.
var LocalPass = []struct{ Identifier, Path string }{
	{"SVB_LeeftijdsInformatie", "models/localpass/SVB_LeeftijdsInformatie.dmn"},
	{"SZW_BijstandsnormInformatie", "models/localpass/SZW_BijstandsnormInformatie.dmn"},
	{"RONL_LocalpassEindresultaat", "models/localpass/RONL_LocalpassEindresultaat.dmn"},
}

// KnowledgeGraph lists the Turtle files of the example knowledge graph.
var KnowledgeGraph = []string{
	"knowledge-graph/organisations.ttl",
	"knowledge-graph/localpass.ttl",
	"knowledge-graph/models.ttl",
	"knowledge-graph/norms.ttl",
}
