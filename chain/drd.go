package chain

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/beevik/etree"

	"github.com/regelkit/regelkit/engine"
)

// Namespaces of an assembled DRD.
const (
	NamespaceDMN13   = "https://www.omg.org/spec/DMN/20191111/MODEL/"
	NamespaceCamunda = "http://camunda.org/schema/1.0/dmn"
)

// dmnNamespaces are the DMN model namespaces a source file may use (those
// dmn/validate accepts); their elements are written in the DMN 1.3
// namespace.
var dmnNamespaces = map[string]bool{
	"http://www.omg.org/spec/DMN/20151101/dmn.xsd": true, // 1.1
	"http://www.omg.org/spec/DMN/20180521/MODEL/":  true, // 1.2
	NamespaceDMN13: true,
	"https://www.omg.org/spec/DMN/20211108/MODEL/": true, // 1.4
	"https://www.omg.org/spec/DMN/20230324/MODEL/": true, // 1.5
	"https://www.camunda.org/schema/1.0/dmn":       true, // legacy process-engine schema
}

// diagramNamespaces are DMNDI's (1.2–1.5); their prefix declarations are
// not carried over since the diagram is dropped.
var diagramNamespaces = map[string]bool{
	"http://www.omg.org/spec/DMN/20180521/DMNDI/":  true,
	"http://www.omg.org/spec/DMN/20180521/DC/":     true,
	"http://www.omg.org/spec/DMN/20180521/DI/":     true,
	"https://www.omg.org/spec/DMN/20191111/DMNDI/": true,
	"https://www.omg.org/spec/DMN/20211108/DMNDI/": true,
	"https://www.omg.org/spec/DMN/20230324/DMNDI/": true,
}

// DRDSource is one model of a DRD: its identifier (the engine's decision
// key of its top decision) and its DMN XML.
type DRDSource struct {
	Identifier string
	XML        []byte
}

// DRD is an assembled decision requirements diagram.
type DRD struct {
	XML []byte
	// EntryPointID is the executable key of the last model's main
	// decision after deployment, e.g. dmn2_RONL_LocalpassEindresultaat.
	EntryPointID string
	// InputData are the names of the DRD's inputData, in document order.
	InputData []string
}

// AssemblyError is a model that cannot be part of a DRD.
type AssemblyError struct {
	Identifier string
	Msg        string
}

func (e *AssemblyError) Error() string { return e.Identifier + ": " + e.Msg }

