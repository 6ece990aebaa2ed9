package chainapi_test

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
)

// TestRepeatedExportsKeepOneDeployment: every export once kept its
// deployment (3 calls → +1.5 GB). Exporting the same chain under the same
// name ten times through the router leaves one deployment of that name;
// exporting another chain under it replaces it.
func TestRepeatedExportsKeepOneDeployment(t *testing.T) {
	l := local.New(local.Options{})
	if err := chainapi.DeployLocalPassExamples(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, l)
	count := func() int {
		deps, err := l.Deployments(context.Background(), engine.DeploymentQuery{})
		if err != nil {
			t.Fatal(err)
		}
		return len(deps)
	}
	for i := 0; i < 10; i++ {
		data(t, e.c.Post("/v1/chains/export", map[string]any{"chain": localPassChain, "name": "Localpass DRD", "endpoint": kgURL}), 200)
	}
	if n := count(); n != 2 { // the example models and the DRD
		t.Fatalf("after 10 exports: %d deployments, want 2", n)
	}
	d := obj(t, data(t, e.c.Post("/v1/chains/export", map[string]any{"chain": localPassChain[:2], "name": "Localpass DRD", "endpoint": kgURL}), 200))
	if n := count(); n != 2 || d["entryPointId"] != "dmn1_SZW_BijstandsnormInformatie" {
		t.Fatalf("after exporting another chain under the name: %d deployments, entry %v", n, d["entryPointId"])
	}
}

// TestExportStorageFull: an engine with room for the example models only
// answers an export with 507 STORAGE_FULL, naming the ceiling.
func TestExportStorageFull(t *testing.T) {
	var size int64
	for _, m := range examples.LocalPass {
		data, err := fs.ReadFile(examples.FS, m.Path)
		if err != nil {
			t.Fatal(err)
		}
		size += int64(len(data))
	}
	// The example deployment counts its name, its source and five times its XML.
	max := int64(len("localpass")+len("regelkit-explorer")) + 5*size
	l := local.New(local.Options{MaxBytes: max})
	if err := chainapi.DeployLocalPassExamples(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, l)
	resp := e.c.Post("/v1/chains/export", map[string]any{"chain": localPassChain, "name": "Localpass DRD", "endpoint": kgURL})
	msg := resp.ExpectError(t, 507, "STORAGE_FULL")
	prefix := "The decision engine has no room for the DRD: storage full: with this deployment the engine would hold an estimated "
	ceiling := fmt.Sprintf(" bytes, over its ceiling of %d (MaxBytes); delete or replace deployments", max)
	if !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, ceiling) {
		t.Errorf("message %q", msg)
	}
	// The example models still evaluate: latest versions are never dropped.
	if _, err := l.LatestDecisionDefinition(context.Background(), "SVB_LeeftijdsInformatie", ""); err != nil {
		t.Error(err)
	}
}

// TestLongInputNameIsQuotedInPart: an input of a 100,000-character name
// whose value the engine cannot take (a number out of FEEL's range) is the
// caller's error, named by an excerpt, not echoed whole.
func TestLongInputNameIsQuotedInPart(t *testing.T) {
	e := newEnv(t, nil)
	body := `{"chain": ["SVB_LeeftijdsInformatie"], "endpoint": "` + kgURL + `", "inputs": {"` + strings.Repeat("k", 100_000) + `": 1e999999}}`
	msg := e.c.Post("/v1/chains/execute", body).ExpectError(t, 400, "INVALID_REQUEST")
	if len(msg) > 1010 || !strings.HasPrefix(msg, `SVB_LeeftijdsInformatie: variable "`+strings.Repeat("k", 50)) {
		t.Errorf("message of %d bytes: %.200s", len(msg), msg)
	}
}
