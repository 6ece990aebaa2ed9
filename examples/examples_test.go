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
	for _, b := range Processes {
		for _, p := range b.Files {
			if !strings.HasPrefix(p, "processes/"+b.Name+"/") {
				t.Errorf("%s is listed in bundle %s but lies outside its directory", p, b.Name)
			}
			want[p] = true
		}
	}
	err := fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if (strings.HasSuffix(path, ".dmn") || strings.HasSuffix(path, ".ttl") || strings.HasPrefix(path, "processes/") && !strings.HasSuffix(path, ".md")) && !want[path] {
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

// TestKnowledgeGraphFileRebases: the engine links of the example graph
// follow the server's public base; the rest of the file is unchanged.
func TestKnowledgeGraphFileRebases(t *testing.T) {
	const svb = "<http://localhost:8081/engine-rest/decision-definition/key/SVB_LeeftijdsInformatie/evaluate>"
	orig, err := fs.ReadFile(FS, "knowledge-graph/localpass.ttl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(orig), svb) {
		t.Fatalf("localpass.ttl no longer links %s", svb)
	}
	for _, base := range []string{"", "http://localhost:8081", "http://localhost:8081/"} {
		got, err := KnowledgeGraphFile("knowledge-graph/localpass.ttl", base)
		if err != nil || string(got) != string(orig) {
			t.Errorf("base %q changed the file (%v)", base, err)
		}
	}
	got, err := KnowledgeGraphFile("knowledge-graph/localpass.ttl", "https://explorer.example.nl:9443/regels/")
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if strings.Contains(s, "localhost:8081") ||
		!strings.Contains(s, "<https://explorer.example.nl:9443/regels/engine-rest/decision-definition/key/SVB_LeeftijdsInformatie/evaluate>") ||
		strings.Count(s, "<https://explorer.example.nl:9443/regels/engine-rest/") != 3 {
		t.Errorf("rebased file:\n%s", s)
	}
	if len(s) != len(orig)+3*(len("https://explorer.example.nl:9443/regels")-len("http://localhost:8081")) {
		t.Errorf("rebasing changed more than the three links: %d bytes from %d", len(s), len(orig))
	}
	for _, bad := range []string{"localhost:9000", "ftp://x/", "http://x/?q=1", "http://x/#f", "http://x/a>b", "http://x/a b", "http://"} {
		if _, err := KnowledgeGraphFile("knowledge-graph/localpass.ttl", bad); err == nil {
			t.Errorf("base %q accepted", bad)
		}
	}
	if _, err := KnowledgeGraphFile("knowledge-graph/none.ttl", ""); err == nil {
		t.Error("unknown file accepted")
	}
}
