package main

import (
	"fmt"
	"os"
)

// The command as a CI step runs it: one line per issue, a count, and the
// exit status (0 here: an info does not reach the default -fail-on error).
func Example() {
	code := run([]string{"dmn", "testdata/ok.dmn"}, os.Stdout, os.Stderr)
	fmt.Printf("exit status %d\n", code)
	// Output:
	// testdata/ok.dmn: info EXEC-001: the model carries no CPRMV attribute (namespace https://cprmv.open-regels.nl/0.3.0/ or https://standaarden.open-regels.nl/standards/cprmv/0.4.1#); the CPRMV checks are skipped
	// 1 file checked: 0 errors, 0 warnings, 1 info
	// exit status 0
}
