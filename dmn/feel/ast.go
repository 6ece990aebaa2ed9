package feel

import "github.com/cockroachdb/apd/v3"

// Node is a FEEL syntax tree node. Positions are offsets into the source the
// node was parsed from (see PositionOf).
type Node interface {
	Pos() Pos // first character
	End() Pos // just after the last character
}

// Op is an operator of a Binary or UnaryCompare node.
type Op uint8

// Operators.
const (
	OpAdd Op = iota + 1
	OpSub
	OpMul
	OpDiv
	OpPow
	OpEq
	OpNeq
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
)

var opNames = [...]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpPow: "**", OpEq: "=", OpNeq: "!=",
	OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=", OpAnd: "and", OpOr: "or"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

type (
	// NumberLit is a numeric literal.
	NumberLit struct {
		From, To Pos
		Text     string
		Value    *apd.Decimal
	}
	// StringLit is a string literal (Value is unescaped).
	StringLit struct {
		From, To Pos
		Value    string
	}
	// BoolLit is true or false.
	BoolLit struct {
		From, To Pos
		Value    bool
	}
	// NullLit is null.
	NullLit struct{ From, To Pos }
	// TemporalLit is @"..." (a date, time, date and time or duration).
	TemporalLit struct {
		From, To Pos
		Text     string
	}
	// Name is a variable reference; "?" is the input of a unary test.
	Name struct {
		From, To Pos
		Name     string
	}
	// Path is X.Name.
	Path struct {
		X    Node
		Name string
		To   Pos
	}
	// Filter is X[Filter].
	Filter struct {
		X, Filter Node
		To        Pos
	}
	// Call is Fun(Args) or Fun(name: value, ...).
	Call struct {
		Fun   Node
		Args  []Node     // positional arguments
		Named []NamedArg // named arguments (Args is nil then)
		To    Pos
	}
	// NamedArg is one named argument.
	NamedArg struct {
		Name    string
		NamePos Pos
		Value   Node
	}
	// Binary is X Op Y for arithmetic, comparison, and, or.
	Binary struct {
		Op    Op
		OpPos Pos
		X, Y  Node
	}
	// Negation is -X.
	Negation struct {
		From Pos
		X    Node
	}
	// Between is X between Low and High.
	Between struct {
		X, Low, High Node
	}
	// In is X in (Tests...), each test a positive unary test.
	In struct {
		X     Node
		Tests []Node
		To    Pos
	}
	// InstanceOf is X instance of Type.
	InstanceOf struct {
		X    Node
		Type TypeNode
	}
	// If is if Cond then Then else Else.
	If struct {
		From             Pos
		Cond, Then, Else Node
	}
	// For is for iterations return Return.
	For struct {
		From   Pos
		Iters  []Iteration
		Return Node
	}
	// Quantified is some/every iterations satisfies Satisfies.
	Quantified struct {
		From      Pos
		Every     bool
		Iters     []Iteration
		Satisfies Node
	}
	// Iteration is "Name in In" or "Name in In..To".
	Iteration struct {
		Name    string
		NamePos Pos
		In      Node
		To      Node // nil unless the iteration is over In..To
	}
	// List is [a, b, ...].
	List struct {
		From, To Pos
		Elems    []Node
	}
	// ContextLit is {key: value, ...}.
	ContextLit struct {
		From, To Pos
		Entries  []ContextEntry
	}
	// ContextEntry is one entry of a ContextLit.
	ContextEntry struct {
		Key    string
		KeyPos Pos
		Value  Node
	}
	// FuncDef is function(params) body, or an external function.
	FuncDef struct {
		From     Pos
		Params   []ParamDef
		Body     Node
		External bool
	}
	// ParamDef is a formal parameter with an optional type.
	ParamDef struct {
		Name string
		Type TypeNode // nil: any
	}
	// RangeLit is an interval [Low..High], (Low..High), ]Low..High[ etc.
	RangeLit struct {
		From, To                  Pos
		Low, High                 Node
		LowIncluded, HighIncluded bool
	}
	// UnaryCompare is a unary test "< X", "<= X", "> X", ">= X", "= X" or
	// "!= X". As an expression it denotes an open-ended range.
	UnaryCompare struct {
		From Pos
		Op   Op
		X    Node
	}
	// UnaryTests is the content of a decision table input entry: "-" (Any),
	// a comma list of positive unary tests, or not(...) of such a list.
	UnaryTests struct {
		From, To Pos
		Any      bool
		Not      bool
		Tests    []Node
	}
)

