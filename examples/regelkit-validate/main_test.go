package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/suitetest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed testdata/sarif-2.1.0-subset.schema.json
var sarifSchemaText []byte

// The fixtures of the golden tests, in the order they are passed.
var (
	dmnFiles   = []string{"testdata/toeslag.dmn", "testdata/broken.dmn", "testdata/ok.dmn"}
	shaclFiles = []string{"testdata/regels.ttl", "testdata/kapot.ttl", "testdata/regel.nt"}
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	suitetest.Golden(t, filepath.Join("testdata", "golden", name), []byte(got))
}

func TestGolden(t *testing.T) {
	for _, kind := range []string{kindDMN, kindSHACL} {
		files := dmnFiles
		if kind == kindSHACL {
			files = shaclFiles
		}
		for _, format := range []string{"human", "json", "sarif"} {
			t.Run(kind+"/"+format, func(t *testing.T) {
				code, out, errOut := runCmd(t, append([]string{kind, "-format", format}, files...)...)
				if code != exitIssues {
					t.Errorf("exit code %d, want %d; stderr: %s", code, exitIssues, errOut)
				}
				if errOut != "" {
					t.Errorf("stderr: %q, want nothing", errOut)
				}
				golden(t, kind+"."+format, out)
				if format == "sarif" {
					checkSARIF(t, []byte(out))
				}
			})
		}
	}
}

