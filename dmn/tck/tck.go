package tck

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/beevik/etree"
	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/dmn/feel"
)

// TestCases is a parsed TCK test case file.
type TestCases struct {
	ModelName string
	Cases     []*TestCase
}

// TestCase is one <testCase>.
type TestCase struct {
	ID, Name      string
	Type          string // decision (default), bkm, decisionService
	InvocableName string
	Description   string
	Inputs        []*Node
	Results       []*ResultNode
}

// Node is a named value (an inputNode).
type Node struct {
	Name, Namespace string
	Value           *Value
}

// ResultNode is an expected result.
type ResultNode struct {
	Name, Namespace, Type string
	ErrorResult           bool
	Expected              *Value // nil when there is no <expected>
}

// Value is a typed TCK value: a simple value, components, or a list.
type Value struct {
	Nil        bool
	XSIType    string
	Text       string
	Components []*Component // non-nil for a context
	List       []*Value     // non-nil for a list
	IsList     bool
}

// Component is a named part of a context value.
type Component struct {
	Name  string
	Value *Value
}

// ParseTestCases reads a TCK test case XML file.
func ParseTestCases(r io.Reader) (*TestCases, error) {
	doc := etree.NewDocument()
	if _, err := doc.ReadFrom(r); err != nil {
		return nil, err
	}
	root := doc.Root()
	if root == nil || root.Tag != "testCases" {
		return nil, fmt.Errorf("tck: root element is not testCases")
	}
	tc := &TestCases{}
	if m := root.SelectElement("modelName"); m != nil {
		tc.ModelName = strings.TrimSpace(m.Text())
	}
	for _, c := range root.SelectElements("testCase") {
		t := &TestCase{ID: c.SelectAttrValue("id", ""), Name: c.SelectAttrValue("name", ""),
			Type: c.SelectAttrValue("type", "decision"), InvocableName: c.SelectAttrValue("invocableName", "")}
		if d := c.SelectElement("description"); d != nil {
			t.Description = d.Text()
		}
		for _, in := range c.SelectElements("inputNode") {
			t.Inputs = append(t.Inputs, &Node{Name: in.SelectAttrValue("name", ""), Namespace: in.SelectAttrValue("namespace", ""), Value: parseValue(in)})
		}
		for _, rn := range c.SelectElements("resultNode") {
			r := &ResultNode{Name: rn.SelectAttrValue("name", ""), Namespace: rn.SelectAttrValue("namespace", ""),
				Type: rn.SelectAttrValue("type", ""), ErrorResult: rn.SelectAttrValue("errorResult", "false") == "true"}
			if ex := rn.SelectElement("expected"); ex != nil {
				r.Expected = parseValue(ex)
			}
			t.Results = append(t.Results, r)
		}
		tc.Cases = append(tc.Cases, t)
	}
	return tc, nil
}

func isNil(e *etree.Element) bool {
	for _, a := range e.Attr {
		if a.Key == "nil" && a.Value == "true" {
			return true
		}
	}
	return false
}

func parseValue(e *etree.Element) *Value {
	if isNil(e) {
		return &Value{Nil: true}
	}
	if v := e.SelectElement("value"); v != nil {
		if isNil(v) {
			return &Value{Nil: true}
		}
		t := ""
		for _, a := range v.Attr {
			if a.Key == "type" {
				t = a.Value
				if i := strings.IndexByte(t, ':'); i >= 0 {
					t = t[i+1:]
				}
			}
		}
		return &Value{XSIType: t, Text: v.Text()}
	}
	if l := e.SelectElement("list"); l != nil {
		if isNil(l) {
			return &Value{Nil: true}
		}
		out := &Value{IsList: true, List: []*Value{}}
		for _, it := range l.SelectElements("item") {
			out.List = append(out.List, parseValue(it))
		}
		return out
	}
	comps := e.SelectElements("component")
	if len(comps) > 0 {
		out := &Value{}
		for _, c := range comps {
			out.Components = append(out.Components, &Component{Name: c.SelectAttrValue("name", ""), Value: parseValue(c)})
		}
		return out
	}
	return &Value{Nil: true}
}

