// Package server is the CPRMV rule-serving API as a library, so that its command
// (../main.go) and the all-in-one stack (servers/stack) build the same
// server. Options inject the dependencies the stack shares; everything
// else comes from the environment, as documented in the README.
//
//	err := server.Run(ctx, server.Options{}) // serve until ctx ends, then drain
//
// New, Listeners and Handler are the parts of Run a process serving
// several servers under one lifecycle.Lifecycle needs.
package server
