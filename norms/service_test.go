package norms_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/sparql"
)

// fakeClock is the injectable clock of the metadata cache.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

func newService() (*norms.Service, *fakeClock) {
	clock := &fakeClock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	return norms.NewService(norms.Options{Now: clock.Now}), clock
}

// etagOf is the test's own rendering of the ETag recipe of the explorer
// the validator: hex SHA-256 of dataset part + "||" + filter part, quoted.
func etagOf(datasetPart, filterPart string) string {
	sum := sha256.Sum256([]byte(datasetPart + "||" + filterPart))
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

// The records of BWBR0015703 in the example data (0.3.0), newest first.
const participatiewet030 = "BWBR0015703=2026-01-01:2026-05-15T06:57:11Z,2025-07-01:2025-07-08T10:00:00Z," +
	"2025-07-01:2025-06-16T07:45:00Z,2025-01-01:2024-12-16T08:30:00Z,2024-07-01:2024-06-14T09:12:00Z"

func mustNorms(t *testing.T, svc *norms.Service, ep sparql.Endpoint, q norms.Query) *norms.Result {
	t.Helper()
	res, err := svc.Norms(context.Background(), ep, q)
	if err != nil {
		t.Fatalf("Norms(%+v): %v", q, err)
	}
	return res
}

func paths(res *norms.Result) []string {
	var out []string
	for _, r := range res.Rules {
		out = append(out, r.RuleIDPath)
	}
	return out
}

func TestNormsSingleRulesetFullyVersioned(t *testing.T) {
	store := exampleStore(t)
	svc, _ := newService()
	q := norms.Query{RulesetID: "BWBR0015703", ApplicableDate: "2025-07-01"}
	res := mustNorms(t, svc, store, q)

	wantPaths := []string{
		"BWBR0015703_2025-07-01_1, Artikel 21 onderdeel a",
		"BWBR0015703_2025-07-01_1, Artikel 21 onderdeel b",
		"BWBR0015703_2025-07-01_1, Artikel 22 onderdeel a",
		"BWBR0015703_2025-07-01_2, Artikel 21 onderdeel b",
	}
	if d := cmp.Diff(wantPaths, paths(res)); d != "" {
		t.Errorf("rules (-want +got):\n%s", d)
	}
	if res.Validators == nil {
		t.Fatal("fully versioned result without validators")
	}
	if want := etagOf(participatiewet030, "applicable_date=2025-07-01|cprmv_version=0.3.0|rulesetid=BWBR0015703"); res.Validators.ETag != want {
		t.Errorf("ETag = %s, want %s", res.Validators.ETag, want)
	}
	if want := time.Date(2026, 5, 15, 6, 57, 11, 0, time.UTC); !res.Validators.LastModified.Equal(want) {
		t.Errorf("LastModified = %v, want %v", res.Validators.LastModified, want)
	}
	got := show(res.DatasetVersions["BWBR0015703"])
	want := []string{"2026-01-01@2026-05-15T06:57:11Z", "2025-07-01@2025-07-08T10:00:00Z", "2025-07-01@2025-06-16T07:45:00Z",
		"2025-01-01@2024-12-16T08:30:00Z", "2024-07-01@2024-06-14T09:12:00Z"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("dataset_versions (-want +got):\n%s", d)
	}
	for _, r := range res.DatasetVersions["BWBR0015703"] {
		if r.Title == nil || *r.Title != "Participatiewet" {
			t.Errorf("record %v: title %v, want Participatiewet", show([]norms.VersionRecord{r}), r.Title)
		}
	}
	// The corrected row is the current value of its logical rule.
	for _, r := range norms.Current(res.Rules) {
		if r.Path.LogicalKey() == "BWBR0015703, Artikel 21 onderdeel b" && *r.Norm != "1955.80" {
			t.Errorf("current Artikel 21 onderdeel b = %s, want the correction 1955.80", *r.Norm)
		}
	}
	// Every rule matches its version record.
	for _, r := range res.Rules {
		m, ok := norms.MatchRecord(r, res.DatasetVersions[r.RulesetID])
		if !ok || *m.Version != "2025-07-01" || m.PublishedAt != "2025-07-08T10:00:00Z" {
			t.Errorf("%s matched %v, %v", r.RuleIDPath, show([]norms.VersionRecord{m}), ok)
		}
	}
}

func TestNormsUnversionedRulesetIsNotCacheable(t *testing.T) {
	store := exampleStore(t)
	svc, _ := newService()

	// All of 0.3.0: the legacy AOW has no record, so no validators, and it is
	// absent from dataset_versions while the others are present.
	res := mustNorms(t, svc, store, norms.Query{})
	if res.Validators != nil {
		t.Errorf("validators on a partly unversioned result: %+v", res.Validators)
	}
	var ids []string
	for id := range res.DatasetVersions {
		ids = append(ids, id)
	}
	if d := cmp.Diff([]string{"BWBR0015703", "VOORBEELD-BIJZONDERE-BIJSTAND"}, sortedStrings(ids)); d != "" {
		t.Errorf("dataset_versions keys (-want +got):\n%s", d)
	}
	wantCounts := []norms.RulesetCount{{"BWBR0002221", 2}, {"BWBR0015703", 11}, {"VOORBEELD-BIJZONDERE-BIJSTAND", 2}}
	if d := cmp.Diff(wantCounts, res.NormsPerRuleset()); d != "" {
		t.Errorf("norms_per_rulesetid (-want +got):\n%s", d)
	}
	// The secondary ruleset: no title, its legacy record last.
	if d := cmp.Diff([]string{"2025-01-01@2024-12-20T14:00:00Z", "null@2023-03-01T12:00:00Z"},
		show(res.DatasetVersions["VOORBEELD-BIJZONDERE-BIJSTAND"])); d != "" {
		t.Errorf("secondary records (-want +got):\n%s", d)
	}
	for _, r := range res.DatasetVersions["VOORBEELD-BIJZONDERE-BIJSTAND"] {
		if r.Title != nil {
			t.Errorf("secondary ruleset record has title %q", *r.Title)
		}
	}

	// Only the legacy ruleset: not cacheable either; the non-canonical path
	// has no derived fields.
	res = mustNorms(t, svc, store, norms.Query{RulesetID: "BWBR0002221"})
	if res.Validators != nil || len(res.DatasetVersions) != 0 {
		t.Errorf("legacy ruleset: validators %+v, dataset_versions %v", res.Validators, res.DatasetVersions)
	}
	if d := cmp.Diff([]string{"BWBR0002221/Artikel_7a/Lid_1", "BWBR0002221_2020-01-01_0, Artikel 7a"}, paths(res)); d != "" {
		t.Errorf("legacy rules (-want +got):\n%s", d)
	}
	if res.Rules[0].Path != nil {
		t.Errorf("non-canonical path parsed: %+v", res.Rules[0].Path)
	}
	if v, err := svc.Validators(context.Background(), store, norms.Query{RulesetID: "BWBR0002221"}); err != nil || v != nil {
		t.Errorf("short-circuit validators for a ruleset without records: %+v, %v", v, err)
	}

	// An empty result is not cacheable.
	res = mustNorms(t, svc, store, norms.Query{RulesetID: "BWBR0015703", ApplicableDate: "1999-01-01"})
	if len(res.Rules) != 0 || res.Validators != nil {
		t.Errorf("empty result: %d rules, validators %+v", len(res.Rules), res.Validators)
	}
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestNormsVocabularies(t *testing.T) {
	store := exampleStore(t)
	svc, _ := newService()

	// 0.3.2: the legacy record (version null) sorts last; rule keys carry
	// the 0.3.2 namespace.
	res := mustNorms(t, svc, store, norms.Query{Version: norms.V032})
	if d := cmp.Diff([]string{"2025-07-01@2025-06-16T07:45:00Z", "2025-01-01@2024-12-16T08:30:00Z", "null@2024-03-01T00:00:00Z"},
		show(res.DatasetVersions["BWBR0015703"])); d != "" {
		t.Errorf("0.3.2 records (-want +got):\n%s", d)
	}
	want032 := etagOf("BWBR0015703=2025-07-01:2025-06-16T07:45:00Z,2025-01-01:2024-12-16T08:30:00Z,null:2024-03-01T00:00:00Z",
		"cprmv_version=0.3.2")
	if res.Validators == nil || res.Validators.ETag != want032 {
		t.Errorf("0.3.2 validators %+v, want ETag %s", res.Validators, want032)
	}
	if len(res.Rules) != 2 || res.Rules[0].Namespace != "https://cprmv.open-regels.nl/0.3.2/" {
		t.Errorf("0.3.2 rules: %d, namespace %q", len(res.Rules), res.Rules[0].Namespace)
	}

	// 0.4.1: version and published_at are validFrom.
	res = mustNorms(t, svc, store, norms.Query{Version: norms.V041})
	if d := cmp.Diff([]string{"2025-07-01@2025-07-01", "2025-01-01@2025-01-01"}, show(res.DatasetVersions["BWBR0015703"])); d != "" {
		t.Errorf("0.4.1 records (-want +got):\n%s", d)
	}
	want041 := etagOf("BWBR0015703=2025-07-01:2025-07-01,2025-01-01:2025-01-01", "cprmv_version=0.4.1")
	if res.Validators == nil || res.Validators.ETag != want041 {
		t.Fatalf("0.4.1 validators %+v, want ETag %s", res.Validators, want041)
	}
	if want := time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC); !res.Validators.LastModified.Equal(want) {
		t.Errorf("0.4.1 LastModified = %v, want %v (a bare date is midnight GMT)", res.Validators.LastModified, want)
	}
	if d := cmp.Diff([]string{
		"BWBR0015703_2025-01-01_1, Artikel 21 onderdeel a",
		"BWBR0015703_2025-07-01_1, Artikel 21",
		"BWBR0015703_2025-07-01_1, Artikel 21 onderdeel a",
	}, paths(res)); d != "" {
		t.Errorf("0.4.1 rules (-want +got):\n%s", d)
	}
	if c := res.Rules[1].Contains; len(c) != 1 || c[0].ID != "onderdeel a" {
		t.Errorf("0.4.1 contains = %+v", c)
	}
}

func TestRuleJSONKeyOrder(t *testing.T) {
	store := exampleStore(t)
	svc, _ := newService()
	res := mustNorms(t, svc, store, norms.Query{RulesetID: "BWBR0015703", ApplicableDate: "2026-01-01"})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	const ns = "https://cprmv.open-regels.nl/0.3.0/"
	const rdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
	want := `{"total":1,"dataset_versions":{"BWBR0015703":[` +
		`{"version":"2026-01-01","published_at":"2026-05-15T06:57:11Z","title":"Participatiewet"},` +
		`{"version":"2025-07-01","published_at":"2025-07-08T10:00:00Z","title":"Participatiewet"},` +
		`{"version":"2025-07-01","published_at":"2025-06-16T07:45:00Z","title":"Participatiewet"},` +
		`{"version":"2025-01-01","published_at":"2024-12-16T08:30:00Z","title":"Participatiewet"},` +
		`{"version":"2024-07-01","published_at":"2024-06-14T09:12:00Z","title":"Participatiewet"}]},` +
		`"cprmv_version":"0.3.0","aggregations":{"norms_per_rulesetid":{"BWBR0015703":1}},"rules":[{` +
		`"` + rdfType + `":"` + ns + `Rule",` +
		`"` + ns + `id":"BWBR0015703",` +
		`"` + ns + `definition":"Participatiewet: bijstand voor wie niet in de eigen bijstand kan voorzien, geldend vanaf 1 januari 2026.",` +
		`"` + ns + `contains":{` +
		`"Artikel 21":{"` + rdfType + `":"` + ns + `Rule","` + ns + `id":"Artikel 21","` + ns + `definition":"Normen voor personen van 21 jaar of ouder die de pensioengerechtigde leeftijd nog niet hebben bereikt."},` +
		`"Artikel 22":{"` + rdfType + `":"` + ns + `Rule","` + ns + `id":"Artikel 22","` + ns + `definition":"Normen voor personen die de pensioengerechtigde leeftijd hebben bereikt."}},` +
		`"rulesetid":"BWBR0015703","applicable_date":"2026-01-01","rulesetid_index":1,` +
		`"rule_id_path":"BWBR0015703_2026-01-01_1","rule_id_path_key":"BWBR0015703"}]}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}

	// situatie, norm and per sit between the namespaced keys and rulesetid;
	// a non-canonical path has null derived fields.
	norm := "1955.80"
	r := norms.Rule{Namespace: "N/", ID: "i", Definition: "d", Norm: &norm, Per: sp("maand"), RulesetID: "X", RuleIDPath: "X/legacy"}
	b, _ = json.Marshal(r)
	want = `{"` + rdfType + `":"N/Rule","N/id":"i","N/definition":"d","norm":"1955.80","per":"maand",` +
		`"rulesetid":"X","applicable_date":null,"rulesetid_index":null,"rule_id_path":"X/legacy","rule_id_path_key":null}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}

	// An empty result still has every key, with empty objects and list.
	b, _ = json.Marshal(&norms.Result{Vocabulary: norms.Vocabularies()[0]})
	if want := `{"total":0,"dataset_versions":{},"cprmv_version":"0.3.0","aggregations":{"norms_per_rulesetid":{}},"rules":[]}`; string(b) != want {
		t.Errorf("empty JSON:\n got %s\nwant %s", b, want)
	}
}

