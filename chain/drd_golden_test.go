package chain

import (
	"path/filepath"
	"testing"

	"github.com/regelkit/regelkit/sparql/suitetest"
)

// TestAssembleDRDGolden compares the DMN document AssembleDRD writes for
// the local-pass chain with testdata/golden/localpass-drd.dmn (refresh
// with -update after reading the diff). ExportDRD deploys exactly this
// document.
func TestAssembleDRDGolden(t *testing.T) {
	drd, err := AssembleDRD("Localpass DRD", localPassSources(t))
	if err != nil {
		t.Fatal(err)
	}
	suitetest.Golden(t, filepath.Join("testdata", "golden", "localpass-drd.dmn"), drd.XML)
}
