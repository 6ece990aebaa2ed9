// Package predict is the editor's prediction service: for one
// Dutch sentence it labels each token as Actor, Action, Object, Recipient or
// None, through a data-driven model registry with the spec's fallback and
// error rules.
//
// Shipped here: the tokeniser, the WordPiece post-processing that an adapter
// for an external token-classification model needs (PostProcess), the
// rule-based baseline tagger (key regelkit-rules-nl, built in: a closed verb
// list and position heuristics) and a structured perceptron with Viterbi
// decoding (format regelkit-perceptron/1, trained by ./train on an annotated
// corpus). Both are suggestion aids, not accurate taggers. The one call a
// newcomer needs:
//
//	h := predict.New(predict.Options{ModelPath: "./models"})
package predict