// FEEL converts a TCK value to a FEEL value.
func (v *Value) FEEL() feel.Value {
	if v == nil || v.Nil {
		return nil
	}
	if v.IsList {
		out := make([]feel.Value, len(v.List))
		for i, e := range v.List {
			out[i] = e.FEEL()
		}
		return out
	}
	if v.Components != nil {
		c := feel.NewContext(len(v.Components))
		for _, comp := range v.Components {
			c.Put(comp.Name, comp.Value.FEEL())
		}
		return c
	}
	text := v.Text
	switch v.XSIType {
	case "decimal", "double", "float", "integer", "int", "long", "short":
		d, err := feel.ParseNumber(strings.TrimSpace(text))
		if err != nil {
			return nil
		}
		return d
	case "boolean":
		return strings.TrimSpace(text) == "true"
	case "date":
		if d, ok := feel.ParseDate(strings.TrimSpace(text)); ok {
			return d
		}
	case "dateTime":
		if d, ok := feel.ParseDateTime(strings.TrimSpace(text)); ok {
			return d
		}
	case "time":
		if t, ok := feel.ParseTime(strings.TrimSpace(text)); ok {
			return t
		}
	case "duration", "dayTimeDuration", "yearMonthDuration":
		if d, ok := feel.ParseDuration(strings.TrimSpace(text)); ok {
			return d
		}
	default:
		return text
	}
	return text
}

// Equal compares an expected TCK value with an actual FEEL value:
// numbers by value, dates and times by value and zone, lists element by
// element, contexts entry by entry (same keys).
func Equal(expected, actual feel.Value) bool {
	if expected == nil {
		return actual == nil
	}
	switch e := expected.(type) {
	case *apd.Decimal:
		a, ok := actual.(*apd.Decimal)
		return ok && numbersEqual(e, a)
	case []feel.Value:
		a, ok := actual.([]feel.Value)
		if !ok || len(a) != len(e) {
			return false
		}
		for i := range e {
			if !Equal(e[i], a[i]) {
				return false
			}
		}
		return true
	case *feel.Context:
		a, ok := actual.(*feel.Context)
		if !ok || a.Len() != e.Len() {
			return false
		}
		for i := 0; i < e.Len(); i++ {
			k, ev := e.Entry(i)
			av, has := a.Get(k)
			if !has || !Equal(ev, av) {
				return false
			}
		}
		return true
	case feel.DateTime:
		a, ok := actual.(feel.DateTime)
		return ok && feel.Equal(e, a) == true && (e.Zone.Kind == feel.ZoneNone) == (a.Zone.Kind == feel.ZoneNone)
	case feel.Time:
		a, ok := actual.(feel.Time)
		return ok && feel.Equal(e, a) == true
	}
	r, ok := feel.Equal(expected, actual).(bool)
	return ok && r && feel.Kind(expected) == feel.Kind(actual)
}

// numbersEqual compares an expected number with an actual one. Exact
// equality always counts. Expected values written with seven or more
// significant digits and a fraction are often results of binary floating
// point or printed rounded (2778.69354943277, -0.8879689), so such a value also matches an
// actual value that rounds or truncates to it at its number of decimals, or that is
// within a relative 1e-12 of it.
func numbersEqual(e, a *apd.Decimal) bool {
	if e.Cmp(a) == 0 {
		return true
	}
	if e.Exponent >= 0 || e.NumDigits() < 7 {
		return false
	}
	ctx := apd.BaseContext.WithPrecision(50)
	ctx.Rounding = apd.RoundHalfUp
	var r apd.Decimal
	for _, mode := range []apd.Rounder{apd.RoundHalfUp, apd.RoundDown} {
		ctx.Rounding = mode
		if _, err := ctx.Quantize(&r, a, e.Exponent); err == nil && r.Cmp(e) == 0 {
			return true
		}
	}
	var diff, lim apd.Decimal
	ctx.Sub(&diff, a, e)
	diff.Abs(&diff)
	ctx.Mul(&lim, e, apd.New(1, -12))
	lim.Abs(&lim)
	return diff.Cmp(&lim) <= 0
}

// Status of a test case in the results CSV.
const (
	Success = "SUCCESS"
	Failure = "ERROR"
	Ignored = "IGNORED"
)

// Outcome is one line of the TCK results CSV.
type Outcome struct {
	Folder   string // relative to TestCases/, e.g. compliance-level-2/0001-input-data-string
	File     string // test case file name without .xml
	ID       string // testCase id
	Status   string
	Detail   string
	Duration time.Duration
}

