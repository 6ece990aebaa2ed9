package shacl

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

// ShapeError reports a shape that cannot be compiled: a malformed path,
// list or parameter value.
type ShapeError struct {
	Shape graph.Term // the shape's node
	Msg   string
}

func (e *ShapeError) Error() string { return fmt.Sprintf("shacl: shape %v: %s", e.Shape, e.Msg) }

// Validator is a compiled shapes graph. It is immutable and safe for
// concurrent use: one Validator validates any number of data graphs.
type Validator struct {
	targeted []*shape // shapes with targets, in a stable order
	limits   Limits   // with the defaults filled in
}

// shape is one compiled node or property shape.
type shape struct {
	id          int
	node        graph.Term
	path        *Path // nil for a node shape
	deactivated bool
	severity    graph.Term
	messages    []graph.Term

	targetNodes, targetClasses, targetSubjectsOf, targetObjectsOf []graph.Term

	constraints []constraint
}

// constraint is one constraint component instance of a shape, compiled to
// a function over the focus node and its value nodes.
type constraint struct {
	component graph.Term
	eval      func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink)
}

// Compile reads every shape of the shapes graph (SHACL §2.1) and compiles
// it into a Validator with the default Limits. Only shapes that have
// targets, and the shapes they reach through sh:node, sh:property, sh:not,
// sh:and, sh:or, sh:xone and sh:qualifiedValueShape, are compiled; a
// malformed one gives a *ShapeError. The shapes graph may be the data
// graph itself.
func Compile(shapes *graph.Graph) (*Validator, error) {
	return CompileWith(shapes, Options{})
}

// CompileWith is Compile with options: opt.Limits bounds every Validate
// call of the Validator.
func CompileWith(shapes *graph.Graph, opt Options) (*Validator, error) {
	c := &compiler{g: shapes, byNode: map[graph.Term]*shape{}}
	roots := c.targetedNodes()
	v := &Validator{limits: opt.Limits.effective()}
	for _, n := range roots {
		s, err := c.shape(n)
		if err != nil {
			return nil, err
		}
		v.targeted = append(v.targeted, s)
	}
	// Shapes are filled from a work list, not by recursion, so a chain of
	// shapes that refer to each other (sh:node, sh:property, lists of
	// sh:and ...) compiles in bounded stack however long it is.
	for len(c.unfilled) > 0 {
		s := c.unfilled[len(c.unfilled)-1]
		c.unfilled = c.unfilled[:len(c.unfilled)-1]
		if err := c.fill(s); err != nil {
			var se *ShapeError
			if errors.As(err, &se) {
				return nil, se
			}
			return nil, &ShapeError{Shape: s.node, Msg: err.Error()}
		}
	}
	return v, nil
}

type compiler struct {
	g      *graph.Graph
	byNode map[graph.Term]*shape
	shapes []*shape
	// unfilled holds registered shapes whose constraints are still to be
	// compiled.
	unfilled []*shape
	classes  map[graph.Term]struct{} // rdfs:Class and its subclasses in the shapes graph
}

// targetedNodes finds every shape with a target, explicit or implicit (a
// node shape or property shape that is also an rdfs:Class), sorted by its
// N-Triples form so that reports come out in a stable order.
func (c *compiler) targetedNodes() []graph.Term {
	var set termSet
	for _, p := range []graph.Term{shTargetClass, shTargetNode, shTargetSubjectsOf, shTargetObjectsOf} {
		for t := range c.g.Match(graph.Term{}, p, graph.Term{}) {
			set.add(t.S)
		}
	}
	c.classes = subClassClosure(c.g, rdfsClass)
	for cls := range c.classes {
		for n := range c.g.Subjects(rdfType, cls) {
			if c.g.Has(graph.Triple{S: n, P: rdfType, O: shNodeShape}) || c.g.Has(graph.Triple{S: n, P: rdfType, O: shPropertyShape}) {
				set.add(n)
			}
		}
	}
	var out []graph.Term
	for _, n := range set.list {
		if n.Kind != graph.KindLiteral {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b graph.Term) int { return cmp.Compare(a.String(), b.String()) })
	return out
}

