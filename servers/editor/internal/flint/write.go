package flint

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Options configure a conversion.
type Options struct {
	Limits Limits
	// Now gives calc:hasEditedDate; nil means time.Now. Tests inject a
	// fixed clock so that output compares byte for byte.
	Now func() time.Time
}

var (
	frameIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	taskIDPattern  = regexp.MustCompile(`^` + regexp.QuoteMeta(NSEditor) + `task-[A-Za-z0-9_-]+$`)
	interpPattern  = regexp.MustCompile(`^` + regexp.QuoteMeta(NSEditor) + `interpretation-[A-Za-z0-9_-]+$`)
)

// writer builds the quads of one task.
type writer struct {
	ds      *graph.Dataset
	p       problems
	blank   int
	lim     Limits
	ctx     context.Context
	sources []*source
	frames  map[string]*Frame
}

func (w *writer) bnode() graph.Term {
	w.blank++
	return graph.Blank("b" + strconv.Itoa(w.blank))
}

// Normalize rewrites legacy input into the canonical form in place: subTypeId, a claim-duty's actorId, a missing interpretation,
// annotations on acts and claim-duties, the "not" operator, empty snippets.
func Normalize(t *Task) {
	if t.Interpretation == "" && strings.HasPrefix(t.ID, NSEditor+"task-") {
		t.Interpretation = NSEditor + "interpretation-" + strings.TrimPrefix(t.ID, NSEditor+"task-")
	}
	if t.Type == "" {
		t.Type = "Task"
	}
	for i := range t.Frames {
		f := &t.Frames[i]
		if f.SubTypeID != "" {
			if !contains(f.SubTypeIDs, f.SubTypeID) {
				f.SubTypeIDs = append(f.SubTypeIDs, f.SubTypeID)
			}
			f.SubTypeID = ""
		}
		if f.TypeID == TypeClaimDuty {
			if f.ClaimantID == "" {
				f.ClaimantID = f.ActorID
			}
			f.ActorID = ""
		}
		for j := range f.Annotations {
			kept := f.Annotations[j].Snippets[:0]
			for _, s := range f.Annotations[j].Snippets {
				if s.CharacterRange[1] > s.CharacterRange[0] {
					kept = append(kept, s)
				}
			}
			f.Annotations[j].Snippets = kept
		}
		if f.TypeID != TypeFact && len(f.Annotations) > 0 {
			for _, a := range f.Annotations {
				for _, s := range a.Snippets {
					r := SentenceRef{DocumentID: s.DocumentID, SentenceID: s.SentenceID}
					if !containsRef(f.SourceSentences, r) {
						f.SourceSentences = append(f.SourceSentences, r)
					}
				}
			}
			f.Annotations = nil
		}
		normalizeConstruct(f.Precondition, 0)
		normalizeConstruct(f.Subdivision, 0)
	}
}