// RunFolder runs every test case file in dir; folder is the name written to
// the outcomes (the path relative to TestCases/).
func RunFolder(ctx context.Context, dir, folder string) ([]Outcome, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	models := map[string]*dmn.Definitions{}
	modelErrs := map[string]error{}
	var tests []string
	for _, e := range entries {
		name := e.Name()
		switch strings.ToLower(filepath.Ext(name)) {
		case ".dmn":
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				return nil, err
			}
			d, perr := dmn.Parse(f)
			f.Close()
			if perr != nil {
				modelErrs[name] = perr
				continue
			}
			models[name] = d
		case ".xml":
			tests = append(tests, name)
		}
	}
	sort.Strings(tests)
	var out []Outcome
	for _, tf := range tests {
		f, err := os.Open(filepath.Join(dir, tf))
		if err != nil {
			return nil, err
		}
		tcs, perr := ParseTestCases(f)
		f.Close()
		if perr != nil {
			continue // not a test case file
		}
		base := strings.TrimSuffix(tf, filepath.Ext(tf))
		fail := func(detail string) {
			for _, c := range tcs.Cases {
				out = append(out, Outcome{Folder: folder, File: base, ID: c.ID, Status: Failure, Detail: detail})
			}
		}
		main, ok := models[tcs.ModelName]
		if !ok {
			if err := modelErrs[tcs.ModelName]; err != nil {
				fail("model does not parse: " + err.Error())
			} else {
				fail("model " + tcs.ModelName + " not found")
			}
			continue
		}
		defs := []*dmn.Definitions{main}
		names := make([]string, 0, len(models))
		for n := range models {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if n != tcs.ModelName {
				defs = append(defs, models[n])
			}
		}
		m, err := dmn.Compile(defs...)
		if err != nil {
			fail("compile: " + err.Error())
			continue
		}
		for _, c := range tcs.Cases {
			start := time.Now()
			o := runCase(ctx, m, main, c)
			o.Folder, o.File, o.ID, o.Duration = folder, base, c.ID, time.Since(start)
			out = append(out, o)
		}
	}
	return out, nil
}

// fixedNow is the clock of every test case, so results do not depend on the day.
var fixedNow = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func runCase(ctx context.Context, m *dmn.Model, main *dmn.Definitions, c *TestCase) (o Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = Outcome{Status: Failure, Detail: fmt.Sprintf("panic: %v", r)}
		}
	}()
	inputs := map[string]any{}
	for _, in := range c.Inputs {
		key := in.Name
		if in.Namespace != "" && in.Namespace != main.Namespace {
			key = "{" + in.Namespace + "}" + in.Name
		}
		inputs[key] = in.Value.FEEL()
	}
	opts := dmn.EvalOptions{Now: fixedNow}
	var problems []string
	for _, r := range c.Results {
		var actual feel.Value
		var msgs []string
		switch c.Type {
		case "decisionService":
			res, out, err := m.EvaluateService(ctx, c.InvocableName, inputs, opts)
			if err != nil {
				return Outcome{Status: Failure, Detail: err.Error()}
			}
			// the service's value: its single output, or the entry of its result context
			actual, msgs = out, res.Messages
			if oc, ok := out.(*feel.Context); ok {
				if v, has := oc.Get(r.Name); has {
					actual = v
				}
			}
		case "bkm":
			v, warns, err := m.Invoke(ctx, c.InvocableName, inputs, opts)
			if err != nil {
				return Outcome{Status: Failure, Detail: err.Error()}
			}
			actual, msgs = v, warns
		default:
			res, err := m.EvaluateWith(ctx, r.Name, inputs, opts)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			d := res.Main()
			actual, msgs = d.Value, d.Messages
			if actual == nil && len(msgs) == 0 {
				msgs = res.Messages
			}
		}
		var expected feel.Value
		if r.Expected != nil {
			expected = r.Expected.FEEL()
		}
		if r.ErrorResult {
			// an error result is null with at least one message explaining it
			if actual != nil {
				problems = append(problems, fmt.Sprintf("%s: expected an error (null), got %s", r.Name, feel.Literal(actual)))
			} else if len(msgs) == 0 {
				problems = append(problems, fmt.Sprintf("%s: expected an error, got null without a message", r.Name))
			}
			continue
		}
		if !Equal(expected, actual) {
			p := fmt.Sprintf("%s: expected %s, got %s", r.Name, feel.Literal(expected), feel.Literal(actual))
			if len(msgs) > 0 {
				p += " [" + strings.Join(msgs, "; ") + "]"
			}
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return Outcome{Status: Failure, Detail: strings.Join(problems, " | ")}
	}
	return Outcome{Status: Success}
}

// RunSuite runs every folder under root/TestCases/<level> for the given
// levels (e.g. "compliance-level-2").
func RunSuite(ctx context.Context, root string, levels ...string) ([]Outcome, error) {
	var out []Outcome
	for _, level := range levels {
		dir := filepath.Join(root, "TestCases", level)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			if err := ctx.Err(); err != nil {
				return out, err
			}
			o, err := RunFolder(ctx, filepath.Join(dir, e.Name()), level+"/"+e.Name())
			if err != nil {
				return out, err
			}
			out = append(out, o...)
		}
	}
	return out, nil
}

// WriteCSV writes outcomes in the TCK results format: five quoted fields
// per line (folder, test file, test case id, status, detail).
func WriteCSV(w io.Writer, outcomes []Outcome) error {
	cw := csv.NewWriter(w)
	for _, o := range outcomes {
		if err := cw.Write([]string{o.Folder, o.File, o.ID, o.Status, o.Detail}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
