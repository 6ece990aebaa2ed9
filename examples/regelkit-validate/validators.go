package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/regelkit/regelkit/dmn/validate"
	"github.com/regelkit/regelkit/shacl/layered"
	"github.com/regelkit/regelkit/sparql/graph"
)

const (
	kindDMN   = "dmn"
	kindSHACL = "shacl"
)

// Codes this command adds to the libraries' own.
const (
	codeRDFParse   = "RDF-PARSE"   // the RDF file does not parse
	codeSHACLLimit = "SHACL-LIMIT" // validation stopped at a shacl.Limits bound or -timeout
	codeSHACLLayer = "SHACL-LAYER" // a shape layer is not loaded (fail closed)
)

// severityRank orders the severities for -fail-on.
var severityRank = map[string]int{"info": 1, "warning": 2, "error": 3}

// finding is one issue of one file, whichever validator found it. Line and
// Column are 1-based, the column in Unicode code points; zero means the
// issue has no position in the file (a SHACL focus node the text does not
// name, such as a blank node).
type finding struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
	Layer    string `json:"layer,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
}

// fileResult is the outcome for one file.
type fileResult struct {
	File     string    `json:"file"`
	Valid    bool      `json:"valid"`
	Findings []finding `json:"issues"`
	// rules describes the codes of the findings, for SARIF.
	rules map[string]rule
}

// rule describes one code: the short text SARIF shows for it and its
// default severity.
type rule struct {
	Text     string
	Severity string
}

type validator interface {
	validate(ctx context.Context, name string, data []byte) fileResult
}

// dmnValidator runs dmn/validate.
type dmnValidator struct{}

func (dmnValidator) validate(_ context.Context, name string, data []byte) fileResult {
	report := validate.Validate(data)
	codes := make(map[string]validate.Code)
	for _, c := range validate.Codes() {
		codes[c.Code] = c
	}
	res := fileResult{File: name, Valid: report.Valid, Findings: []finding{}, rules: map[string]rule{}}
	lines := newLineIndex(data)
	for _, key := range validate.LayerKeys {
		for _, is := range report.Layers.Get(key).Issues {
			f := finding{
				Severity: string(is.Severity),
				Code:     is.Code,
				Message:  is.Message,
				Location: is.Location,
				Layer:    string(key),
				Line:     is.Line,
			}
			if is.Line > 0 {
				// dmn/validate counts the column in bytes; SARIF and
				// editors count characters.
				f.Column = lines.runeColumn(is.Line, is.Column)
			}
			res.Findings = append(res.Findings, f)
			c := codes[is.Code]
			text := c.Rule
			if text == "" {
				text = is.Code
			}
			res.rules[is.Code] = rule{Text: text, Severity: string(c.Severity)}
		}
	}
	return res
}

// shaclValidator runs shacl/layered over an RDF file.
type shaclValidator struct {
	checker *layered.Checker
	timeout time.Duration
}

func newSHACLValidator(timeout time.Duration) (*shaclValidator, error) {
	c, err := layered.Builtin()
	if err != nil {
		return nil, err
	}
	return &shaclValidator{checker: c, timeout: timeout}, nil
}

func (v *shaclValidator) validate(ctx context.Context, name string, data []byte) fileResult {
	res := fileResult{File: name, Findings: []finding{}, rules: map[string]rule{}}
	add := func(f finding, text string) {
		res.Findings = append(res.Findings, f)
		if _, ok := res.rules[f.Code]; !ok {
			res.rules[f.Code] = rule{Text: text, Severity: f.Severity}
		}
	}

	format, ok := graph.FormatFor(name)
	if !ok {
		format = graph.Turtle
	}
	prefixes := graph.NewPrefixes()
	g, err := graph.ParseGraph(bytes.NewReader(data), format, graph.ParseOptions{Prefixes: prefixes})
	if err != nil {
		f := finding{Severity: "error", Code: codeRDFParse, Message: err.Error()}
		var pe *graph.ParseError
		if errors.As(err, &pe) {
			f.Message = pe.Msg
			f.Line, f.Column = pe.Line, pe.Column
		}
		add(f, "The file is well-formed "+format.String())
		return res
	}

	ctx, cancel := context.WithTimeout(ctx, v.timeout)
	defer cancel()
	out, err := v.checker.Check(ctx, g)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			msg = fmt.Sprintf("SHACL validation did not finish within %v (-timeout)", v.timeout)
		}
		add(finding{Severity: "error", Code: codeSHACLLimit, Message: msg}, "SHACL validation finishes within its limits")
		return res
	}
	res.Valid = out.Valid

	var locate *focusIndex
	if format == graph.Turtle || format == graph.TriG || format == graph.NTriples || format == graph.NQuads {
		wanted := map[string]bool{}
		for _, layer := range out.Layers {
			for _, is := range layer.Issues {
				focus, _, _ := strings.Cut(is.Location, " ")
				wanted[focus] = true
			}
		}
		locate = newFocusIndex(data, prefixes, wanted)
	}
	for _, layer := range out.Layers {
		if !layer.Loaded {
			add(finding{Severity: "error", Code: codeSHACLLayer, Layer: layer.Key,
				Message: "the " + layer.Label + " shapes are not loaded; the file was not checked against them"},
				"Every SHACL layer is loaded")
			continue
		}
		for _, is := range layer.Issues {
			f := finding{Severity: is.Severity, Code: is.Code, Message: is.Message, Location: is.Location, Layer: layer.Key}
			if locate != nil {
				focus, _, _ := strings.Cut(is.Location, " ")
				f.Line, f.Column = locate.find(focus)
			}
			add(f, "SHACL "+strings.ToLower(strings.TrimPrefix(is.Code, "SHACL-"))+" constraint")
		}
	}
	return res
}

// lineIndex maps line numbers to byte offsets.
type lineIndex struct {
	data   []byte
	starts []int
}

func newLineIndex(data []byte) *lineIndex {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{data: data, starts: starts}
}

// runeColumn converts a 1-based byte column on a 1-based line to a
// 1-based column in code points.
func (x *lineIndex) runeColumn(line, byteCol int) int {
	if line < 1 || line > len(x.starts) || byteCol < 1 {
		return byteCol
	}
	start := x.starts[line-1]
	end := min(start+byteCol-1, len(x.data))
	return utf8.RuneCount(x.data[start:end]) + 1
}

// position returns the 1-based line and code-point column of a byte offset.
func (x *lineIndex) position(off int) (int, int) {
	lo, hi := 0, len(x.starts)
	for lo+1 < hi { // last start <= off
		mid := (lo + hi) / 2
		if x.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1, utf8.RuneCount(x.data[x.starts[lo]:off]) + 1
}