// normalizeConstruct rewrites the legacy operator "not" into isNegated,
// children first, so that a nested "not" is already a negated node when its
// parent looks at it.
func normalizeConstruct(c *Construct, depth int) {
	if c == nil || depth > 10000 {
		return
	}
	for _, ch := range c.Children {
		normalizeConstruct(ch, depth+1)
	}
	if c.Operator != nil && *c.Operator == "not" && len(c.Children) == 1 && c.Frame == "" && c.Children[0] != nil {
		outer := c.Negated
		child := *c.Children[0]
		r := child
		if child.Negated {
			r = Construct{Negated: true, Children: []*Construct{&child}}
		}
		r.Negated = true
		if outer {
			inner := r
			r = Construct{Negated: true, Children: []*Construct{&inner}}
		}
		*c = r
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsRef(list []SentenceRef, r SentenceRef) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}

// ToDataset converts an editor JSON interpretation into its named graphs:
// the task graph, the interpretation graph and one graph per source. Legacy
// input is normalised first (Normalize). Violations are reported together
// in a *SchemaError; too many frames or too deep constructs are a *LimitError.
func ToDataset(ctx context.Context, t *Task, opts Options) (*graph.Dataset, error) {
	lim := opts.Limits.resolved()
	if lim.MaxRows >= 0 && len(t.Frames) > lim.MaxRows {
		return nil, &LimitError{Limit: "MaxRows", Max: int64(lim.MaxRows)}
	}
	Normalize(t)
	w := &writer{ds: graph.NewDataset(), lim: lim, ctx: ctx, frames: map[string]*Frame{}}
	if !taskIDPattern.MatchString(t.ID) {
		w.p.add("id: task IRI must look like %stask-<uuid>, got %q", NSEditor, t.ID)
	}
	if !interpPattern.MatchString(t.Interpretation) {
		w.p.add("interpretation: IRI must look like %sinterpretation-<uuid>, got %q", NSEditor, t.Interpretation)
	}
	if t.Type != "Task" {
		w.p.add("type: must be \"Task\", got %q", t.Type)
	}
	if err := w.p.err("Invalid interpretation."); err != nil {
		return nil, err
	}
	task, interp := graph.IRI(t.ID), graph.IRI(t.Interpretation)
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}

	// Sources first: their sentences resolve the frames' anchors.
	var docNodes []graph.Term
	for i, sd := range t.SourceDocs {
		s, err := parseChoppr(sd.JSONLD, "s"+strconv.Itoa(i))
		if err != nil {
			w.p.add("sourceDocs[%d].jsonLd: %v", i, err)
			continue
		}
		if s.root == t.ID || s.root == t.Interpretation {
			w.p.add("sourceDocs[%d].jsonLd: source root %s names the task or interpretation graph", i, s.root)
			continue
		}
		for _, prev := range w.sources {
			if prev.root == s.root {
				w.p.add("sourceDocs[%d].jsonLd: source %s loaded twice", i, s.root)
			}
		}
		w.sources = append(w.sources, s)
		name := graph.IRI(s.root)
		for tr := range s.g.Triples() {
			w.ds.Add(graph.Quad{S: tr.S, P: tr.P, O: tr.O, G: name})
		}
		n := w.bnode()
		docNodes = append(docNodes, n)
		w.add(task, n, pOfSource, name)
		w.add(task, n, pSelected, w.list(task, stringTerms(sd.SelectedSentencesIDs)))
		w.add(task, n, pCollapsed, w.list(task, stringTerms(sd.CollapsedSentencesIDs)))
	}

	// The task graph.
	w.add(task, task, rdfType, classTask)
	w.add(task, task, rdfsLabel, graph.String(t.Label))
	if t.Description != "" {
		w.add(task, task, rdfsComment, graph.String(t.Description))
	}
	if t.HasEditor != "" {
		e := w.bnode()
		w.add(task, task, pHasEditor, e)
		w.add(task, e, rdfsLabel, graph.String(t.HasEditor))
	}
	w.add(task, task, pEditedDate, graph.Literal(now().UTC().Format("2006-01-02T15:04:05Z"), xsdDateTime))
	w.add(task, task, pInvolves, interp)
	for _, s := range w.sources {
		w.add(task, task, pInvolves, graph.IRI(s.root))
	}
	if len(docNodes) > 0 {
		w.add(task, task, pSourceDocs, w.list(task, docNodes))
	}

	// The frames.
	for i := range t.Frames {
		f := &t.Frames[i]
		switch {
		case !frameIDPattern.MatchString(f.ID):
			w.p.add("frames[%d].id: must match [A-Za-z0-9_-]+, got %q", i, f.ID)
		case w.frames[f.ID] != nil:
			w.p.add("frames[%d].id: duplicate frame id %q", i, f.ID)
		default:
			w.frames[f.ID] = f
		}
	}
	for i := range t.Frames {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w.frame(interp, i, &t.Frames[i])
	}
	if err := w.p.err("Invalid interpretation."); err != nil {
		return nil, err
	}
	return w.ds, nil
}

func stringTerms(ss []string) []graph.Term {
	out := make([]graph.Term, len(ss))
	for i, s := range ss {
		out[i] = graph.String(s)
	}
	return out
}

func (w *writer) add(g, s, p, o graph.Term) {
	if o.IsZero() {
		return
	}
	w.ds.Add(graph.Quad{S: s, P: p, O: o, G: g})
}

// list writes an RDF list and returns its head (rdf:nil when empty).
func (w *writer) list(g graph.Term, items []graph.Term) graph.Term {
	head := rdfNil
	for i := len(items) - 1; i >= 0; i-- {
		n := w.bnode()
		w.add(g, n, rdfFirst, items[i])
		w.add(g, n, rdfRest, head)
		head = n
	}
	return head
}

func (w *writer) ref(i int, field, id string) graph.Term {
	if id == "" {
		return graph.Term{}
	}
	if w.frames[id] == nil {
		w.p.add("frames[%d].%s: unknown frame '%s'", i, field, id)
		return graph.Term{}
	}
	return editor(id)
}

