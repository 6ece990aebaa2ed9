package norms

import "fmt"

// Version is a CPRMV vocabulary version as a client names it in
// cprmv_version.
type Version string

// The vocabulary versions the service speaks. Only DefaultVersion is
// covered by the stability guarantee; the others are experimental (spec §9).
const (
	V030 Version = "0.3.0"
	V032 Version = "0.3.2"
	V041 Version = "0.4.1"

	DefaultVersion = V030
)

// Well-known namespaces of the records and rule keys.
const (
	RDFType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
	DCT     = "http://purl.org/dc/terms/"
	DCAT    = "http://www.w3.org/ns/dcat#"
)

// Vocabulary is one CPRMV version: the namespace of its rules and the model
// of its dataset-version records.
type Vocabulary struct {
	Version Version
	// Namespace prefixes the rule classes and predicates and the rule JSON
	// keys type, id, definition and contains.
	Namespace string
	// Stable is true only for the default vocabulary, the one the
	// stability contract covers.
	Stable bool
	// RecordClass is the class of the per-ruleset metadata resources
	// (cprmv:Dataset in 0.3.x, cprmv:RuleSet in 0.4.1), each carrying
	// <Namespace>rulesetId.
	RecordClass string
	// VersionPredicate gives a record's version; PublishedPredicate its
	// publication time. In 0.4.1 both are cprmv:validFrom, so published_at
	// equals the applicable date and version is never null.
	VersionPredicate, PublishedPredicate string
}

// Term returns the IRI of local name in the vocabulary's namespace.
func (v Vocabulary) Term(local string) string { return v.Namespace + local }

var vocabularies = [...]Vocabulary{
	{
		Version:            V030,
		Namespace:          "https://cprmv.open-regels.nl/0.3.0/",
		Stable:             true,
		RecordClass:        "https://cprmv.open-regels.nl/0.3.0/Dataset",
		VersionPredicate:   DCAT + "version",
		PublishedPredicate: DCT + "issued",
	},
	{
		Version:            V032,
		Namespace:          "https://cprmv.open-regels.nl/0.3.2/",
		RecordClass:        "https://cprmv.open-regels.nl/0.3.2/Dataset",
		VersionPredicate:   DCAT + "version",
		PublishedPredicate: DCT + "issued",
	},
	{
		Version:            V041,
		Namespace:          "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#",
		RecordClass:        "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#RuleSet",
		VersionPredicate:   "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#validFrom",
		PublishedPredicate: "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#validFrom",
	},
}

// Vocabularies lists the supported vocabulary versions, default first.
func Vocabularies() []Vocabulary { return append([]Vocabulary(nil), vocabularies[:]...) }

// LookupVocabulary returns the vocabulary of version v; the empty version
// means DefaultVersion.
func LookupVocabulary(v Version) (Vocabulary, bool) {
	if v == "" {
		v = DefaultVersion
	}
	for _, voc := range vocabularies {
		if voc.Version == v {
			return voc, true
		}
	}
	return Vocabulary{}, false
}

// ParamError is an invalid query parameter, with the message of the
// norms API.
type ParamError struct {
	Param   string // rulesetid, applicable_date or cprmv_version
	Message string
}

func (e *ParamError) Error() string { return e.Message }

func invalidVersion() error {
	return &ParamError{Param: "cprmv_version", Message: fmt.Sprintf(
		"Invalid cprmv_version: must be one of %s, %s, %s", V030, V032, V041)}
}