func TestShortCircuitETagEqualsFullPath(t *testing.T) {
	store := exampleStore(t)
	svc, _ := newService()
	for _, q := range []norms.Query{
		{RulesetID: "BWBR0015703"},
		{RulesetID: "BWBR0015703", ApplicableDate: "2025-01-01"},
		{RulesetID: "BWBR0015703", Version: norms.V041},
		{RulesetID: "BWBR0015703", Version: norms.V032, Endpoint: "https://graph.example/sparql"},
		{RulesetID: "VOORBEELD-BIJZONDERE-BIJSTAND"},
	} {
		short, err := svc.Validators(context.Background(), store, q)
		if err != nil || short == nil {
			t.Fatalf("%+v: short-circuit validators %+v, %v", q, short, err)
		}
		full := mustNorms(t, svc, store, q)
		if full.Validators == nil || *full.Validators != *short {
			t.Errorf("%+v: short-circuit %+v, full path %+v", q, short, full.Validators)
		}
	}
	if v, err := svc.Validators(context.Background(), store, norms.Query{}); v != nil || err != nil {
		t.Errorf("short-circuit without rulesetid: %+v, %v", v, err)
	}
}

func TestETagFilterParameters(t *testing.T) {
	store := exampleStore(t)
	svc, _ := newService()
	seen := map[string]norms.Query{}
	for _, q := range []norms.Query{
		{RulesetID: "BWBR0015703"},
		{RulesetID: "BWBR0015703", ApplicableDate: "2025-01-01"},
		{RulesetID: "BWBR0015703", ApplicableDate: "2025-07-01"},
		{RulesetID: "BWBR0015703", Endpoint: "https://graph.example/sparql"},
	} {
		res := mustNorms(t, svc, store, q)
		if prev, dup := seen[res.Validators.ETag]; dup {
			t.Errorf("%+v and %+v share ETag %s", prev, q, res.Validators.ETag)
		}
		seen[res.Validators.ETag] = q
	}
	// The default version is part of the filter whether or not it is named.
	a := mustNorms(t, svc, store, norms.Query{RulesetID: "BWBR0015703"})
	b := mustNorms(t, svc, store, norms.Query{RulesetID: "BWBR0015703", Version: norms.V030})
	if a.Validators.ETag != b.Validators.ETag {
		t.Errorf("default version: %s vs explicit 0.3.0: %s", a.Validators.ETag, b.Validators.ETag)
	}
	want := etagOf(participatiewet030, "cprmv_version=0.3.0|endpoint=https://graph.example/sparql|rulesetid=BWBR0015703")
	c := mustNorms(t, svc, store, norms.Query{RulesetID: "BWBR0015703", Endpoint: "https://graph.example/sparql"})
	if c.Validators.ETag != want {
		t.Errorf("ETag with endpoint = %s, want %s", c.Validators.ETag, want)
	}
}

