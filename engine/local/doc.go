// Package local is regelkit's embedded decision engine: it deploys DMN
// models, keeps their decisions as versioned decision definitions and
// evaluates them in-process on the dmn package, with no server. It
// implements engine.Engine, so the same code runs against it and against a
// remote Operaton, and engine/rest serves it under Operaton's REST paths.
//
//	e := local.New(local.Options{})
//	_, err := e.Deploy(ctx, engine.NewDeployment{Name: "models",
//		Resources: []engine.Resource{{Name: "model.dmn", Data: xml}}})
//	rows, err := e.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
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
// BenchmarkOverheadVsDMN and BenchmarkOverheadVsDMNDRD alternate engine
// and dmn evaluations and report the engine's overhead in percent; its
// figure is in the README's performance table. Variables go to dmn as a FEEL
// context, and the result row's map is the one allocation left of note.
package local
