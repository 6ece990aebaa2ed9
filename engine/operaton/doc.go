// Package operaton is a client for the REST API of Operaton, the
// open-source fork of Camunda 7 (and of Camunda 7 itself): deployments,
// decision definitions, DMN XML, evaluation and the version probe, and
// the process side: process definitions, starting, instances and their
// variables, user tasks, external tasks (fetchAndLock with long polling,
// retries), incidents and history. It implements engine.ProcessEngine, so code written
// against the interface runs on a remote Operaton or on regelkit's
// embedded engine alike.
//
//	c, err := operaton.New(operaton.Config{BaseURL: "http://localhost:8080/engine-rest", Token: apiKey})
//	rows, err := c.Evaluate(ctx, "SZW_BijstandsnormInformatie", "", vars)
//	tasks, err := c.Tasks(ctx, engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}}})
//
// Errors: an answer with Operaton's {type, message} is an *engine.Error
// (a 404 matches engine.ErrNotFound; a ParseException's problem is an
// *engine.DeploymentError cause); a failure to reach the engine, a
// timeout or an answer that is not Operaton's matches
// engine.ErrUnavailable.
//
// BenchmarkEvaluateOverHTTP measures this client against engine/rest and
// engine/local on loopback. TestInteropTCK deploys the DMN TCK's compliance-level-2 models
// over HTTP and evaluates its 126 results over HTTP and in-process:
// identical in both engine modes, and all 126 as the TCK expects.
// TestProcessesOverHTTP runs engine/internal/enginetest's process suite
// through this client, engine/rest and engine/local.
//
// Queries with variable filters of other than text values, or with
// several sort keys, go as Operaton's POST aliases (POST /task, POST
// /process-instance, POST /history/process-instance); Task reads the
// task's identity links too (a second request) to fill its candidates.
package operaton
