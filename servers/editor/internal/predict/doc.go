// Package predict is the editor's prediction service (notes §4): for one
// Dutch sentence it labels each token as Actor, Action, Object, Recipient or
// None, through a data-driven model registry with the spec's fallback and
// error rules.
//
// Shipped here: the tokeniser, the WordPiece post-processing that an adapter
// for an external token-classification model needs (PostProcess), and the
// rule-based baseline tagger (key regelkit-rules-nl, built in: a closed verb
// list and position heuristics). It is a suggestion aid, not an accurate
// tagger. The one call a newcomer needs:
//
//	h := predict.New(predict.Options{ModelPath: "./models"})
package predict
