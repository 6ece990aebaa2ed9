package local

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
)

// keyed is a one-decision model with decision key key whose literal
// expression returns value, so every value gives different bytes.
func keyed(key string, value int) []byte {
	return model("defs_"+key, fmt.Sprintf(`<decision id="%s" name="%s"><variable name="out"/><literalExpression><text>%d</text></literalExpression></decision>`, key, key, value))
}

// costOf is what a one-resource DMN deployment under name counts against
// MaxBytes: its name and five times its XML.
func costOf(name string, data []byte) int64 { return int64(len(name)) + 5*int64(len(data)) }

// held reports the engine's state sizes: deployments, definitions,
// compiled models, resource bytes.
func held(e *Engine) (deps, defs, models int, bytes int64) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.deployments), len(e.defs), len(e.models), e.bytes
}

func evalOut(t *testing.T, e *Engine, key string) any {
	t.Helper()
	res, err := e.Evaluate(context.Background(), key, "", engine.Variables{})
	if err != nil {
		t.Fatalf("evaluate %s: %v", key, err)
	}
	return res[0]["out"].Value
}

// TestReplacePrevious: deploying under one name with ReplacePrevious keeps
// one deployment, one definition and one compiled model, however often it
// is done; the version still counts up, and duplicate filtering answers an
// unchanged redeploy with the existing deployment.
func TestReplacePrevious(t *testing.T) {
	e := New(Options{})
	ctx := context.Background()
	for i := 1; i <= 50; i++ {
		nd := one("export", keyed("K", i))
		nd.ReplacePrevious, nd.EnableDuplicateFiltering = true, true
		deploy(t, e, nd)
	}
	size := costOf("export", keyed("K", 50))
	if deps, defs, models, bytes := held(e); deps != 1 || defs != 1 || models != 1 || bytes != size {
		t.Fatalf("after 50 replacing deployments: %d deployments, %d definitions, %d models, %d bytes; want 1, 1, 1, %d", deps, defs, models, bytes, size)
	}
	def, err := e.LatestDecisionDefinition(ctx, "K", "")
	if err != nil || def.Version != 50 {
		t.Fatalf("latest K: %+v %v", def, err)
	}
	if got := evalOut(t, e, "K"); fmt.Sprint(got) != "50" {
		t.Errorf("K evaluates to %v, want 50", got)
	}
	// The same bytes again: duplicate filtering returns the deployment.
	nd := one("export", keyed("K", 50))
	nd.ReplacePrevious, nd.EnableDuplicateFiltering = true, true
	again := deploy(t, e, nd)
	if again.ID != def.DeploymentID {
		t.Errorf("unchanged redeploy made deployment %s, want the existing %s", again.ID, def.DeploymentID)
	}
	// Other names are untouched.
	deploy(t, e, one("other", keyed("L", 1)))
	nd = one("export", keyed("K", 51))
	nd.ReplacePrevious = true
	deploy(t, e, nd)
	if deps, defs, _, _ := held(e); deps != 2 || defs != 2 {
		t.Errorf("after replacing export next to other: %d deployments, %d definitions", deps, defs)
	}
}

// TestReplaceDropsKeysTheNewModelLacks: a key only the replaced deployment
// had is gone, and deploying it again starts at version 1.
func TestReplaceDropsKeysTheNewModelLacks(t *testing.T) {
	e := New(Options{})
	ctx := context.Background()
	deploy(t, e, one("x", keyed("Old", 1)))
	nd := one("x", keyed("New", 1))
	nd.ReplacePrevious = true
	deploy(t, e, nd)
	if _, err := e.LatestDecisionDefinition(ctx, "Old", ""); !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("Old after replacement: %v, want not found", err)
	}
	dep := deploy(t, e, one("y", keyed("Old", 2)))
	if v := dep.DeployedDecisionDefinitions[0].Version; v != 1 {
		t.Errorf("Old deployed again: version %d, want 1", v)
	}
}

// TestMaxBytesDropsOldVersions: under a ceiling of three models' bytes,
// ten versions of one key keep the three newest; the dropped versions are
// not found by id, the latest evaluates.
func TestMaxBytesDropsOldVersions(t *testing.T) {
	size := costOf("models", keyed("K", 10)) // every version has the same length
	e := New(Options{MaxBytes: 3 * size})
	ctx := context.Background()
	var ids []string
	for i := 10; i < 20; i++ {
		dep := deploy(t, e, one("models", keyed("K", i)))
		ids = append(ids, dep.DeployedDecisionDefinitions[0].ID)
		if _, _, _, bytes := held(e); bytes > 3*size {
			t.Fatalf("after version %d: %d bytes held, ceiling %d", i-9, bytes, 3*size)
		}
	}
	if deps, defs, models, _ := held(e); deps != 3 || defs != 3 || models != 3 {
		t.Fatalf("held %d deployments, %d definitions, %d models; want 3 each", deps, defs, models)
	}
	for i, id := range ids {
		_, err := e.DecisionDefinition(ctx, id)
		if kept := i >= 7; kept != (err == nil) {
			t.Errorf("version %d: kept %v, lookup error %v", i+1, kept, err)
		}
	}
	if got := evalOut(t, e, "K"); fmt.Sprint(got) != "19" {
		t.Errorf("K evaluates to %v, want 19", got)
	}
}

