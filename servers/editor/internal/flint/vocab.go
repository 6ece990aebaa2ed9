package flint

import "github.com/regelkit/regelkit/sparql/graph"

// Namespaces of the editor's vocabulary.
const (
	NSFlint  = "http://ontology.tno.nl/normengineering/flint#"
	NSSrc    = "http://ontology.tno.nl/normengineering/source#"
	NSEditor = "http://ontology.tno.nl/normengineering/editor#"
	NSCalc   = "http://ontology.tno.nl/normengineering/calculemus#"
	NSChoppr = "http://ontology.tno.nl/normengineering/choppr#"
	NSCo     = "http://purl.org/co/"
	NSOA     = "http://www.w3.org/ns/oa#"
	NSProv   = "http://www.w3.org/ns/prov#"
	NSOWL    = "http://www.w3.org/2002/07/owl#"
	NSRDF    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	NSRDFS   = "http://www.w3.org/2000/01/rdf-schema#"
	NSXSD    = "http://www.w3.org/2001/XMLSchema#"
)

// Prefixes returns the prefixes every Turtle and TriG output declares,
// exactly these and in this order (fixed, so outputs compare byte for byte).
func Prefixes() *graph.Prefixes {
	return graph.NewPrefixes(
		"flint", NSFlint, "src", NSSrc, "editor", NSEditor, "calc", NSCalc,
		"choppr", NSChoppr, "co", NSCo, "oa", NSOA, "prov", NSProv,
		"owl", NSOWL, "rdf", NSRDF, "rdfs", NSRDFS, "xsd", NSXSD)
}

func flint(local string) graph.Term  { return graph.IRI(NSFlint + local) }
func src(local string) graph.Term    { return graph.IRI(NSSrc + local) }
func editor(local string) graph.Term { return graph.IRI(NSEditor + local) }
func calc(local string) graph.Term   { return graph.IRI(NSCalc + local) }

var (
	rdfType     = graph.IRI(NSRDF + "type")
	rdfsLabel   = graph.IRI(NSRDFS + "label")
	rdfsComment = graph.IRI(NSRDFS + "comment")
	owlSameAs   = graph.IRI(NSOWL + "sameAs")
	oaHasSource = graph.IRI(NSOA + "hasSource")
	rdfFirst    = graph.IRI(NSRDF + "first")
	rdfRest     = graph.IRI(NSRDF + "rest")
	rdfNil      = graph.IRI(NSRDF + "nil")

	classFact        = flint("Fact")
	classAct         = flint("Act")
	classDuty        = flint("Duty")
	classComplexFact = flint("ComplexFact")
	classSource      = src("Source")
	classTask        = calc("Task")
	classFragment    = src("TextFragment")
	classRange       = src("CharacterRange")

	fnAnd = flint("and")
	fnOr  = flint("or")
	fnNot = flint("not")

	pHasFunction   = flint("hasFunction")
	pHasOperands   = flint("hasOperands")
	pFullName      = editor("hasFullName")
	pIsComplex     = editor("isComplex")
	pSubdivision   = editor("hasSubdivision")
	pPrecondition  = flint("hasPrecondition")
	pCreates       = flint("creates")
	pTerminates    = flint("terminates")
	pClaimant      = flint("hasClaimant")
	pHolder        = flint("hasHolder")
	pPosition      = editor("hasPositionOnScreen")
	pTextFragment  = flint("hasTextFragment")
	pCharRange     = src("hasCharacterRange")
	pStart         = src("startsAtIndex")
	pEnd           = src("endsAtIndex")
	pContent       = src("hasContent")
	pInvolves      = calc("involves")
	pHasEditor     = calc("hasEditor")
	pEditedDate    = calc("hasEditedDate")
	pSourceDocs    = editor("hasSourceDocuments")
	pOfSource      = editor("ofSource")
	pSelected      = editor("selectedSentences")
	pCollapsed     = editor("collapsedSentences")
	pHasComment    = editor("hasComment")
	pAuthor        = editor("author")
	pCreatedAt     = editor("createdAt")
	pLastEditedAt  = editor("lastEditedAt")
	pOriginalID    = graph.IRI(NSChoppr + "originalId")
	xsdDateTime    = NSXSD + "dateTime"
	xsdBoolean     = NSXSD + "boolean"
	xsdNonNegative = NSXSD + "nonNegativeInteger"
)

// roles are the act predicates that point at one fact each.
var roles = []struct {
	pred  graph.Term
	field string
	get   func(*Frame) *string
}{
	{flint("hasAction"), "actionId", func(f *Frame) *string { return &f.ActionID }},
	{flint("hasActor"), "actorId", func(f *Frame) *string { return &f.ActorID }},
	{flint("hasObject"), "objectId", func(f *Frame) *string { return &f.ObjectID }},
	{flint("hasRecipient"), "recipientId", func(f *Frame) *string { return &f.RecipientID }},
}

// subTypes maps the JSON fact subtypes to their classes.
var subTypes = []struct {
	id    string
	class graph.Term
}{
	{"action", flint("Action")},
	{"agent", flint("Agent")},
	{"condition", editor("Condition")},
	{"duty", flint("Duty")},
	{"object", flint("Object")},
}