// update runs a SPARQL update on the store.
func update(t *testing.T, ep sparql.Endpoint, u string) {
	t.Helper()
	if err := ep.Update(context.Background(), u); err != nil {
		t.Fatalf("update: %v\n%s", err, u)
	}
}

const prefixes = `PREFIX cprmv: <https://cprmv.open-regels.nl/0.3.0/>
PREFIX cprmv041: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#>
PREFIX dcat: <http://www.w3.org/ns/dcat#>
PREFIX dct: <http://purl.org/dc/terms/>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
PREFIX n030: <https://data.regelkit.example/norms/0.3.0/>
PREFIX n041: <https://data.regelkit.example/norms/0.4.1/>
`

func TestETagStability(t *testing.T) {
	store := exampleStore(t)
	svc, clock := newService()
	q := norms.Query{RulesetID: "BWBR0015703"}
	etag := func() string {
		t.Helper()
		res := mustNorms(t, svc, store, q)
		if res.Validators == nil {
			t.Fatal("no validators")
		}
		return res.Validators.ETag
	}
	first := etag()

	// Same data → same ETag, from a fresh service too.
	if again := etag(); again != first {
		t.Errorf("same data, new ETag: %s → %s", first, again)
	}
	fresh, _ := newService()
	if res := mustNorms(t, fresh, store, q); res.Validators.ETag != first {
		t.Errorf("fresh service: %s, want %s", res.Validators.ETag, first)
	}

	// A title change keeps the ETag (and shows once the cache expired).
	update(t, store, prefixes+`DELETE { ?d dct:title ?t } INSERT { ?d dct:title "Participatiewet (geconsolideerd)" }
WHERE { ?d a cprmv:Dataset ; cprmv:rulesetId "BWBR0015703" ; dct:title ?t }`)
	clock.Advance(61 * time.Second)
	res := mustNorms(t, svc, store, q)
	if res.Validators.ETag != first {
		t.Errorf("title change changed the ETag: %s → %s", first, res.Validators.ETag)
	}
	if got := *res.DatasetVersions["BWBR0015703"][0].Title; got != "Participatiewet (geconsolideerd)" {
		t.Errorf("title after refresh = %q", got)
	}

	// Republication (a new record) → new ETag, but only after the 60 s
	// metadata cache expires.
	update(t, store, prefixes+`INSERT DATA { n030:dataset-BWBR0015703-2026-01-01-republished a cprmv:Dataset ;
  cprmv:rulesetId "BWBR0015703" ; dcat:version "2026-01-01" ; dct:issued "2026-06-01T08:00:00Z"^^xsd:dateTime }`)
	clock.Advance(59 * time.Second)
	if got := etag(); got != first {
		t.Errorf("within the cache lifetime the ETag changed: %s → %s", first, got)
	}
	clock.Advance(2 * time.Second)
	republished := etag()
	if republished == first {
		t.Error("republication kept the ETag")
	}
	want := etagOf("BWBR0015703=2026-01-01:2026-06-01T08:00:00Z,"+strings.TrimPrefix(participatiewet030, "BWBR0015703="),
		"cprmv_version=0.3.0|rulesetid=BWBR0015703")
	if republished != want {
		t.Errorf("republished ETag = %s, want %s", republished, want)
	}

	// Changing dct:issued of an existing record is a republication too.
	update(t, store, prefixes+`DELETE { n030:dataset-BWBR0015703-2024-07-01 dct:issued ?i }
INSERT { n030:dataset-BWBR0015703-2024-07-01 dct:issued "2024-06-15T09:12:00Z"^^xsd:dateTime }
WHERE { n030:dataset-BWBR0015703-2024-07-01 dct:issued ?i }`)
	clock.Advance(61 * time.Second)
	if got := etag(); got == republished {
		t.Error("a changed dct:issued kept the ETag")
	}
}

