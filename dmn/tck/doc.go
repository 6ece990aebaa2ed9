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
// "dmn-tck cl2: N passed, M failed" and "dmn-tck cl3: …", fails when a
// count drops below dmn/testdata/tck-floor.txt, and writes the results CSV
// when REGELKIT_DMN_TCK_CSV names a file.
package tck
