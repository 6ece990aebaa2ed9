// Package tck runs the OMG DMN Technology Compatibility Kit against the dmn
// package: it reads the TCK's test case files (testCases.xsd), evaluates
// each test case against its models, compares the results with the TCK's
// equality rules and writes the TCK's five-column results CSV.
//
// The whole suite runs with RunSuite; one folder with RunFolder:
//
//	outcomes, err := tck.RunFolder(ctx, "TestCases/compliance-level-2/0004-simpletable-U", "compliance-level-2/0004-simpletable-U")
//
// The suite's own test (go test -v ./dmn/tck) runs compliance levels 2 and
// 3 from ../shared/testsuites/dmn-tck (REGELKIT_DMN_TCK overrides), prints
// "dmn-tck cl2: N passed, M failed", "dmn-tck cl3: …" and "dmn-tck all:
// P/T", and writes the results CSV when REGELKIT_DMN_TCK_CSV names a file.
// The floor files testdata/passing-cl2.txt and passing-cl3.txt list the
// test cases that pass, one "folder file id" per line: one listed that
// fails (or no longer runs) fails the test, one that passes unlisted is
// printed as newly passing; go test ./dmn/tck -run TCK -update rewrites
// them. Today every one of the 3391 test cases passes.
package tck
