// Package bpmn is the model half of regelkit's embedded process engine:
// it parses BPMN 2.0 documents written in Camunda Modeler for Camunda 7
// or Operaton (both extension namespaces) into an immutable, executable
// model, compiles their JUEL expressions and JavaScript scripts once, and
// evaluates them against a variable scope the runtime (engine/local)
// provides. Everything the embedded engine cannot execute is refused at
// deployment with the element's id, line and column.
//
// The call a newcomer needs:
//
//	defs, err := bpmn.Parse(xml, bpmn.ParseOptions{Resource: "aanvraag.bpmn"})
//	p := defs.Process("AanvraagProcess")        // key = process id
//	flows, err := p.ByID["Gateway_1"].Next(vars) // vars implements bpmn.Variables
//	res, err := bpmn.RunScript(ctx, task.Script, scope, bpmn.Limits{})
//
// Next chooses the flows a token takes as Operaton does, EvalList splits
// candidate users and groups, ParamValue.Eval computes input and output
// parameters and MapDecisionResult applies camunda:mapDecisionResult; the
// runtime (engine/local) keeps the tokens, variables and history.
//
// # Supported elements
//
// Start events (none, with camunda:formKey or camunda:formRef and
// camunda:formRefBinding latest/deployment/version, camunda:initiator),
// end events (none, terminate, error), user tasks (assignee, candidate
// users and groups, due and follow-up dates, priority, forms, the RONL
// attributes ronl:documentRef and friends in Element.Extensions), manual
// tasks, plain tasks, script tasks (javascript, inline), business-rule
// tasks (camunda:decisionRef with binding, version, tenant — ${null} is
// untenanted —, resultVariable and the four mapDecisionResult mappings,
// see MapDecisionResult), external service and send tasks
// (camunda:type="external", camunda:topic), call activities
// (calledElement with binding, version and tenant, camunda:in/camunda:out
// with source, sourceExpression, target, local, variables="all" and
// businessKey), embedded sub-processes, exclusive gateways with
// conditions and default flows, parallel gateways, error boundary events
// on activities, camunda:inputOutput (text, list, map, script values),
// execution and task listeners with expressions or inline javascript,
// camunda:properties (boardOwner), camunda:historyTimeToLive (may be
// absent: the runtime's default applies), lanes and collaborations.
// Signal and conditional events deploy and carry Element.Unsupported: an
// instance fails with that message when a token reaches one. Other event
// definitions (timer, message, escalation, …), inclusive and event-based
// gateways, receive tasks, event sub-processes, multi-instance, Java
// delegates, connectors and generated forms (camunda:formData) are
// refused. Processes with isExecutable="false" are skipped. A cycle of
// elements that neither wait nor choose (each with one outgoing flow) and
// a call activity whose calledElement is its own process are refused;
// other loops are the runtime's step budget's to stop.
//
// # Bounds
//
// Parse refuses documents over ParseOptions.MaxBytes (10 MiB), deeper
// than MaxDepth elements (100) or with more than MaxElements elements
// (50,000, diagram included), with a *ParseError; reading is one
// iterative pass of encoding/xml, and DOCTYPEs are refused. Model errors
// come as an ErrorList of at most 20 *ParseError values, each with
// resource, line, column and element id. JUEL expressions nest at most
// 100 deep and are at most 64 KiB. Scripts run under Limits (Timeout,
// MaxDepth, MaxRows, MaxBytes; see RunScript for how goja is held to
// them); a *LimitError follows the project's shared limits contract
// (LimitExceeded), other script failures are *ScriptError.
//
// # Benchmarks
//
// go test ./engine/bpmn -run XXX -bench . measures parsing a model, a
// gateway condition and a script task. A script task's cost is mostly its
// fresh goja runtime: a runtime is never reused, so no state leaks between
// instances.
//
// # JUEL
//
// CompileExpr implements the subset of the Unified Expression Language
// that Camunda models use, with EL's coercion rules: literals, variables,
// property and index access, the comparison, logical, arithmetic and
// empty operators (symbols and words), ?:, and method calls on execution
// (hasVariable, getVariable, getProcessBusinessKey, …) and on decision
// results (getSingleResult().getEntry("x"), getResultList(), size(), …).
// Unknown methods, functions, lambdas and assignments fail to compile,
// naming the expression.
package bpmn
