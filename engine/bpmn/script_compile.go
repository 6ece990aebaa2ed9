package bpmn

import (
	"github.com/dop251/goja"
)

// compiledScript is a script compiled once at deployment; goja programs
// are immutable and run in any number of runtimes.
type compiledScript struct {
	prog      *goja.Program
	elementID string
	guards    guards
}

func compileJS(name, src string) (*compiledScript, error) {
	prog, err := goja.Compile(name, src, false)
	if err != nil {
		return nil, err
	}
	return &compiledScript{prog: prog, elementID: name, guards: findGuards(src)}, nil
}
