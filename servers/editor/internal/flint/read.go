package flint

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Result is what FromDataset found: a task, or else a single source.
type Result struct {
	Task   *Task           // set when the dataset holds a calc:Task
	Source json.RawMessage // the Choppr JSON-LD document when it holds only a source
}

// ErrNothingFound is the message of the SchemaError for a dataset without a
// task or a source.
const ErrNothingFound = "No task or source found."

// FromDataset reads an editor JSON interpretation from a task's graphs:
// the graph that holds the calc:Task, the interpretation graph
// it involves and its source graphs. A dataset with no task but one
// src:Source root gives that source's Choppr document.
func FromDataset(ctx context.Context, ds *graph.Dataset, opts Options) (*Result, error) {
	lim := opts.Limits.resolved()
	graphs := append([]graph.Term{{}}, ds.Names()...)
	var taskNode graph.Term
	var taskGraph *graph.Graph
	var p problems
	for _, name := range graphs {
		g := ds.Graph(name)
		if g == nil {
			continue
		}
		for s := range g.Subjects(rdfType, classTask) {
			if !taskNode.IsZero() && s != taskNode {
				p.add("several calc:Task nodes: %s and %s", taskNode.Value, s.Value)
				return nil, p.err("Several tasks found.")
			}
			taskNode, taskGraph = s, g
		}
	}
	if taskNode.IsZero() {
		return readSourceOnly(ds, graphs)
	}
	if !taskNode.IsIRI() {
		return nil, &SchemaError{Message: "Invalid interpretation.", Details: []string{"the calc:Task node must be an IRI"}}
	}
	graphOf := func(name graph.Term) *graph.Graph {
		if g := ds.Named(name); g != nil && g.Len() > 0 {
			return g
		}
		if taskGraph == ds.Default() {
			return taskGraph // a Turtle document: everything in one graph
		}
		return nil
	}
	r := &reader{lim: lim, ctx: ctx}
	t := &Task{ID: taskNode.Value, Type: "Task"}
	t.Label = literal(taskGraph, taskNode, rdfsLabel)
	t.Description = literal(taskGraph, taskNode, rdfsComment)
	if e, ok := taskGraph.Object(taskNode, pHasEditor); ok {
		t.HasEditor = literal(taskGraph, e, rdfsLabel)
	}

	// Source documents: in the order of editor:hasSourceDocuments when given.
	type docState struct {
		root                string
		selected, collapsed []string
	}
	var docs []docState
	ofSource := map[string]bool{}
	if head, ok := taskGraph.Object(taskNode, pSourceDocs); ok {
		items, ok := taskGraph.List(head)
		if !ok {
			p.add("editor:hasSourceDocuments of %s is not a well-formed list", taskNode.Value)
		}
		for _, it := range items {
			root, _ := taskGraph.Object(it, pOfSource)
			if !root.IsIRI() {
				p.add("editor:hasSourceDocuments: an entry without editor:ofSource")
				continue
			}
			docs = append(docs, docState{root.Value, stringList(taskGraph, it, pSelected), stringList(taskGraph, it, pCollapsed)})
			ofSource[root.Value] = true
		}
	}
	var involved []string
	for o := range taskGraph.Objects(taskNode, pInvolves) {
		if o.IsIRI() {
			involved = append(involved, o.Value)
		}
	}
	slices.Sort(involved)
	var interps []string
	for _, iri := range involved {
		g := graphOf(graph.IRI(iri))
		isSource := g != nil && g.Has(graph.Triple{S: graph.IRI(iri), P: rdfType, O: classSource})
		switch {
		case isSource && !ofSource[iri]:
			docs = append(docs, docState{root: iri})
			ofSource[iri] = true
		case !isSource && !ofSource[iri]:
			interps = append(interps, iri)
		}
	}
	if err := p.err("Invalid interpretation."); err != nil {
		return nil, err
	}
	if len(interps) != 1 {
		return nil, &SchemaError{Message: "Invalid interpretation.", Details: []string{
			"the task must involve exactly one interpretation graph besides its sources, found " + strconv.Itoa(len(interps))}}
	}
	t.Interpretation = interps[0]
	for _, d := range docs {
		g := graphOf(graph.IRI(d.root))
		if g == nil || !g.Has(graph.Triple{S: graph.IRI(d.root), P: rdfType, O: classSource}) {
			return nil, &SchemaError{Message: "Source graph missing: " + d.root}
		}
		s := newSource(d.root, g)
		r.sources = append(r.sources, s)
		doc, err := chopprDocument(s)
		if err != nil {
			return nil, &SchemaError{Message: "Invalid interpretation.", Details: []string{"source " + d.root + ": " + err.Error()}}
		}
		t.SourceDocs = append(t.SourceDocs, SourceDoc{JSONLD: doc, SelectedSentencesIDs: nonNil(d.selected), CollapsedSentencesIDs: nonNil(d.collapsed)})
	}
	ig := graphOf(graph.IRI(t.Interpretation))
	if ig == nil {
		ig = graph.NewGraph()
	}
	r.g = ig
	frames, err := r.frames()
	if err != nil {
		return nil, err
	}
	t.Frames = frames
	return &Result{Task: t}, nil
}