var unsafeIDChars = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// AssembleDRD wires models into one DMN 1.3 document: every id of file i is
// prefixed with dmn{i}_ and the hrefs to them follow; the main decision of
// each file (the one whose id is the model's identifier, else the first) gets,
// from the second file on, an informationRequirement on the previous file's
// main decision as its first requirement, so the models run in chain order;
// the result holds all decisions, then all inputData, and no diagram. Names,
// variables and expressions are untouched. At least two models are required.
//
// Item definitions, business knowledge models, decision services and
// knowledge sources of the files are kept too (item definitions first,
// the others after the inputData), so models that use them still run;
// the local-pass models have none.
func AssembleDRD(name string, models []DRDSource) (*DRD, error) {
	if len(models) < 2 {
		return nil, errors.New("DRD requires at least 2 DMNs")
	}
	out := etree.NewDocument()
	out.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)
	root := out.CreateElement("definitions")
	root.CreateAttr("xmlns", NamespaceDMN13)
	root.CreateAttr("xmlns:camunda", NamespaceCamunda)
	last := models[len(models)-1].Identifier
	root.CreateAttr("id", "drd_"+unsafeIDChars.ReplaceAllString(last, "_"))
	root.CreateAttr("name", name)
	root.CreateAttr("namespace", NamespaceCamunda)
	declared := map[string]string{"camunda": NamespaceCamunda}

	var items, decisions, inputs, others []*etree.Element
	prevMain := ""
	for i, src := range models {
		prefix := fmt.Sprintf("dmn%d_", i)
		file, err := readDefinitions(src)
		if err != nil {
			return nil, err
		}
		// Resolve every element's namespace while the file is whole.
		normalizeNamespaces(file)
		renamed := map[string]bool{}
		for _, el := range file.FindElements("//*") {
			if a := idAttr(el); a != nil && a.Value != "" {
				renamed[a.Value] = true
				a.Value = prefix + a.Value
			}
		}
		for _, el := range file.FindElements("//*") {
			for i := range el.Attr {
				a := &el.Attr[i]
				if a.Space == "" && a.Key == "href" && strings.HasPrefix(a.Value, "#") && renamed[a.Value[1:]] {
					a.Value = "#" + prefix + a.Value[1:]
				}
			}
		}
		var fileDecisions []*etree.Element
		var main *etree.Element
		for _, el := range file.ChildElements() {
			switch el.Tag {
			case "decision":
				fileDecisions = append(fileDecisions, el)
				if el.SelectAttrValue("id", "") == prefix+src.Identifier {
					main = el
				}
			case "inputData":
				inputs = append(inputs, el)
			case "itemDefinition":
				items = append(items, el)
			case "businessKnowledgeModel", "decisionService", "knowledgeSource":
				others = append(others, el)
			}
		}
		if len(fileDecisions) == 0 {
			return nil, &AssemblyError{src.Identifier, "the DMN has no decision"}
		}
		if main == nil {
			main = fileDecisions[0]
		}
		mainID := main.SelectAttrValue("id", "")
		if mainID == "" {
			return nil, &AssemblyError{src.Identifier, "the main decision has no id"}
		}
		if prevMain != "" {
			irID := "chainRequirement"
			for renamed[irID] {
				irID += "_"
			}
			requirePrevious(main, prefix+irID, prevMain)
		}
		prevMain = mainID
		decisions = append(decisions, fileDecisions...)
		// Carry the file's other prefix declarations (cprmv:, feel:, …)
		// to the new root; a prefix bound differently by an earlier file
		// is declared on this file's top-level elements instead.
		var local [][2]string
		for _, a := range file.Attr {
			if a.Space != "xmlns" || dmnNamespaces[a.Value] || diagramNamespaces[a.Value] {
				continue
			}
			switch uri, ok := declared[a.Key]; {
			case !ok:
				declared[a.Key] = a.Value
				root.CreateAttr("xmlns:"+a.Key, a.Value)
			case uri != a.Value:
				local = append(local, [2]string{a.Key, a.Value})
			}
		}
		if len(local) > 0 {
			for _, el := range file.ChildElements() {
				for _, l := range local {
					el.CreateAttr("xmlns:"+l[0], l[1])
				}
			}
		}
	}
	for _, group := range [][]*etree.Element{items, decisions, inputs, others} {
		for _, el := range group {
			el.Parent().RemoveChild(el)
			root.AddChild(el)
		}
	}
	var names []string
	for _, el := range inputs {
		if n := el.SelectAttrValue("name", ""); n != "" {
			names = append(names, n)
		}
	}
	out.Indent(2)
	data, err := out.WriteToBytes()
	if err != nil {
		return nil, err
	}
	return &DRD{XML: data, EntryPointID: prevMain, InputData: names}, nil
}

func readDefinitions(src DRDSource) (*etree.Element, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(src.XML); err != nil {
		return nil, &AssemblyError{src.Identifier, "the DMN XML does not parse: " + err.Error()}
	}
	root := doc.Root()
	if root == nil || root.Tag != "definitions" || !dmnNamespaces[root.NamespaceURI()] {
		return nil, &AssemblyError{src.Identifier, "the root element is not a DMN definitions element"}
	}
	return root, nil
}

// idAttr returns the unprefixed id attribute of el.
func idAttr(el *etree.Element) *etree.Attr {
	for i := range el.Attr {
		if el.Attr[i].Space == "" && el.Attr[i].Key == "id" {
			return &el.Attr[i]
		}
	}
	return nil
}

// normalizeNamespaces puts every element of a DMN namespace into the
// default namespace (DMN 1.3 in the output) and drops declarations that
// bind a DMN or diagram namespace below the root, which would otherwise
// shadow it.
func normalizeNamespaces(root *etree.Element) {
	var dmnElements []*etree.Element
	for _, el := range append([]*etree.Element{root}, root.FindElements("//*")...) {
		if dmnNamespaces[el.NamespaceURI()] {
			dmnElements = append(dmnElements, el)
		}
	}
	for _, el := range dmnElements {
		el.Space = ""
	}
	for _, el := range root.FindElements("//*") {
		kept := el.Attr[:0]
		for _, a := range el.Attr {
			isDecl := a.Space == "xmlns" || (a.Space == "" && a.Key == "xmlns")
			if isDecl && (dmnNamespaces[a.Value] || diagramNamespaces[a.Value]) {
				continue
			}
			kept = append(kept, a)
		}
		el.Attr = kept
	}
}

