package flint

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
)

// FuzzConvert feeds arbitrary JSON to ToDataset and arbitrary TriG to
// FromDataset: neither may panic, and a task that converts must read back.
func FuzzConvert(f *testing.F) {
	for _, file := range []string{"testdata/worked.json", "../../../../examples/editor/tasks/uitvoeringswet-avg-art22.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(taskHeader))
	f.Fuzz(func(t *testing.T, data []byte) {
		var task Task
		if json.Unmarshal(data, &task) == nil {
			if ds, err := ToDataset(context.Background(), &task, Options{}); err == nil {
				if _, err := FromDataset(context.Background(), ds, Options{}); err != nil {
					t.Fatalf("converted task does not read back: %v", err)
				}
			}
		}
		if ds, err := graph.ParseDataset(bytes.NewReader(data), graph.TriG, graph.ParseOptions{}); err == nil {
			_, _ = FromDataset(context.Background(), ds, Options{})
		}
	})
}