func TestETag041Caveat(t *testing.T) {
	store := exampleStore(t)
	svc, clock := newService()
	q := norms.Query{RulesetID: "BWBR0015703", Version: norms.V041}
	before := mustNorms(t, svc, store, q)

	// Re-publish the 2025-07-01 rule set with a correction but an unchanged
	// validFrom: new content, same ETag (the spec's caveat).
	update(t, store, prefixes+`DELETE { n041:ruleset-BWBR0015703-2025-07-01 dct:title ?t }
INSERT { n041:ruleset-BWBR0015703-2025-07-01 dct:title "Participatiewet (herpublicatie)" .
  n041:BWBR0015703-2025-07-01-2-art21a a cprmv041:Rule ; cprmv041:id "Artikel 21 onderdeel a" ;
    cprmv041:definition "Gecorrigeerd." ; cprmv041:rulesetId "BWBR0015703" ;
    cprmv041:ruleIdPath "BWBR0015703_2025-07-01_2, Artikel 21 onderdeel a" ; cprmv041:norm "1369.60" }
WHERE { n041:ruleset-BWBR0015703-2025-07-01 dct:title ?t }`)
	clock.Advance(61 * time.Second)
	after := mustNorms(t, svc, store, q)
	if len(after.Rules) != len(before.Rules)+1 {
		t.Fatalf("republished rules: %d, want %d", len(after.Rules), len(before.Rules)+1)
	}
	if after.Validators.ETag != before.Validators.ETag {
		t.Errorf("0.4.1 republication with unchanged validFrom changed the ETag: %s → %s", before.Validators.ETag, after.Validators.ETag)
	}

	// A new validFrom does change it.
	update(t, store, prefixes+`INSERT DATA { n041:ruleset-BWBR0015703-2026-01-01 a cprmv041:RuleSet ;
  cprmv041:rulesetId "BWBR0015703" ; cprmv041:validFrom "2026-01-01"^^xsd:date }`)
	clock.Advance(61 * time.Second)
	if got := mustNorms(t, svc, store, q); got.Validators.ETag == before.Validators.ETag {
		t.Error("a new 0.4.1 rule set kept the ETag")
	}
}

