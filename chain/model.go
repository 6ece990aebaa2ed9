package chain

import "encoding/json"

// Model is one decision model of the knowledge graph: the "DMN record" of the
// explorer specification (§2.2) plus optional fields (deployment, service,
// organisation, validation), which are omitted when the graph does not state
// them.
type Model struct {
	ID               string     `json:"id"`
	Identifier       string     `json:"identifier"`
	Title            string     `json:"title"`
	Description      string     `json:"description,omitempty"`
	Inputs           []Variable `json:"inputs"`
	Outputs          []Variable `json:"outputs"`
	ValidationStatus *string    `json:"validationStatus"`
	ValidatedByName  *string    `json:"validatedByName"`
	ValidatedAt      *string    `json:"validatedAt"`
	VendorCount      int        `json:"vendorCount"`
	Vendors          []Vendor   `json:"vendors"`

	DeploymentID     string `json:"deploymentId,omitempty"`
	DeployedAt       string `json:"deployedAt,omitempty"`
	ImplementedBy    string `json:"implementedBy,omitempty"`
	LastTested       string `json:"lastTested,omitempty"`
	TestStatus       string `json:"testStatus,omitempty"`
	Service          string `json:"service,omitempty"`
	ServiceTitle     string `json:"serviceTitle,omitempty"`
	Organization     string `json:"organization,omitempty"`
	OrganizationName string `json:"organizationName,omitempty"`
	LogoURL          string `json:"logoUrl,omitempty"`
	ValidatedBy      string `json:"validatedBy,omitempty"`
	ValidationNote   string `json:"validationNote,omitempty"`
	XMLURL           string `json:"xmlUrl,omitempty"`
}

// Variable is an input or output of a model.
type Variable struct {
	URI         string `json:"-"`
	Identifier  string `json:"identifier"`
	Title       string `json:"title"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	// TestValue is the schema:value coerced by type: a JSON number for
	// Integer and Double (null when unparsable), a boolean for Boolean,
	// else a string. Absent when the graph has no test value.
	TestValue json.RawMessage `json:"testValue,omitempty"`
}

// Vendor is a vendor service built on a model.
type Vendor struct {
	URI               string    `json:"uri"`
	Title             string    `json:"title,omitempty"`
	Vendor            string    `json:"vendor"`
	BasedOn           string    `json:"basedOn"`
	BasedOnIdentifier string    `json:"basedOnIdentifier"`
	ImplementedBy     string    `json:"implementedBy,omitempty"`
	ImplementedByName string    `json:"implementedByName,omitempty"`
	Provider          *Provider `json:"provider,omitempty"`
	ServiceURL        string    `json:"serviceUrl,omitempty"`
	License           string    `json:"license,omitempty"`
	AccessType        string    `json:"accessType,omitempty"`
	Description       string    `json:"description,omitempty"`
}

// Provider is the organisation behind a vendor service.
type Provider struct {
	Name         string        `json:"name"`
	LogoURL      string        `json:"logoUrl,omitempty"`
	Homepage     string        `json:"homepage,omitempty"`
	ContactPoint *ContactPoint `json:"contactPoint,omitempty"`
}

// ContactPoint is a provider's contact point.
type ContactPoint struct {
	Name      string `json:"name,omitempty"`
	Email     string `json:"email,omitempty"`
	Telephone string `json:"telephone,omitempty"`
}

// ModelRef names a model in pairs and chains.
type ModelRef struct {
	URI        string `json:"uri"`
	Identifier string `json:"identifier"`
	Title      string `json:"title"`
}

// Match kinds of a connectable pair.
const (
	MatchExact    = "exact"
	MatchSemantic = "semantic"
)

// Pair is a connectable variable pair (explorer spec §2.3): an output of
// DMN1 that can feed an input of DMN2.
type Pair struct {
	DMN1           ModelRef `json:"dmn1"`
	DMN2           ModelRef `json:"dmn2"`
	OutputVariable string   `json:"outputVariable"`
	InputVariable  string   `json:"inputVariable"`
	VariableType   string   `json:"variableType"`
	MatchType      string   `json:"matchType"`
	// SharedConcept is nil for exact matches and the shared skos:exactMatch
	// target for semantic ones.
	SharedConcept *string `json:"sharedConcept"`
}

// Equivalence is a pair of variables of different models whose concepts
// share a skos:exactMatch target.
type Equivalence struct {
	SharedConcept string      `json:"sharedConcept"`
	Concept1      ConceptInfo `json:"concept1"`
	Concept2      ConceptInfo `json:"concept2"`
	DMN1          TitledRef   `json:"dmn1"`
	DMN2          TitledRef   `json:"dmn2"`
}

// ConceptInfo is one side of an Equivalence.
type ConceptInfo struct {
	URI      string      `json:"uri"`
	Label    string      `json:"label"`
	Notation string      `json:"notation,omitempty"`
	Variable VariableRef `json:"variable"`
}

// VariableRef names a variable.
type VariableRef struct {
	URI        string `json:"uri"`
	Identifier string `json:"identifier"`
	Type       string `json:"type"`
}

// TitledRef names a model by IRI and title.
type TitledRef struct {
	URI   string `json:"uri"`
	Title string `json:"title"`
}

// Cycle is a circular dependency of three models.
type Cycle struct {
	Path []TitledRef `json:"path"`
	Type string      `json:"type"` // "three-hop"
}

// Group lists, for one source model, the models its outputs feed by
// identifier.
type Group struct {
	From        string       `json:"from"`
	Connections []Connection `json:"connections"`
}

// Connection is one link of a Group.
type Connection struct {
	To           string `json:"to"`
	Variable     string `json:"variable"`
	VariableType string `json:"variableType"`
}