// subClassClosure returns class and every class that is an
// rdfs:subClassOf* of it in g.
func subClassClosure(g *graph.Graph, class graph.Term) map[graph.Term]struct{} {
	set := map[graph.Term]struct{}{class: {}}
	queue := []graph.Term{class}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for sub := range g.Subjects(rdfsSubClassOf, c) {
			if _, ok := set[sub]; !ok {
				set[sub] = struct{}{}
				queue = append(queue, sub)
			}
		}
	}
	return set
}

// shape returns the shape for node n, registering it on first use; its
// constraints are compiled later, from the work list, so shapes that refer
// to themselves (directly or not) compile.
func (c *compiler) shape(n graph.Term) (*shape, error) {
	if s, ok := c.byNode[n]; ok {
		return s, nil
	}
	if n.Kind == graph.KindLiteral {
		return nil, &ShapeError{Shape: n, Msg: "a literal cannot be a shape"}
	}
	s := &shape{id: len(c.shapes), node: n, severity: Violation}
	c.byNode[n] = s
	c.shapes = append(c.shapes, s)
	c.unfilled = append(c.unfilled, s)
	return s, nil
}

func (c *compiler) fill(s *shape) error {
	g, n := c.g, s.node
	switch paths := objects(g, n, shPath); len(paths) {
	case 0:
	case 1:
		p, err := parsePath(g, paths[0])
		if err != nil {
			return err
		}
		s.path = p
	default:
		return fmt.Errorf("it has %d values of sh:path", len(paths))
	}
	for o := range g.Objects(n, shDeactivated) {
		if o == xsdTrue {
			s.deactivated = true
		}
	}
	if sev, ok := g.Object(n, shSeverity); ok {
		s.severity = sev
	}
	s.messages = objects(g, n, shMessage)
	s.targetNodes = objects(g, n, shTargetNode)
	s.targetClasses = objects(g, n, shTargetClass)
	s.targetSubjectsOf = objects(g, n, shTargetSubjectsOf)
	s.targetObjectsOf = objects(g, n, shTargetObjectsOf)
	if c.isClass(n) && (g.Has(graph.Triple{S: n, P: rdfType, O: shNodeShape}) || g.Has(graph.Triple{S: n, P: rdfType, O: shPropertyShape})) {
		s.targetClasses = append(s.targetClasses, n)
	}
	for _, param := range parameters {
		if param.propertyOnly && s.path == nil {
			continue
		}
		for _, value := range objects(g, n, param.pred) {
			cons, err := param.compile(c, s, value)
			if err != nil {
				return fmt.Errorf("%s %v: %w", compactSH(param.pred), value, err)
			}
			s.constraints = append(s.constraints, cons...)
		}
	}
	return nil
}

func (c *compiler) isClass(n graph.Term) bool {
	for t := range c.g.Objects(n, rdfType) {
		if _, ok := c.classes[t]; ok {
			return true
		}
	}
	return false
}

func compactSH(t graph.Term) string { return "sh:" + strings.TrimPrefix(t.Value, SH) }

// parameter compiles the constraints of one parameter value.
type parameter struct {
	pred         graph.Term
	propertyOnly bool
	compile      func(c *compiler, s *shape, value graph.Term) ([]constraint, error)
}

// parameters lists the Core constraint parameters in the order their
// constraints run (and results are reported). Secondary parameters
// (sh:flags, sh:ignoredProperties, sh:qualifiedMinCount, ...) are read by
// the compile function of their main parameter.
var parameters []parameter

