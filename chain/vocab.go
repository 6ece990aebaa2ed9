package chain

// Namespaces of the knowledge graph.
const (
	nsCPRMV     = "https://cprmv.open-regels.nl/0.3.0/"
	nsCPRMV041  = "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#"
	nsCPSV      = "http://purl.org/vocab/cpsv#"
	nsDCT       = "http://purl.org/dc/terms/"
	nsRONLTerms = "https://regels.overheid.nl/termen/"
	nsRONLOnto  = "https://regels.overheid.nl/ontology#"
	nsCV        = "http://data.europa.eu/m8g/"
	nsFOAF      = "http://xmlns.com/foaf/0.1/"
	nsSKOS      = "http://www.w3.org/2004/02/skos/core#"
	nsSchema    = "http://schema.org/"
	nsXSD       = "http://www.w3.org/2001/XMLSchema#"
)

// queryPrefixes starts every discovery query.
const queryPrefixes = `PREFIX cprmv: <` + nsCPRMV + `>
PREFIX cprmv041: <` + nsCPRMV041 + `>
PREFIX cpsv: <` + nsCPSV + `>
PREFIX dct: <` + nsDCT + `>
PREFIX ronl: <` + nsRONLTerms + `>
PREFIX ronlo: <` + nsRONLOnto + `>
PREFIX cv: <` + nsCV + `>
PREFIX foaf: <` + nsFOAF + `>
PREFIX skos: <` + nsSKOS + `>
PREFIX schema: <` + nsSchema + `>
`

// decisionModelClasses matches both CPRMV DecisionModel classes: models
// published under 0.4.1 were missing from upstream listings.
const decisionModelClasses = `VALUES ?class { cprmv:DecisionModel cprmv041:DecisionModel }`
