package operaton

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"
)

// TestFacadeOverClient chains two hops: client → rest → client → rest →
// local. The facade serves any engine, a remote one too, and Operaton's
// answers (results, 404s, parse errors) pass through unchanged.
func TestFacadeOverClient(t *testing.T) {
	inner := httptest.NewServer(rest.NewHandler(local.New(local.Options{}), rest.Options{}))
	defer inner.Close()
	innerClient, err := New(Config{BaseURL: inner.URL + "/engine-rest"})
	if err != nil {
		t.Fatal(err)
	}
	outer := httptest.NewServer(rest.NewHandler(innerClient, rest.Options{}))
	defer outer.Close()
	c, err := New(Config{BaseURL: outer.URL + "/engine-rest"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rs, err := enginetest.LocalPass()
	if err != nil {
		t.Fatal(err)
	}
	dep, err := c.Deploy(ctx, engine.NewDeployment{Name: "lp", Resources: rs})
	if err != nil || len(dep.DeployedDecisionDefinitions) != 13 {
		t.Fatalf("deploy through two hops: %v, %d definitions", err, len(dep.DeployedDecisionDefinitions))
	}
	vars := engine.Variables{"dagVanAanvraag": engine.String("2025-12-24"), "geboortedatumAanvrager": engine.String("1980-01-23"),
		"geboortedatumPartner": engine.Null()}
	res, err := c.Evaluate(ctx, "SVB_LeeftijdsInformatie", "", vars)
	if err != nil || !res[0]["aanvragerLeeftijd"].Equal(engine.Integer(45)) || !res[0]["AOWDatumAanvrager"].Equal(engine.String("2047-01-23")) {
		t.Errorf("evaluate: %v, %v", res, err)
	}
	if _, err := c.Evaluate(ctx, "nope", "", nil); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("unknown key: %v", err)
	}
	_, err = c.Deploy(ctx, engine.NewDeployment{Resources: []engine.Resource{{Name: "bad.dmn", Data: []byte("<definitions>\n<x>\n</definitions>")}}})
	var de *engine.DeploymentError
	if !errors.As(err, &de) || de.Resource != "bad.dmn" || de.Line != 3 {
		t.Errorf("parse error through two hops: %v", err)
	}
	v, err := c.Version(ctx)
	if err != nil || v != local.DefaultVersion {
		t.Errorf("version %q, %v", v, err)
	}
}
