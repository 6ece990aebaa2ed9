package local

import (
	"context"
	"crypto/sha256"
	"slices"

	"github.com/regelkit/regelkit/engine"
)

// The engine's state is bounded: Options.MaxBytes and MaxDeployments cap
// what it holds. When a deployment would pass a ceiling, the engine first
// drops superseded deployments, oldest first, and refuses the deployment
// with *engine.StorageFullError only when that is not enough. The
// deployments a caller can still reach by key are never dropped, so
// evaluation by key keeps working whatever others deploy; old versions,
// reachable only by definition id, are what makes room.

// DMNCostFactor is how many bytes of memory a DMN resource is counted at
// per byte of XML, against Options.MaxBytes: its bytes, the XML text the
// engine returns and the compiled model (measured: 4.7 on the three
// local-pass models, 91 KB of XML and 430 KB of heap).
const DMNCostFactor = 5

// cost is what a resource counts against Options.MaxBytes.
func cost(r engine.Resource) int64 {
	if IsDMN(r.Name) {
		return DMNCostFactor * int64(len(r.Data))
	}
	return int64(len(r.Data))
}

// maxBytes and maxDeployments resolve the options' defaults; -1 is no bound.
func (e *Engine) maxBytes() int64 {
	switch {
	case e.opts.MaxBytes == 0:
		return DefaultMaxBytes
	case e.opts.MaxBytes < 0:
		return -1
	}
	return e.opts.MaxBytes
}

func (e *Engine) maxDeployments() int64 {
	switch {
	case e.opts.MaxDeployments == 0:
		return DefaultMaxDeployments
	case e.opts.MaxDeployments < 0:
		return -1
	}
	return int64(e.opts.MaxDeployments)
}

// sameName returns the deployments with the name and tenant. Caller holds
// the lock.
func (e *Engine) sameName(name, tenant string) []*deployment {
	var out []*deployment
	for _, d := range e.deployments {
		if d.dep.Name == name && d.dep.TenantID == tenant {
			out = append(out, d)
		}
	}
	return out
}

// superseded reports whether d can be dropped without changing what
// evaluation by key finds once the deployment in progress is made: each of
// its decision definitions is not the latest of its key or its key is
// incoming (deployed anew), or, for a deployment without decisions, a
// later deployment has its name and tenant. Caller holds the lock.
func (e *Engine) superseded(i int, incoming map[tenantKey]bool) bool {
	d := e.deployments[i]
	if len(d.procs) > 0 {
		// a process deployment goes only when none of its definitions is
		// the latest of its key (or is replaced by this deployment) and
		// no instance of it runs
		if e.hasInstances(context.Background(), d) {
			return false
		}
		for _, p := range d.procs {
			if incoming[processKey(p.TenantID, p.Key)] {
				continue
			}
			l, err := e.store.LatestProcessDefinition(context.Background(), p.Key, p.TenantID)
			if err != nil || l.ID == p.ID {
				return false
			}
		}
		if len(d.defs) == 0 {
			return true
		}
	}
	if len(d.defs) == 0 {
		for _, later := range e.deployments[i+1:] {
			if later.dep.Name == d.dep.Name && later.dep.TenantID == d.dep.TenantID {
				return true
			}
		}
		return false
	}
	for _, df := range d.defs {
		tk := tenantKey{df.def.TenantID, df.def.Key}
		if e.latest[tk] == df && !incoming[tk] {
			return false
		}
	}
	return true
}

// makeRoom drops superseded deployments, oldest first, until a deployment
// of size bytes that deploys the incoming keys fits under the ceilings,
// counting the deployments leaving (ReplacePrevious) as gone. Caller holds
// the lock; the deployment must not fail after makeRoom succeeded, since a
// dropped latest version of an incoming key is only replaced by it.
func (e *Engine) makeRoom(size int64, leaving []*deployment, incoming map[tenantKey]bool) error {
	maxBytes, maxDeps := e.maxBytes(), e.maxDeployments()
	if maxBytes >= 0 && size > maxBytes {
		return &engine.StorageFullError{Limit: "MaxBytes", Max: maxBytes, Need: size}
	}
	var freed int64
	for _, d := range leaving {
		freed += d.size
	}
	fits := func() bool {
		return (maxBytes < 0 || e.bytes-freed+size <= maxBytes) &&
			(maxDeps < 0 || int64(len(e.deployments)-len(leaving))+1 <= maxDeps)
	}
	if fits() {
		return nil
	}
	var drop []*deployment
	var dropBytes int64
	for i, d := range e.deployments {
		if slices.Contains(leaving, d) || !e.superseded(i, incoming) {
			continue
		}
		drop = append(drop, d)
		dropBytes += d.size
		if (maxBytes < 0 || e.bytes-freed-dropBytes+size <= maxBytes) &&
			(maxDeps < 0 || int64(len(e.deployments)-len(leaving)-len(drop))+1 <= maxDeps) {
			break
		}
	}
	if len(drop) > 0 {
		e.remove(drop)
	}
	if fits() {
		return nil
	}
	if maxBytes >= 0 && e.bytes-freed+size > maxBytes {
		return &engine.StorageFullError{Limit: "MaxBytes", Max: maxBytes, Need: e.bytes - freed + size}
	}
	return &engine.StorageFullError{Limit: "MaxDeployments", Max: maxDeps, Need: int64(len(e.deployments)-len(leaving)) + 1}
}

// remove deletes deployments with their decision definitions and rebuilds
// what depends on them: the latest definition per key, the version
// counters (a key whose definitions are all gone starts again at 1, as in
// Operaton) and the compiled-model cache. Caller holds the lock.
func (e *Engine) remove(gone []*deployment) {
	goneDep := make(map[*deployment]bool, len(gone))
	for _, d := range gone {
		goneDep[d] = true
	}
	e.deployments = slices.DeleteFunc(e.deployments, func(d *deployment) bool {
		if !goneDep[d] {
			return false
		}
		// the store holds what the engine holds: a deployment dropped here
		// is deleted there too (for other engines, on their next sync it
		// is simply absent)
		_ = e.store.DeleteDeployment(context.Background(), d.dep.ID)
		for _, p := range d.procs {
			delete(e.procs, p.ID)
		}
		delete(e.depByID, d.dep.ID)
		e.bytes -= d.size
		return true
	})
	goneDef := map[*definition]bool{}
	for _, d := range gone {
		for _, df := range d.defs {
			goneDef[df] = true
			delete(e.defByID, df.def.ID)
		}
	}
	e.defs = slices.DeleteFunc(e.defs, func(df *definition) bool { return goneDef[df] })
	clear(e.latest)
	clear(e.versions)
	clear(e.drdVersions)
	used := map[[sha256.Size]byte]bool{}
	for _, df := range e.defs {
		tk := tenantKey{df.def.TenantID, df.def.Key}
		if cur := e.latest[tk]; cur == nil || df.def.Version > cur.def.Version {
			e.latest[tk] = df
		}
		e.versions[tk] = max(e.versions[tk], df.def.Version)
		if df.def.DecisionRequirementsDefinitionKey != "" {
			dk := tenantKey{df.def.TenantID, df.def.DecisionRequirementsDefinitionKey}
			e.drdVersions[dk] = max(e.drdVersions[dk], df.drdVersion)
		}
		used[df.res.sum] = true
	}
	for sum := range e.models {
		if !used[sum] {
			delete(e.models, sum)
		}
	}
}