func TestMetadataCacheAndFailures(t *testing.T) {
	store := exampleStore(t)
	ep := &countingEndpoint{Endpoint: store}
	svc, clock := newService()
	q := norms.Query{RulesetID: "BWBR0015703"}

	mustNorms(t, svc, ep, q)
	if len(ep.selects) != 2 {
		t.Fatalf("first query ran %d selects, want rules + metadata", len(ep.selects))
	}
	mustNorms(t, svc, ep, q)
	mustNorms(t, svc, ep, norms.Query{RulesetID: "BWBR0015703", ApplicableDate: "2025-01-01"})
	if len(ep.selects) != 4 {
		t.Errorf("cached metadata: %d selects, want 4 (two more rules queries)", len(ep.selects))
	}
	// Per (endpoint, version): another version or endpoint key fetches anew.
	mustNorms(t, svc, ep, norms.Query{RulesetID: "BWBR0015703", Version: norms.V041})
	mustNorms(t, svc, ep, norms.Query{RulesetID: "BWBR0015703", Endpoint: "https://other.example/sparql"})
	if len(ep.selects) != 8 {
		t.Errorf("per-key cache: %d selects, want 8", len(ep.selects))
	}
	clock.Advance(60 * time.Second)
	mustNorms(t, svc, ep, q)
	if len(ep.selects) != 10 {
		t.Errorf("after 60 s: %d selects, want 10 (metadata refetched)", len(ep.selects))
	}

	// A failing metadata query: served without dataset versions, not
	// cacheable, and the failure is not cached.
	failing := &countingEndpoint{Endpoint: store, failWith: func(q string) error {
		if strings.Contains(q, "Dataset") {
			return errors.New("metadata store down")
		}
		return nil
	}}
	svc2, _ := newService()
	res := mustNorms(t, svc2, failing, q)
	if len(res.Rules) == 0 || len(res.DatasetVersions) != 0 || res.Validators != nil {
		t.Errorf("metadata failure: %d rules, %d dataset versions, validators %+v", len(res.Rules), len(res.DatasetVersions), res.Validators)
	}
	if v, err := svc2.Validators(context.Background(), failing, q); v != nil || err != nil {
		t.Errorf("short-circuit after a metadata failure: %+v, %v", v, err)
	}
	failing.failWith = nil
	if res := mustNorms(t, svc2, failing, q); res.Validators == nil {
		t.Error("the metadata failure was cached")
	}

	// A failing rules query is a *QueryError.
	broken := &countingEndpoint{Endpoint: store, failWith: func(string) error { return errors.New("boom") }}
	_, err := svc2.Norms(context.Background(), broken, q)
	var qe *norms.QueryError
	if !errors.As(err, &qe) || !strings.Contains(err.Error(), "boom") {
		t.Errorf("rules failure: %v", err)
	}
}