func init() {
	parameters = []parameter{
		{shClass, false, compileClass},
		{shDatatype, false, compileDatatype},
		{shNodeKind, false, compileNodeKind},
		{shMinCount, true, compileCount(ccMinCount, func(n, bound int) bool { return n >= bound })},
		{shMaxCount, true, compileCount(ccMaxCount, func(n, bound int) bool { return n <= bound })},
		{shMinExclusive, false, compileRange(ccMinExclusive, graph.Greater, graph.Greater)},
		{shMinInclusive, false, compileRange(ccMinInclusive, graph.Greater, graph.Equal)},
		{shMaxExclusive, false, compileRange(ccMaxExclusive, graph.Less, graph.Less)},
		{shMaxInclusive, false, compileRange(ccMaxInclusive, graph.Less, graph.Equal)},
		{shMinLength, false, compileLength(ccMinLength, func(n, bound int) bool { return n >= bound })},
		{shMaxLength, false, compileLength(ccMaxLength, func(n, bound int) bool { return n <= bound })},
		{shPattern, false, compilePattern},
		{shLanguageIn, false, compileLanguageIn},
		{shUniqueLang, true, compileUniqueLang},
		{shEquals, false, compilePair(ccEquals)},
		{shDisjoint, false, compilePair(ccDisjoint)},
		{shLessThan, true, compilePair(ccLessThan)},
		{shLessThanOrEquals, true, compilePair(ccLessThanOrEquals)},
		{shNot, false, compileNot},
		{shAnd, false, compileLogical(ccAnd)},
		{shOr, false, compileLogical(ccOr)},
		{shXone, false, compileLogical(ccXone)},
		{shNode, false, compileNode},
		{shProperty, false, compileProperty},
		{shQualifiedValueShape, true, compileQualified},
		{shClosed, false, compileClosed},
		{shHasValue, false, compileHasValue},
		{shIn, false, compileIn},
	}
}

// nonNegativeInt reads an xsd:integer parameter value.
func nonNegativeInt(v graph.Term) (int, error) {
	numeral, ok := graph.DecimalString(v)
	if !ok || graph.NumericTypeOf(v.Datatype) != graph.NumericInteger {
		return 0, errors.New("the value must be a non-negative integer")
	}
	n, err := strconv.Atoi(numeral)
	if err != nil || n < 0 {
		return 0, errors.New("the value must be a non-negative integer")
	}
	return n, nil
}

func (c *compiler) list(v graph.Term) ([]graph.Term, error) {
	members, ok := c.g.List(v)
	if !ok {
		return nil, errors.New("the value must be a well-formed RDF list")
	}
	return members, nil
}

func (c *compiler) shapeList(v graph.Term) ([]*shape, error) {
	members, err := c.list(v)
	if err != nil {
		return nil, err
	}
	out := make([]*shape, len(members))
	for i, m := range members {
		if out[i], err = c.shape(m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func one(component graph.Term, eval func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink)) []constraint {
	return []constraint{{component: component, eval: eval}}
}

// perValue builds a constraint that reports every value node failing ok.
func perValue(component graph.Term, ok func(r *run, v graph.Term) bool) []constraint {
	return one(component, func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
		for _, v := range values {
			if !ok(r, v) {
				out.fail(r, s, component, focus, v)
				if out.stop() {
					return
				}
			}
		}
	})
}

func compileClass(c *compiler, s *shape, class graph.Term) ([]constraint, error) {
	if class.Kind == graph.KindLiteral {
		return nil, errors.New("the value must be an IRI")
	}
	return perValue(ccClass, func(r *run, v graph.Term) bool { return r.isInstance(v, class) }), nil
}

func compileDatatype(c *compiler, s *shape, dt graph.Term) ([]constraint, error) {
	if dt.Kind != graph.KindIRI {
		return nil, errors.New("the value must be an IRI")
	}
	d := dt.Value
	return perValue(ccDatatype, func(r *run, v graph.Term) bool {
		return v.Datatype == d && graph.WellFormed(v)
	}), nil
}

func compileNodeKind(c *compiler, s *shape, kind graph.Term) ([]constraint, error) {
	var iri, blank, lit bool
	switch kind {
	case shIRI:
		iri = true
	case shBlankNode:
		blank = true
	case shLiteral:
		lit = true
	case shBlankNodeOrIRI:
		blank, iri = true, true
	case shBlankNodeOrLiteral:
		blank, lit = true, true
	case shIRIOrLiteral:
		iri, lit = true, true
	default:
		return nil, errors.New("the value must be one of sh:IRI, sh:BlankNode, sh:Literal, sh:BlankNodeOrIRI, sh:BlankNodeOrLiteral, sh:IRIOrLiteral")
	}
	return perValue(ccNodeKind, func(r *run, v graph.Term) bool {
		switch v.Kind {
		case graph.KindIRI:
			return iri
		case graph.KindBlank:
			return blank
		}
		return lit
	}), nil
}

func compileCount(component graph.Term, ok func(n, bound int) bool) func(*compiler, *shape, graph.Term) ([]constraint, error) {
	return func(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
		bound, err := nonNegativeInt(v)
		if err != nil {
			return nil, err
		}
		return one(component, func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
			if !ok(len(values), bound) {
				out.fail(r, s, component, focus, graph.Term{})
			}
		}), nil
	}
}

