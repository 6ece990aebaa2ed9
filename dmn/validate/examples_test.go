package validate

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleModels validates every *.dmn under the repository's examples/
// directory outside testdata/: the project's own models must have no errors. It skips while
// no example model exists; REGELKIT_EXAMPLES overrides the directory.
func TestExampleModels(t *testing.T) {
	dir := os.Getenv("REGELKIT_EXAMPLES")
	if dir == "" {
		dir = filepath.Join("..", "..", "examples")
	}
	var files []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "testdata" {
			return fs.SkipDir // test fixtures, some broken on purpose
		}
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".dmn") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skipf("no *.dmn under %s yet", dir)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := Validate(src)
		t.Logf("%s: %d errors, %d warnings, %d infos", f, r.Summary.Errors, r.Summary.Warnings, r.Summary.Infos)
		if !r.Valid {
			for _, is := range r.Issues() {
				if is.Severity == Error {
					t.Errorf("%s:%d:%d: %s %s: %s", f, is.Line, is.Column, is.Code, is.Location, is.Message)
				}
			}
		}
	}
}
