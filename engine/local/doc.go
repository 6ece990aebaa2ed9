// Package local is regelkit's embedded decision and process engine: it
// deploys DMN and BPMN models, keeps their decisions and processes as
// versioned definitions, evaluates decisions in-process on the dmn
// package and runs process instances on engine/bpmn's models, with no
// server. It implements engine.ProcessEngine, so the same code runs
// against it and against a remote Operaton, and engine/rest serves it
// under Operaton's REST paths.
//
//	e := local.New(local.Options{})
//	_, err := e.Deploy(ctx, engine.NewDeployment{Name: "models",
//		Resources: []engine.Resource{{Name: "model.dmn", Data: xml}}})
//	rows, err := e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
//	pi, err := e.StartProcess(ctx, engine.StartProcess{Key: "AanvraagProcess", Variables: vars})
//
// # Operaton semantics (the default)
//
// The embedded engine stands in for Operaton, so it evaluates the way
// Operaton (Camunda 7) does, for every deployment: evaluating a decision
// by key first evaluates its required decisions, depth-first in document
// order, each once; all of them share one variable map that starts as the
// caller's variables, and each result is merged into it by output name
// (one row: its entries; several rows, COLLECT or RULE ORDER: a list per
// output; no row: nothing). A reference to a variable that is not in the
// map fails with an *engine.EvaluationError naming the decision and the
// variable, and, when an earlier table matched no rule, that decision
// (NoRuleMatched). Single-hit tables return one row; UNIQUE with several
// matches and ANY with differing matches fail, as in Operaton, and so does
// an expression that does not compile when evaluation reaches it. Input
// expressions are FEEL expressions and input entries see the input as
// cellInput; empty input entries match anything; string dates work with
// date(…). camunda:versionTag and camunda:historyTimeToLive become the
// decision definition's. Options.Standard switches the engine to the DMN
// specification's semantics instead.
//
// Every decision of every DMN resource becomes a decision definition
// (key = decision id, version counted per tenant and key, the latest
// version wins); a file with several decisions also yields a decision
// requirements definition. Models are parsed and compiled once at
// deployment (a resource deployed again with the same bytes reuses the
// compiled model); a model that does not parse fails the deployment with
// an *engine.DeploymentError carrying resource, line and column (for
// malformed XML the line only, as engine/rest's tests still expect).
//
// # Bounded state
//
// The engine holds at most Options.MaxBytes of deployments (default
// 64 MiB, estimated as name and resource bytes, DMN counted DMNCostFactor = 5
// times for its compiled model: the three local-pass models are 91 KB of
// XML and take 430 KB of heap) in at most Options.MaxDeployments
// deployments (default 10,000). A deployment that would pass a ceiling
// first drops superseded deployments, oldest first: those whose every
// decision definition has a newer version (or gets one from this
// deployment). Latest versions are never dropped, so whatever is evaluated
// by key keeps working; when only they are left the deployment fails with
// *engine.StorageFullError (engine/rest answers 507) and nothing of it is
// kept. A deployment with engine.NewDeployment.ReplacePrevious deletes the
// earlier deployments of its name and tenant once it is made (the
// explorer's DRD exports use it, with duplicate filtering, so exporting a
// chain again does not add up). Dropping a deployment drops its decision
// definitions and, when no other deployment uses them, its compiled
// models; a key with no definitions left starts again at version 1, as in
// Operaton.
//
// Evaluation is dmn's Operaton mode (or DMN mode with Options.Standard)
// in one call: dmn evaluates the required decisions, merges their result
// lists, builds the result rows by hit policy and reports failures as
// typed *dmn.EvalError values, which become *engine.EvaluationError. The
// engine adds the repository (deployments, versions, tenants), the
// compiled-model cache, and typed variables in and out.
//
// # Processes
//
// BPMN resources (.bpmn, .bpmn20.xml) are parsed with engine/bpmn at
// deployment; a model it refuses fails the deployment with an
// *engine.DeploymentError naming the resource, element and line. Each
// executable process becomes a process definition (key = process id,
// versioned per key and tenant; a missing camunda:historyTimeToLive takes
// Options.DefaultHistoryTimeToLive). Forms (.form, form-js JSON, found by
// their "id" for camunda:formRef with binding latest, deployment or
// version), document templates and HTML forms (camunda:formKey
// "embedded:deployment:…") are resources of the deployment.
//
// Everything that outlives a command is kept in a Store (Options.Store;
// NewMemoryStore by default, engine/local/pgstore on PostgreSQL): the
// deployments with their resources, the process definitions, the running
// instances with their variables and execution state, the open user and
// external tasks, and history. One command — StartProcess, CompleteTask,
// CompleteExternalTask, … — is one step: it reads its records, moves the
// tokens until every instance involved waits (a user task, an external
// task, a called instance, a parallel join) or ends, and writes it all
// with one Store.Commit, atomically, under optimistic versions. A
// command that fails (a script error, a condition that does not
// evaluate, a budget) writes nothing. A version conflict — another engine
// on the same store changed a record first — re-reads and re-applies the
// command, so two engines never complete one task twice: the loser finds
// the task gone (404 "Cannot find task with id …", as Operaton).
//
// Tokens move depth-first as in Operaton: exclusive gateways take the
// first flow whose condition holds (else the default), parallel gateways
// fork and join, script tasks run JavaScript on goja under the script
// limits, business-rule tasks evaluate a decision of this engine (binding
// latest, deployment, version or versionTag; without
// camunda:decisionRefTenantId the process's tenant, then no tenant;
// "${null}" is no tenant) and write a HistoricDecision with its inputs
// and outputs, call activities start an instance of the called process
// (resolved like decisions; camunda:in/out with variables="all", source,
// sourceExpression and businessKey) whose end resumes the caller in the
// same commit, embedded sub-processes scope their tokens, and
// camunda:inputOutput parameters become local variables of the activity
// (input) and process variables (output; a business-rule task's output
// parameters see decisionResult). Error boundary events catch a BPMN
// error thrown by an error end event, by an external task's bpmnError or
// by a script that throws an object with an errorCode
// (throw {errorCode: "E1", message: "…"}), on the activity or any
// enclosing sub-process or calling activity; an uncaught error ends the
// throwing token. A token that reaches a signal or conditional event
// fails the command with a 500 ProcessEngineException naming the element
// (signal and conditional boundary events are never triggered).
//
// History follows Operaton: an instance is ACTIVE, SUSPENDED, COMPLETED
// (also through a terminate end event), EXTERNALLY_TERMINATED (cancelled
// with DeleteProcessInstance, with the instances it called) or
// INTERNALLY_TERMINATED (a called instance ended because its caller's
// activity was cancelled: a terminate end event or an error boundary in
// the caller). Activity types are Operaton's (startEvent, noneEndEvent,
// terminateEndEvent, errorEndEvent, boundaryError, userTask, …); user
// tasks end with deleteReason "completed" or the cancellation's reason;
// historic variables hold the latest value per instance and name.
//
// A Store implementation proves the contract with the conformance suite
// engine/local/storetest, and the engine on it with the behavioural suite
// engine/internal/enginetest.Processes.
//
// Engines sharing a store see each other at once for everything the
// store answers (definitions by id or key, instances, tasks, history);
// the decision repository and parsed models are per engine and load the
// deployments other engines made (by the store's Seq) when a lookup
// misses and before listings. A deployment deleted through one engine
// stays usable in another engine's memory until that one restarts.
//
// # Process bounds
//
// Options.ProcessLimits (Limits) bounds each command: MaxSteps elements
// without a wait state (a gateway loop stops with *LimitError
// "MaxSteps"), MaxDepth nested call activities (a process calling itself
// through another), MaxVariableBytes of one instance's variables, and
// each script's Timeout, call stack, MaxRows and MaxBytes
// (*bpmn.LimitError). Limit errors are returned as they are, not wrapped
// in *engine.Error, so servers map them with the shared LimitExceeded
// rule. The memory store holds at most MaxInstances running instances and
// MaxTasks open tasks (*engine.StorageFullError beyond) and the history
// of MaxHistory instances (the oldest ended ones are dropped).
//
// BenchmarkStartComplete3Step (start → user task → business-rule task →
// end, two commands) and BenchmarkTaskListMunicipality (one municipality's
// 1,000 tasks among 100,000 open ones, newest first, through the store's
// municipality index) measure the process side; their figures are in the
// README's performance table.
//
// # Incidents
//
// An external task whose retries reach 0 (ExternalTaskFailure or
// SetExternalTaskRetries) opens a failedExternalTask incident, held in
// the task's record and so written in the same Commit; setting retries
// above 0 or completing the task resolves it, and it leaves Incidents.
// As in Operaton, each calling instance up the call chain shows a copy at
// its call activity (caused by the incident below, rooted in the task's);
// the engine derives the copies when it lists incidents.
//
// BenchmarkOverheadVsDMN and BenchmarkOverheadVsDMNDRD alternate engine
// and dmn evaluations and report the engine's overhead in percent; its
// figure is in the README's performance table. Variables go to dmn as a FEEL
// context, and the result row's map is the one allocation left of note.
package local
