package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/norms/cprmv"
)

// operatonDeployments is where the dmn13operaton method's locations point
// (the methods graph's repository-publication-location-format):
// <prefix>{deploymentid}/resources/{resourceid}/data.
const operatonDeployments = "https://operaton.open-regels.nl/engine-rest/deployment/"

// engineRepository is the rules API's view of the stack's engine: the
// dmn13operaton documents are the engine's deployment resources, so a DRD
// the explorer exports is served at /rules/DMN1.3_<deployment>R<resource>_….
// Everything else is not found here, and the rules API's own repository
// answers it.
type engineRepository struct{ eng *local.Engine }

// resourceLister is the part of engine.Processes that names deployment
// resources by id; the embedded engine implements it once its process side
// lands, and then its ids are used.
type resourceLister interface {
	DeploymentResources(ctx context.Context, deploymentID string) ([]engine.DeploymentResource, error)
	DeploymentResourceData(ctx context.Context, deploymentID, resourceID string) ([]byte, error)
}

func (r engineRepository) Latest(_ context.Context, _ *cprmv.Method, id cprmv.RuleSetID, _ string) (cprmv.RuleSetID, error) {
	if id.Method == "dmn13operaton" {
		return id, nil // a deployment has one version
	}
	return id, cprmv.ErrNotFound
}

func (r engineRepository) Open(ctx context.Context, location string, maxBytes int64) ([]byte, error) {
	rest, ok := strings.CutPrefix(location, operatonDeployments)
	if !ok {
		return nil, cprmv.ErrNotFound
	}
	dep, res, ok := strings.Cut(strings.TrimSuffix(rest, "/data"), "/resources/")
	if !ok || !strings.HasSuffix(rest, "/data") {
		return nil, cprmv.ErrNotFound
	}
	data, err := r.resource(ctx, dep, res)
	if err != nil {
		return nil, err
	}
	if maxBytes > 0 && int64(len(data)) > maxBytes {
		return nil, &cprmv.LimitError{Limit: "MaxBytes", Max: maxBytes}
	}
	return data, nil
}

func (r engineRepository) resource(ctx context.Context, dep, res string) ([]byte, error) {
	if l, ok := any(r.eng).(resourceLister); ok {
		data, err := l.DeploymentResourceData(ctx, dep, res)
		if errors.Is(err, engine.ErrNotFound) {
			return nil, cprmv.ErrNotFound
		}
		return data, err
	}
	rs, err := r.eng.Resources(ctx, dep)
	if errors.Is(err, engine.ErrNotFound) {
		return nil, cprmv.ErrNotFound
	} else if err != nil {
		return nil, fmt.Errorf("%w: %v", cprmv.ErrUnavailable, err)
	}
	for _, x := range rs {
		if resourceID(dep, x.Name) == res {
			return x.Data, nil
		}
	}
	return nil, cprmv.ErrNotFound
}

// resourceIDs lists a deployment's resources with the ids the rules API
// takes: the engine's own when it names resources, otherwise resourceID's.
func resourceIDs(ctx context.Context, eng *local.Engine, dep string) (map[string]string, error) {
	ids := map[string]string{}
	if l, ok := any(eng).(resourceLister); ok {
		rs, err := l.DeploymentResources(ctx, dep)
		for _, x := range rs {
			ids[x.Name] = x.ID
		}
		return ids, err
	}
	rs, err := eng.Resources(ctx, dep)
	for _, x := range rs {
		ids[x.Name] = resourceID(dep, x.Name)
	}
	return ids, err
}

// resourceID names a resource of an engine that does not: a UUID-shaped
// digest of the deployment id and the resource name, stable for the
// deployment's life, in the lower-case form the dmn13operaton ids require.
func resourceID(dep, name string) string {
	h := sha256.Sum256([]byte(dep + "\x00" + name))
	h[6] = h[6]&0x0f | 0x80 // version 8: custom
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