func (w *writer) frame(g graph.Term, i int, f *Frame) {
	if w.frames[f.ID] != f {
		return
	}
	n := editor(f.ID)
	w.add(g, n, rdfsLabel, graph.String(f.Label))
	if f.Position != nil {
		if len(f.Position) != 2 {
			w.p.add("frames[%d].position: must be [x, y]", i)
		} else {
			w.add(g, n, pPosition, graph.String("["+fmtNum(f.Position[0])+", "+fmtNum(f.Position[1])+"]"))
		}
	}
	for j, c := range f.Comments {
		cn := w.bnode()
		w.add(g, n, pHasComment, cn)
		w.add(g, cn, rdfsComment, graph.String(c.Content))
		if c.Author != nil {
			w.add(g, cn, pAuthor, graph.String(*c.Author))
		}
		for _, d := range []struct {
			p     graph.Term
			v     *string
			field string
		}{{pCreatedAt, c.CreatedAt, "createdAt"}, {pLastEditedAt, c.LastEditedAt, "lastEditedAt"}} {
			if d.v == nil {
				continue
			}
			lit := graph.Literal(*d.v, xsdDateTime)
			if !graph.WellFormed(lit) {
				w.p.add("frames[%d].comments[%d].%s: not an ISO 8601 date-time: %q", i, j, d.field, *d.v)
				continue
			}
			w.add(g, cn, d.p, lit)
		}
	}
	switch f.TypeID {
	case TypeFact:
		w.add(g, n, rdfType, classFact)
		for _, st := range f.SubTypeIDs {
			class, ok := subTypeClass(st)
			if !ok {
				w.p.add("frames[%d].subTypeIds: unknown subtype %q", i, st)
				continue
			}
			w.add(g, n, rdfType, class)
		}
		w.add(g, n, pFullName, graph.String(f.Fact))
		w.add(g, n, pIsComplex, graph.Literal(strconv.FormatBool(f.IsComplex), xsdBoolean))
		w.add(g, n, pSubdivision, w.construct(g, i, "subdivision", f.Subdivision, 0))
		for j, a := range f.Annotations {
			if len(a.Snippets) == 0 {
				continue
			}
			tf := w.bnode()
			w.add(g, n, pTextFragment, tf)
			w.add(g, tf, rdfType, classFragment)
			for k, s := range a.Snippets {
				iri := w.snippetSentence(s)
				if iri == "" {
					w.p.add("frames[%d].annotations[%d].snippets[%d].sentenceId: unknown sentence '%s'", i, j, k, s.SentenceID)
					continue
				}
				if s.CharacterRange[0] < 0 {
					w.p.add("frames[%d].annotations[%d].snippets[%d].characterRange: negative start", i, j, k)
					continue
				}
				r := w.bnode()
				w.add(g, tf, pCharRange, r)
				w.add(g, r, rdfType, classRange)
				w.add(g, r, pStart, graph.Literal(strconv.Itoa(s.CharacterRange[0]), xsdNonNegative))
				w.add(g, r, pEnd, graph.Literal(strconv.Itoa(s.CharacterRange[1]), xsdNonNegative))
				w.add(g, r, pContent, graph.String(s.Text))
				w.add(g, r, oaHasSource, graph.IRI(iri))
			}
		}
	case TypeAct:
		w.add(g, n, rdfType, classAct)
		w.add(g, n, pFullName, graph.String(f.Act))
		for _, r := range roles {
			w.add(g, n, r.pred, w.ref(i, r.field, *r.get(f)))
		}
		w.add(g, n, pPrecondition, w.construct(g, i, "precondition", f.Precondition, 0))
		for _, id := range f.Creates {
			w.add(g, n, pCreates, w.ref(i, "creates", id))
		}
		for _, id := range f.Terminates {
			w.add(g, n, pTerminates, w.ref(i, "terminates", id))
		}
		w.sentences(g, i, n, f.SourceSentences)
	case TypeClaimDuty:
		w.add(g, n, rdfType, classDuty)
		w.add(g, n, pFullName, graph.String(f.ClaimDuty))
		w.add(g, n, owlSameAs, w.ref(i, "dutyId", f.DutyID))
		w.add(g, n, pClaimant, w.ref(i, "claimantId", f.ClaimantID))
		w.add(g, n, pHolder, w.ref(i, "holderId", f.HolderID))
		w.sentences(g, i, n, f.SourceSentences)
	default:
		w.p.add("frames[%d].typeId: unknown type %q (want fact, act or claim_duty)", i, f.TypeID)
	}
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func subTypeClass(id string) (graph.Term, bool) {
	for _, st := range subTypes {
		if st.id == id {
			return st.class, true
		}
	}
	return graph.Term{}, false
}

func (w *writer) sentences(g graph.Term, i int, n graph.Term, refs []SentenceRef) {
	for j, r := range refs {
		iri := w.lookupSentence(r.DocumentID, r.SentenceID)
		if iri == "" {
			w.p.add("frames[%d].sourceSentences[%d].sentenceId: unknown sentence '%s'", i, j, r.SentenceID)
			continue
		}
		tf := w.bnode()
		w.add(g, n, pTextFragment, tf)
		w.add(g, tf, rdfType, classFragment)
		w.add(g, tf, oaHasSource, graph.IRI(iri))
	}
}

// lookupSentence finds a sentence by its originalId, in the document named
// by documentId when that is given.
func (w *writer) lookupSentence(doc, id string) string {
	for _, s := range w.sources {
		if doc != "" && doc != s.base && doc != s.root {
			continue
		}
		if iri, ok := s.byID[id]; ok {
			return iri
		}
	}
	return ""
}

func (w *writer) snippetSentence(s Snippet) string {
	if s.SentenceIRI != "" {
		iri := s.SentenceIRI
		if s.DocumentID != "" {
			iri = graph.ResolveIRI(s.DocumentID, s.SentenceIRI)
		}
		for _, src := range w.sources {
			if _, ok := src.idOfIRI[iri]; ok {
				return iri
			}
		}
		return ""
	}
	return w.lookupSentence(s.DocumentID, s.SentenceID)
}

// construct writes the triples of c and returns the term (zero when empty).
func (w *writer) construct(g graph.Term, i int, field string, c *Construct, depth int) graph.Term {
	if c.empty() {
		return graph.Term{}
	}
	if w.lim.MaxDepth >= 0 && depth > w.lim.MaxDepth {
		root, _, _ := strings.Cut(field, ".children[")
		w.p.add("frames[%d].%s: constructs nested deeper than %d", i, root, w.lim.MaxDepth)
		return graph.Term{}
	}
	if c.Negated {
		// A negated node over exactly one negated child is double negation:
		// not(not x), so the reader's rule gives this node back.
		inner := *c
		inner.Negated = false
		var t graph.Term
		if inner.Frame == "" && inner.Operator == nil && len(nonEmpty(inner.Children)) == 1 && nonEmpty(inner.Children)[0].Negated {
			t = w.construct(g, i, field, nonEmpty(inner.Children)[0], depth+1)
		} else {
			t = w.construct(g, i, field, &inner, depth+1)
		}
		if t.IsZero() {
			return t
		}
		n := w.bnode()
		w.add(g, n, rdfType, classComplexFact)
		w.add(g, n, pHasFunction, fnNot)
		w.add(g, n, pHasOperands, w.list(g, []graph.Term{t}))
		return n
	}
	children := nonEmpty(c.Children)
	if c.Frame != "" {
		if len(children) > 0 {
			w.p.add("frames[%d].%s: a construct has both a frame and children", i, field)
			return graph.Term{}
		}
		return w.ref(i, field+".frame", c.Frame)
	}
	var fn graph.Term
	switch {
	case c.Operator == nil:
		if len(children) != 1 {
			w.p.add("frames[%d].%s.operatorToJoinChildren: null joins exactly one child, found %d", i, field, len(children))
			return graph.Term{}
		}
	case *c.Operator == "and":
		fn = fnAnd
	case *c.Operator == "or":
		fn = fnOr
	default:
		w.p.add("frames[%d].%s.operatorToJoinChildren: unknown operator %q", i, field, *c.Operator)
		return graph.Term{}
	}
	if len(children) == 0 {
		return graph.Term{}
	}
	ops := make([]graph.Term, 0, len(children))
	for k, ch := range children {
		t := w.construct(g, i, field+".children["+strconv.Itoa(k)+"]", ch, depth+1)
		if !t.IsZero() {
			ops = append(ops, t)
		}
	}
	n := w.bnode()
	w.add(g, n, rdfType, classComplexFact)
	if !fn.IsZero() {
		w.add(g, n, pHasFunction, fn)
	}
	w.add(g, n, pHasOperands, w.list(g, ops))
	return n
}

func nonEmpty(cs []*Construct) []*Construct {
	out := cs[:0:0]
	for _, c := range cs {
		if !c.empty() {
			out = append(out, c)
		}
	}
	return out
}
