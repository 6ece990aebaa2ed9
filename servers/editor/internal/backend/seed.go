package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"time"

	"github.com/regelkit/regelkit/servers/editor/internal/flint"
	"github.com/regelkit/regelkit/sparql/graph"
)

// Seed writes example data into a store: every sources/*.jsonld Choppr
// document as the graph named by its root, and every tasks/*.json editor
// interpretation as its task, interpretation and source graphs. Graphs
// already present are replaced.
func Seed(ctx context.Context, s GraphStore, fsys fs.FS, now func() time.Time) error {
	// Each conversion labels its blank nodes from b1 on, so the graphs are
	// written one conversion at a time, never merged into one dataset. A
	// source shared by several tasks is written once.
	written := map[graph.Term]bool{}
	put := func(tds *graph.Dataset, skip graph.Term) error {
		for _, n := range tds.Names() {
			if n == skip || written[n] {
				continue
			}
			written[n] = true
			if err := s.PutGraph(ctx, n.Value, tds.Named(n)); err != nil {
				return err
			}
		}
		return nil
	}
	tasks, _ := fs.Glob(fsys, "tasks/*.json")
	for _, name := range tasks {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		var t flint.Task
		if err := json.Unmarshal(data, &t); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		tds, err := flint.ToDataset(ctx, &t, flint.Options{Now: now})
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := put(tds, graph.Term{}); err != nil {
			return err
		}
	}
	sources, _ := fs.Glob(fsys, "sources/*.jsonld")
	for _, name := range sources {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		tds, err := flint.ToDataset(ctx, &flint.Task{
			ID: flint.NSEditor + "task-seed", Type: "Task",
			SourceDocs: []flint.SourceDoc{{JSONLD: data}},
		}, flint.Options{Now: now})
		if err != nil {
			return fmt.Errorf("%s: %w", path.Base(name), err)
		}
		if err := put(tds, graph.IRI(flint.NSEditor+"task-seed")); err != nil {
			return err
		}
	}
	return nil
}