// compileRange compiles a value range component: a value conforms when it
// compares to the bound as one of ok1 and ok2 (SPARQL's <, <=, >, >=).
func compileRange(component graph.Term, ok1, ok2 graph.Comparison) func(*compiler, *shape, graph.Term) ([]constraint, error) {
	return func(c *compiler, s *shape, bound graph.Term) ([]constraint, error) {
		if bound.Kind != graph.KindLiteral {
			return nil, errors.New("the value must be a literal")
		}
		return perValue(component, func(r *run, v graph.Term) bool {
			c := graph.CompareLiterals(v, bound)
			return c == ok1 || c == ok2
		}), nil
	}
}

func compileLength(component graph.Term, ok func(n, bound int) bool) func(*compiler, *shape, graph.Term) ([]constraint, error) {
	return func(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
		bound, err := nonNegativeInt(v)
		if err != nil {
			return nil, err
		}
		return perValue(component, func(r *run, v graph.Term) bool {
			return v.Kind != graph.KindBlank && ok(utf8.RuneCountInString(v.Value), bound)
		}), nil
	}
}

func compilePattern(c *compiler, s *shape, pattern graph.Term) ([]constraint, error) {
	if pattern.Kind != graph.KindLiteral {
		return nil, errors.New("the value must be a string literal")
	}
	flags := ""
	if f, ok := c.g.Object(s.node, shFlags); ok {
		flags = f.Value
	}
	re, err := xsdregexp.Compile(pattern.Value, flags)
	if err != nil {
		return nil, err
	}
	return perValue(ccPattern, func(r *run, v graph.Term) bool {
		if v.Kind == graph.KindBlank {
			return false
		}
		ok, err := re.MatchString(v.Value)
		if err != nil {
			// A match past its time limit fails the validation
			// instead of becoming a result.
			panic(stopped{err})
		}
		return ok
	}), nil
}

func compileLanguageIn(c *compiler, s *shape, list graph.Term) ([]constraint, error) {
	members, err := c.list(list)
	if err != nil {
		return nil, err
	}
	ranges := make([]string, len(members))
	for i, m := range members {
		if m.Kind != graph.KindLiteral {
			return nil, errors.New("the list must hold language ranges as string literals")
		}
		ranges[i] = strings.ToLower(m.Value)
	}
	return perValue(ccLanguageIn, func(r *run, v graph.Term) bool {
		if v.Kind != graph.KindLiteral || v.Lang == "" {
			return false
		}
		for _, rg := range ranges {
			if langMatches(v.Lang, rg) {
				return true
			}
		}
		return false
	}), nil
}

// langMatches is SPARQL's langMatches (RFC 4647 basic filtering); tag and
// rng are lower case.
func langMatches(tag, rng string) bool {
	if rng == "*" {
		return tag != ""
	}
	return tag == rng || strings.HasPrefix(tag, rng) && tag[len(rng)] == '-'
}

