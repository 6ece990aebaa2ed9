package bpmn

// The model is built once by Parse and never changed afterwards, so the
// runtime shares one *Definitions between all instances of a definition
// without locks. Callers must treat every field as read-only.

// Definitions is one parsed BPMN file: its executable processes and the
// collaboration (pools) around them.
type Definitions struct {
	ID              string
	Name            string
	TargetNamespace string
	// ExecutionPlatform and its version, as Camunda Modeler writes them
	// (modeler:executionPlatform); informational.
	ExecutionPlatform, ExecutionPlatformVersion string
	Processes                                   []*Process
	Collaborations                              []*Collaboration
	// Errors, Signals and Messages declared at the top level, by id.
	Errors   map[string]*ErrorDef
	Signals  map[string]*SignalDef
	Messages map[string]*MessageDef
}

// Process returns the process with the id, or nil.
func (d *Definitions) Process(id string) *Process {
	for _, p := range d.Processes {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// Process is one bpmn:process: the definition's key is its ID.
type Process struct {
	ID, Name     string
	IsExecutable bool
	// HistoryTimeToLive is camunda:historyTimeToLive as written ("180",
	// "P180D"); empty when absent, and the runtime applies its configured
	// default then.
	HistoryTimeToLive      string
	VersionTag             string
	CandidateStarterGroups *Expr
	CandidateStarterUsers  *Expr
	Properties             map[string]string // camunda:properties, e.g. boardOwner
	Lanes                  []*Lane
	Listeners              []*Listener
	Scope                  // the process's flow elements
	Line, Column           int
}

// Scope holds the flow elements of a process or of an embedded
// sub-process.
type Scope struct {
	Elements    []*Element          // flow nodes in document order
	Flows       []*Flow             // sequence flows in document order
	ByID        map[string]*Element // a process: every flow node, nested ones too; a sub-process: its own
	StartEvents []*Element          // the scope's own start events
}

// Kind is the type of a flow node.
type Kind int

// The flow node kinds.
const (
	StartEvent Kind = iota + 1
	EndEvent
	IntermediateThrowEvent
	IntermediateCatchEvent
	BoundaryEvent
	Task // a bpmn:task without type: passes straight through
	UserTask
	ManualTask
	ScriptTask
	BusinessRuleTask
	ServiceTask // external (camunda:type="external"); also sendTask of that type
	CallActivity
	SubProcess
	ExclusiveGateway
	ParallelGateway
)

var kindNames = [...]string{
	StartEvent: "startEvent", EndEvent: "endEvent", IntermediateThrowEvent: "intermediateThrowEvent",
	IntermediateCatchEvent: "intermediateCatchEvent", BoundaryEvent: "boundaryEvent", Task: "task",
	UserTask: "userTask", ManualTask: "manualTask", ScriptTask: "scriptTask",
	BusinessRuleTask: "businessRuleTask", ServiceTask: "serviceTask", CallActivity: "callActivity",
	SubProcess: "subProcess", ExclusiveGateway: "exclusiveGateway", ParallelGateway: "parallelGateway",
}

// String returns the BPMN element name of the kind ("userTask").
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// EventKind is the event definition of an event.
type EventKind int

// The event definitions.
const (
	NoneEvent EventKind = iota
	TerminateEvent
	ErrorEvent
	SignalEvent
	ConditionalEvent
)

// Element is one flow node. Kind says which of the optional parts is set.
type Element struct {
	ID, Name     string
	Kind         Kind
	Line, Column int // of the element's start tag
	Incoming     []*Flow
	Outgoing     []*Flow
	// Default is the default flow of an exclusive gateway or of an
	// activity with conditional outgoing flows.
	Default *Flow
	Lane    *Lane
	// Parent is the embedded sub-process the element is in, nil at the
	// process level.
	Parent *Element
	// AsyncBefore and AsyncAfter are camunda:asyncBefore/asyncAfter; the
	// embedded runtime commits at these points.
	AsyncBefore, AsyncAfter bool

	// Event holds the event definition of events.
	Event *Event
	// AttachedTo is the activity a boundary event is attached to; Boundary
	// lists an activity's boundary events.
	AttachedTo     *Element
	CancelActivity bool
	Boundary       []*Element

	// Unsupported is set on signal and conditional events: they deploy,
	// and an instance fails with this message when a token reaches them.
	Unsupported string

	InputOutput *InputOutput
	Listeners   []*Listener
	Properties  map[string]string // camunda:properties
	// Extensions holds attributes of the RONL namespace
	// (http://ronl.nl/schema/1.0) by local name: documentRef,
	// signatureRef, awbPhase, ropaRef.
	Extensions map[string]string

	Form     *Form         // start events and user tasks
	User     *UserTaskDef  // user tasks
	Script   *Script       // script tasks
	Decision *DecisionRef  // business-rule tasks
	External *ExternalTask // external service tasks
	Call     *CallDef      // call activities
	Sub      *Scope        // embedded sub-processes
}

// DocumentRef returns the element's ronl:documentRef, or "".
func (e *Element) DocumentRef() string { return e.Extensions["documentRef"] }

// Flow is a sequence flow.
type Flow struct {
	ID, Name       string
	Source, Target *Element
	// Condition is the flow's conditionExpression, nil when it has none.
	Condition    *Expr
	Line, Column int
}

// Event is an event's definition.
type Event struct {
	Kind EventKind
	// Error is the referenced error of an error event (nil: catch all).
	Error *ErrorDef
	// Signal is the referenced signal of a signal event.
	Signal *SignalDef
	// Condition is a conditional event's condition.
	Condition *Expr
	// Initiator is camunda:initiator of a start event: the variable that
	// receives the starting user's id.
	Initiator string
}

// ErrorDef is a bpmn:error.
type ErrorDef struct{ ID, Name, ErrorCode string }

// SignalDef is a bpmn:signal.
type SignalDef struct{ ID, Name string }

// MessageDef is a bpmn:message.
type MessageDef struct{ ID, Name string }

// Lane is a bpmn:lane; its flow nodes point back to it.
type Lane struct {
	ID, Name string
	Elements []*Element
}

// Collaboration is a bpmn:collaboration: the pools of the diagram.
type Collaboration struct {
	ID           string
	Participants []Participant
}

// Participant is a pool; ProcessRef names its process (empty for a
// collapsed pool of an outside party).
type Participant struct{ ID, Name, ProcessRef string }

// Form links a start event or user task to its form.
type Form struct {
	// Key is camunda:formKey ("embedded:deployment:forms/start.html",
	// "camunda-forms:deployment:x.form", …).
	Key *Expr
	// Ref is camunda:formRef, the id of a form-js form; RefBinding is
	// camunda:formRefBinding: "latest" (the default), "deployment" or
	// "version" with RefVersion.
	Ref        *Expr
	RefBinding string
	RefVersion *Expr
}

// UserTaskDef is the assignment of a user task.
type UserTaskDef struct {
	Assignee        *Expr
	CandidateUsers  *Expr // comma-separated after evaluation
	CandidateGroups *Expr // comma-separated after evaluation
	DueDate         *Expr
	FollowUpDate    *Expr
	Priority        *Expr
}

// Script is a script task's (or listener's) JavaScript, compiled once.
type Script struct {
	Format         string // "javascript"
	Source         string
	ResultVariable string
	program        *compiledScript
}

// DecisionRef is a business-rule task's decision.
type DecisionRef struct {
	Ref            *Expr  // camunda:decisionRef: the decision key
	Binding        string // camunda:decisionRefBinding: latest (default), deployment, version, versionTag
	Version        *Expr
	VersionTag     *Expr
	TenantID       *Expr // camunda:decisionRefTenantId; ${null} means untenanted
	ResultVariable string
	// MapResult is camunda:mapDecisionResult: one of MapSingleEntry,
	// MapSingleResult, MapCollectEntries, MapResultList (the default).
	MapResult string
}

// ExternalTask is an external service task.
type ExternalTask struct {
	Topic    *Expr
	Priority *Expr
}

// CallDef is a call activity.
type CallDef struct {
	CalledElement *Expr  // the called process's key
	Binding       string // camunda:calledElementBinding: latest (default), deployment, version, versionTag
	Version       *Expr
	VersionTag    *Expr
	TenantID      *Expr
	BusinessKey   *Expr // camunda:in businessKey="…"
	In, Out       []VariableMapping
}

// VariableMapping is one camunda:in or camunda:out.
type VariableMapping struct {
	All    bool   // variables="all"
	Local  bool   // local="true"
	Source string // source variable
	// SourceExpression is sourceExpression, when given instead of Source.
	SourceExpression *Expr
	Target           string
}

// InputOutput is camunda:inputOutput.
type InputOutput struct {
	Inputs, Outputs []Parameter
}

// Parameter is one camunda:inputParameter or outputParameter.
type Parameter struct {
	Name  string
	Value ParamValue
}

// ParamValue is a parameter's value: exactly one of the fields is set
// (an empty parameter has Text nil: the value null).
type ParamValue struct {
	Text   *Expr // text content: a literal or an expression
	List   []ParamValue
	Map    []MapEntry
	Script *Script
	IsList bool // distinguishes an empty list from null
	IsMap  bool
}

// MapEntry is one entry of a camunda:map.
type MapEntry struct {
	Key   string
	Value ParamValue
}

// Listener is a camunda:executionListener or taskListener with an inline
// script or an expression.
type Listener struct {
	Task       bool   // a taskListener
	EventName  string // start, end, take; create, assignment, complete, …
	Expression *Expr
	Script     *Script
}
