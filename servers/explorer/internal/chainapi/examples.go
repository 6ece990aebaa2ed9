package chainapi

import (
	"context"
	"fmt"

	"github.com/regelkit/regelkit/chain"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/examples"
)

// localPassFiles reads the example local-pass models in chain order.
func localPassFiles() ([]engine.Resource, error) {
	rs := make([]engine.Resource, 0, len(examples.LocalPass))
	for _, m := range examples.LocalPass {
		data, err := examples.FS.ReadFile(m.Path)
		if err != nil {
			return nil, err
		}
		rs = append(rs, engine.Resource{Name: m.Identifier + ".dmn", Data: data})
	}
	return rs, nil
}

// LocalPassFromExamples returns the local-pass chain over the example
// models (examples.LocalPass): titles and declared inputs come from their
// DMN files.
func LocalPassFromExamples() (*chain.FixedChain, error) {
	rs, err := localPassFiles()
	if err != nil {
		return nil, err
	}
	files := make([][]byte, len(rs))
	for i, r := range rs {
		files[i] = r.Data
	}
	return chain.NewLocalPass(files...)
}

// DeployLocalPassExamples deploys the example local-pass models to eng in
// one deployment named "localpass", with duplicate filtering, so a restart
// against a remote Operaton creates no new versions.
func DeployLocalPassExamples(ctx context.Context, eng engine.Decisions) error {
	rs, err := localPassFiles()
	if err != nil {
		return err
	}
	_, err = eng.Deploy(ctx, engine.NewDeployment{Name: "localpass", Source: "regelkit-explorer",
		EnableDuplicateFiltering: true, Resources: rs})
	if err != nil {
		return fmt.Errorf("deploying the local-pass models: %w", err)
	}
	return nil
}
