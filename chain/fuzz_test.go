package chain

import (
	"testing"

	"github.com/beevik/etree"
)

// FuzzAssembleDRD feeds arbitrary XML as the second model of a DRD: the
// assembly either fails with an error or yields a document that parses,
// whose entry point is a decision id of the second file, prefixed.
func FuzzAssembleDRD(f *testing.F) {
	srcs := localPassSources(f)
	f.Add(string(srcs[1].XML))
	f.Add(`<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="X"/></definitions>`)
	f.Add(`<d:definitions xmlns:d="http://www.omg.org/spec/DMN/20180521/MODEL/" xmlns:p="urn:p"><d:decision id="SZW_BijstandsnormInformatie" p:a="1"><d:variable name="v"/></d:decision><d:inputData id="i" name="i"/></d:definitions>`)
	f.Add(`<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision/></definitions>`)
	f.Add(`<definitions`)
	f.Fuzz(func(t *testing.T, xml string) {
		drd, err := AssembleDRD("fuzz", []DRDSource{srcs[0], {Identifier: "SZW_BijstandsnormInformatie", XML: []byte(xml)}})
		if err != nil {
			return
		}
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(drd.XML); err != nil {
			t.Fatalf("assembled DRD does not parse: %v\n%s", err, drd.XML)
		}
		if len(drd.EntryPointID) < 6 || drd.EntryPointID[:5] != "dmn1_" {
			t.Fatalf("entry point %q", drd.EntryPointID)
		}
		if doc.FindElement("//decision[@id='"+drd.EntryPointID+"']") == nil && doc.Root().FindElement("decision[@id='"+drd.EntryPointID+"']") == nil {
			t.Fatalf("entry point %q is not a decision of the DRD", drd.EntryPointID)
		}
	})
}

// FuzzFixedModelFromDMN: any input gives a model or an error, never a panic.
func FuzzFixedModelFromDMN(f *testing.F) {
	for _, data := range localPassFiles(f) {
		f.Add(string(data))
	}
	f.Add(`<definitions><decision id="SVB_LeeftijdsInformatie"/><inputData><variable name="x"/></inputData></definitions>`)
	f.Fuzz(func(t *testing.T, xml string) {
		m, err := FixedModelFromDMN("SVB_LeeftijdsInformatie", []byte(xml))
		if err == nil && (m.Identifier != "SVB_LeeftijdsInformatie" || m.Title == "") {
			t.Fatalf("model %+v", m)
		}
	})
}
