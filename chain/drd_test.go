package chain

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/beevik/etree"

	"github.com/regelkit/regelkit/dmn/validate"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

func localPassSources(t testing.TB) []DRDSource {
	t.Helper()
	var srcs []DRDSource
	for i, data := range localPassFiles(t) {
		srcs = append(srcs, DRDSource{Identifier: LocalPassIdentifiers[i], XML: data})
	}
	return srcs
}

func parseXML(t testing.TB, data []byte) *etree.Element {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		t.Fatalf("assembled XML does not parse: %v", err)
	}
	return doc.Root()
}

func TestAssembleLocalPassDRD(t *testing.T) {
	drd, err := AssembleDRD("Localpass DRD", localPassSources(t))
	if err != nil {
		t.Fatal(err)
	}
	if drd.EntryPointID != "dmn2_RONL_LocalpassEindresultaat" {
		t.Errorf("entry point %q", drd.EntryPointID)
	}
	if !strings.HasPrefix(string(drd.XML), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML declaration: %.60s", drd.XML)
	}
	root := parseXML(t, drd.XML)
	for attr, want := range map[string]string{
		"xmlns": NamespaceDMN13, "xmlns:camunda": NamespaceCamunda, "id": "drd_RONL_LocalpassEindresultaat",
		"name": "Localpass DRD", "namespace": NamespaceCamunda, "xmlns:cprmv": "https://cprmv.open-regels.nl/0.3.0/",
	} {
		if got := root.SelectAttrValue(attr, "<absent>"); got != want {
			t.Errorf("root %s = %q, want %q", attr, got, want)
		}
	}
	// decisions first (file order), then inputData; nothing else
	var kinds []string
	ids := map[string]bool{}
	for _, el := range root.ChildElements() {
		if n := len(kinds); n == 0 || kinds[n-1] != el.Tag {
			kinds = append(kinds, el.Tag)
		}
		id := el.SelectAttrValue("id", "")
		if ids[id] {
			t.Errorf("duplicate id %s", id)
		}
		ids[id] = true
	}
	if got := strings.Join(kinds, " "); got != "decision inputData" {
		t.Errorf("children kinds %q", got)
	}
	decisions := root.SelectElements("decision")
	if len(decisions) != 4+4+5 {
		t.Errorf("%d decisions", len(decisions))
	}
	if decisions[0].SelectAttrValue("id", "") != "dmn0_SVB_LeeftijdsInformatie" || decisions[4].SelectAttrValue("id", "") != "dmn1_SZW_BijstandsnormInformatie" {
		t.Errorf("decision order: %s, %s", decisions[0].SelectAttrValue("id", ""), decisions[4].SelectAttrValue("id", ""))
	}
	// every id is prefixed with its file's index and every local href resolves
	all := root.FindElements("//*")
	allIDs := map[string]bool{}
	for _, el := range all {
		if id := el.SelectAttrValue("id", ""); id != "" && el != root {
			if !strings.HasPrefix(id, "dmn0_") && !strings.HasPrefix(id, "dmn1_") && !strings.HasPrefix(id, "dmn2_") {
				t.Errorf("id %s is not prefixed", id)
			}
			allIDs[id] = true
		}
	}
	for _, el := range all {
		if href := el.SelectAttrValue("href", ""); href != "" && !allIDs[strings.TrimPrefix(href, "#")] {
			t.Errorf("href %s resolves to nothing", href)
		}
	}
	// the entry decision and the middle one each require their predecessor first
	for _, tc := range []struct{ decision, requires string }{
		{"dmn2_RONL_LocalpassEindresultaat", "#dmn1_SZW_BijstandsnormInformatie"},
		{"dmn1_SZW_BijstandsnormInformatie", "#dmn0_SVB_LeeftijdsInformatie"},
	} {
		d := root.FindElement("decision[@id='" + tc.decision + "']")
		first := d.ChildElements()[0]
		if first.Tag != "informationRequirement" || first.SelectElement("requiredDecision").SelectAttrValue("href", "") != tc.requires {
			t.Errorf("%s: first child %s", tc.decision, first.Tag)
		}
		n := 0
		for _, ir := range d.SelectElements("informationRequirement") {
			if rd := ir.SelectElement("requiredDecision"); rd != nil && rd.SelectAttrValue("href", "") == tc.requires {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s requires its predecessor %d times", tc.decision, n)
		}
	}
	// the first model requires nothing outside its own file
	for _, rd := range root.FindElements("decision[@id='dmn0_SVB_LeeftijdsInformatie']//requiredDecision") {
		if !strings.HasPrefix(rd.SelectAttrValue("href", ""), "#dmn0_") {
			t.Errorf("the first model requires %s", rd.SelectAttrValue("href", ""))
		}
	}
	// names and expressions are untouched
	if root.FindElement("//output[@name='bijstandsNorm']") == nil || root.FindElement("//inputData[@name='dagVanAanvraag']") == nil {
		t.Error("names were changed")
	}
	if strings.Contains(string(drd.XML), "DMNDI") {
		t.Error("the diagram was kept")
	}
	// the project's own validator finds no errors
	report := validate.Validate(drd.XML)
	for _, is := range report.Issues() {
		if is.Severity == validate.Error {
			t.Errorf("validator: %s %s at %s", is.Code, is.Message, is.Location)
		}
	}
}

func TestAssembleDRDCollidingIDs(t *testing.T) {
	model := func(out string) []byte {
		return []byte(`<?xml version="1.0"?>
<dmn:definitions xmlns:dmn="http://www.omg.org/spec/DMN/20180521/MODEL/" xmlns:dmndi="https://www.omg.org/spec/DMN/20191111/DMNDI/" xmlns:x="urn:x" id="Definitions_1" name="d" namespace="urn:t">
  <dmn:decision id="Decision_1" name="Decision 1" x:note="n">
    <dmn:variable name="` + out + `" typeRef="number"/>
    <dmn:informationRequirement id="IR_1"><dmn:requiredInput href="#InputData_1"/></dmn:informationRequirement>
    <dmn:literalExpression id="LE_1"><dmn:text>a + 1</dmn:text></dmn:literalExpression>
  </dmn:decision>
  <dmn:inputData id="InputData_1" name="a"/>
  <dmndi:DMNDI><dmndi:DMNDiagram id="Diagram_1"/></dmndi:DMNDI>
</dmn:definitions>`)
	}
	other := []byte(`<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:x="urn:other" id="Definitions_1" name="d" namespace="urn:t">
  <decision id="Decision_1" name="Decision 1" x:note="m"><variable name="a"/><literalExpression id="LE_1"><text>5</text></literalExpression></decision>
</definitions>`)
	drd, err := AssembleDRD("pair", []DRDSource{{"Start", other}, {"Next", model("b")}})
	if err != nil {
		t.Fatal(err)
	}
	// neither file has a decision named after its identifier: the first
	// decision is the main one
	if drd.EntryPointID != "dmn1_Decision_1" {
		t.Errorf("entry %q", drd.EntryPointID)
	}
	root := parseXML(t, drd.XML)
	next := root.FindElement("decision[@id='dmn1_Decision_1']")
	if next == nil {
		t.Fatalf("no dmn1_Decision_1 in\n%s", drd.XML)
	}
	if next.Space != "" || next.NamespaceURI() != NamespaceDMN13 {
		t.Errorf("DMN 1.2 element not moved to DMN 1.3: %q %q", next.Space, next.NamespaceURI())
	}
	// the requirement goes after <variable>, before the existing requirements
	kids := next.ChildElements()
	if kids[0].Tag != "variable" || kids[1].Tag != "informationRequirement" ||
		kids[1].SelectElement("requiredDecision").SelectAttrValue("href", "") != "#dmn0_Decision_1" {
		t.Errorf("requirement placement: %s", drd.XML)
	}
	if href := kids[2].SelectElement("requiredInput").SelectAttrValue("href", ""); href != "#dmn1_InputData_1" {
		t.Errorf("href not renamed: %s", href)
	}
	// x is bound to urn:other on the root (first file) and redeclared for the second file
	if root.SelectAttrValue("xmlns:x", "") != "urn:other" || next.SelectAttrValue("xmlns:x", "") != "urn:x" {
		t.Errorf("prefix x: root %q, second file %q", root.SelectAttrValue("xmlns:x", ""), next.SelectAttrValue("xmlns:x", ""))
	}
	if strings.Contains(string(drd.XML), "dmndi") || strings.Contains(string(drd.XML), "dmn:") {
		t.Errorf("diagram or old prefix left:\n%s", drd.XML)
	}
	// and it runs: Next = a + 1 where a is Start's output
	eng := local.New(local.Options{})
	deploy(t, eng, "pair", map[string][]byte{"pair.dmn": drd.XML})
	ex, err := ExecuteDRD(context.Background(), eng, drd.EntryPointID, engine.Variables{})
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonText(t, ex.Results); got != `{"b":6}` {
		t.Errorf("results %s", got)
	}
}

func TestAssembleDRDErrors(t *testing.T) {
	good := localPassSources(t)
	for _, tc := range []struct {
		srcs []DRDSource
		want string
	}{
		{good[:1], "DRD requires at least 2 DMNs"},
		{[]DRDSource{good[0], {"Broken", []byte("<definitions")}}, "Broken: the DMN XML does not parse"},
		{[]DRDSource{good[0], {"Other", []byte(`<definitions xmlns="urn:not-dmn"/>`)}}, "Other: the root element is not a DMN definitions element"},
		{[]DRDSource{good[0], {"Empty", []byte(`<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d"/>`)}}, "Empty: the DMN has no decision"},
	} {
		_, err := AssembleDRD("x", tc.srcs)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// TestExportedDRDMatchesTheChain: the DRD an export deploys, executed from
// its entry point, gives the final outputs of the sequential chain.
func TestExportedDRDMatchesTheChain(t *testing.T) {
	ctx := context.Background()
	eng := localPassEngine(t)
	exp, err := ExportDRD(ctx, eng, "Localpass DRD", LocalPassIdentifiers, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if exp.EntryPointID != "dmn2_RONL_LocalpassEindresultaat" || exp.DeploymentID == "" || !strings.Contains(exp.XML, `id="drd_RONL_LocalpassEindresultaat"`) {
		t.Fatalf("export %q %q", exp.EntryPointID, exp.DeploymentID)
	}
	dep, err := eng.Deployment(ctx, exp.DeploymentID)
	if err != nil || dep.Name != "Localpass DRD" {
		t.Errorf("deployment %+v %v", dep, err)
	}
	c := localPassChain(t)
	for _, changes := range []map[string]any{
		{},
		{"maandelijksBrutoInkomenAanvrager": json.Number("1505.96")},
		{"maandelijksBrutoInkomenAanvrager": json.Number("1506")},
		{"maandelijksBrutoInkomenAanvrager": json.Number("1642.88")},
		{"maandelijksBrutoInkomenAanvrager": json.Number("5000"), "aanvragerVoedselbankpasCity": true},
		{"aanvragerInwonerMunicipality": false},
		{"aanvragerDitKalenderjaarAlAangevraagd": true},
		{"dagVanAanvraag": "2025-06-30"},
		{"dagVanAanvraag": "2024-08-01", "aanvragerAlleenstaand": false},
		{"geboortedatumAanvrager": "2005-03-01", "aanvragerHeeftKinderen": false},
		{"geboortedatumAanvrager": "1957-01-01", "maandelijksBrutoInkomenAanvrager": json.Number("1600")},
	} {
		vars, err := c.Variables(with(workedExample(), changes))
		if err != nil {
			t.Fatal(err)
		}
		seq, err := c.Run(ctx, eng, vars, RunOptions{})
		if err != nil {
			t.Fatalf("%v: chain: %v", changes, err)
		}
		drd, err := ExecuteDRD(ctx, eng, exp.EntryPointID, vars)
		if err != nil {
			t.Fatalf("%v: DRD: %v", changes, err)
		}
		if a, b := jsonText(t, seq.FinalOutputs), jsonText(t, drd.Results); a != b {
			t.Errorf("%v: chain %s, DRD %s", changes, a, b)
		}
	}
	// a date outside the norm periods fails in the DRD too
	vars, _ := c.Variables(with(workedExample(), map[string]any{"dagVanAanvraag": "2026-01-01"}))
	_, err = ExecuteDRD(ctx, eng, exp.EntryPointID, vars)
	if err == nil || !strings.Contains(err.Error(), "no rule matched (dmn1_SZW_Bijstandsnormtermijn)") {
		t.Errorf("2026 in the DRD: %v", err)
	}
}

type failingDeploy struct {
	engine.Decisions
}

func (failingDeploy) Deploy(context.Context, engine.NewDeployment) (engine.Deployment, error) {
	return engine.Deployment{}, &engine.Error{Status: 400, Type: "ParseException", Message: "ENGINE-09005 Could not parse BPMN process"}
}

func TestExportDRDErrors(t *testing.T) {
	ctx := context.Background()
	eng := localPassEngine(t)
	_, err := ExportDRD(ctx, eng, "x", []string{"SVB_LeeftijdsInformatie", "Unknown"}, ExportOptions{})
	var xe *ModelXMLError
	if !errors.As(err, &xe) || err.Error() != "DMN not found in the decision engine: Unknown" || xe.Step != 2 {
		t.Errorf("unknown model: %v", err)
	}
	_, err = ExportDRD(ctx, failingDeploy{eng}, "x", LocalPassIdentifiers, ExportOptions{})
	var de *DeployError
	if !errors.As(err, &de) || err.Error() != "deploying the DRD: engine returned 400 ParseException: ENGINE-09005 Could not parse BPMN process" {
		t.Errorf("deploy failure: %v", err)
	}
}

func TestCheckDRDCompatible(t *testing.T) {
	ctx := context.Background()
	store := exampleStore(t)
	listing, err := ListModels(ctx, store, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		chain []string
		want  string
	}{
		{LocalPassIdentifiers, ""},
		// bijstandsNorm links by identifier and by concept: compatible
		{[]string{"SZW_BijstandsnormInformatie", "GEM_KwijtscheldingBelastingen"}, ""},
		{[]string{"GEM_KwijtscheldingBelastingen", "RONL_LocalpassEindresultaat"},
			"chain is not DRD-compatible: step 2 (RONL_LocalpassEindresultaat): input aanvragerKwijtscheldingGemeentelijkeBelastingen is linked to output kwijtscheldingToegekend of step 1 (GEM_KwijtscheldingBelastingen) only semantically; a DRD passes values by identifier"},
		// the link runs the other way: nothing earlier feeds the input
		{[]string{"RONL_LocalpassEindresultaat", "GEM_KwijtscheldingBelastingen"}, ""},
		// a model twice: the DRD would be a cycle
		{[]string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "SVB_LeeftijdsInformatie"},
			"chain is not DRD-compatible: step 3 (SVB_LeeftijdsInformatie): repeats step 1; a DRD holds each model once, so the chain would be a cycle"},
		// the age model's outputs feed the norm model, which comes first
		{[]string{"SZW_BijstandsnormInformatie", "SVB_LeeftijdsInformatie"},
			"chain is not DRD-compatible: step 1 (SZW_BijstandsnormInformatie): input aanvragerHeeftAOWLeeftijd is produced only by the later step 2 (SVB_LeeftijdsInformatie), which in the DRD requires this step: a cycle"},
	} {
		models := modelsByID(t, listing, tc.chain...)
		links, err := SemanticLinks(ctx, store, models)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckDRDCompatible(models, links)
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.want {
				t.Errorf("%v: %s", tc.chain, got)
			}
		} else if tc.want != "" {
			t.Errorf("%v: compatible, want %s", tc.chain, tc.want)
		}
	}
}

// TestExportReplacesEarlierExports: exporting under one name again keeps
// one deployment of that name in the engine (the same chain: the existing
// deployment; another chain: a replacement), however often it is done.
func TestExportReplacesEarlierExports(t *testing.T) {
	ctx := context.Background()
	eng := localPassEngine(t)
	count := func() int {
		deps, err := eng.Deployments(ctx, engine.DeploymentQuery{Name: "Localpass DRD"})
		if err != nil {
			t.Fatal(err)
		}
		return len(deps)
	}
	first, err := ExportDRD(ctx, eng, "Localpass DRD", LocalPassIdentifiers, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, err := ExportDRD(ctx, eng, "Localpass DRD", LocalPassIdentifiers, ExportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if again.DeploymentID != first.DeploymentID {
			t.Fatalf("export %d of the same chain made deployment %s, want the existing %s", i+2, again.DeploymentID, first.DeploymentID)
		}
	}
	two, err := ExportDRD(ctx, eng, "Localpass DRD", LocalPassIdentifiers[:2], ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 || two.DeploymentID == first.DeploymentID {
		t.Fatalf("after exporting another chain under the name: %d deployments named so (want 1)", n)
	}
	// The three-model DRD went with its deployment; the two-model one evaluates.
	if _, err := eng.LatestDecisionDefinition(ctx, "dmn2_RONL_LocalpassEindresultaat", ""); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("replaced DRD's entry point: %v, want not found", err)
	}
	if _, err := eng.LatestDecisionDefinition(ctx, two.EntryPointID, ""); err != nil {
		t.Errorf("new DRD's entry point %s: %v", two.EntryPointID, err)
	}
}

// TestExportRefusesUnprovidedInput: with the chain's models given, an
// input that no earlier step produces and no inputData declares fails the
// export, naming the step, before anything is deployed.
func TestExportRefusesUnprovidedInput(t *testing.T) {
	ctx := context.Background()
	eng := localPassEngine(t)
	listing, err := ListModels(ctx, exampleStore(t), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	models := modelsByID(t, listing, LocalPassIdentifiers...)
	if _, err := ExportDRD(ctx, eng, "ok", LocalPassIdentifiers, ExportOptions{Models: models}); err != nil {
		t.Fatalf("the local-pass chain provides every input: %v", err)
	}
	models[1].Inputs = append(append([]Variable(nil), models[1].Inputs...), Variable{Identifier: "inkomenPartner"})
	_, err = ExportDRD(ctx, eng, "bad", LocalPassIdentifiers, ExportOptions{Models: models})
	var ie *IncompatibleError
	want := "chain is not DRD-compatible: step 2 (SZW_BijstandsnormInformatie): input inkomenPartner is produced by no earlier step and declared by no inputData of the models"
	if !errors.As(err, &ie) || err.Error() != want || ie.Step != 2 || ie.Input != "inkomenPartner" {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if deps, _ := eng.Deployments(ctx, engine.DeploymentQuery{Name: "bad"}); len(deps) != 0 {
		t.Errorf("refused export deployed %d deployments", len(deps))
	}
}
