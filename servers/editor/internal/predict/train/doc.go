// Command train fits the editor's perceptron tagger on the annotated corpus
// and writes a model directory (model.json and weights.json.gz) with the
// measured test-split metrics of the model and of the rule-based baseline.
// The same corpus gives byte-identical files:
//
//	go run ./servers/editor/internal/predict/train \
//	  -corpus examples/editor/corpus/nl-legal.tsv -out examples/editor/models/regelkit-perceptron-nl
package main
