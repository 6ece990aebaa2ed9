// Package examples holds regelkit's example data, embedded so every server
// runs on it with no external service: the three DMN models of the
// local-pass chain (models/localpass) and a knowledge graph in Turtle that
// publishes them with further models, SKOS concepts and one 3-model cycle
// (knowledge-graph). The data is written for the project; organisations and
// IRIs under data.regelkit.example are fictional. The graph's links to the
// serving explorer (engine evaluation URLs) are written for
// DefaultPublicBase; a server elsewhere loads the files through
// KnowledgeGraphFile with its own public base.
//
//	data, _ := fs.ReadFile(examples.FS, "models/localpass/SZW_BijstandsnormInformatie.dmn")
package examples
