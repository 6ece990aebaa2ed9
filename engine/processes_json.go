package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// JSON shapes of the process DTOs: Operaton's, field for field, with null
// for an unused optional field (the CMMN fields are always null: regelkit
// has no cases) and dates in DateLayout. Variables are written as
// {value, type, valueInfo} with valueInfo always present, as Operaton
// answers.

func jsonTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.Format(DateLayout)
	return &s
}

func jsonTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return jsonTime(*t)
}

// timeReader parses the dates of one DTO, keeping the first error.
type timeReader struct{ err error }

func (r *timeReader) ptr(field string, s *string) *time.Time {
	if s == nil || *s == "" {
		return nil
	}
	t, err := ParseDate(*s)
	if err != nil {
		if r.err == nil {
			r.err = fmt.Errorf("%s: %w", field, err)
		}
		return nil
	}
	if _, off := t.Zone(); off == 0 {
		t = t.UTC() // so that a time read back equals the one written
	}
	return &t
}

func (r *timeReader) at(field string, s *string) time.Time {
	if p := r.ptr(field, s); p != nil {
		return *p
	}
	return time.Time{}
}

// wireVariables is a variable map as Operaton answers it.
type wireVariables Variables

func (vs wireVariables) MarshalJSON() ([]byte, error) {
	if vs == nil {
		return []byte("{}"), nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range sortedVariableNames(Variables(vs)) {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		vb, err := variableJSON(vs[name])
		if err != nil {
			return nil, fmt.Errorf("variable %q: %w", name, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (vs *wireVariables) UnmarshalJSON(data []byte) error {
	m, err := ParseVariables(data)
	if err != nil {
		return err
	}
	*vs = wireVariables(m)
	return nil
}

// MarshalOperatonVariables writes a variable map as Operaton answers it:
// {"name": {"value", "type", "valueInfo"}}, valueInfo always present,
// names sorted.
func MarshalOperatonVariables(vs Variables) ([]byte, error) { return wireVariables(vs).MarshalJSON() }

func sortedVariableNames(vs Variables) []string {
	names := make([]string, 0, len(vs))
	for k := range vs {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// variableJSON writes one variable with valueInfo always present; a zero
// Variable is Null.
func variableJSON(v Variable) ([]byte, error) {
	f, err := flatten(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Type      string          `json:"type"`
		Value     json.RawMessage `json:"value"`
		ValueInfo map[string]any  `json:"valueInfo"`
	}{f.Type, f.Value, f.ValueInfo})
}

type flatVariable struct {
	Type      string
	Value     json.RawMessage
	ValueInfo map[string]any
}

func flatten(v Variable) (flatVariable, error) {
	if v.Type == "" {
		v = Null()
	}
	b, err := v.MarshalJSON()
	if err != nil {
		return flatVariable{}, err
	}
	var w struct {
		Type      string          `json:"type"`
		Value     json.RawMessage `json:"value"`
		ValueInfo map[string]any  `json:"valueInfo"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return flatVariable{}, err
	}
	if w.ValueInfo == nil {
		w.ValueInfo = map[string]any{}
	}
	return flatVariable(w), nil
}

// unflatten reads the type, value and valueInfo members of a DTO.
func unflatten(typ *string, value json.RawMessage, info map[string]any) (Variable, error) {
	if typ == nil && len(value) == 0 {
		return Variable{}, nil
	}
	b, err := json.Marshal(struct {
		Type      *string         `json:"type"`
		Value     json.RawMessage `json:"value,omitempty"`
		ValueInfo map[string]any  `json:"valueInfo,omitempty"`
	}{typ, value, info})
	if err != nil {
		return Variable{}, err
	}
	var v Variable
	err = v.UnmarshalJSON(b)
	return v, err
}

// ---- process definitions

type processDefinitionJSON struct {
	ID                  string  `json:"id"`
	Key                 string  `json:"key"`
	Category            *string `json:"category"`
	Description         *string `json:"description"`
	Name                *string `json:"name"`
	Version             int     `json:"version"`
	Resource            *string `json:"resource"`
	DeploymentID        *string `json:"deploymentId"`
	Diagram             *string `json:"diagram"`
	Suspended           bool    `json:"suspended"`
	TenantID            *string `json:"tenantId"`
	VersionTag          *string `json:"versionTag"`
	HistoryTimeToLive   *int    `json:"historyTimeToLive"`
	StartableInTasklist bool    `json:"startableInTasklist"`
}

// MarshalJSON writes Operaton's ProcessDefinitionDto.
func (d ProcessDefinition) MarshalJSON() ([]byte, error) {
	return json.Marshal(processDefinitionJSON{ID: d.ID, Key: d.Key, Category: nullable(d.Category),
		Description: nullable(d.Description), Name: nullable(d.Name), Version: d.Version, Resource: nullable(d.Resource),
		DeploymentID: nullable(d.DeploymentID), Diagram: nullable(d.Diagram), Suspended: d.Suspended,
		TenantID: nullable(d.TenantID), VersionTag: nullable(d.VersionTag), HistoryTimeToLive: d.HistoryTimeToLive,
		StartableInTasklist: d.StartableInTasklist})
}

// UnmarshalJSON reads Operaton's ProcessDefinitionDto.
func (d *ProcessDefinition) UnmarshalJSON(data []byte) error {
	var j processDefinitionJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*d = ProcessDefinition{ID: j.ID, Key: j.Key, Category: str(j.Category), Description: str(j.Description),
		Name: str(j.Name), Version: j.Version, Resource: str(j.Resource), DeploymentID: str(j.DeploymentID),
		Diagram: str(j.Diagram), Suspended: j.Suspended, TenantID: str(j.TenantID), VersionTag: str(j.VersionTag),
		HistoryTimeToLive: j.HistoryTimeToLive, StartableInTasklist: j.StartableInTasklist}
	return nil
}

// sortProcessDefinitions orders a deployment's process definitions read
// from JSON (a map there) by key, then version.
func sortProcessDefinitions(defs []ProcessDefinition) {
	slices.SortFunc(defs, func(a, b ProcessDefinition) int {
		if c := strings.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return a.Version - b.Version
	})
}

// ---- starting

type startProcessJSON struct {
	BusinessKey           *string       `json:"businessKey"`
	Variables             wireVariables `json:"variables"`
	WithVariablesInReturn bool          `json:"withVariablesInReturn"`
}

// MarshalJSON writes the body of POST /process-definition/…/start
// ({businessKey, variables, withVariablesInReturn}); which definition to
// start is part of the path, not the body.
func (s StartProcess) MarshalJSON() ([]byte, error) {
	return json.Marshal(startProcessJSON{BusinessKey: nullable(s.BusinessKey), Variables: wireVariables(s.Variables),
		WithVariablesInReturn: s.WithVariablesInReturn})
}

// UnmarshalJSON reads the body of a start request; DefinitionID, Key and
// TenantID are left as they were (they come from the path).
func (s *StartProcess) UnmarshalJSON(data []byte) error {
	var j startProcessJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	s.BusinessKey, s.Variables, s.WithVariablesInReturn = str(j.BusinessKey), Variables(j.Variables), j.WithVariablesInReturn
	return nil
}

// ---- process instances

type processInstanceJSON struct {
	Links          []json.RawMessage `json:"links"`
	ID             string            `json:"id"`
	DefinitionID   *string           `json:"definitionId"`
	DefinitionKey  *string           `json:"definitionKey"`
	BusinessKey    *string           `json:"businessKey"`
	CaseInstanceID *string           `json:"caseInstanceId"`
	Ended          bool              `json:"ended"`
	Suspended      bool              `json:"suspended"`
	TenantID       *string           `json:"tenantId"`
	Variables      *wireVariables    `json:"variables,omitempty"`
}

// MarshalJSON writes Operaton's ProcessInstanceDto, or with Variables set
// (a start WithVariablesInReturn) its ProcessInstanceWithVariablesDto.
func (p ProcessInstance) MarshalJSON() ([]byte, error) {
	j := processInstanceJSON{Links: []json.RawMessage{}, ID: p.ID, DefinitionID: nullable(p.DefinitionID),
		DefinitionKey: nullable(p.DefinitionKey), BusinessKey: nullable(p.BusinessKey),
		CaseInstanceID: nullable(p.CaseInstanceID), Ended: p.Ended, Suspended: p.Suspended, TenantID: nullable(p.TenantID)}
	if p.Variables != nil {
		vs := wireVariables(p.Variables)
		j.Variables = &vs
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads Operaton's ProcessInstanceDto (with variables when present).
func (p *ProcessInstance) UnmarshalJSON(data []byte) error {
	var j processInstanceJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*p = ProcessInstance{ID: j.ID, DefinitionID: str(j.DefinitionID), DefinitionKey: str(j.DefinitionKey),
		BusinessKey: str(j.BusinessKey), CaseInstanceID: str(j.CaseInstanceID), Ended: j.Ended, Suspended: j.Suspended,
		TenantID: str(j.TenantID)}
	if j.Variables != nil {
		p.Variables = Variables(*j.Variables)
	}
	return nil
}

type variableModificationJSON struct {
	Modifications wireVariables `json:"modifications"`
	Deletions     []string      `json:"deletions"`
}

// MarshalJSON writes the body of POST /process-instance/{id}/variables.
func (m VariableModification) MarshalJSON() ([]byte, error) {
	d := m.Deletions
	if d == nil {
		d = []string{}
	}
	return json.Marshal(variableModificationJSON{Modifications: wireVariables(m.Modifications), Deletions: d})
}

// UnmarshalJSON reads the body of POST /process-instance/{id}/variables.
func (m *VariableModification) UnmarshalJSON(data []byte) error {
	var j variableModificationJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*m = VariableModification{Modifications: Variables(j.Modifications), Deletions: j.Deletions}
	return nil
}

type deploymentResourceJSON struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	DeploymentID string `json:"deploymentId"`
}

// MarshalJSON writes Operaton's DeploymentResourceDto.
func (r DeploymentResource) MarshalJSON() ([]byte, error) {
	return json.Marshal(deploymentResourceJSON(r))
}

// UnmarshalJSON reads Operaton's DeploymentResourceDto.
func (r *DeploymentResource) UnmarshalJSON(data []byte) error {
	var j deploymentResourceJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*r = DeploymentResource(j)
	return nil
}

// ---- tasks

type formRefJSON struct {
	Key     string  `json:"key"`
	Binding *string `json:"binding"`
	Version *int    `json:"version"`
}

// MarshalJSON writes Operaton's form reference {key, binding, version}.
func (f FormRef) MarshalJSON() ([]byte, error) {
	return json.Marshal(formRefJSON{Key: f.Key, Binding: nullable(f.Binding), Version: f.Version})
}

// UnmarshalJSON reads Operaton's form reference.
func (f *FormRef) UnmarshalJSON(data []byte) error {
	var j formRefJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*f = FormRef{Key: j.Key, Binding: str(j.Binding), Version: j.Version}
	return nil
}

// TaskDTO is Operaton's TaskDto as it travels, what Task.MarshalJSON
// writes. Embed it in a struct of your own to add fields to a task's JSON
// in one encoding pass.
type TaskDTO struct {
	ID                  string   `json:"id"`
	Name                *string  `json:"name"`
	Assignee            *string  `json:"assignee"`
	Created             *string  `json:"created"`
	Due                 *string  `json:"due"`
	FollowUp            *string  `json:"followUp"`
	LastUpdated         *string  `json:"lastUpdated"`
	DelegationState     *string  `json:"delegationState"`
	Description         *string  `json:"description"`
	ExecutionID         *string  `json:"executionId"`
	Owner               *string  `json:"owner"`
	ParentTaskID        *string  `json:"parentTaskId"`
	Priority            int      `json:"priority"`
	ProcessDefinitionID *string  `json:"processDefinitionId"`
	ProcessInstanceID   *string  `json:"processInstanceId"`
	TaskDefinitionKey   *string  `json:"taskDefinitionKey"`
	CaseExecutionID     *string  `json:"caseExecutionId"`
	CaseInstanceID      *string  `json:"caseInstanceId"`
	CaseDefinitionID    *string  `json:"caseDefinitionId"`
	Suspended           bool     `json:"suspended"`
	FormKey             *string  `json:"formKey"`
	OperatonFormRef     *FormRef `json:"operatonFormRef"`
	TenantID            *string  `json:"tenantId"`
	TaskState           *string  `json:"taskState"`
}

// MarshalJSON writes Operaton's TaskDto. CandidateUsers and
// CandidateGroups are not part of it (GET /task/{id}/identity-links).
func (t Task) MarshalJSON() ([]byte, error) { return json.Marshal(t.DTO()) }

// DTO is the task in Operaton's TaskDto shape.
func (t Task) DTO() TaskDTO {
	return TaskDTO{ID: t.ID, Name: nullable(t.Name), Assignee: nullable(t.Assignee),
		Created: jsonTime(t.Created), Due: jsonTimePtr(t.Due), FollowUp: jsonTimePtr(t.FollowUp),
		LastUpdated: jsonTime(t.LastUpdated), DelegationState: nullable(t.DelegationState),
		Description: nullable(t.Description), ExecutionID: nullable(t.ExecutionID), Owner: nullable(t.Owner),
		ParentTaskID: nullable(t.ParentTaskID), Priority: t.Priority, ProcessDefinitionID: nullable(t.ProcessDefinitionID),
		ProcessInstanceID: nullable(t.ProcessInstanceID), TaskDefinitionKey: nullable(t.TaskDefinitionKey),
		Suspended: t.Suspended, FormKey: nullable(t.FormKey), OperatonFormRef: t.FormRef, TenantID: nullable(t.TenantID),
		TaskState: nullable(t.TaskState)}
}

// UnmarshalJSON reads Operaton's TaskDto (camundaFormRef is read as
// operatonFormRef, for Camunda 7 engines).
func (t *Task) UnmarshalJSON(data []byte) error {
	var j struct {
		TaskDTO
		CamundaFormRef *FormRef `json:"camundaFormRef"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	var r timeReader
	*t = Task{ID: j.ID, Name: str(j.Name), Assignee: str(j.Assignee), Owner: str(j.Owner), Description: str(j.Description),
		Created: r.at("created", j.Created), LastUpdated: r.at("lastUpdated", j.LastUpdated),
		Due: r.ptr("due", j.Due), FollowUp: r.ptr("followUp", j.FollowUp), DelegationState: str(j.DelegationState),
		ExecutionID: str(j.ExecutionID), ProcessDefinitionID: str(j.ProcessDefinitionID),
		ProcessInstanceID: str(j.ProcessInstanceID), TaskDefinitionKey: str(j.TaskDefinitionKey),
		ParentTaskID: str(j.ParentTaskID), Priority: j.Priority, Suspended: j.Suspended, FormKey: str(j.FormKey),
		FormRef: j.OperatonFormRef, TenantID: str(j.TenantID), TaskState: str(j.TaskState)}
	if t.FormRef == nil {
		t.FormRef = j.CamundaFormRef
	}
	return r.err
}

// ---- external tasks

func millis(d time.Duration) int64 { return d.Milliseconds() }

type fetchTopicJSON struct {
	TopicName            string   `json:"topicName"`
	LockDuration         int64    `json:"lockDuration"`
	Variables            []string `json:"variables"`
	LocalVariables       bool     `json:"localVariables"`
	BusinessKey          *string  `json:"businessKey"`
	ProcessDefinitionKey *string  `json:"processDefinitionKey"`
	TenantIDIn           []string `json:"tenantIdIn"`
	WithoutTenantID      bool     `json:"withoutTenantId"`
	DeserializeValues    bool     `json:"deserializeValues"`
}

type fetchAndLockJSON struct {
	WorkerID             string           `json:"workerId"`
	MaxTasks             int              `json:"maxTasks"`
	UsePriority          bool             `json:"usePriority"`
	AsyncResponseTimeout *int64           `json:"asyncResponseTimeout"`
	Topics               []fetchTopicJSON `json:"topics"`
}

// MarshalJSON writes the body of POST /external-task/fetchAndLock
// (durations in milliseconds).
func (f FetchAndLock) MarshalJSON() ([]byte, error) {
	j := fetchAndLockJSON{WorkerID: f.WorkerID, MaxTasks: f.MaxTasks, UsePriority: f.UsePriority, Topics: []fetchTopicJSON{}}
	if f.AsyncResponseTimeout > 0 {
		ms := millis(f.AsyncResponseTimeout)
		j.AsyncResponseTimeout = &ms
	}
	for _, t := range f.Topics {
		j.Topics = append(j.Topics, fetchTopicJSON{TopicName: t.TopicName, LockDuration: millis(t.LockDuration),
			Variables: t.Variables, LocalVariables: t.LocalVariables, BusinessKey: nullable(t.BusinessKey),
			ProcessDefinitionKey: nullable(t.ProcessDefinitionKey), TenantIDIn: t.TenantIDIn,
			WithoutTenantID: t.WithoutTenantID, DeserializeValues: t.DeserializeValues})
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the body of POST /external-task/fetchAndLock.
func (f *FetchAndLock) UnmarshalJSON(data []byte) error {
	var j fetchAndLockJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	out := FetchAndLock{WorkerID: j.WorkerID, MaxTasks: j.MaxTasks, UsePriority: j.UsePriority}
	if j.AsyncResponseTimeout != nil {
		if *j.AsyncResponseTimeout < 0 {
			return fmt.Errorf("asyncResponseTimeout must not be negative")
		}
		out.AsyncResponseTimeout = time.Duration(*j.AsyncResponseTimeout) * time.Millisecond
	}
	for _, t := range j.Topics {
		if t.LockDuration < 0 {
			return fmt.Errorf("topic %q: lockDuration must not be negative", t.TopicName)
		}
		out.Topics = append(out.Topics, FetchTopic{TopicName: t.TopicName, LockDuration: time.Duration(t.LockDuration) * time.Millisecond,
			Variables: t.Variables, LocalVariables: t.LocalVariables, BusinessKey: str(t.BusinessKey),
			ProcessDefinitionKey: str(t.ProcessDefinitionKey), TenantIDIn: t.TenantIDIn, WithoutTenantID: t.WithoutTenantID,
			DeserializeValues: t.DeserializeValues})
	}
	*f = out
	return nil
}

type lockedExternalTaskJSON struct {
	ActivityID                  *string           `json:"activityId"`
	ActivityInstanceID          *string           `json:"activityInstanceId"`
	ErrorMessage                *string           `json:"errorMessage"`
	ErrorDetails                *string           `json:"errorDetails"`
	ExecutionID                 *string           `json:"executionId"`
	ID                          string            `json:"id"`
	LockExpirationTime          *string           `json:"lockExpirationTime"`
	CreateTime                  *string           `json:"createTime"`
	ProcessDefinitionID         *string           `json:"processDefinitionId"`
	ProcessDefinitionKey        *string           `json:"processDefinitionKey"`
	ProcessDefinitionVersionTag *string           `json:"processDefinitionVersionTag"`
	ProcessInstanceID           *string           `json:"processInstanceId"`
	Retries                     *int              `json:"retries"`
	Suspended                   bool              `json:"suspended"`
	WorkerID                    *string           `json:"workerId"`
	TopicName                   *string           `json:"topicName"`
	TenantID                    *string           `json:"tenantId"`
	Variables                   wireVariables     `json:"variables"`
	Priority                    int64             `json:"priority"`
	BusinessKey                 *string           `json:"businessKey"`
	ExtensionProperties         map[string]string `json:"extensionProperties"`
}

// MarshalJSON writes Operaton's LockedExternalTaskDto.
func (t LockedExternalTask) MarshalJSON() ([]byte, error) {
	ext := t.ExtensionProperties
	if ext == nil {
		ext = map[string]string{}
	}
	return json.Marshal(lockedExternalTaskJSON{ActivityID: nullable(t.ActivityID), ActivityInstanceID: nullable(t.ActivityInstanceID),
		ErrorMessage: nullable(t.ErrorMessage), ErrorDetails: nullable(t.ErrorDetails), ExecutionID: nullable(t.ExecutionID),
		ID: t.ID, LockExpirationTime: jsonTime(t.LockExpirationTime), CreateTime: jsonTime(t.CreateTime),
		ProcessDefinitionID: nullable(t.ProcessDefinitionID), ProcessDefinitionKey: nullable(t.ProcessDefinitionKey),
		ProcessDefinitionVersionTag: nullable(t.ProcessDefinitionVersionTag), ProcessInstanceID: nullable(t.ProcessInstanceID),
		Retries: t.Retries, Suspended: t.Suspended, WorkerID: nullable(t.WorkerID), TopicName: nullable(t.TopicName),
		TenantID: nullable(t.TenantID), Variables: wireVariables(t.Variables), Priority: t.Priority,
		BusinessKey: nullable(t.BusinessKey), ExtensionProperties: ext})
}

// UnmarshalJSON reads Operaton's LockedExternalTaskDto.
func (t *LockedExternalTask) UnmarshalJSON(data []byte) error {
	var j lockedExternalTaskJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	var r timeReader
	*t = LockedExternalTask{ID: j.ID, ActivityID: str(j.ActivityID), ActivityInstanceID: str(j.ActivityInstanceID),
		ErrorMessage: str(j.ErrorMessage), ErrorDetails: str(j.ErrorDetails), ExecutionID: str(j.ExecutionID),
		LockExpirationTime: r.at("lockExpirationTime", j.LockExpirationTime), CreateTime: r.at("createTime", j.CreateTime),
		ProcessDefinitionID: str(j.ProcessDefinitionID), ProcessDefinitionKey: str(j.ProcessDefinitionKey),
		ProcessDefinitionVersionTag: str(j.ProcessDefinitionVersionTag), ProcessInstanceID: str(j.ProcessInstanceID),
		Retries: j.Retries, Suspended: j.Suspended, WorkerID: str(j.WorkerID), TopicName: str(j.TopicName),
		TenantID: str(j.TenantID), BusinessKey: str(j.BusinessKey), Priority: j.Priority,
		Variables: Variables(j.Variables), ExtensionProperties: j.ExtensionProperties}
	if len(t.ExtensionProperties) == 0 {
		t.ExtensionProperties = nil
	}
	return r.err
}

type completeExternalTaskJSON struct {
	WorkerID       string         `json:"workerId"`
	Variables      *wireVariables `json:"variables"`
	LocalVariables *wireVariables `json:"localVariables"`
}

func optVariables(vs Variables) *wireVariables {
	if vs == nil {
		return nil
	}
	w := wireVariables(vs)
	return &w
}

func fromOpt(w *wireVariables) Variables {
	if w == nil {
		return nil
	}
	return Variables(*w)
}

// MarshalJSON writes the body of POST /external-task/{id}/complete.
func (c CompleteExternalTask) MarshalJSON() ([]byte, error) {
	return json.Marshal(completeExternalTaskJSON{WorkerID: c.WorkerID, Variables: optVariables(c.Variables),
		LocalVariables: optVariables(c.LocalVariables)})
}

// UnmarshalJSON reads the body of POST /external-task/{id}/complete.
func (c *CompleteExternalTask) UnmarshalJSON(data []byte) error {
	var j completeExternalTaskJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*c = CompleteExternalTask{WorkerID: j.WorkerID, Variables: fromOpt(j.Variables), LocalVariables: fromOpt(j.LocalVariables)}
	return nil
}

type externalTaskFailureJSON struct {
	WorkerID     string  `json:"workerId"`
	ErrorMessage *string `json:"errorMessage"`
	ErrorDetails *string `json:"errorDetails"`
	Retries      int     `json:"retries"`
	RetryTimeout int64   `json:"retryTimeout"`
}

// MarshalJSON writes the body of POST /external-task/{id}/failure
// (retryTimeout in milliseconds).
func (f ExternalTaskFailure) MarshalJSON() ([]byte, error) {
	return json.Marshal(externalTaskFailureJSON{WorkerID: f.WorkerID, ErrorMessage: nullable(f.ErrorMessage),
		ErrorDetails: nullable(f.ErrorDetails), Retries: f.Retries, RetryTimeout: millis(f.RetryTimeout)})
}

// UnmarshalJSON reads the body of POST /external-task/{id}/failure.
func (f *ExternalTaskFailure) UnmarshalJSON(data []byte) error {
	var j externalTaskFailureJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if j.RetryTimeout < 0 {
		return fmt.Errorf("retryTimeout must not be negative")
	}
	*f = ExternalTaskFailure{WorkerID: j.WorkerID, ErrorMessage: str(j.ErrorMessage), ErrorDetails: str(j.ErrorDetails),
		Retries: j.Retries, RetryTimeout: time.Duration(j.RetryTimeout) * time.Millisecond}
	return nil
}

type externalTaskBPMNErrorJSON struct {
	WorkerID     string         `json:"workerId"`
	ErrorCode    string         `json:"errorCode"`
	ErrorMessage *string        `json:"errorMessage"`
	Variables    *wireVariables `json:"variables"`
}

// MarshalJSON writes the body of POST /external-task/{id}/bpmnError.
func (e ExternalTaskBPMNError) MarshalJSON() ([]byte, error) {
	return json.Marshal(externalTaskBPMNErrorJSON{WorkerID: e.WorkerID, ErrorCode: e.ErrorCode,
		ErrorMessage: nullable(e.ErrorMessage), Variables: optVariables(e.Variables)})
}

// UnmarshalJSON reads the body of POST /external-task/{id}/bpmnError.
func (e *ExternalTaskBPMNError) UnmarshalJSON(data []byte) error {
	var j externalTaskBPMNErrorJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*e = ExternalTaskBPMNError{WorkerID: j.WorkerID, ErrorCode: j.ErrorCode, ErrorMessage: str(j.ErrorMessage),
		Variables: fromOpt(j.Variables)}
	return nil
}

// ---- history

type historicProcessInstanceJSON struct {
	ID                         string  `json:"id"`
	BusinessKey                *string `json:"businessKey"`
	ProcessDefinitionID        *string `json:"processDefinitionId"`
	ProcessDefinitionKey       *string `json:"processDefinitionKey"`
	ProcessDefinitionName      *string `json:"processDefinitionName"`
	ProcessDefinitionVersion   *int    `json:"processDefinitionVersion"`
	StartTime                  *string `json:"startTime"`
	EndTime                    *string `json:"endTime"`
	RemovalTime                *string `json:"removalTime"`
	DurationInMillis           *int64  `json:"durationInMillis"`
	StartUserID                *string `json:"startUserId"`
	StartActivityID            *string `json:"startActivityId"`
	DeleteReason               *string `json:"deleteReason"`
	RootProcessInstanceID      *string `json:"rootProcessInstanceId"`
	SuperProcessInstanceID     *string `json:"superProcessInstanceId"`
	SuperCaseInstanceID        *string `json:"superCaseInstanceId"`
	CaseInstanceID             *string `json:"caseInstanceId"`
	TenantID                   *string `json:"tenantId"`
	State                      *string `json:"state"`
	RestartedProcessInstanceID *string `json:"restartedProcessInstanceId"`
}

// MarshalJSON writes Operaton's HistoricProcessInstanceDto.
func (h HistoricProcessInstance) MarshalJSON() ([]byte, error) {
	v := h.ProcessDefinitionVersion
	return json.Marshal(historicProcessInstanceJSON{ID: h.ID, BusinessKey: nullable(h.BusinessKey),
		ProcessDefinitionID: nullable(h.ProcessDefinitionID), ProcessDefinitionKey: nullable(h.ProcessDefinitionKey),
		ProcessDefinitionName: nullable(h.ProcessDefinitionName), ProcessDefinitionVersion: &v,
		StartTime: jsonTime(h.StartTime), EndTime: jsonTimePtr(h.EndTime), RemovalTime: jsonTimePtr(h.RemovalTime),
		DurationInMillis: h.DurationInMillis, StartUserID: nullable(h.StartUserID), StartActivityID: nullable(h.StartActivityID),
		DeleteReason: nullable(h.DeleteReason), RootProcessInstanceID: nullable(h.RootProcessInstanceID),
		SuperProcessInstanceID: nullable(h.SuperProcessInstanceID), SuperCaseInstanceID: nullable(h.SuperCaseInstanceID),
		CaseInstanceID: nullable(h.CaseInstanceID), TenantID: nullable(h.TenantID), State: nullable(h.State)})
}

// UnmarshalJSON reads Operaton's HistoricProcessInstanceDto.
func (h *HistoricProcessInstance) UnmarshalJSON(data []byte) error {
	var j historicProcessInstanceJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	var r timeReader
	*h = HistoricProcessInstance{ID: j.ID, BusinessKey: str(j.BusinessKey), ProcessDefinitionID: str(j.ProcessDefinitionID),
		ProcessDefinitionKey: str(j.ProcessDefinitionKey), ProcessDefinitionName: str(j.ProcessDefinitionName),
		StartTime: r.at("startTime", j.StartTime), EndTime: r.ptr("endTime", j.EndTime), RemovalTime: r.ptr("removalTime", j.RemovalTime),
		DurationInMillis: j.DurationInMillis, StartUserID: str(j.StartUserID), StartActivityID: str(j.StartActivityID),
		DeleteReason: str(j.DeleteReason), RootProcessInstanceID: str(j.RootProcessInstanceID),
		SuperProcessInstanceID: str(j.SuperProcessInstanceID), SuperCaseInstanceID: str(j.SuperCaseInstanceID),
		CaseInstanceID: str(j.CaseInstanceID), TenantID: str(j.TenantID), State: str(j.State)}
	if j.ProcessDefinitionVersion != nil {
		h.ProcessDefinitionVersion = *j.ProcessDefinitionVersion
	}
	return r.err
}

// HistoricTaskDTO is Operaton's HistoricTaskInstanceDto as it travels,
// what HistoricTask.MarshalJSON writes; embed it to add fields.
type HistoricTaskDTO struct {
	ID                    string  `json:"id"`
	ProcessDefinitionKey  *string `json:"processDefinitionKey"`
	ProcessDefinitionID   *string `json:"processDefinitionId"`
	ProcessInstanceID     *string `json:"processInstanceId"`
	ExecutionID           *string `json:"executionId"`
	CaseDefinitionKey     *string `json:"caseDefinitionKey"`
	CaseDefinitionID      *string `json:"caseDefinitionId"`
	CaseInstanceID        *string `json:"caseInstanceId"`
	CaseExecutionID       *string `json:"caseExecutionId"`
	ActivityInstanceID    *string `json:"activityInstanceId"`
	Name                  *string `json:"name"`
	Description           *string `json:"description"`
	DeleteReason          *string `json:"deleteReason"`
	Owner                 *string `json:"owner"`
	Assignee              *string `json:"assignee"`
	StartTime             *string `json:"startTime"`
	EndTime               *string `json:"endTime"`
	Duration              *int64  `json:"duration"`
	TaskDefinitionKey     *string `json:"taskDefinitionKey"`
	Priority              int     `json:"priority"`
	Due                   *string `json:"due"`
	ParentTaskID          *string `json:"parentTaskId"`
	FollowUp              *string `json:"followUp"`
	TenantID              *string `json:"tenantId"`
	RemovalTime           *string `json:"removalTime"`
	RootProcessInstanceID *string `json:"rootProcessInstanceId"`
	TaskState             *string `json:"taskState"`
}

// MarshalJSON writes Operaton's HistoricTaskInstanceDto.
func (h HistoricTask) MarshalJSON() ([]byte, error) { return json.Marshal(h.DTO()) }

// DTO is the historic task in Operaton's HistoricTaskInstanceDto shape.
func (h HistoricTask) DTO() HistoricTaskDTO {
	return HistoricTaskDTO{ID: h.ID, ProcessDefinitionKey: nullable(h.ProcessDefinitionKey),
		ProcessDefinitionID: nullable(h.ProcessDefinitionID), ProcessInstanceID: nullable(h.ProcessInstanceID),
		ExecutionID: nullable(h.ExecutionID), ActivityInstanceID: nullable(h.ActivityInstanceID), Name: nullable(h.Name),
		Description: nullable(h.Description), DeleteReason: nullable(h.DeleteReason), Owner: nullable(h.Owner),
		Assignee: nullable(h.Assignee), StartTime: jsonTime(h.StartTime), EndTime: jsonTimePtr(h.EndTime),
		Duration: h.Duration, TaskDefinitionKey: nullable(h.TaskDefinitionKey), Priority: h.Priority,
		Due: jsonTimePtr(h.Due), ParentTaskID: nullable(h.ParentTaskID), FollowUp: jsonTimePtr(h.FollowUp),
		TenantID: nullable(h.TenantID), RemovalTime: jsonTimePtr(h.RemovalTime),
		RootProcessInstanceID: nullable(h.RootProcessInstanceID), TaskState: nullable(h.TaskState)}
}

// UnmarshalJSON reads Operaton's HistoricTaskInstanceDto.
func (h *HistoricTask) UnmarshalJSON(data []byte) error {
	var j HistoricTaskDTO
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	var r timeReader
	*h = HistoricTask{ID: j.ID, ProcessDefinitionKey: str(j.ProcessDefinitionKey), ProcessDefinitionID: str(j.ProcessDefinitionID),
		ProcessInstanceID: str(j.ProcessInstanceID), ExecutionID: str(j.ExecutionID), ActivityInstanceID: str(j.ActivityInstanceID),
		Name: str(j.Name), Description: str(j.Description), DeleteReason: str(j.DeleteReason), Owner: str(j.Owner),
		Assignee: str(j.Assignee), StartTime: r.at("startTime", j.StartTime), EndTime: r.ptr("endTime", j.EndTime),
		Duration: j.Duration, TaskDefinitionKey: str(j.TaskDefinitionKey), Priority: j.Priority, Due: r.ptr("due", j.Due),
		FollowUp: r.ptr("followUp", j.FollowUp), RemovalTime: r.ptr("removalTime", j.RemovalTime),
		ParentTaskID: str(j.ParentTaskID), TenantID: str(j.TenantID), RootProcessInstanceID: str(j.RootProcessInstanceID),
		TaskState: str(j.TaskState)}
	return r.err
}

type historicVariableJSON struct {
	ID                    string          `json:"id"`
	Name                  string          `json:"name"`
	Type                  *string         `json:"type"`
	Value                 json.RawMessage `json:"value"`
	ValueInfo             map[string]any  `json:"valueInfo"`
	ProcessDefinitionKey  *string         `json:"processDefinitionKey"`
	ProcessDefinitionID   *string         `json:"processDefinitionId"`
	ProcessInstanceID     *string         `json:"processInstanceId"`
	ExecutionID           *string         `json:"executionId"`
	ActivityInstanceID    *string         `json:"activityInstanceId"`
	CaseDefinitionKey     *string         `json:"caseDefinitionKey"`
	CaseDefinitionID      *string         `json:"caseDefinitionId"`
	CaseInstanceID        *string         `json:"caseInstanceId"`
	CaseExecutionID       *string         `json:"caseExecutionId"`
	TaskID                *string         `json:"taskId"`
	TenantID              *string         `json:"tenantId"`
	ErrorMessage          *string         `json:"errorMessage"`
	State                 *string         `json:"state"`
	CreateTime            *string         `json:"createTime"`
	RemovalTime           *string         `json:"removalTime"`
	RootProcessInstanceID *string         `json:"rootProcessInstanceId"`
}

// MarshalJSON writes Operaton's HistoricVariableInstanceDto.
func (h HistoricVariable) MarshalJSON() ([]byte, error) {
	f, err := flatten(h.Value)
	if err != nil {
		return nil, fmt.Errorf("variable %q: %w", h.Name, err)
	}
	return json.Marshal(historicVariableJSON{ID: h.ID, Name: h.Name, Type: &f.Type, Value: f.Value, ValueInfo: f.ValueInfo,
		ProcessDefinitionKey: nullable(h.ProcessDefinitionKey), ProcessDefinitionID: nullable(h.ProcessDefinitionID),
		ProcessInstanceID: nullable(h.ProcessInstanceID), ExecutionID: nullable(h.ExecutionID),
		ActivityInstanceID: nullable(h.ActivityInstanceID), TaskID: nullable(h.TaskID), TenantID: nullable(h.TenantID),
		ErrorMessage: nullable(h.ErrorMessage), State: nullable(h.State), CreateTime: jsonTime(h.CreateTime),
		RemovalTime: jsonTimePtr(h.RemovalTime), RootProcessInstanceID: nullable(h.RootProcessInstanceID)})
}

// UnmarshalJSON reads Operaton's HistoricVariableInstanceDto.
func (h *HistoricVariable) UnmarshalJSON(data []byte) error {
	var j historicVariableJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	v, err := unflatten(j.Type, j.Value, j.ValueInfo)
	if err != nil {
		return withName(err, j.Name)
	}
	var r timeReader
	*h = HistoricVariable{ID: j.ID, Name: j.Name, Value: v, ProcessDefinitionKey: str(j.ProcessDefinitionKey),
		ProcessDefinitionID: str(j.ProcessDefinitionID), ProcessInstanceID: str(j.ProcessInstanceID),
		ExecutionID: str(j.ExecutionID), ActivityInstanceID: str(j.ActivityInstanceID), TaskID: str(j.TaskID),
		TenantID: str(j.TenantID), ErrorMessage: str(j.ErrorMessage), State: str(j.State),
		CreateTime: r.at("createTime", j.CreateTime), RemovalTime: r.ptr("removalTime", j.RemovalTime),
		RootProcessInstanceID: str(j.RootProcessInstanceID)}
	return r.err
}

type historicActivityJSON struct {
	ID                       string  `json:"id"`
	ParentActivityInstanceID *string `json:"parentActivityInstanceId"`
	ActivityID               *string `json:"activityId"`
	ActivityName             *string `json:"activityName"`
	ActivityType             *string `json:"activityType"`
	ProcessDefinitionKey     *string `json:"processDefinitionKey"`
	ProcessDefinitionID      *string `json:"processDefinitionId"`
	ProcessInstanceID        *string `json:"processInstanceId"`
	ExecutionID              *string `json:"executionId"`
	TaskID                   *string `json:"taskId"`
	Assignee                 *string `json:"assignee"`
	CalledProcessInstanceID  *string `json:"calledProcessInstanceId"`
	CalledCaseInstanceID     *string `json:"calledCaseInstanceId"`
	StartTime                *string `json:"startTime"`
	EndTime                  *string `json:"endTime"`
	DurationInMillis         *int64  `json:"durationInMillis"`
	Canceled                 bool    `json:"canceled"`
	CompleteScope            bool    `json:"completeScope"`
	TenantID                 *string `json:"tenantId"`
	RemovalTime              *string `json:"removalTime"`
	RootProcessInstanceID    *string `json:"rootProcessInstanceId"`
}

// MarshalJSON writes Operaton's HistoricActivityInstanceDto.
func (h HistoricActivity) MarshalJSON() ([]byte, error) {
	return json.Marshal(historicActivityJSON{ID: h.ID, ParentActivityInstanceID: nullable(h.ParentActivityInstanceID),
		ActivityID: nullable(h.ActivityID), ActivityName: nullable(h.ActivityName), ActivityType: nullable(h.ActivityType),
		ProcessDefinitionKey: nullable(h.ProcessDefinitionKey), ProcessDefinitionID: nullable(h.ProcessDefinitionID),
		ProcessInstanceID: nullable(h.ProcessInstanceID), ExecutionID: nullable(h.ExecutionID), TaskID: nullable(h.TaskID),
		Assignee: nullable(h.Assignee), CalledProcessInstanceID: nullable(h.CalledProcessInstanceID),
		CalledCaseInstanceID: nullable(h.CalledCaseInstanceID), StartTime: jsonTime(h.StartTime),
		EndTime: jsonTimePtr(h.EndTime), DurationInMillis: h.DurationInMillis, Canceled: h.Canceled,
		CompleteScope: h.CompleteScope, TenantID: nullable(h.TenantID), RemovalTime: jsonTimePtr(h.RemovalTime),
		RootProcessInstanceID: nullable(h.RootProcessInstanceID)})
}

// UnmarshalJSON reads Operaton's HistoricActivityInstanceDto.
func (h *HistoricActivity) UnmarshalJSON(data []byte) error {
	var j historicActivityJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	var r timeReader
	*h = HistoricActivity{ID: j.ID, ParentActivityInstanceID: str(j.ParentActivityInstanceID), ActivityID: str(j.ActivityID),
		ActivityName: str(j.ActivityName), ActivityType: str(j.ActivityType), ProcessDefinitionKey: str(j.ProcessDefinitionKey),
		ProcessDefinitionID: str(j.ProcessDefinitionID), ProcessInstanceID: str(j.ProcessInstanceID),
		ExecutionID: str(j.ExecutionID), TaskID: str(j.TaskID), Assignee: str(j.Assignee),
		CalledProcessInstanceID: str(j.CalledProcessInstanceID), CalledCaseInstanceID: str(j.CalledCaseInstanceID),
		StartTime: r.at("startTime", j.StartTime), EndTime: r.ptr("endTime", j.EndTime), DurationInMillis: j.DurationInMillis,
		Canceled: j.Canceled, CompleteScope: j.CompleteScope, TenantID: str(j.TenantID),
		RemovalTime: r.ptr("removalTime", j.RemovalTime), RootProcessInstanceID: str(j.RootProcessInstanceID)}
	return r.err
}

type historicDecisionValueJSON struct {
	ID                    string          `json:"id"`
	DecisionInstanceID    string          `json:"decisionInstanceId"`
	ClauseID              *string         `json:"clauseId"`
	ClauseName            *string         `json:"clauseName"`
	RuleID                *string         `json:"ruleId,omitempty"`
	RuleOrder             *int            `json:"ruleOrder,omitempty"`
	VariableName          *string         `json:"variableName,omitempty"`
	ErrorMessage          *string         `json:"errorMessage"`
	Type                  *string         `json:"type"`
	Value                 json.RawMessage `json:"value"`
	ValueInfo             map[string]any  `json:"valueInfo"`
	CreateTime            *string         `json:"createTime"`
	RemovalTime           *string         `json:"removalTime"`
	RootProcessInstanceID *string         `json:"rootProcessInstanceId"`
}

func decisionValueJSON(id, instance, clauseID, clauseName string, v Variable, created time.Time) (historicDecisionValueJSON, error) {
	f, err := flatten(v)
	if err != nil {
		return historicDecisionValueJSON{}, err
	}
	return historicDecisionValueJSON{ID: id, DecisionInstanceID: instance, ClauseID: nullable(clauseID),
		ClauseName: nullable(clauseName), Type: &f.Type, Value: f.Value, ValueInfo: f.ValueInfo, CreateTime: jsonTime(created)}, nil
}

// MarshalJSON writes Operaton's HistoricDecisionInputInstanceDto.
func (in HistoricDecisionInput) MarshalJSON() ([]byte, error) {
	j, err := decisionValueJSON(in.ID, in.DecisionInstanceID, in.ClauseID, in.ClauseName, in.Value, in.CreateTime)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads Operaton's HistoricDecisionInputInstanceDto.
func (in *HistoricDecisionInput) UnmarshalJSON(data []byte) error {
	var j historicDecisionValueJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	v, err := unflatten(j.Type, j.Value, j.ValueInfo)
	if err != nil {
		return err
	}
	var r timeReader
	*in = HistoricDecisionInput{ID: j.ID, DecisionInstanceID: j.DecisionInstanceID, ClauseID: str(j.ClauseID),
		ClauseName: str(j.ClauseName), Value: v, CreateTime: r.at("createTime", j.CreateTime)}
	return r.err
}

// MarshalJSON writes Operaton's HistoricDecisionOutputInstanceDto.
func (out HistoricDecisionOutput) MarshalJSON() ([]byte, error) {
	j, err := decisionValueJSON(out.ID, out.DecisionInstanceID, out.ClauseID, out.ClauseName, out.Value, out.CreateTime)
	if err != nil {
		return nil, err
	}
	order := out.RuleOrder
	j.RuleID, j.RuleOrder, j.VariableName = nullable(out.RuleID), &order, nullable(out.VariableName)
	b, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	// ruleId and variableName are present (null when unset) on outputs only
	if out.RuleID == "" || out.VariableName == "" {
		var m map[string]json.RawMessage
		json.Unmarshal(b, &m)
		for _, k := range []string{"ruleId", "variableName"} {
			if _, ok := m[k]; !ok {
				m[k] = json.RawMessage("null")
			}
		}
		return json.Marshal(m)
	}
	return b, nil
}

// UnmarshalJSON reads Operaton's HistoricDecisionOutputInstanceDto.
func (out *HistoricDecisionOutput) UnmarshalJSON(data []byte) error {
	var j historicDecisionValueJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	v, err := unflatten(j.Type, j.Value, j.ValueInfo)
	if err != nil {
		return err
	}
	var r timeReader
	*out = HistoricDecisionOutput{ID: j.ID, DecisionInstanceID: j.DecisionInstanceID, ClauseID: str(j.ClauseID),
		ClauseName: str(j.ClauseName), RuleID: str(j.RuleID), VariableName: str(j.VariableName), Value: v,
		CreateTime: r.at("createTime", j.CreateTime)}
	if j.RuleOrder != nil {
		out.RuleOrder = *j.RuleOrder
	}
	return r.err
}

type historicDecisionJSON struct {
	ID                                string                   `json:"id"`
	DecisionDefinitionID              *string                  `json:"decisionDefinitionId"`
	DecisionDefinitionKey             *string                  `json:"decisionDefinitionKey"`
	DecisionDefinitionName            *string                  `json:"decisionDefinitionName"`
	EvaluationTime                    *string                  `json:"evaluationTime"`
	RemovalTime                       *string                  `json:"removalTime"`
	ProcessDefinitionID               *string                  `json:"processDefinitionId"`
	ProcessDefinitionKey              *string                  `json:"processDefinitionKey"`
	ProcessInstanceID                 *string                  `json:"processInstanceId"`
	CaseDefinitionID                  *string                  `json:"caseDefinitionId"`
	CaseDefinitionKey                 *string                  `json:"caseDefinitionKey"`
	CaseInstanceID                    *string                  `json:"caseInstanceId"`
	ActivityID                        *string                  `json:"activityId"`
	ActivityInstanceID                *string                  `json:"activityInstanceId"`
	TenantID                          *string                  `json:"tenantId"`
	UserID                            *string                  `json:"userId"`
	Inputs                            []HistoricDecisionInput  `json:"inputs"`
	Outputs                           []HistoricDecisionOutput `json:"outputs"`
	CollectResultValue                *float64                 `json:"collectResultValue"`
	RootDecisionInstanceID            *string                  `json:"rootDecisionInstanceId"`
	RootProcessInstanceID             *string                  `json:"rootProcessInstanceId"`
	DecisionRequirementsDefinitionID  *string                  `json:"decisionRequirementsDefinitionId"`
	DecisionRequirementsDefinitionKey *string                  `json:"decisionRequirementsDefinitionKey"`
}

// MarshalJSON writes Operaton's HistoricDecisionInstanceDto; inputs and
// outputs are null unless included (IncludeInputs, IncludeOutputs).
func (h HistoricDecision) MarshalJSON() ([]byte, error) {
	return json.Marshal(historicDecisionJSON{ID: h.ID, DecisionDefinitionID: nullable(h.DecisionDefinitionID),
		DecisionDefinitionKey: nullable(h.DecisionDefinitionKey), DecisionDefinitionName: nullable(h.DecisionDefinitionName),
		EvaluationTime: jsonTime(h.EvaluationTime), RemovalTime: jsonTimePtr(h.RemovalTime),
		ProcessDefinitionID: nullable(h.ProcessDefinitionID), ProcessDefinitionKey: nullable(h.ProcessDefinitionKey),
		ProcessInstanceID: nullable(h.ProcessInstanceID), ActivityID: nullable(h.ActivityID),
		ActivityInstanceID: nullable(h.ActivityInstanceID), TenantID: nullable(h.TenantID), UserID: nullable(h.UserID),
		Inputs: h.Inputs, Outputs: h.Outputs, CollectResultValue: h.CollectResultValue,
		RootDecisionInstanceID: nullable(h.RootDecisionInstanceID), RootProcessInstanceID: nullable(h.RootProcessInstanceID),
		DecisionRequirementsDefinitionID:  nullable(h.DecisionRequirementsDefinitionID),
		DecisionRequirementsDefinitionKey: nullable(h.DecisionRequirementsDefinitionKey)})
}

// UnmarshalJSON reads Operaton's HistoricDecisionInstanceDto.
func (h *HistoricDecision) UnmarshalJSON(data []byte) error {
	var j historicDecisionJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	var r timeReader
	*h = HistoricDecision{ID: j.ID, DecisionDefinitionID: str(j.DecisionDefinitionID),
		DecisionDefinitionKey: str(j.DecisionDefinitionKey), DecisionDefinitionName: str(j.DecisionDefinitionName),
		EvaluationTime: r.at("evaluationTime", j.EvaluationTime), RemovalTime: r.ptr("removalTime", j.RemovalTime),
		ProcessDefinitionID: str(j.ProcessDefinitionID), ProcessDefinitionKey: str(j.ProcessDefinitionKey),
		ProcessInstanceID: str(j.ProcessInstanceID), ActivityID: str(j.ActivityID), ActivityInstanceID: str(j.ActivityInstanceID),
		UserID: str(j.UserID), CollectResultValue: j.CollectResultValue, RootDecisionInstanceID: str(j.RootDecisionInstanceID),
		RootProcessInstanceID: str(j.RootProcessInstanceID), DecisionRequirementsDefinitionID: str(j.DecisionRequirementsDefinitionID),
		DecisionRequirementsDefinitionKey: str(j.DecisionRequirementsDefinitionKey), TenantID: str(j.TenantID),
		Inputs: j.Inputs, Outputs: j.Outputs}
	return r.err
}

// ---- incidents

type incidentJSON struct {
	ID                  string  `json:"id"`
	ProcessDefinitionID *string `json:"processDefinitionId"`
	ProcessInstanceID   *string `json:"processInstanceId"`
	ExecutionID         *string `json:"executionId"`
	IncidentTimestamp   *string `json:"incidentTimestamp"`
	IncidentType        *string `json:"incidentType"`
	ActivityID          *string `json:"activityId"`
	FailedActivityID    *string `json:"failedActivityId"`
	CauseIncidentID     *string `json:"causeIncidentId"`
	RootCauseIncidentID *string `json:"rootCauseIncidentId"`
	Configuration       *string `json:"configuration"`
	TenantID            *string `json:"tenantId"`
	IncidentMessage     *string `json:"incidentMessage"`
	JobDefinitionID     *string `json:"jobDefinitionId"`
	Annotation          *string `json:"annotation"`
}

// MarshalJSON writes Operaton's IncidentDto.
func (i Incident) MarshalJSON() ([]byte, error) {
	return json.Marshal(incidentJSON{ID: i.ID, ProcessDefinitionID: nullable(i.ProcessDefinitionID),
		ProcessInstanceID: nullable(i.ProcessInstanceID), ExecutionID: nullable(i.ExecutionID),
		IncidentTimestamp: jsonTime(i.Timestamp), IncidentType: nullable(i.Type), ActivityID: nullable(i.ActivityID),
		FailedActivityID: nullable(i.FailedActivityID), CauseIncidentID: nullable(i.CauseIncidentID),
		RootCauseIncidentID: nullable(i.RootCauseIncidentID), Configuration: nullable(i.Configuration),
		TenantID: nullable(i.TenantID), IncidentMessage: nullable(i.Message), JobDefinitionID: nullable(i.JobDefinitionID),
		Annotation: nullable(i.Annotation)})
}

// UnmarshalJSON reads Operaton's IncidentDto.
func (i *Incident) UnmarshalJSON(data []byte) error {
	var j incidentJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	var r timeReader
	*i = Incident{ID: j.ID, ProcessDefinitionID: str(j.ProcessDefinitionID), ProcessInstanceID: str(j.ProcessInstanceID),
		ExecutionID: str(j.ExecutionID), Timestamp: r.at("incidentTimestamp", j.IncidentTimestamp),
		Type: str(j.IncidentType), ActivityID: str(j.ActivityID), FailedActivityID: str(j.FailedActivityID),
		CauseIncidentID: str(j.CauseIncidentID), RootCauseIncidentID: str(j.RootCauseIncidentID),
		Configuration: str(j.Configuration), TenantID: str(j.TenantID), Message: str(j.IncidentMessage),
		JobDefinitionID: str(j.JobDefinitionID), Annotation: str(j.Annotation)}
	return r.err
}
