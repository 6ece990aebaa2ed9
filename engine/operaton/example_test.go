package operaton_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/operaton"
	"github.com/regelkit/regelkit/engine/rest"
)

// The client against an Operaton-compatible endpoint (here regelkit's own
// facade; in production an Operaton at its /engine-rest URL).
func ExampleClient() {
	srv := httptest.NewServer(rest.NewHandler(local.New(local.Options{}), rest.Options{}))
	defer srv.Close()
	ctx := context.Background()
	c, err := operaton.New(operaton.Config{BaseURL: srv.URL + "/engine-rest"})
	if err != nil {
		fmt.Println(err)
		return
	}
	dmn := `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="d" namespace="urn:x">
  <decision id="double" name="Double"><variable name="doubled"/>
    <literalExpression><text>n * 2</text></literalExpression></decision>
</definitions>`
	dep, err := c.Deploy(ctx, engine.NewDeployment{Name: "example", Resources: []engine.Resource{{Name: "double.dmn", Data: []byte(dmn)}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dep.DeployedDecisionDefinitions[0].Key, dep.DeployedDecisionDefinitions[0].Version)
	n, _ := engine.Infer(9007199254740993) // beyond float64's exact integers
	rows, err := c.Evaluate(ctx, "double", "", engine.Variables{"n": n})
	fmt.Println(rows[0]["doubled"], err)
	_, err = c.Evaluate(ctx, "triple", "", nil)
	fmt.Println(errors.Is(err, engine.ErrNotFound))
	// Output:
	// double 1
	// Long(18014398509481986) <nil>
	// true
}
