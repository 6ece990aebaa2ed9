package shacl

import (
	"context"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Validate validates the data graph against every shape with a target and
// returns the validation report. It fails only when ctx ends first.
//
// SHACL instances (sh:class, sh:targetClass) follow rdfs:subClassOf in the
// data graph. Conformance of a node to a shape reached through sh:node,
// sh:not, sh:and, sh:or, sh:xone or sh:qualifiedValueShape is computed once
// per (node, shape); a shape that recursively reaches itself for the same
// node is taken to conform at the inner visit, so recursive shapes
// terminate.
func (v *Validator) Validate(ctx context.Context, data *graph.Graph) (*Report, error) {
	r := newRun(v, data)
	out := &sink{collect: true}
	steps := 0
	for _, s := range v.targeted {
		if s.deactivated {
			continue
		}
		focus := r.focusNodes(s)
		for _, f := range focus {
			if steps++; steps&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			r.validateShape(s, f, out)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, r.err
	}
	return &Report{Conforms: len(out.results) == 0, Results: out.results}, nil
}

// run is the state of one Validate call.
type run struct {
	v    *Validator
	g    *graph.Graph
	memo map[memoKey]uint8
	// subClasses caches, per class, the class and its subclasses; nil
	// when the data graph has no rdfs:subClassOf triple at all.
	subClasses map[graph.Term]map[graph.Term]struct{}
	bufs       [][]graph.Term
	// err is a budget error (an sh:pattern match past its time limit)
	// that fails the validation instead of becoming a result.
	err error
}

type memoKey struct {
	shape int
	node  graph.Term
}

const (
	memoBusy uint8 = iota + 1
	memoConforms
	memoFails
)

func newRun(v *Validator, g *graph.Graph) *run {
	r := &run{v: v, g: g, memo: map[memoKey]uint8{}}
	for range g.Match(graph.Term{}, rdfsSubClassOf, graph.Term{}) {
		r.subClasses = map[graph.Term]map[graph.Term]struct{}{}
		break
	}
	return r
}

func (r *run) getBuf() []graph.Term {
	if n := len(r.bufs); n > 0 {
		b := r.bufs[n-1]
		r.bufs = r.bufs[:n-1]
		return b[:0]
	}
	return make([]graph.Term, 0, 8)
}

func (r *run) putBuf(b []graph.Term) {
	if cap(b) <= 1024 {
		r.bufs = append(r.bufs, b)
	}
}

// focusNodes returns the distinct focus nodes of s's targets.
func (r *run) focusNodes(s *shape) []graph.Term {
	g := r.g
	// The common case, one class without subclasses, needs no set.
	if len(s.targetClasses) == 1 && len(s.targetNodes)+len(s.targetSubjectsOf)+len(s.targetObjectsOf) == 0 {
		if classes := r.classAndSubclasses(s.targetClasses[0]); classes == nil {
			var out []graph.Term
			for n := range g.Subjects(rdfType, s.targetClasses[0]) {
				out = append(out, n)
			}
			return out
		}
	}
	var set termSet
	for _, n := range s.targetNodes {
		set.add(n)
	}
	for _, c := range s.targetClasses {
		if classes := r.classAndSubclasses(c); classes != nil {
			for cls := range classes {
				for n := range g.Subjects(rdfType, cls) {
					set.add(n)
				}
			}
		} else {
			for n := range g.Subjects(rdfType, c) {
				set.add(n)
			}
		}
	}
	for _, p := range s.targetSubjectsOf {
		for n := range g.Subjects(p, graph.Term{}) {
			set.add(n)
		}
	}
	for _, p := range s.targetObjectsOf {
		for n := range g.Objects(graph.Term{}, p) {
			set.add(n)
		}
	}
	return set.list
}

// classAndSubclasses returns class and its subclasses in the data graph,
// or nil when class has no subclass.
func (r *run) classAndSubclasses(class graph.Term) map[graph.Term]struct{} {
	if r.subClasses == nil {
		return nil
	}
	set, ok := r.subClasses[class]
	if !ok {
		set = subClassClosure(r.g, class)
		if len(set) == 1 {
			set = nil
		}
		r.subClasses[class] = set
	}
	return set
}

// isInstance reports whether v is a SHACL instance of class in the data
// graph.
func (r *run) isInstance(v, class graph.Term) bool {
	if v.Kind == graph.KindLiteral {
		return false
	}
	classes := r.classAndSubclasses(class)
	if classes == nil {
		return r.g.Has(graph.Triple{S: v, P: rdfType, O: class})
	}
	for t := range r.g.Objects(v, rdfType) {
		if _, ok := classes[t]; ok {
			return true
		}
	}
	return false
}

// validateShape validates one focus node against s, reporting to out.
func (r *run) validateShape(s *shape, focus graph.Term, out *sink) {
	if s.deactivated {
		return
	}
	values := r.getBuf()
	if s.path == nil {
		values = append(values, focus)
	} else {
		values = pathValues(r.g, s.path, focus, values)
	}
	for i := range s.constraints {
		s.constraints[i].eval(r, s, focus, values, out)
		if out.stop() {
			break
		}
	}
	r.putBuf(values)
}

// conforms reports whether node conforms to s: validating it gives no
// result at all, whatever the severity.
func (r *run) conforms(s *shape, node graph.Term) bool {
	if s.deactivated {
		return true
	}
	key := memoKey{s.id, node}
	switch r.memo[key] {
	case memoBusy, memoConforms:
		return true
	case memoFails:
		return false
	}
	r.memo[key] = memoBusy
	var probe sink
	r.validateShape(s, node, &probe)
	if probe.failed {
		r.memo[key] = memoFails
		return false
	}
	r.memo[key] = memoConforms
	return true
}

// sink receives the validation results of one validation: all of them
// (collect), or only the fact that there is one, for conformance checks.
type sink struct {
	collect bool
	failed  bool
	results []Result
}

// stop reports whether the caller can stop: a conformance check has its
// answer.
func (o *sink) stop() bool { return o.failed && !o.collect }

func (o *sink) fail(r *run, s *shape, component, focus, value graph.Term) {
	o.failPath(r, s, component, focus, value, s.path)
}

func (o *sink) failPath(r *run, s *shape, component, focus, value graph.Term, path *Path) {
	o.failed = true
	if !o.collect {
		return
	}
	o.results = append(o.results, Result{
		Focus:     focus,
		Path:      path,
		Value:     value,
		Severity:  s.severity,
		Component: component,
		Shape:     s.node,
		Messages:  s.messages,
	})
}
