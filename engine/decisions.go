package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Decisions is the decision side of an engine: deployments of DMN (and
// other) resources, the decision definitions they create, and evaluation.
// Implementations: engine/local (embedded) and engine/operaton (remote).
// Every method is safe for concurrent use. Not-found errors match
// ErrNotFound; evaluation failures are *EvaluationError (embedded) or
// *Error with Operaton's message (remote).
type Decisions interface {
	// Deploy deploys a bundle of resources. Every decision of every DMN
	// resource becomes a decision definition: key = decision id, version
	// counted per key and tenant.
	Deploy(ctx context.Context, d NewDeployment) (Deployment, error)
	// Deployment returns a deployment by id.
	Deployment(ctx context.Context, id string) (Deployment, error)
	// Deployments lists deployments.
	Deployments(ctx context.Context, q DeploymentQuery) ([]Deployment, error)
	// DecisionDefinitions lists decision definitions.
	DecisionDefinitions(ctx context.Context, q DecisionDefinitionQuery) ([]DecisionDefinition, error)
	// DecisionDefinition returns a decision definition by id.
	DecisionDefinition(ctx context.Context, id string) (DecisionDefinition, error)
	// LatestDecisionDefinition returns the latest version of the decision
	// definition with the key, of the tenant or, for tenantID "", of no tenant.
	LatestDecisionDefinition(ctx context.Context, key, tenantID string) (DecisionDefinition, error)
	// DecisionDefinitionXML returns the DMN XML of the resource that
	// defines the decision definition.
	DecisionDefinitionXML(ctx context.Context, id string) (string, error)
	// Evaluate evaluates the latest version of the decision with the key
	// (of the tenant, or of no tenant for ""), its required decisions first.
	Evaluate(ctx context.Context, key, tenantID string, vars Variables) (Result, error)
	// EvaluateDefinition evaluates the decision definition with the id.
	EvaluateDefinition(ctx context.Context, id string, vars Variables) (Result, error)
}

// Engine is a decision engine that can report its version, which is also
// its health probe. The process side is Processes; ProcessEngine is both.
type Engine interface {
	Decisions
	// Version returns the engine's version (Operaton: GET /version).
	Version(ctx context.Context) (string, error)
}

// Resource is a named file of a deployment: a DMN or BPMN model, a form,
// a document template.
type Resource struct {
	Name string
	Data []byte
}

// NewDeployment is what to deploy (Operaton's POST /deployment/create).
type NewDeployment struct {
	Name     string
	Source   string
	TenantID string
	// EnableDuplicateFiltering: when the latest deployment with the same
	// name (and tenant) has the same resources, nothing is deployed and
	// that deployment is returned.
	EnableDuplicateFiltering bool
	// DeployChangedOnly: deploy only the resources that differ from the
	// latest ones of that name (implies duplicate filtering).
	DeployChangedOnly bool
	// ReplacePrevious: once this deployment is made, the earlier
	// deployments with the same name and tenant are deleted with their
	// decision definitions, so that redeploying under one name (the
	// explorer's DRD exports) does not accumulate versions. A deployment
	// that duplicate filtering answers with an existing one deletes
	// nothing; with DeployChangedOnly only the earlier deployments whose
	// every resource this one carries are deleted, so unchanged models
	// stay. The embedded engine honours it; engine/operaton does not
	// send it (a remote Operaton keeps its history in its own database).
	ReplacePrevious bool
	Resources       []Resource
}

// Deployment is a deployment. The Deployed… fields are filled only in the
// answer of Deploy: the definitions that deployment created (none when
// duplicate filtering returned an existing deployment).
type Deployment struct {
	ID, Name, Source, TenantID              string
	Time                                    time.Time
	DeployedDecisionDefinitions             []DecisionDefinition
	DeployedDecisionRequirementsDefinitions []DecisionRequirementsDefinition
	DeployedProcessDefinitions              []ProcessDefinition
}

// DecisionDefinition is a deployed decision (Operaton's decision
// definition). ID is key:version:uuid.
type DecisionDefinition struct {
	ID, Key, Category, Name                                             string
	Version                                                             int
	Resource, DeploymentID                                              string
	DecisionRequirementsDefinitionID, DecisionRequirementsDefinitionKey string
	TenantID, VersionTag                                                string
	HistoryTimeToLive                                                   *int
}

// DecisionRequirementsDefinition is a deployed DRD: a DMN resource with
// more than one decision. Key is the id of its definitions element.
type DecisionRequirementsDefinition struct {
	ID, Key, Category, Name string
	Version                 int
	Resource, DeploymentID  string
	TenantID                string
}

// DecisionDefinitionQuery filters and pages decision definitions, with
// the parameters of Operaton's GET /decision-definition. Zero values do
// not filter. Like patterns use SQL's % and _.
type DecisionDefinitionQuery struct {
	ID                                    string   // decisionDefinitionId
	IDIn                                  []string // decisionDefinitionIdIn
	Key, KeyLike                          string
	Name, NameLike                        string
	Category, CategoryLike                string
	DeploymentID                          string
	ResourceName, ResourceNameLike        string
	Version                               int // 0: any
	LatestVersion                         bool
	DecisionRequirementsDefinitionID      string
	DecisionRequirementsDefinitionKey     string
	WithoutDecisionRequirementsDefinition bool
	TenantIDIn                            []string
	WithoutTenantID                       bool
	// IncludeDefinitionsWithoutTenantID adds the definitions of no tenant
	// to a TenantIDIn filter.
	IncludeDefinitionsWithoutTenantID bool
	VersionTag, VersionTagLike        string
	// SortBy is one of category, key, id, name, version, deploymentId,
	// tenantId, versionTag; SortOrder asc or desc.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows (Operaton's maxResults=0)
}

// DeploymentQuery filters and pages deployments (GET /deployment).
type DeploymentQuery struct {
	ID                              string
	Name, NameLike                  string
	Source                          string
	TenantIDIn                      []string
	WithoutTenantID                 bool
	IncludeDeploymentsWithoutTenant bool
	// SortBy is one of id, name, deploymentTime, tenantId; SortOrder asc or desc.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows (Operaton's maxResults=0)
}

// JSON shapes: Operaton's DTOs, with null for absent optional strings.

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

type decisionDefinitionJSON struct {
	ID                                string  `json:"id"`
	Key                               string  `json:"key"`
	Category                          *string `json:"category"`
	Name                              *string `json:"name"`
	Version                           int     `json:"version"`
	Resource                          *string `json:"resource"`
	DeploymentID                      *string `json:"deploymentId"`
	DecisionRequirementsDefinitionID  *string `json:"decisionRequirementsDefinitionId"`
	DecisionRequirementsDefinitionKey *string `json:"decisionRequirementsDefinitionKey"`
	TenantID                          *string `json:"tenantId"`
	VersionTag                        *string `json:"versionTag"`
	HistoryTimeToLive                 *int    `json:"historyTimeToLive"`
}

// MarshalJSON writes Operaton's decision definition JSON.
func (d DecisionDefinition) MarshalJSON() ([]byte, error) {
	return json.Marshal(decisionDefinitionJSON{ID: d.ID, Key: d.Key, Category: nullable(d.Category), Name: nullable(d.Name),
		Version: d.Version, Resource: nullable(d.Resource), DeploymentID: nullable(d.DeploymentID),
		DecisionRequirementsDefinitionID:  nullable(d.DecisionRequirementsDefinitionID),
		DecisionRequirementsDefinitionKey: nullable(d.DecisionRequirementsDefinitionKey),
		TenantID:                          nullable(d.TenantID), VersionTag: nullable(d.VersionTag), HistoryTimeToLive: d.HistoryTimeToLive})
}

// UnmarshalJSON reads Operaton's decision definition JSON.
func (d *DecisionDefinition) UnmarshalJSON(data []byte) error {
	var j decisionDefinitionJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*d = DecisionDefinition{ID: j.ID, Key: j.Key, Category: str(j.Category), Name: str(j.Name), Version: j.Version,
		Resource: str(j.Resource), DeploymentID: str(j.DeploymentID),
		DecisionRequirementsDefinitionID: str(j.DecisionRequirementsDefinitionID), DecisionRequirementsDefinitionKey: str(j.DecisionRequirementsDefinitionKey),
		TenantID: str(j.TenantID), VersionTag: str(j.VersionTag), HistoryTimeToLive: j.HistoryTimeToLive}
	return nil
}

type decisionRequirementsDefinitionJSON struct {
	ID           string  `json:"id"`
	Key          string  `json:"key"`
	Category     *string `json:"category"`
	Name         *string `json:"name"`
	Version      int     `json:"version"`
	Resource     *string `json:"resource"`
	DeploymentID *string `json:"deploymentId"`
	TenantID     *string `json:"tenantId"`
}

// MarshalJSON writes Operaton's decision requirements definition JSON.
func (d DecisionRequirementsDefinition) MarshalJSON() ([]byte, error) {
	return json.Marshal(decisionRequirementsDefinitionJSON{ID: d.ID, Key: d.Key, Category: nullable(d.Category), Name: nullable(d.Name),
		Version: d.Version, Resource: nullable(d.Resource), DeploymentID: nullable(d.DeploymentID), TenantID: nullable(d.TenantID)})
}

// UnmarshalJSON reads Operaton's decision requirements definition JSON.
func (d *DecisionRequirementsDefinition) UnmarshalJSON(data []byte) error {
	var j decisionRequirementsDefinitionJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*d = DecisionRequirementsDefinition{ID: j.ID, Key: j.Key, Category: str(j.Category), Name: str(j.Name), Version: j.Version,
		Resource: str(j.Resource), DeploymentID: str(j.DeploymentID), TenantID: str(j.TenantID)}
	return nil
}

type deploymentJSON struct {
	Links                                   []json.RawMessage                         `json:"links"`
	ID                                      string                                    `json:"id"`
	Name                                    *string                                   `json:"name"`
	Source                                  *string                                   `json:"source"`
	DeploymentTime                          *string                                   `json:"deploymentTime"`
	TenantID                                *string                                   `json:"tenantId"`
	DeployedProcessDefinitions              map[string]json.RawMessage                `json:"deployedProcessDefinitions"`
	DeployedCaseDefinitions                 map[string]json.RawMessage                `json:"deployedCaseDefinitions"`
	DeployedDecisionDefinitions             map[string]DecisionDefinition             `json:"deployedDecisionDefinitions"`
	DeployedDecisionRequirementsDefinitions map[string]DecisionRequirementsDefinition `json:"deployedDecisionRequirementsDefinitions"`
}

// MarshalJSON writes Operaton's deployment JSON (DeploymentWithDefinitions:
// the deployed… maps are null when the deployment created none).
func (d Deployment) MarshalJSON() ([]byte, error) {
	j := deploymentJSON{Links: []json.RawMessage{}, ID: d.ID, Name: nullable(d.Name), Source: nullable(d.Source), TenantID: nullable(d.TenantID)}
	if !d.Time.IsZero() {
		t := d.Time.Format(DateLayout)
		j.DeploymentTime = &t
	}
	if len(d.DeployedDecisionDefinitions) > 0 {
		j.DeployedDecisionDefinitions = map[string]DecisionDefinition{}
		for _, def := range d.DeployedDecisionDefinitions {
			j.DeployedDecisionDefinitions[def.ID] = def
		}
	}
	if len(d.DeployedDecisionRequirementsDefinitions) > 0 {
		j.DeployedDecisionRequirementsDefinitions = map[string]DecisionRequirementsDefinition{}
		for _, def := range d.DeployedDecisionRequirementsDefinitions {
			j.DeployedDecisionRequirementsDefinitions[def.ID] = def
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads Operaton's deployment JSON; deployed definitions are
// sorted by key, then version.
func (d *Deployment) UnmarshalJSON(data []byte) error {
	var j deploymentJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	out := Deployment{ID: j.ID, Name: str(j.Name), Source: str(j.Source), TenantID: str(j.TenantID)}
	if j.DeploymentTime != nil {
		t, err := ParseDate(*j.DeploymentTime)
		if err != nil {
			return fmt.Errorf("deploymentTime: %w", err)
		}
		out.Time = t
	}
	for _, def := range j.DeployedDecisionDefinitions {
		out.DeployedDecisionDefinitions = append(out.DeployedDecisionDefinitions, def)
	}
	SortDecisionDefinitions(out.DeployedDecisionDefinitions)
	for _, def := range j.DeployedDecisionRequirementsDefinitions {
		out.DeployedDecisionRequirementsDefinitions = append(out.DeployedDecisionRequirementsDefinitions, def)
	}
	sortDRDs(out.DeployedDecisionRequirementsDefinitions)
	*d = out
	return nil
}
