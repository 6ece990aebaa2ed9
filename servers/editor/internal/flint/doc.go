// Package flint converts between FLINT RDF (acts, facts, claim-duties and
// their sources, as named graphs of one task) and the editor's JSON
// interpretation, losslessly in both directions.
//
// ToDataset builds the task, interpretation and source graphs of an editor
// JSON interpretation; FromDataset reads them back. Both refuse bad input with
// an error naming the frame and field (*SchemaError), and both bound their work
// (Limits): a JSON document or an RDF graph is never trusted to be small,
// acyclic or shallow.
//
// The one call a newcomer needs:
//
//	ds, err := flint.ToDataset(ctx, task, flint.Options{})
package flint