// decisionHead are the children of a decision that precede its
// requirements in the DMN schema.
var decisionHead = map[string]bool{"description": true, "extensionElements": true, "question": true, "allowedAnswers": true, "variable": true}

// requirePrevious inserts <informationRequirement><requiredDecision
// href="#prev"/></informationRequirement> as the first requirement of
// main: its first child, after only the elements the schema puts before
// requirements (description, extensionElements, question, allowedAnswers,
// variable; the local-pass models have none). Operaton evaluates
// requirements in document order, so the previous model's whole tree runs
// before this model's own required decisions.
func requirePrevious(main *etree.Element, id, prev string) {
	ir := etree.NewElement("informationRequirement")
	ir.CreateAttr("id", id)
	rd := ir.CreateElement("requiredDecision")
	rd.CreateAttr("href", "#"+prev)
	at := 0
	for i, tok := range main.Child {
		el, ok := tok.(*etree.Element)
		if !ok {
			continue
		}
		if !decisionHead[el.Tag] {
			break
		}
		at = i + 1
	}
	main.InsertChildAt(at, ir)
}

// Export is the result of POST /v1/chains/export (explorer spec §2.6).
type Export struct {
	DeploymentID string `json:"deploymentId"`
	EntryPointID string `json:"entryPointId"`
	XML          string `json:"xml"`
}

// ModelXMLError is a model whose DMN XML the engine cannot give.
type ModelXMLError struct {
	Identifier string
	Step       int // 1-based position in the chain; 0 when not in a chain
	Err        error
}

func (e *ModelXMLError) Error() string {
	if errors.Is(e.Err, engine.ErrNotFound) {
		return "DMN not found in the decision engine: " + e.Identifier
	}
	return e.Identifier + ": reading its DMN XML from the engine: " + strings.TrimPrefix(e.Err.Error(), "engine: ")
}

func (e *ModelXMLError) Unwrap() error { return e.Err }

// DeployError is an assembled DRD the engine refused to deploy; its
// message carries the engine's status and message.
type DeployError struct{ Err error }

func (e *DeployError) Error() string {
	var ee *engine.Error
	if errors.As(e.Err, &ee) {
		msg := fmt.Sprintf("deploying the DRD: engine returned %d", ee.Status)
		if ee.Type != "" {
			msg += " " + ee.Type
		}
		if ee.Message != "" {
			msg += ": " + ee.Message
		}
		return msg
	}
	return "deploying the DRD: " + strings.TrimPrefix(e.Err.Error(), "engine: ")
}

func (e *DeployError) Unwrap() error { return e.Err }

// ExportOptions refine ExportDRD.
type ExportOptions struct {
	// Models are the chain's models from the knowledge graph, in chain
	// order (the identifiers' records). When set, the assembled DRD must
	// provide every input of every model: from an earlier model or as an
	// inputData; otherwise the export fails with *IncompatibleError
	// before anything is deployed.
	Models []Model
}

// ExportDRD reads the DMN XML of each model from eng by its key (the
// identifier), assembles the DRD (AssembleDRD) and deploys it as one
// resource named after the last identifier, under name. The deployment
// uses duplicate filtering and replaces the earlier deployments of that
// name (engine.NewDeployment.ReplacePrevious), so exporting again does
// not pile up versions in the engine. Failures: *ModelXMLError,
// *AssemblyError, *IncompatibleError, *DeployError.
func ExportDRD(ctx context.Context, eng engine.Decisions, name string, identifiers []string, opts ExportOptions) (*Export, error) {
	if len(identifiers) < 2 {
		return nil, errors.New("DRD requires at least 2 DMNs")
	}
	if opts.Models != nil && len(opts.Models) != len(identifiers) {
		return nil, fmt.Errorf("chain: ExportOptions.Models has %d models for %d identifiers", len(opts.Models), len(identifiers))
	}
	srcs := make([]DRDSource, len(identifiers))
	for i, id := range identifiers {
		def, err := eng.LatestDecisionDefinition(ctx, id, "")
		if err != nil {
			return nil, &ModelXMLError{Identifier: id, Step: i + 1, Err: err}
		}
		xml, err := eng.DecisionDefinitionXML(ctx, def.ID)
		if err != nil {
			return nil, &ModelXMLError{Identifier: id, Step: i + 1, Err: err}
		}
		srcs[i] = DRDSource{Identifier: id, XML: []byte(xml)}
	}
	drd, err := AssembleDRD(name, srcs)
	if err != nil {
		return nil, err
	}
	if opts.Models != nil {
		declared := make(map[string]bool, len(drd.InputData))
		for _, n := range drd.InputData {
			declared[n] = true
		}
		if err := checkProvided(opts.Models, declared); err != nil {
			return nil, err
		}
	}
	last := identifiers[len(identifiers)-1]
	dep, err := eng.Deploy(ctx, engine.NewDeployment{
		Name:                     name,
		EnableDuplicateFiltering: true,
		ReplacePrevious:          true,
		Resources:                []engine.Resource{{Name: last + ".dmn", Data: drd.XML}},
	})
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, &DeployError{err}
	}
	return &Export{DeploymentID: dep.ID, EntryPointID: drd.EntryPointID, XML: string(drd.XML)}, nil
}