func readSourceOnly(ds *graph.Dataset, graphs []graph.Term) (*Result, error) {
	var found []*source
	for _, name := range graphs {
		g := ds.Graph(name)
		if g == nil {
			continue
		}
		for s := range g.Subjects(rdfType, classSource) {
			if s.IsIRI() {
				found = append(found, newSource(s.Value, g))
			}
		}
	}
	if len(found) == 0 {
		return nil, &SchemaError{Message: ErrNothingFound}
	}
	if len(found) > 1 {
		return nil, &SchemaError{Message: "Several sources found; send one source graph.", Details: []string{found[0].root, found[1].root}}
	}
	doc, err := chopprDocument(found[0])
	if err != nil {
		return nil, &SchemaError{Message: "Invalid source.", Details: []string{err.Error()}}
	}
	return &Result{Source: doc}, nil
}

func literal(g *graph.Graph, s, p graph.Term) string {
	if o, ok := g.Object(s, p); ok && o.IsLiteral() {
		return o.Value
	}
	return ""
}

func stringList(g *graph.Graph, s, p graph.Term) []string {
	head, ok := g.Object(s, p)
	if !ok {
		return []string{}
	}
	items, _ := g.List(head)
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.Value)
	}
	return out
}

type reader struct {
	g       *graph.Graph
	lim     Limits
	ctx     context.Context
	sources []*source
	p       problems
}

// frameID returns the frame id of an editor: IRI.
func (r *reader) frameID(t graph.Term, where string) string {
	id, ok := strings.CutPrefix(t.Value, NSEditor)
	if !t.IsIRI() || !ok || !frameIDPattern.MatchString(id) {
		r.p.add("%s: %s is not a frame IRI editor:<id>", where, t.String())
		return ""
	}
	return id
}

func (r *reader) frames() ([]Frame, error) {
	kinds := map[graph.Term]string{}
	for s := range r.g.Subjects(rdfType, classFact) {
		kinds[s] = TypeFact
	}
	for s := range r.g.Subjects(rdfType, classAct) {
		if kinds[s] != "" {
			r.p.add("frame %s is both a fact and an act", s.String())
		}
		kinds[s] = TypeAct
	}
	for s := range r.g.Subjects(rdfType, classDuty) {
		if kinds[s] == "" {
			kinds[s] = TypeClaimDuty
		}
	}
	if r.lim.MaxRows >= 0 && len(kinds) > r.lim.MaxRows {
		return nil, &LimitError{Limit: "MaxRows", Max: int64(r.lim.MaxRows)}
	}
	out := make([]Frame, 0, len(kinds))
	for n, kind := range kinds {
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		id := r.frameID(n, "frame")
		if id == "" {
			continue
		}
		out = append(out, r.frame(n, id, kind))
	}
	if err := r.p.err("Invalid interpretation."); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Frame) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

func (r *reader) ref(n, p graph.Term, where string) string {
	o, ok := r.g.Object(n, p)
	if !ok {
		return ""
	}
	return r.frameID(o, where)
}