// TestStorageFull: latest versions are never dropped; when only they are
// left the deployment is refused with a StorageFullError and nothing of it
// is kept.
func TestStorageFull(t *testing.T) {
	size := costOf("a", keyed("A", 1)) // as b and c with B and C
	e := New(Options{MaxBytes: 2 * size})
	ctx := context.Background()
	deploy(t, e, one("a", keyed("A", 1)))
	deploy(t, e, one("b", keyed("B", 1)))
	_, err := e.Deploy(ctx, one("c", keyed("C", 1)))
	var sfe *engine.StorageFullError
	if !errors.As(err, &sfe) || !errors.Is(err, engine.ErrStorageFull) || sfe.Limit != "MaxBytes" || sfe.Max != 2*size || sfe.Need != 3*size {
		t.Fatalf("third key: %v (%+v), want StorageFullError MaxBytes %d need %d", err, sfe, 2*size, 3*size)
	}
	if deps, defs, models, bytes := held(e); deps != 2 || defs != 2 || models != 2 || bytes != 2*size {
		t.Errorf("after the refusal: %d deployments, %d definitions, %d models, %d bytes", deps, defs, models, bytes)
	}
	if _, err := e.LatestDecisionDefinition(ctx, "C", ""); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("C after the refusal: %v", err)
	}
	// A new version of A makes room by dropping A's old version.
	deploy(t, e, one("a", keyed("A", 2)))
	if got := evalOut(t, e, "A"); fmt.Sprint(got) != "2" {
		t.Errorf("A = %v, want 2", got)
	}
	// One resource larger than the ceiling.
	big := model("big", `<decision id="Big" name="Big"><variable name="out"/><literalExpression><text>"`+strings.Repeat("0", int(3*size))+`"</text></literalExpression></decision>`)
	if _, err := e.Deploy(ctx, one("big", big)); !errors.As(err, &sfe) || sfe.Need != costOf("big", big) {
		t.Errorf("oversized resource: %v", err)
	}
}

// TestMaxDeployments: the count ceiling works the same way.
func TestMaxDeployments(t *testing.T) {
	e := New(Options{MaxDeployments: 2})
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		deploy(t, e, one("n", keyed("N", i)))
	}
	if deps, _, _, _ := held(e); deps != 2 {
		t.Fatalf("%d deployments held, want 2", deps)
	}
	deploy(t, e, one("m", keyed("M", 0)))
	_, err := e.Deploy(ctx, one("o", keyed("O", 0)))
	var sfe *engine.StorageFullError
	if !errors.As(err, &sfe) || sfe.Limit != "MaxDeployments" || sfe.Max != 2 {
		t.Fatalf("third key: %v", err)
	}
	// Negative: no bound.
	e = New(Options{MaxDeployments: -1, MaxBytes: -1})
	for i := 0; i < 20; i++ {
		deploy(t, e, one(fmt.Sprint("k", i), keyed(fmt.Sprint("K", i), i)))
	}
	if deps, _, _, _ := held(e); deps != 20 {
		t.Errorf("unbounded engine holds %d deployments, want 20", deps)
	}
}

// TestReplaceWithChangedOnly: with DeployChangedOnly the new deployment
// carries only the changed resource, so the earlier deployment, which
// holds the unchanged one too, stays.
func TestReplaceWithChangedOnly(t *testing.T) {
	e := New(Options{})
	deploy(t, e, engine.NewDeployment{Name: "m", Resources: []engine.Resource{{Name: "a.dmn", Data: keyed("A", 1)}, {Name: "b.dmn", Data: keyed("B", 1)}}})
	nd := engine.NewDeployment{Name: "m", DeployChangedOnly: true, ReplacePrevious: true,
		Resources: []engine.Resource{{Name: "a.dmn", Data: keyed("A", 2)}, {Name: "b.dmn", Data: keyed("B", 1)}}}
	deploy(t, e, nd)
	if got := evalOut(t, e, "A"); fmt.Sprint(got) != "2" {
		t.Errorf("A = %v, want 2", got)
	}
	if got := evalOut(t, e, "B"); fmt.Sprint(got) != "1" {
		t.Errorf("B = %v, want 1 (the unchanged model must stay)", got)
	}
	if deps, _, _, _ := held(e); deps != 2 {
		t.Errorf("%d deployments, want 2", deps)
	}
	// Changing both replaces the first deployment.
	nd.Resources = []engine.Resource{{Name: "a.dmn", Data: keyed("A", 3)}, {Name: "b.dmn", Data: keyed("B", 3)}}
	deploy(t, e, nd)
	if deps, defs, _, _ := held(e); deps != 1 || defs != 2 {
		t.Errorf("after changing both: %d deployments, %d definitions; want 1, 2", deps, defs)
	}
}
