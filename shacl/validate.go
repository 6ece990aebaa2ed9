package shacl

import (
	"context"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Validate validates the data graph against every shape with a target and
// returns the validation report. It fails when ctx ends first, and with a
// *LimitError when the validation reaches one of the Validator's Limits.
//
// SHACL instances (sh:class, sh:targetClass) follow rdfs:subClassOf in the
// data graph. Conformance of a node to a shape reached through sh:node,
// sh:not, sh:and, sh:or, sh:xone or sh:qualifiedValueShape is computed once
// per (node, shape); a shape that recursively reaches itself for the same
// node is taken to conform at the inner visit, so recursive shapes
// terminate.
func (v *Validator) Validate(ctx context.Context, data *graph.Graph) (rep *Report, err error) {
	r := newRun(v, data)
	r.ctx = ctx
	if t := v.limits.Timeout; t > 0 {
		r.deadline = time.Now().Add(t)
	}
	defer func() {
		if x := recover(); x != nil {
			st, ok := x.(stopped)
			if !ok {
				panic(x)
			}
			rep, err = nil, st.err
		}
	}()
	out := &sink{collect: true}
	for _, s := range v.targeted {
		if s.deactivated {
			continue
		}
		for _, f := range r.focusNodes(s) {
			r.validateFocus(s, f, out)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
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

	ctx      context.Context
	deadline time.Time // zero without a Timeout
	// work counts units of work (shape validations, value nodes, value
	// comparisons); the budget is looked at when it passes nextCheck.
	work, nextCheck int

	// depth is the number of validateShape calls on the stack. A
	// conformance check that would start at deferAt or deeper is
	// suspended instead (see validateFocus).
	depth, deferAt, maxDepth int
	maxRows                  int
	// busy lists the memo keys marked memoBusy by the conformance checks
	// on the stack, so that an unwound attempt can clear them.
	busy []memoKey
	// pending holds the suspended conformance checks, deepest last;
	// pendingSet holds their keys. A pending check counts as busy.
	pending    []pendingCheck
	pendingSet map[memoKey]bool
}

type pendingCheck struct {
	s    *shape
	node graph.Term
}

// stopped is the panic value that ends a validation with err (a
// *LimitError or the context's error).
type stopped struct{ err error }

// suspended is the panic value that unwinds an attempt when a conformance
// check was pushed to run.pending.
type suspended struct{}

// budgetEvery is how many units of work pass between two looks at the
// context and the clock.
const budgetEvery = 1024

// maxDeferDepth is the stack depth, in nested shape validations, at which
// conformance checks are suspended: deep enough that no ordinary shapes
// graph ever suspends, shallow enough that the stack stays small.
const maxDeferDepth = 128

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
	r := &run{v: v, g: g, memo: map[memoKey]uint8{}, nextCheck: budgetEvery,
		maxDepth: v.limits.MaxDepth, maxRows: v.limits.MaxRows}
	r.deferAt = max(1, min(maxDeferDepth, r.maxDepth/2))
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

// spend adds n units of work and, every budgetEvery units, ends the
// validation when the context is done or the Timeout has passed.
func (r *run) spend(n int) {
	if r.work += n; r.work < r.nextCheck {
		return
	}
	r.nextCheck = r.work + budgetEvery
	if err := r.ctx.Err(); err != nil {
		panic(stopped{err})
	}
	if !r.deadline.IsZero() && time.Now().After(r.deadline) {
		panic(stopped{&LimitError{Limit: "Timeout", Max: int64(r.v.limits.Timeout)}})
	}
}

// validateFocus validates one focus node against a targeted shape,
// reporting to out.
//
// Conformance checks recurse through the data (a shape that requires the
// rest of an RDF list to conform to itself recurses once per member), so
// the recursion is cut: a check that would start deeper than deferAt is
// pushed to r.pending and the attempt unwinds. The pending checks are
// then run from the top of the stack, deepest first, each memoising its
// answer, and the focus node is validated again; it finds those answers in
// the memo. Every round memoises at least one check or suspends a new
// one, so the loop ends, and the stack never holds more than about
// deferAt nested shape validations.
func (r *run) validateFocus(s *shape, focus graph.Term, out *sink) {
	for {
		mark, failed := len(out.results), out.failed
		if r.attempt(func() { r.validateShape(s, focus, out) }) {
			return
		}
		// Drop the results of the unwound attempt: the next one reports
		// them again.
		clear(out.results[mark:])
		out.results, out.failed = out.results[:mark], failed
		r.drainPending()
	}
}

// attempt runs f and reports whether it finished; false means it was
// unwound by a suspended conformance check, whose partial state is undone.
func (r *run) attempt(f func()) (done bool) {
	depth, busy := r.depth, len(r.busy)
	defer func() {
		if !done {
			x := recover()
			if _, ok := x.(suspended); !ok {
				panic(x)
			}
			for _, k := range r.busy[busy:] {
				delete(r.memo, k)
			}
			r.busy, r.depth = r.busy[:busy], depth
		}
	}()
	f()
	return true
}

// drainPending runs the suspended conformance checks until none is left.
func (r *run) drainPending() {
	for len(r.pending) > 0 {
		p := r.pending[len(r.pending)-1]
		key := memoKey{p.s.id, p.node}
		delete(r.pendingSet, key)
		if r.attempt(func() { r.conforms(p.s, p.node) }) {
			r.pending = r.pending[:len(r.pending)-1]
			continue
		}
		// p suspended a deeper check, now on top of it: p waits again.
		r.pendingSet[key] = true
	}
}

// validateShape validates one focus node against s, reporting to out.
func (r *run) validateShape(s *shape, focus graph.Term, out *sink) {
	if s.deactivated {
		return
	}
	if r.depth++; r.depth > r.maxDepth {
		panic(stopped{&LimitError{Limit: "MaxDepth", Max: int64(r.maxDepth)}})
	}
	values := r.getBuf()
	if s.path == nil {
		values = append(values, focus)
	} else {
		values = pathValues(r.g, s.path, focus, values)
	}
	r.spend(1 + len(values))
	for i := range s.constraints {
		s.constraints[i].eval(r, s, focus, values, out)
		if out.stop() {
			break
		}
	}
	r.putBuf(values)
	r.depth--
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
	if len(r.pending) > 0 && r.pendingSet[key] {
		return true // suspended, so on the stack in spirit: busy
	}
	if r.depth >= r.deferAt {
		if r.pendingSet == nil {
			r.pendingSet = map[memoKey]bool{}
		}
		r.pending = append(r.pending, pendingCheck{s, node})
		r.pendingSet[key] = true
		panic(suspended{})
	}
	r.memo[key] = memoBusy
	r.busy = append(r.busy, key)
	var probe sink
	r.validateShape(s, node, &probe)
	r.busy = r.busy[:len(r.busy)-1]
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
	if r.maxRows > 0 && len(o.results) >= r.maxRows {
		panic(stopped{&LimitError{Limit: "MaxRows", Max: int64(r.maxRows)}})
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
