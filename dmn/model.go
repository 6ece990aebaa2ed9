package dmn

import "encoding/xml"

// Pos is the position of an XML element's start tag (1-based).
type Pos struct {
	Line, Column int
}

// Definitions is a parsed DMN model (the <definitions> element).
type Definitions struct {
	ID, Name, Namespace string
	// Version is "1.1" … "1.5", or "camunda" for the legacy
	// https://www.camunda.org/schema/1.0/dmn namespace.
	Version            string
	ExpressionLanguage string
	TypeLanguage       string
	Imports            []*Import
	ItemDefinitions    []*ItemDefinition
	InputData          []*InputData
	Decisions          []*Decision
	BKMs               []*BKM
	DecisionServices   []*DecisionService
	KnowledgeSources   []*KnowledgeSource
	Extensions         Extensions
	Pos                Pos
}

// Extensions are the attributes of an element that are not DMN's: those
// in another namespace, such as camunda:versionTag (Name.Space is the
// namespace URI), in document order. Namespace declarations are not among
// them. Elements without such attributes have none (nil).
type Extensions []xml.Attr

// Get returns the value of the attribute with the namespace URI and local name.
func (x Extensions) Get(namespace, local string) (string, bool) {
	for _, a := range x {
		if a.Name.Local == local && a.Name.Space == namespace {
			return a.Value, true
		}
	}
	return "", false
}

// Import is an <import> of another model by namespace.
type Import struct {
	Name, Namespace, LocationURI, ImportType string
	Pos                                      Pos
}

// ItemDefinition is a DMN type.
type ItemDefinition struct {
	ID, Name, Label string
	TypeRef         string
	IsCollection    bool
	AllowedValues   string // unary tests text, "" if none
	TypeConstraint  string // DMN 1.5 typeConstraint text, "" if none
	Components      []*ItemDefinition
	Function        *FunctionItem
	Pos             Pos
}

// FunctionItem is the signature of a function type.
type FunctionItem struct {
	Parameters    []*InformationItem
	OutputTypeRef string
}

// InformationItem is a named, typed variable (<variable>, parameters, columns).
type InformationItem struct {
	ID, Name, TypeRef string
}

// InputData is an <inputData> element.
type InputData struct {
	ID, Name   string
	Variable   *InformationItem
	Extensions Extensions
	Pos        Pos
}

// Decision is a <decision> element.
type Decision struct {
	ID, Name string
	Variable *InformationItem
	// RequiredDecisions, RequiredInputs, RequiredKnowledge hold hrefs
	// ("#id" or "namespace#id").
	RequiredDecisions []string
	RequiredInputs    []string
	RequiredKnowledge []string
	Logic             Expression // nil when the decision has no logic
	// Extensions holds camunda:versionTag, camunda:historyTimeToLive and
	// other attributes outside DMN.
	Extensions Extensions
	Pos        Pos
}

// BKM is a business knowledge model.
type BKM struct {
	ID, Name          string
	Variable          *InformationItem
	RequiredKnowledge []string
	Logic             *FunctionDefinition
	Extensions        Extensions
	Pos               Pos
}

// DecisionService is a <decisionService>.
type DecisionService struct {
	ID, Name              string
	Variable              *InformationItem
	OutputDecisions       []string
	EncapsulatedDecisions []string
	InputDecisions        []string
	InputData             []string
	Extensions            Extensions
	Pos                   Pos
}

// KnowledgeSource is a <knowledgeSource> (documentation only).
type KnowledgeSource struct {
	ID, Name string
	Pos      Pos
}

// Expression is a boxed expression: *LiteralExpression, *DecisionTable,
// *Context, *Invocation, *List, *Relation, *FunctionDefinition,
// *Conditional, *Iterator, *Filter.
type Expression interface {
	expressionID() string
	position() Pos
}

// ExprBase holds the attributes every boxed expression has.
type ExprBase struct {
	ID         string
	TypeRef    string
	Extensions Extensions
	Pos        Pos
}

func (b *ExprBase) expressionID() string { return b.ID }
func (b *ExprBase) position() Pos        { return b.Pos }

// LiteralExpression is FEEL text.
type LiteralExpression struct {
	ExprBase
	Text string
}

// HitPolicy of a decision table.
type HitPolicy string

// Hit policies.
const (
	HitUnique      HitPolicy = "UNIQUE"
	HitAny         HitPolicy = "ANY"
	HitPriority    HitPolicy = "PRIORITY"
	HitFirst       HitPolicy = "FIRST"
	HitRuleOrder   HitPolicy = "RULE ORDER"
	HitOutputOrder HitPolicy = "OUTPUT ORDER"
	HitCollect     HitPolicy = "COLLECT"
)

// DecisionTable is a <decisionTable>.
type DecisionTable struct {
	ExprBase
	HitPolicy   HitPolicy
	Aggregation string // SUM, COUNT, MIN, MAX or "" (COLLECT only)
	Inputs      []*InputClause
	Outputs     []*OutputClause
	Rules       []*Rule
	OutputLabel string
}

// InputClause is a decision table input column.
type InputClause struct {
	ID, Label   string
	Expression  string // FEEL text of the inputExpression
	TypeRef     string
	InputValues string // unary tests, "" if none
	// Extensions holds camunda:inputVariable, the name of the input's
	// value inside the input entries in Operaton mode (default cellInput).
	Extensions Extensions
	Pos        Pos
}

// OutputClause is a decision table output column.
type OutputClause struct {
	ID, Name, Label    string
	TypeRef            string
	OutputValues       string // unary tests, "" if none
	DefaultOutputEntry string // FEEL text, "" if none
	Extensions         Extensions
	Pos                Pos
}

// Rule is a decision table row.
type Rule struct {
	ID            string
	InputEntries  []string // unary tests text per input
	OutputEntries []string // FEEL text per output
	Annotations   []string
	Extensions    Extensions
	Pos           Pos
}

// Context is a boxed context.
type Context struct {
	ExprBase
	Entries []*ContextEntry
}

// ContextEntry is one entry; a nil Variable marks the final result entry.
type ContextEntry struct {
	Variable *InformationItem
	Value    Expression
}

// Invocation is a boxed invocation.
type Invocation struct {
	ExprBase
	Called   Expression // usually a literal expression naming the function
	Bindings []*Binding
}

// Binding binds a parameter of an invocation.
type Binding struct {
	Parameter *InformationItem
	Value     Expression // nil: null
}

// List is a boxed list.
type List struct {
	ExprBase
	Items []Expression
}

// Relation is a boxed relation (a list of contexts).
type Relation struct {
	ExprBase
	Columns []*InformationItem
	Rows    [][]Expression
}

// FunctionDefinition is a boxed function definition.
type FunctionDefinition struct {
	ExprBase
	Kind       string // FEEL (default), Java, PMML
	Parameters []*InformationItem
	Body       Expression
}

// Conditional is a boxed if/then/else (DMN 1.4+).
type Conditional struct {
	ExprBase
	If, Then, Else Expression
}

// Iterator is a boxed for, some or every (DMN 1.4+).
type Iterator struct {
	ExprBase
	Kind     string // "for", "some", "every"
	Variable string
	In       Expression
	Body     Expression // return (for) or satisfies (some, every)
}

// Filter is a boxed filter (DMN 1.4+).
type Filter struct {
	ExprBase
	In, Match Expression
}