func TestMetadataCacheBounded(t *testing.T) {
	store := exampleStore(t)
	ep := &countingEndpoint{Endpoint: store}
	clock := &fakeClock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	svc := norms.NewService(norms.Options{Now: clock.Now, MaxCacheEntries: 2})
	ctx := context.Background()
	for _, key := range []string{"a", "b", "c"} {
		if _, err := svc.DatasetVersions(ctx, ep, key, norms.V030); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
	}
	// "a" was the oldest and was evicted; "c" is still cached.
	n := len(ep.selects)
	svc.DatasetVersions(ctx, ep, "c", norms.V030)
	if len(ep.selects) != n {
		t.Error("the newest entry was evicted")
	}
	svc.DatasetVersions(ctx, ep, "a", norms.V030)
	if len(ep.selects) != n+1 {
		t.Error("the oldest entry was kept beyond the bound")
	}
	if _, err := svc.DatasetVersions(ctx, ep, "a", "9.9.9"); err == nil {
		t.Error("unknown version accepted")
	}
}

func TestQueryValidate(t *testing.T) {
	tests := []struct {
		q       norms.Query
		param   string
		message string
	}{
		{norms.Query{RulesetID: "BWBR0015703", ApplicableDate: "2026-01-01", Version: "0.4.1"}, "", ""},
		{norms.Query{RulesetID: `x" } ; DROP ALL ; #`}, "rulesetid", "Invalid rulesetid: must match /^[A-Za-z0-9_-]+$/"},
		{norms.Query{RulesetID: "BWBR 0015703"}, "rulesetid", "Invalid rulesetid: must match /^[A-Za-z0-9_-]+$/"},
		{norms.Query{ApplicableDate: "2026-1-1"}, "applicable_date", "Invalid applicable_date: must be YYYY-MM-DD"},
		{norms.Query{ApplicableDate: `2026-01-01") }`}, "applicable_date", "Invalid applicable_date: must be YYYY-MM-DD"},
		{norms.Query{Version: "0.4.0"}, "cprmv_version", "Invalid cprmv_version: must be one of 0.3.0, 0.3.2, 0.4.1"},
	}
	for _, tt := range tests {
		err := tt.q.Validate()
		if tt.param == "" {
			if err != nil {
				t.Errorf("%+v: %v", tt.q, err)
			}
			continue
		}
		var pe *norms.ParamError
		if !errors.As(err, &pe) || pe.Param != tt.param || pe.Message != tt.message {
			t.Errorf("%+v: error %v, want %s: %s", tt.q, err, tt.param, tt.message)
		}
		if _, err := norms.NewService(norms.Options{}).Norms(context.Background(), nil, tt.q); !errors.As(err, &pe) {
			t.Errorf("%+v: Norms accepted an invalid query: %v", tt.q, err)
		}
	}
}