func compileUniqueLang(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
	if v.Kind != graph.KindLiteral || v.Datatype != graph.XSDBoolean {
		return nil, errors.New("the value must be true or false")
	}
	// Only the term true switches the constraint on; "1"^^xsd:boolean
	// does not (W3C test uniqueLang-002).
	if v != xsdTrue {
		return nil, nil
	}
	return one(ccUniqueLang, func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
		// One result per language tag used by two or more values, in the
		// order of the tags' first use. Few values are compared pairwise;
		// many are counted in a map, so that the work stays linear.
		if len(values) > 16 {
			var order []string
			count := map[string]int{}
			for _, v := range values {
				if v.Kind == graph.KindLiteral && v.Lang != "" {
					if count[v.Lang]++; count[v.Lang] == 2 {
						order = append(order, v.Lang)
					}
				}
			}
			for range order {
				out.fail(r, s, ccUniqueLang, focus, graph.Term{})
				if out.stop() {
					return
				}
			}
			return
		}
		for i, a := range values {
			if a.Kind != graph.KindLiteral || a.Lang == "" {
				continue
			}
			first, dup := true, false
			for j, b := range values {
				if b.Kind == graph.KindLiteral && b.Lang == a.Lang && j != i {
					if j < i {
						first = false
						break
					}
					dup = true
				}
			}
			if first && dup {
				out.fail(r, s, ccUniqueLang, focus, graph.Term{})
				if out.stop() {
					return
				}
			}
		}
	}), nil
}

// memberOf returns a membership test for list: a scan for a short list, a
// set for a long one, so that comparing two long value lists stays linear.
func memberOf(list []graph.Term) func(graph.Term) bool {
	if len(list) <= 16 {
		return func(t graph.Term) bool { return slices.Contains(list, t) }
	}
	set := make(map[graph.Term]struct{}, len(list))
	for _, t := range list {
		set[t] = struct{}{}
	}
	return func(t graph.Term) bool { _, ok := set[t]; return ok }
}

// compilePair compiles the property pair components: equals, disjoint,
// lessThan and lessThanOrEquals.
func compilePair(component graph.Term) func(*compiler, *shape, graph.Term) ([]constraint, error) {
	return func(c *compiler, s *shape, prop graph.Term) ([]constraint, error) {
		if prop.Kind != graph.KindIRI {
			return nil, errors.New("the value must be an IRI")
		}
		return one(component, func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
			other := r.getBuf()
			defer r.putBuf(other)
			if focus.Kind != graph.KindLiteral {
				for o := range r.g.Objects(focus, prop) {
					other = append(other, o)
				}
			}
			switch component {
			case ccEquals:
				inOther, inValues := memberOf(other), memberOf(values)
				for _, v := range values {
					if !inOther(v) {
						out.fail(r, s, component, focus, v)
					}
				}
				for _, o := range other {
					if !inValues(o) {
						out.fail(r, s, component, focus, o)
					}
				}
			case ccDisjoint:
				inOther := memberOf(other)
				for _, v := range values {
					if inOther(v) {
						out.fail(r, s, component, focus, v)
					}
				}
			default:
				orEqual := component == ccLessThanOrEquals
				for _, v := range values {
					r.spend(len(other))
					for _, o := range other {
						c := graph.CompareLiterals(v, o)
						if c != graph.Less && (c != graph.Equal || !orEqual) {
							out.fail(r, s, component, focus, v)
							if out.stop() {
								return
							}
						}
					}
				}
			}
		}), nil
	}
}

func compileNot(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
	neg, err := c.shape(v)
	if err != nil {
		return nil, err
	}
	return perValue(ccNot, func(r *run, v graph.Term) bool { return !r.conforms(neg, v) }), nil
}

func compileLogical(component graph.Term) func(*compiler, *shape, graph.Term) ([]constraint, error) {
	return func(c *compiler, s *shape, list graph.Term) ([]constraint, error) {
		members, err := c.shapeList(list)
		if err != nil {
			return nil, err
		}
		return perValue(component, func(r *run, v graph.Term) bool {
			n := 0
			for _, m := range members {
				if r.conforms(m, v) {
					n++
					if component == ccOr {
						return true
					}
				} else if component == ccAnd {
					return false
				}
			}
			switch component {
			case ccAnd:
				return true
			case ccOr:
				return false
			}
			return n == 1
		}), nil
	}
}

func compileNode(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
	target, err := c.shape(v)
	if err != nil {
		return nil, err
	}
	return perValue(ccNode, func(r *run, v graph.Term) bool { return r.conforms(target, v) }), nil
}

