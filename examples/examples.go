// Package examples holds regelkit's example data, embedded so every server
// runs on it with no external service: the three DMN models of the
// local-pass chain (models/localpass) and a knowledge graph in Turtle that
// publishes them with further models, SKOS concepts and one 3-model cycle
// (knowledge-graph). The data is written for the project; organisations and
// IRIs under data.regelkit.example are fictional.
//
//	data, _ := fs.ReadFile(examples.FS, "models/localpass/SZW_BijstandsnormInformatie.dmn")
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