func TestVocabularies(t *testing.T) {
	want := []struct {
		version   norms.Version
		namespace string
		stable    bool
	}{
		{"0.3.0", "https://cprmv.open-regels.nl/0.3.0/", true},
		{"0.3.2", "https://cprmv.open-regels.nl/0.3.2/", false},
		{"0.4.1", "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#", false},
	}
	got := norms.Vocabularies()
	if len(got) != len(want) {
		t.Fatalf("%d vocabularies", len(got))
	}
	for i, w := range want {
		if got[i].Version != w.version || got[i].Namespace != w.namespace || got[i].Stable != w.stable {
			t.Errorf("vocabulary %d = %+v, want %+v", i, got[i], w)
		}
	}
	if v, ok := norms.LookupVocabulary(""); !ok || v.Version != norms.DefaultVersion || norms.DefaultVersion != "0.3.0" {
		t.Errorf("default vocabulary = %+v, %v", v, ok)
	}
	if got[2].RecordClass != "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#RuleSet" ||
		got[0].RecordClass != "https://cprmv.open-regels.nl/0.3.0/Dataset" {
		t.Errorf("record classes: %q, %q", got[0].RecordClass, got[2].RecordClass)
	}
}

// TestConcurrentUse shares one service across goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	store := exampleStore(t)
	svc := norms.NewService(norms.Options{MetadataTTL: time.Millisecond, MaxCacheEntries: 2})
	want := mustNorms(t, svc, store, norms.Query{RulesetID: "BWBR0015703"}).Validators.ETag
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 20 {
				q := norms.Query{RulesetID: "BWBR0015703", Endpoint: []string{"", "a", "b"}[(g+i)%3]}
				v, err := svc.Validators(context.Background(), store, q)
				if err == nil && v == nil {
					err = errors.New("no validators")
				}
				if err == nil && q.Endpoint == "" && v.ETag != want {
					err = errors.New("ETag differs under concurrency")
				}
				if err == nil {
					_, err = svc.Norms(context.Background(), store, q)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
