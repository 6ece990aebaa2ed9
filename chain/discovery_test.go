package chain

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// exampleStore loads the named files of the example knowledge graph (all
// of it when none are named) into a real in-memory SPARQL store.
func exampleStore(t testing.TB, files ...string) *memstore.Store {
	t.Helper()
	if len(files) == 0 {
		files = examples.KnowledgeGraph
	}
	s := memstore.New()
	for _, f := range files {
		data, err := fs.ReadFile(examples.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load(context.Background(), strings.NewReader(string(data)), graph.Turtle); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	return s
}

// localPassOnly is the graph of the three local-pass models alone.
var localPassOnly = []string{"knowledge-graph/organisations.ttl", "knowledge-graph/localpass.ttl"}

func TestListModels(t *testing.T) {
	models, err := ListModels(context.Background(), exampleStore(t), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	byID := map[string]Model{}
	for _, m := range models {
		ids = append(ids, m.Identifier)
		byID[m.Identifier] = m
	}
	want := "BD_ZorgtoeslagRecht GEM_Herbeoordeling GEM_InkomensToets GEM_KwijtscheldingBelastingen GEM_VermogensToets RONL_LocalpassEindresultaat SVB_LeeftijdsInformatie SZW_BijstandsnormInformatie"
	if got := strings.Join(ids, " "); got != want {
		t.Fatalf("identifiers:\n got %s\nwant %s", got, want)
	}

	checkSVBModel(t, byID["SVB_LeeftijdsInformatie"])
	// A model of the 0.4.1 class with 0.4.1 predicates.
	szw := byID["SZW_BijstandsnormInformatie"]
	if szw.DeploymentID != "example-localpass" || szw.ServiceTitle != "Bijstandsuitkering (Participatiewet)" {
		t.Errorf("SZW: deployment %q service %q", szw.DeploymentID, szw.ServiceTitle)
	}
	checkRONLModel(t, byID["RONL_LocalpassEindresultaat"])
	checkBDModel(t, byID["BD_ZorgtoeslagRecht"])
}

// checkSVBModel checks the SVB model of the example graph: governance,
// service, deployment and its inputs and outputs.
func checkSVBModel(t *testing.T, svb Model) {
	t.Helper()
	if svb.ID != "https://data.regelkit.example/model/SVB_LeeftijdsInformatie" || svb.Title != "SVB Leeftijdsinformatie" {
		t.Errorf("SVB id/title: %q %q", svb.ID, svb.Title)
	}
	if deref(svb.ValidationStatus) != "validated" || deref(svb.ValidatedByName) != "Sociale Verzekeringsbank" || deref(svb.ValidatedAt) != "2025-11-03" {
		t.Errorf("SVB governance: %v %v %v", deref(svb.ValidationStatus), deref(svb.ValidatedByName), deref(svb.ValidatedAt))
	}
	if svb.ServiceTitle != "Leeftijdsinformatie en AOW-leeftijd" || svb.OrganizationName != "Sociale Verzekeringsbank" {
		t.Errorf("SVB service: %q %q", svb.ServiceTitle, svb.OrganizationName)
	}
	if svb.DeploymentID != "example-localpass" || svb.TestStatus != "passed" || svb.LastTested != "2025-12-01T09:30:00Z" {
		t.Errorf("SVB deployment/testing: %q %q %q", svb.DeploymentID, svb.TestStatus, svb.LastTested)
	}
	if svb.ImplementedBy != "http://localhost:8081/engine-rest/decision-definition/key/SVB_LeeftijdsInformatie/evaluate" {
		t.Errorf("SVB implementedBy %q", svb.ImplementedBy)
	}
	if svb.XMLURL != "/v1/dmns/SVB_LeeftijdsInformatie/xml" {
		t.Errorf("xmlUrl %q", svb.XMLURL)
	}
	if len(svb.Inputs) != 3 || len(svb.Outputs) != 11 {
		t.Fatalf("SVB has %d inputs, %d outputs", len(svb.Inputs), len(svb.Outputs))
	}
	if svb.Inputs[0].Identifier != "dagVanAanvraag" || svb.Inputs[0].Type != "Date" || string(svb.Inputs[0].TestValue) != `"2025-12-24"` {
		t.Errorf("first SVB input: %+v %s", svb.Inputs[0], svb.Inputs[0].TestValue)
	}
	if svb.Outputs[0].Identifier != "AOWDatumAanvrager" || svb.Outputs[0].TestValue != nil {
		t.Errorf("outputs must be ordered by identifier and carry no test value: %+v", svb.Outputs[0])
	}

}

// checkRONLModel checks the RONL model: the service found through the
// inverse link, test values and its vendor.
func checkRONLModel(t *testing.T, ronl Model) {
	t.Helper()
	// The service points at the model (cprmv:hasDecisionModel), not the other way round.
	if ronl.ServiceTitle != "Localpass en kindpakket" || ronl.OrganizationName != "Gemeente Voorbeeldstad" ||
		ronl.LogoURL != "https://www.voorbeeldstad.example/logo.svg" {
		t.Errorf("RONL service via the inverse link: %q %q %q", ronl.ServiceTitle, ronl.OrganizationName, ronl.LogoURL)
	}
	values := map[string]string{}
	for _, in := range ronl.Inputs {
		values[in.Identifier] = string(in.TestValue)
	}
	for id, want := range map[string]string{"maandelijksBrutoInkomenAanvrager": "1500", "bijstandsNorm": "1369.06", "aanvragerInwonerMunicipality": "true", "aanvragerVoedselbankpasCity": "false"} {
		if values[id] != want {
			t.Errorf("test value of %s = %s, want %s", id, values[id], want)
		}
	}
	if ronl.VendorCount != 1 || len(ronl.Vendors) != 1 {
		t.Fatalf("RONL vendors: %d %+v", ronl.VendorCount, ronl.Vendors)
	}
	v := ronl.Vendors[0]
	if v.Vendor != "Voorbeeld ICT B.V." || v.ImplementedByName != "Blueriq" || v.BasedOnIdentifier != "RONL_LocalpassEindresultaat" ||
		v.AccessType != "fair-use" || v.License != "EUPL-1.2" || v.ServiceURL != "https://localpass.voorbeeld-ict.example/" {
		t.Errorf("vendor: %+v", v)
	}
	if v.Provider == nil || v.Provider.ContactPoint == nil || v.Provider.ContactPoint.Email != "servicedesk@voorbeeld-ict.example" ||
		v.Provider.Homepage != "https://voorbeeld-ict.example/" || v.Provider.LogoURL != "https://voorbeeld-ict.example/logo.png" {
		t.Errorf("vendor provider: %+v", v.Provider)
	}

}

// checkBDModel checks a model under review without vendors, and that the
// spec's fields are in its JSON even when unknown.
func checkBDModel(t *testing.T, bd Model) {
	t.Helper()
	if deref(bd.ValidationStatus) != "in-review" || bd.ValidatedByName != nil || bd.ValidatedAt != nil || bd.VendorCount != 0 || bd.Vendors == nil {
		t.Errorf("BD governance/vendors: %+v", bd)
	}
	// The spec's fields are always present in JSON, null when unknown.
	data, _ := json.Marshal(bd)
	for _, k := range []string{`"validatedByName":null`, `"validatedAt":null`, `"vendors":[]`, `"vendorCount":0`} {
		if !strings.Contains(string(data), k) {
			t.Errorf("JSON lacks %s: %s", k, data)
		}
	}
}

func TestListModelsEmptyGraph(t *testing.T) {
	models, err := ListModels(context.Background(), memstore.New(), ListOptions{})
	if err != nil || models == nil || len(models) != 0 {
		t.Fatalf("empty graph: %v %v", models, err)
	}
}

func pairKey(p Pair) string {
	return fmt.Sprintf("%s %s>%s %s/%s %s", p.MatchType, p.DMN1.Identifier, p.DMN2.Identifier, p.OutputVariable, p.InputVariable, p.VariableType)
}

func TestLocalPassAlone(t *testing.T) {
	ctx := context.Background()
	s := exampleStore(t, localPassOnly...)
	pairs, err := ConnectablePairs(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	perLink := map[string]int{}
	for _, p := range pairs {
		if p.MatchType != MatchExact || p.SharedConcept != nil || p.OutputVariable != p.InputVariable {
			t.Errorf("unexpected pair %s", pairKey(p))
		}
		perLink[p.DMN1.Identifier+">"+p.DMN2.Identifier]++
	}
	if len(pairs) != 10 || perLink["SVB_LeeftijdsInformatie>SZW_BijstandsnormInformatie"] != 6 ||
		perLink["SVB_LeeftijdsInformatie>RONL_LocalpassEindresultaat"] != 3 || perLink["SZW_BijstandsnormInformatie>RONL_LocalpassEindresultaat"] != 1 {
		t.Errorf("pairs: %d %v", len(pairs), perLink)
	}
	// Ordered by the titles of dmn1, then dmn2.
	if pairs[0].DMN2.Identifier != "RONL_LocalpassEindresultaat" || pairs[9].DMN1.Identifier != "SZW_BijstandsnormInformatie" {
		t.Errorf("order: first %s, last %s", pairKey(pairs[0]), pairKey(pairs[9]))
	}
	eq, err := SemanticEquivalences(ctx, s)
	if err != nil || len(eq) != 0 {
		t.Errorf("equivalences: %v %v", eq, err)
	}
	cycles, err := Cycles(ctx, s)
	if err != nil || len(cycles) != 0 {
		t.Errorf("cycles: %v %v", cycles, err)
	}
	chains, err := Chains(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(chains) != 2 || chains[0].From != "SVB_LeeftijdsInformatie" || len(chains[0].Connections) != 9 ||
		chains[1].From != "SZW_BijstandsnormInformatie" || len(chains[1].Connections) != 1 {
		t.Fatalf("chains: %+v", chains)
	}
	c := chains[1].Connections[0]
	if c.To != "RONL_LocalpassEindresultaat" || c.Variable != "bijstandsNorm" || c.VariableType != "Double" {
		t.Errorf("SZW chain: %+v", c)
	}
}

func TestDiscoveryOverTheWholeExampleGraph(t *testing.T) {
	ctx := context.Background()
	s := exampleStore(t)
	pairs, err := ConnectablePairs(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, p := range pairs {
		keys = append(keys, pairKey(p))
	}
	got := strings.Join(keys, "\n")
	// The norm feeds the tax-remission model by identifier and by concept:
	// reported twice, first (ranked "both"), exact before semantic.
	if !strings.HasPrefix(got, "exact SZW_BijstandsnormInformatie>GEM_KwijtscheldingBelastingen bijstandsNorm/bijstandsNorm Double\nsemantic SZW_BijstandsnormInformatie>GEM_KwijtscheldingBelastingen bijstandsNorm/bijstandsNorm Double\n") {
		t.Errorf("the pair matching both ways must come first, exact then semantic:\n%s", got)
	}
	for _, want := range []string{
		// "Integer" and "integer" are one type; the output's spelling is reported.
		"semantic SVB_LeeftijdsInformatie>BD_ZorgtoeslagRecht aanvragerLeeftijd/leeftijdAanvrager Integer",
		"semantic GEM_KwijtscheldingBelastingen>RONL_LocalpassEindresultaat kwijtscheldingToegekend/aanvragerKwijtscheldingGemeentelijkeBelastingen Boolean",
		"exact GEM_InkomensToets>GEM_VermogensToets inkomenBovenGrens/inkomenBovenGrens Boolean",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	counts := map[string]int{}
	for _, p := range pairs {
		counts[p.MatchType]++
		if (p.MatchType == MatchSemantic) != (p.SharedConcept != nil) {
			t.Errorf("sharedConcept must be set exactly for semantic pairs: %s", pairKey(p))
		}
	}
	if counts[MatchExact] != 12 || counts[MatchSemantic] != 5 {
		t.Errorf("counts %v, want 12 exact and 5 semantic", counts)
	}
	if strings.Contains(got, "toetsingsinkomen") {
		t.Error("a concept matching itself must link nothing")
	}

	eq, err := SemanticEquivalences(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(eq) != 10 {
		t.Errorf("equivalences: %d, want 10 (five shared concepts, both orderings)", len(eq))
	}
	if len(eq) > 1 {
		a, b := eq[0], eq[1]
		if a.SharedConcept != "https://begrippen.regelkit.example/bijstandsnorm" || a.SharedConcept != b.SharedConcept ||
			a.Concept1.URI != b.Concept2.URI || a.Concept2.URI != b.Concept1.URI {
			t.Errorf("first two equivalences must be one pair in both orderings: %+v / %+v", a, b)
		}
		if a.Concept1.Variable.Identifier != "bijstandsNorm" || a.DMN1.Title == "" {
			t.Errorf("equivalence detail: %+v", a)
		}
	}

	cycles, err := Cycles(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(cycles) != 3 {
		t.Fatalf("cycles: %+v, want the three rotations of one cycle", cycles)
	}
	for _, c := range cycles {
		titles := c.Path[0].Title + " > " + c.Path[1].Title + " > " + c.Path[2].Title
		if c.Type != "three-hop" || !strings.Contains(titles+" > "+titles, "Inkomenstoets herbeoordeling > Vermogenstoets herbeoordeling > Planning herbeoordeling") {
			t.Errorf("cycle %s", titles)
		}
	}

	chains, err := Chains(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var from []string
	for _, g := range chains {
		from = append(from, g.From)
	}
	if strings.Join(from, " ") != "GEM_InkomensToets SVB_LeeftijdsInformatie SZW_BijstandsnormInformatie" {
		t.Errorf("chain sources: %v", from)
	}
}