func compileProperty(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
	ps, err := c.shape(v)
	if err != nil {
		return nil, err
	}
	if _, ok := c.g.Object(v, shPath); !ok {
		return nil, errors.New("the property shape has no sh:path")
	}
	// sh:property has no component of its own: the property shape's
	// results are reported as they are.
	return []constraint{{eval: func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
		for _, v := range values {
			r.validateShape(ps, v, out)
			if out.stop() {
				return
			}
		}
	}}}, nil
}

func compileQualified(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
	q, err := c.shape(v)
	if err != nil {
		return nil, err
	}
	min, max := -1, -1
	if m, ok := c.g.Object(s.node, shQualifiedMinCount); ok {
		if min, err = nonNegativeInt(m); err != nil {
			return nil, fmt.Errorf("sh:qualifiedMinCount: %w", err)
		}
	}
	if m, ok := c.g.Object(s.node, shQualifiedMaxCount); ok {
		if max, err = nonNegativeInt(m); err != nil {
			return nil, fmt.Errorf("sh:qualifiedMaxCount: %w", err)
		}
	}
	if min < 0 && max < 0 {
		return nil, nil
	}
	var siblings []*shape
	if d, ok := c.g.Object(s.node, shQualifiedValueShapesDisjoint); ok && d == xsdTrue {
		var seen termSet
		for parent := range c.g.Subjects(shProperty, s.node) {
			for sibling := range c.g.Objects(parent, shProperty) {
				for sq := range c.g.Objects(sibling, shQualifiedValueShape) {
					if sq != v && seen.add(sq) {
						sh, err := c.shape(sq)
						if err != nil {
							return nil, err
						}
						siblings = append(siblings, sh)
					}
				}
			}
		}
	}
	return []constraint{{component: ccQualifiedMin, eval: func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
		n := 0
	values:
		for _, v := range values {
			if !r.conforms(q, v) {
				continue
			}
			for _, sib := range siblings {
				if r.conforms(sib, v) {
					continue values
				}
			}
			n++
		}
		if min >= 0 && n < min {
			out.fail(r, s, ccQualifiedMin, focus, graph.Term{})
		}
		if max >= 0 && n > max {
			out.fail(r, s, ccQualifiedMax, focus, graph.Term{})
		}
	}}}, nil
}

func compileClosed(c *compiler, s *shape, v graph.Term) ([]constraint, error) {
	if v.Kind != graph.KindLiteral || v.Datatype != graph.XSDBoolean {
		return nil, errors.New("the value must be true or false")
	}
	if v != xsdTrue {
		return nil, nil
	}
	allowed := map[graph.Term]bool{}
	for ps := range c.g.Objects(s.node, shProperty) {
		for p := range c.g.Objects(ps, shPath) {
			if p.Kind == graph.KindIRI {
				allowed[p] = true
			}
		}
	}
	if ig, ok := c.g.Object(s.node, shIgnoredProperties); ok {
		members, err := c.list(ig)
		if err != nil {
			return nil, fmt.Errorf("sh:ignoredProperties: %w", err)
		}
		for _, m := range members {
			allowed[m] = true
		}
	}
	return one(ccClosed, func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
		for _, v := range values {
			if v.Kind == graph.KindLiteral {
				continue
			}
			for t := range r.g.Match(v, graph.Term{}, graph.Term{}) {
				r.spend(1)
				if !allowed[t.P] {
					out.failPath(r, s, ccClosed, focus, t.O, &Path{Kind: PredicatePath, IRI: t.P})
					if out.stop() {
						return
					}
				}
			}
		}
	}), nil
}

func compileHasValue(c *compiler, s *shape, want graph.Term) ([]constraint, error) {
	return one(ccHasValue, func(r *run, s *shape, focus graph.Term, values []graph.Term, out *sink) {
		if !slices.Contains(values, want) {
			out.fail(r, s, ccHasValue, focus, graph.Term{})
		}
	}), nil
}

func compileIn(c *compiler, s *shape, list graph.Term) ([]constraint, error) {
	members, err := c.list(list)
	if err != nil {
		return nil, err
	}
	set := make(map[graph.Term]struct{}, len(members))
	for _, m := range members {
		set[m] = struct{}{}
	}
	return perValue(ccIn, func(r *run, v graph.Term) bool {
		_, ok := set[v]
		return ok
	}), nil
}