func (n *NumberLit) Pos() Pos    { return n.From }
func (n *NumberLit) End() Pos    { return n.To }
func (n *StringLit) Pos() Pos    { return n.From }
func (n *StringLit) End() Pos    { return n.To }
func (n *BoolLit) Pos() Pos      { return n.From }
func (n *BoolLit) End() Pos      { return n.To }
func (n *NullLit) Pos() Pos      { return n.From }
func (n *NullLit) End() Pos      { return n.To }
func (n *TemporalLit) Pos() Pos  { return n.From }
func (n *TemporalLit) End() Pos  { return n.To }
func (n *Name) Pos() Pos         { return n.From }
func (n *Name) End() Pos         { return n.To }
func (n *Path) Pos() Pos         { return n.X.Pos() }
func (n *Path) End() Pos         { return n.To }
func (n *Filter) Pos() Pos       { return n.X.Pos() }
func (n *Filter) End() Pos       { return n.To }
func (n *Call) Pos() Pos         { return n.Fun.Pos() }
func (n *Call) End() Pos         { return n.To }
func (n *Binary) Pos() Pos       { return n.X.Pos() }
func (n *Binary) End() Pos       { return n.Y.End() }
func (n *Negation) Pos() Pos     { return n.From }
func (n *Negation) End() Pos     { return n.X.End() }
func (n *Between) Pos() Pos      { return n.X.Pos() }
func (n *Between) End() Pos      { return n.High.End() }
func (n *In) Pos() Pos           { return n.X.Pos() }
func (n *In) End() Pos           { return n.To }
func (n *InstanceOf) Pos() Pos   { return n.X.Pos() }
func (n *InstanceOf) End() Pos   { return n.Type.End() }
func (n *If) Pos() Pos           { return n.From }
func (n *If) End() Pos           { return n.Else.End() }
func (n *For) Pos() Pos          { return n.From }
func (n *For) End() Pos          { return n.Return.End() }
func (n *Quantified) Pos() Pos   { return n.From }
func (n *Quantified) End() Pos   { return n.Satisfies.End() }
func (n *List) Pos() Pos         { return n.From }
func (n *List) End() Pos         { return n.To }
func (n *ContextLit) Pos() Pos   { return n.From }
func (n *ContextLit) End() Pos   { return n.To }
func (n *FuncDef) Pos() Pos      { return n.From }
func (n *FuncDef) End() Pos      { return n.Body.End() }
func (n *RangeLit) Pos() Pos     { return n.From }
func (n *RangeLit) End() Pos     { return n.To }
func (n *UnaryCompare) Pos() Pos { return n.From }
func (n *UnaryCompare) End() Pos { return n.X.End() }
func (n *UnaryTests) Pos() Pos   { return n.From }
func (n *UnaryTests) End() Pos   { return n.To }

// TypeNode is a type in "instance of" or a parameter declaration.
type TypeNode interface {
	Node
	typeNode()
}

type (
	// NamedType is a type by name: number, date and time, a user type, ns.tType.
	NamedType struct {
		From, To Pos
		Name     string
	}
	// ListType is list<Elem>.
	ListType struct {
		From, To Pos
		Elem     TypeNode
	}
	// RangeType is range<Elem>.
	RangeType struct {
		From, To Pos
		Elem     TypeNode
	}
	// ContextType is context<name: Type, ...>.
	ContextType struct {
		From, To Pos
		Fields   []FieldType
	}
	// FieldType is one field of a ContextType.
	FieldType struct {
		Name string
		Type TypeNode
	}
	// FunctionType is function<Params> -> Result.
	FunctionType struct {
		From, To Pos
		Params   []TypeNode
		Result   TypeNode
	}
)

func (n *NamedType) Pos() Pos    { return n.From }
func (n *NamedType) End() Pos    { return n.To }
func (n *ListType) Pos() Pos     { return n.From }
func (n *ListType) End() Pos     { return n.To }
func (n *RangeType) Pos() Pos    { return n.From }
func (n *RangeType) End() Pos    { return n.To }
func (n *ContextType) Pos() Pos  { return n.From }
func (n *ContextType) End() Pos  { return n.To }
func (n *FunctionType) Pos() Pos { return n.From }
func (n *FunctionType) End() Pos { return n.To }

func (*NamedType) typeNode()    {}
func (*ListType) typeNode()     {}
func (*RangeType) typeNode()    {}
func (*ContextType) typeNode()  {}
func (*FunctionType) typeNode() {}