// TestHumanLines pins the lines a reader relies on, written by hand: the
// positions (columns in characters, not bytes) and the summary.
func TestHumanLines(t *testing.T) {
	_, out, _ := runCmd(t, append([]string{"dmn"}, dmnFiles...)...)
	for _, want := range []string{
		// The rule's line holds "ëën" before <inputEntry>: byte column 35,
		// character column 33.
		"testdata/toeslag.dmn:17:33: error BIZ-015: rule \"r3\"",
		"testdata/toeslag.dmn:13:7: error BIZ-016: rules \"r1\" and \"r2\" of this UNIQUE table overlap",
		"testdata/toeslag.dmn: info EXEC-001: ",
		"testdata/broken.dmn:6:1: error BASE-PARSE: ",
		"3 files checked: 3 errors, 1 warning, 2 infos\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, append([]string{"shacl"}, shaclFiles...)...)
	for _, want := range []string{
		// ex:inkomen is named in a comment (line 13) and a literal (line
		// 11) before its subject on line 14: both are skipped.
		"testdata/regels.ttl:14:1: error SHACL-MINCOUNT: SHACL-MINCOUNT (at https://regels.example/rules/inkomen dct:description)\n",
		"testdata/kapot.ttl:4:25: error RDF-PARSE: ",
		"testdata/regel.nt:1:1: error SHACL-MINCOUNT: ",
		"3 files checked: 7 errors, 0 warnings, 0 infos\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// checkSARIF validates a log against the schema subset and checks by hand
// what the schema cannot: every result's ruleIndex names its rule.
func checkSARIF(t *testing.T, out []byte) {
	t.Helper()
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarifSchemaText))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://regelkit.example/testdata/sarif-2.1.0-subset.schema.json"
	if err := c.AddResource(url, schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("SARIF output is no JSON: %v", err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("SARIF output fails the schema: %v", err)
	}

	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	r := log.Runs[0]
	if len(r.Results) == 0 {
		t.Fatal("no results")
	}
	for i, res := range r.Results {
		if res.RuleIndex < 0 || res.RuleIndex >= len(r.Tool.Driver.Rules) || r.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d: ruleIndex %d does not name rule %q", i, res.RuleIndex, res.RuleID)
		}
	}
}

// TestSchemaRejects proves the schema check can fail: a log that breaks
// SARIF's rules in three ways is refused.
func TestSchemaRejects(t *testing.T) {
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarifSchemaText))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://regelkit.example/testdata/sarif-2.1.0-subset.schema.json"
	if err := c.AddResource(url, schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"wrong version":   `{"version":"2.0.0","runs":[]}`,
		"info level":      `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"level":"info","message":{"text":"m"}}]}]}`,
		"line 0":          `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startLine":0}}}]}]}]}`,
		"message no text": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{}}]}]}`,
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(doc) == nil {
			t.Errorf("%s: the schema accepts %s", name, bad)
		}
	}
}

func TestSARIFFields(t *testing.T) {
	_, out, _ := runCmd(t, "dmn", "-format", "sarif", "testdata/toeslag.dmn")
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0]
	if log.Version != "2.1.0" || r.Tool.Driver.Name != "regelkit-validate" || r.ColumnKind != "unicodeCodePoints" {
		t.Errorf("version %q, driver %q, columnKind %q", log.Version, r.Tool.Driver.Name, r.ColumnKind)
	}
	var ids []string
	for _, ru := range r.Tool.Driver.Rules {
		ids = append(ids, ru.ID+"="+ru.DefaultConfiguration.Level)
	}
	if got, want := strings.Join(ids, " "), "BIZ-015=error BIZ-016=error EXEC-001=note INT-007=warning"; got != want {
		t.Errorf("rules %s, want %s", got, want)
	}
	first := r.Results[0]
	if first.RuleID != "BIZ-015" || first.Level != "error" {
		t.Errorf("first result %s %s", first.RuleID, first.Level)
	}
	pl := first.Locations[0].PhysicalLocation
	if pl.ArtifactLocation.URI != "testdata/toeslag.dmn" || pl.Region == nil || pl.Region.StartLine != 17 || pl.Region.StartColumn != 33 {
		t.Errorf("first location %+v region %+v", pl.ArtifactLocation, pl.Region)
	}
	// EXEC-001 is about the whole model: a file location without a region.
	for _, res := range r.Results {
		if res.RuleID == "EXEC-001" && (res.Level != "note" || res.Locations[0].PhysicalLocation.Region != nil) {
			t.Errorf("EXEC-001: level %s, region %+v", res.Level, res.Locations[0].PhysicalLocation.Region)
		}
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.dmn")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), 101), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		stderr   string // a substring of stderr, "" for none
		stdout   string // a substring of stdout
		noStdout bool
	}{
		{name: "no arguments", args: nil, code: 2, stderr: "usage: regelkit-validate", noStdout: true},
		{name: "unknown command", args: []string{"bpmn", "x"}, code: 2, stderr: `unknown command "bpmn"`, noStdout: true},
		{name: "no files", args: []string{"dmn"}, code: 2, stderr: "no files given", noStdout: true},
		{name: "bad format", args: []string{"dmn", "-format", "xml", "testdata/ok.dmn"}, code: 2, stderr: `-format "xml"`, noStdout: true},
		{name: "bad fail-on", args: []string{"dmn", "-fail-on", "fatal", "testdata/ok.dmn"}, code: 2, stderr: `-fail-on "fatal"`, noStdout: true},
		{name: "unknown flag", args: []string{"dmn", "-strict", "testdata/ok.dmn"}, code: 2, stderr: "flag provided but not defined", noStdout: true},
		{name: "missing file, the others still reported", args: []string{"dmn", "testdata/nope.dmn", "testdata/toeslag.dmn"}, code: 2,
			stderr: "testdata/nope.dmn", stdout: "toeslag.dmn:13:7: error BIZ-016"},
		{name: "file over -max-bytes", args: []string{"dmn", "-max-bytes", "100", big}, code: 2, stderr: "more than 100 bytes (-max-bytes)"},
		{name: "file at -max-bytes", args: []string{"dmn", "-max-bytes", "101", big}, code: 1, stdout: "BASE-PARSE"},
		{name: "only infos", args: []string{"dmn", "testdata/ok.dmn"}, code: 0, stdout: "1 file checked: 0 errors, 0 warnings, 1 info"},
		{name: "only infos, -fail-on info", args: []string{"dmn", "-fail-on", "info", "testdata/ok.dmn"}, code: 1},
		{name: "errors, -fail-on none", args: []string{"dmn", "-fail-on", "none", "testdata/toeslag.dmn"}, code: 0},
		{name: "flags after the files", args: []string{"dmn", "testdata/toeslag.dmn", "-fail-on", "none", "testdata/ok.dmn", "-format", "json"}, code: 0,
			stdout: `"file": "testdata/ok.dmn"`},
		{name: "-- ends the flags", args: []string{"dmn", "-fail-on", "none", "--", "testdata/ok.dmn", "-format"}, code: 2,
			stderr: "-format: no such file", stdout: "1 file checked"},
		{name: "errors", args: []string{"dmn", "testdata/toeslag.dmn"}, code: 1},
		{name: "shacl errors", args: []string{"shacl", "testdata/regels.ttl"}, code: 1},
		{name: "shacl conformant rule", args: []string{"shacl", "-format", "json", "testdata/leeftijd.ttl"}, code: 0, stdout: `"valid": true`},
		// RDF/XML is parsed by extension; its issues carry no position.
		{name: "shacl RDF/XML", args: []string{"shacl", "testdata/regel.rdf"}, code: 1,
			stdout: "testdata/regel.rdf: error SHACL-MINCOUNT: SHACL-MINCOUNT (at https://regels.example/rules/xml dct:title)\n"},
		{name: "shacl timeout", args: []string{"shacl", "-timeout", "1ns", "testdata/regels.ttl"}, code: 1,
			stdout: "testdata/regels.ttl: error SHACL-LIMIT: SHACL validation did not finish within 1ns (-timeout)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errOut)
			}
			if tc.stderr == "" && errOut != "" {
				t.Errorf("stderr %q, want nothing", errOut)
			}
			if !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr %q lacks %q", errOut, tc.stderr)
			}
			if !strings.Contains(out, tc.stdout) {
				t.Errorf("stdout %q lacks %q", out, tc.stdout)
			}
			if tc.noStdout && out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// TestFocusIndex checks the scan that positions SHACL issues on a text
// with the traps the scanner must step over.
func TestFocusIndex(t *testing.T) {
	text := "@prefix ex: <https://e.example/> .\n" + // 1
		"# ex:a in a comment\n" + // 2
		"<https://e.example/b> ex:p \"ex:a <https://e.example/a> \\\" ex:a\" .\n" + // 3
		"<https://e.example/b> ex:p \"\"\"long\nex:a\"\"\" .\n" + // 4, 5
		"[] ex:p \"é\", ex:a.\n" // 6: ex:a at byte 15, character 14
	prefixes := graph.NewPrefixes("ex", "https://e.example/")
	x := newFocusIndex([]byte(text), prefixes, map[string]bool{
		"https://e.example/a": true, "https://e.example/b": true, "https://e.example/none": true,
	})
	for focus, want := range map[string][2]int{
		"https://e.example/a":    {6, 14},
		"https://e.example/b":    {3, 1},
		"https://e.example/none": {0, 0},
		"https://e.example/p":    {0, 0}, // not asked for
	} {
		l, c := x.find(focus)
		if l != want[0] || c != want[1] {
			t.Errorf("%s at %d:%d, want %d:%d", focus, l, c, want[0], want[1])
		}
	}
}
