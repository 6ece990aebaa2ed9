package examples

import (
	"io/fs"
	"strings"
	"testing"
)

// TestListsMatchFS keeps the exported lists in step with the embedded files.
func TestListsMatchFS(t *testing.T) {
	want := map[string]bool{}
	for _, m := range LocalPass {
		want[m.Path] = true
		if !strings.HasSuffix(m.Path, "/"+m.Identifier+".dmn") {
			t.Errorf("%s: file name does not carry the identifier %s", m.Path, m.Identifier)
		}
	}
	for _, p := range KnowledgeGraph {
		want[p] = true
	}
	err := fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if (strings.HasSuffix(path, ".dmn") || strings.HasSuffix(path, ".ttl")) && !want[path] {
			t.Errorf("%s is embedded but not listed", path)
		}
		delete(want, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range want {
		t.Errorf("%s is listed but not embedded", p)
	}
}