// IncompatibleError is a chain that cannot become a DRD, naming the step
// (1-based) and the model at fault and saying why: a model repeated (the
// chain would be a cycle), an input an earlier model feeds only through a
// semantic link (a DRD passes values by name), an input only a later
// model produces (a cycle: the later model requires this one), an input
// nothing provides (no earlier model, no inputData), or a model that is
// not there.
type IncompatibleError struct {
	Step  int    // 1-based position of the model in the chain
	Model string // its identifier
	Input string // the input at fault, when there is one
	Msg   string // what is wrong, without the step
}

func (e *IncompatibleError) Error() string {
	return fmt.Sprintf("chain is not DRD-compatible: step %d (%s): %s", e.Step, e.Model, e.Msg)
}

// CheckDRDCompatible reports whether models, in chain order, can form a
// DRD: no model twice, and every input of a model
// that another model of the chain produces must come from an earlier
// model by identifier (a semantic-only link cannot be expressed, a later
// producer would be a cycle). links are the semantic links among the
// models (SemanticLinks). The failure is an *IncompatibleError.
func CheckDRDCompatible(models []Model, links []Pair) error {
	first := map[string]int{}
	for i, m := range models {
		if j, ok := first[m.Identifier]; ok {
			return &IncompatibleError{Step: i + 1, Model: m.Identifier,
				Msg: fmt.Sprintf("repeats step %d; a DRD holds each model once, so the chain would be a cycle", j+1)}
		}
		first[m.Identifier] = i
	}
	for i, m := range models {
		for _, in := range m.Inputs {
			if producer(models[:i], in.Identifier) >= 0 {
				continue
			}
			for j := i - 1; j >= 0; j-- {
				for _, p := range links {
					if p.MatchType == MatchSemantic && p.InputVariable == in.Identifier &&
						p.DMN1.URI == models[j].ID && p.DMN2.URI == m.ID {
						return &IncompatibleError{Step: i + 1, Model: m.Identifier, Input: in.Identifier,
							Msg: fmt.Sprintf("input %s is linked to output %s of step %d (%s) only semantically; a DRD passes values by identifier",
								in.Identifier, p.OutputVariable, j+1, models[j].Identifier)}
					}
				}
			}
			if k := producer(models[i+1:], in.Identifier); k >= 0 {
				later := i + 1 + k
				return &IncompatibleError{Step: i + 1, Model: m.Identifier, Input: in.Identifier,
					Msg: fmt.Sprintf("input %s is produced only by the later step %d (%s), which in the DRD requires this step: a cycle",
						in.Identifier, later+1, models[later].Identifier)}
			}
		}
	}
	return nil
}

// checkProvided reports the first input of models that no earlier model
// produces and that no inputData of the assembled DRD declares: the DRD
// would offer no way to give it a value.
func checkProvided(models []Model, inputData map[string]bool) error {
	for i, m := range models {
		for _, in := range m.Inputs {
			if producer(models[:i], in.Identifier) < 0 && !inputData[in.Identifier] {
				return &IncompatibleError{Step: i + 1, Model: m.Identifier, Input: in.Identifier,
					Msg: fmt.Sprintf("input %s is produced by no earlier step and declared by no inputData of the models", in.Identifier)}
			}
		}
	}
	return nil
}

// producer returns the index of the first model of models with an output
// of identifier id, or -1.
func producer(models []Model, id string) int {
	for i, m := range models {
		for _, o := range m.Outputs {
			if o.Identifier == id {
				return i
			}
		}
	}
	return -1
}