func (r *reader) refs(n, p graph.Term, where string) []string {
	out := []string{}
	for o := range r.g.Objects(n, p) {
		if id := r.frameID(o, where); id != "" {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

func (r *reader) frame(n graph.Term, id, kind string) Frame {
	f := Frame{ID: id, TypeID: kind, Label: literal(r.g, n, rdfsLabel), Comments: r.comments(n)}
	if pos := literal(r.g, n, pPosition); pos != "" {
		f.Position = parsePosition(pos)
		if f.Position == nil {
			r.p.add("frame %s: editor:hasPositionOnScreen %q is not \"[x, y]\"", id, pos)
		}
	}
	where := "frame " + id
	switch kind {
	case TypeFact:
		f.Fact = literal(r.g, n, pFullName)
		f.SubTypeIDs = []string{}
		for _, st := range subTypes {
			if r.g.Has(graph.Triple{S: n, P: rdfType, O: st.class}) {
				f.SubTypeIDs = append(f.SubTypeIDs, st.id)
			}
		}
		if o, ok := r.g.Object(n, pIsComplex); ok {
			f.IsComplex, _ = graph.BoolValue(o)
		}
		f.Subdivision = r.constructOf(n, pSubdivision, where+".subdivision")
		f.Annotations = r.annotations(n)
	case TypeAct:
		f.Act = literal(r.g, n, pFullName)
		for _, ro := range roles {
			*ro.get(&f) = r.ref(n, ro.pred, where+"."+ro.field)
		}
		f.Precondition = r.constructOf(n, pPrecondition, where+".precondition")
		f.Creates = r.refs(n, pCreates, where+".creates")
		f.Terminates = r.refs(n, pTerminates, where+".terminates")
		f.SourceSentences = r.sentenceRefs(n)
	case TypeClaimDuty:
		f.ClaimDuty = literal(r.g, n, pFullName)
		f.DutyID = r.ref(n, owlSameAs, where+".dutyId")
		f.ClaimantID = r.ref(n, pClaimant, where+".claimantId")
		f.HolderID = r.ref(n, pHolder, where+".holderId")
		f.SourceSentences = r.sentenceRefs(n)
	}
	return f
}

func parsePosition(s string) []float64 {
	inner, ok := strings.CutPrefix(strings.TrimSpace(s), "[")
	if !ok {
		return nil
	}
	inner, ok = strings.CutSuffix(inner, "]")
	if !ok {
		return nil
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 2 {
		return nil
	}
	out := make([]float64, 2)
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil
		}
		out[i] = v
	}
	return out
}

func (r *reader) comments(n graph.Term) []Comment {
	out := []Comment{}
	for o := range r.g.Objects(n, rdfsComment) {
		if o.IsLiteral() {
			out = append(out, Comment{Content: o.Value})
		}
	}
	for c := range r.g.Objects(n, pHasComment) {
		cm := Comment{Content: literal(r.g, c, rdfsComment)}
		for _, d := range []struct {
			p graph.Term
			v **string
		}{{pAuthor, &cm.Author}, {pCreatedAt, &cm.CreatedAt}, {pLastEditedAt, &cm.LastEditedAt}} {
			if o, ok := r.g.Object(c, d.p); ok && o.IsLiteral() {
				v := o.Value
				*d.v = &v
			}
		}
		out = append(out, cm)
	}
	slices.SortFunc(out, func(a, b Comment) int {
		return cmp.Or(cmp.Compare(deref(a.CreatedAt), deref(b.CreatedAt)), cmp.Compare(a.Content, b.Content))
	})
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// locate maps an absolute sentence IRI to the document that holds it.
func (r *reader) locate(iri string) (doc, rel, id string) {
	var best *source
	for _, s := range r.sources {
		if strings.HasPrefix(iri, s.base) && (best == nil || len(s.base) > len(best.base)) {
			best = s
		}
	}
	if best == nil {
		return "", iri, iri[strings.LastIndexAny(iri, "/#")+1:]
	}
	return best.base, strings.TrimPrefix(iri, best.base), best.sentenceID(iri)
}

func (r *reader) annotations(n graph.Term) []Annotation {
	out := []Annotation{}
	for tf := range r.g.Objects(n, pTextFragment) {
		var a Annotation
		for rg := range r.g.Objects(tf, pCharRange) {
			src, _ := r.g.Object(rg, oaHasSource)
			doc, rel, id := r.locate(src.Value)
			s := Snippet{DocumentID: doc, SentenceID: id, SentenceIRI: rel, Text: literal(r.g, rg, pContent)}
			s.CharacterRange[0], _ = strconv.Atoi(literal(r.g, rg, pStart))
			s.CharacterRange[1], _ = strconv.Atoi(literal(r.g, rg, pEnd))
			a.Snippets = append(a.Snippets, s)
		}
		if len(a.Snippets) == 0 {
			continue
		}
		slices.SortFunc(a.Snippets, compareSnippets)
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Annotation) int { return compareSnippets(a.Snippets[0], b.Snippets[0]) })
	return out
}

func compareSnippets(a, b Snippet) int {
	return cmp.Or(cmp.Compare(a.DocumentID, b.DocumentID), cmp.Compare(a.SentenceIRI, b.SentenceIRI),
		cmp.Compare(a.CharacterRange[0], b.CharacterRange[0]), cmp.Compare(a.CharacterRange[1], b.CharacterRange[1]),
		cmp.Compare(a.Text, b.Text))
}

func (r *reader) sentenceRefs(n graph.Term) []SentenceRef {
	out := []SentenceRef{}
	addIRI := func(iri string) {
		doc, _, id := r.locate(iri)
		ref := SentenceRef{DocumentID: doc, SentenceID: id}
		if !containsRef(out, ref) {
			out = append(out, ref)
		}
	}
	for tf := range r.g.Objects(n, pTextFragment) {
		for s := range r.g.Objects(tf, oaHasSource) {
			addIRI(s.Value)
		}
		for rg := range r.g.Objects(tf, pCharRange) { // legacy: ranges on an act
			for s := range r.g.Objects(rg, oaHasSource) {
				addIRI(s.Value)
			}
		}
	}
	slices.SortFunc(out, func(a, b SentenceRef) int {
		return cmp.Or(cmp.Compare(a.DocumentID, b.DocumentID), cmp.Compare(a.SentenceID, b.SentenceID))
	})
	return out
}

func (r *reader) constructOf(n, p graph.Term, where string) *Construct {
	o, ok := r.g.Object(n, p)
	if !ok {
		return &Construct{Children: []*Construct{}}
	}
	return r.construct(o, where, 0, map[graph.Term]bool{})
}

// construct reads T(node) back. The recursion follows the
// data, so it is bounded by MaxDepth and refuses cycles.
func (r *reader) construct(t graph.Term, where string, depth int, onPath map[graph.Term]bool) *Construct {
	empty := &Construct{Children: []*Construct{}}
	if t.IsIRI() {
		id := r.frameID(t, where)
		return &Construct{Frame: id, Children: []*Construct{}}
	}
	if r.lim.MaxDepth >= 0 && depth > r.lim.MaxDepth {
		root, _, _ := strings.Cut(where, ".children[")
		r.p.add("%s: constructs nested deeper than %d", root, r.lim.MaxDepth)
		return empty
	}
	if onPath[t] {
		r.p.add("%s: cyclic construct", where)
		return empty
	}
	if !r.g.Has(graph.Triple{S: t, P: rdfType, O: classComplexFact}) {
		r.p.add("%s: %s is neither a frame nor a flint:ComplexFact", where, t.String())
		return empty
	}
	onPath[t] = true
	defer delete(onPath, t)
	head, _ := r.g.Object(t, pHasOperands)
	items, ok := r.g.List(head)
	if !ok {
		r.p.add("%s: flint:hasOperands is not a well-formed list", where)
		return empty
	}
	fn, _ := r.g.Object(t, pHasFunction)
	children := make([]*Construct, 0, len(items))
	for i, it := range items {
		children = append(children, r.construct(it, where+".children["+strconv.Itoa(i)+"]", depth+1, onPath))
	}
	switch fn {
	case fnNot:
		if len(children) != 1 {
			r.p.add("%s: flint:not takes one operand, found %d", where, len(children))
			return empty
		}
		n := children[0]
		if !n.Negated {
			n.Negated = true
			return n
		}
		return &Construct{Negated: true, Children: []*Construct{n}}
	case fnAnd, fnOr:
		op := strings.TrimPrefix(fn.Value, NSFlint)
		return &Construct{Children: children, Operator: &op}
	case graph.Term{}:
		return &Construct{Children: children}
	}
	r.p.add("%s: unknown flint:hasFunction %s", where, fn.String())
	return empty
}
