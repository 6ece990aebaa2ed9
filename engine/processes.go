package engine

import (
	"context"
	"time"
)

// Processes is the process side of an engine: BPMN process definitions
// from deployments, process instances, user tasks, external tasks and
// history, with Operaton's semantics. Implementations: engine/local
// (embedded, in memory or on PostgreSQL) and engine/operaton (a remote
// Operaton); engine/rest serves any of them under Operaton's paths.
//
// Every method is safe for concurrent use. Failures are *Error with the
// status, type and message Operaton answers with (404 RestException for an
// unknown id, 400 InvalidRequestException for a bad argument, 500
// ProcessEngineException or TaskAlreadyClaimedException when the engine
// refuses the operation, 500 OptimisticLockingException when a concurrent
// writer won), so callers handle a local and a remote engine alike.
// Not-found errors match ErrNotFound.
type Processes interface {
	// ProcessDefinitions lists process definitions (GET /process-definition).
	ProcessDefinitions(ctx context.Context, q ProcessDefinitionQuery) ([]ProcessDefinition, error)
	// ProcessDefinition returns a process definition by id.
	ProcessDefinition(ctx context.Context, id string) (ProcessDefinition, error)
	// LatestProcessDefinition returns the latest version with the key, of
	// the tenant or, for tenantID "", of no tenant
	// (GET /process-definition/key/{key}[/tenant-id/{tenant}]).
	LatestProcessDefinition(ctx context.Context, key, tenantID string) (ProcessDefinition, error)
	// ProcessDefinitionXML returns the BPMN XML of the definition's resource.
	ProcessDefinitionXML(ctx context.Context, id string) (string, error)
	// StartForm returns the deployed start form of a definition
	// (GET /process-definition/{id}/deployed-start-form); 404 when none is linked.
	StartForm(ctx context.Context, definitionID string) (Form, error)
	// StartProcess starts an instance of a definition, chosen by id or by
	// key and tenant, and runs it to its first wait states.
	StartProcess(ctx context.Context, s StartProcess) (ProcessInstance, error)

	// ProcessInstances lists running (not ended) process instances.
	ProcessInstances(ctx context.Context, q ProcessInstanceQuery) ([]ProcessInstance, error)
	// ProcessInstance returns a running process instance; an ended one is
	// not found (as in Operaton: read history instead).
	ProcessInstance(ctx context.Context, id string) (ProcessInstance, error)
	// ProcessInstanceVariables returns the variables of a running instance.
	ProcessInstanceVariables(ctx context.Context, id string) (Variables, error)
	// SetProcessInstanceVariables sets (and with Deletions removes)
	// variables of a running instance (POST /process-instance/{id}/variables).
	SetProcessInstanceVariables(ctx context.Context, id string, m VariableModification) error
	// DeleteProcessInstance cancels a running instance; its history state
	// becomes EXTERNALLY_TERMINATED. A called instance's call activity is
	// cancelled with it, and a caller left with nothing running too.
	DeleteProcessInstance(ctx context.Context, id string, o DeleteProcessInstance) error
	// SuspendProcessInstance suspends a running instance: its tasks cannot
	// be completed, its external tasks are not fetched.
	SuspendProcessInstance(ctx context.Context, id string) error
	// ActivateProcessInstance ends a suspension.
	ActivateProcessInstance(ctx context.Context, id string) error

	// Tasks lists open user tasks (GET /task, POST /task).
	Tasks(ctx context.Context, q TaskQuery) ([]Task, error)
	// TaskCount counts the open user tasks the query matches (paging ignored).
	TaskCount(ctx context.Context, q TaskQuery) (int, error)
	// Task returns an open user task.
	Task(ctx context.Context, id string) (Task, error)
	// Claim sets the task's assignee; a task assigned to another user is
	// refused (500 TaskAlreadyClaimedException), to the same user it is a no-op.
	Claim(ctx context.Context, taskID, userID string) error
	// Unclaim removes the task's assignee.
	Unclaim(ctx context.Context, taskID string) error
	// CompleteTask completes a task, setting the variables on its process
	// instance first, and runs the instance to its next wait states.
	CompleteTask(ctx context.Context, taskID string, vars Variables) error
	// TaskVariables returns the variables visible from the task.
	TaskVariables(ctx context.Context, taskID string) (Variables, error)
	// TaskForm returns the deployed form of a task
	// (GET /task/{id}/deployed-form); 404 when none is linked.
	TaskForm(ctx context.Context, taskID string) (Form, error)

	// FetchAndLock locks up to MaxTasks external tasks of the topics for
	// the worker and returns them with the requested variables.
	FetchAndLock(ctx context.Context, f FetchAndLock) ([]LockedExternalTask, error)
	// CompleteExternalTask completes an external task locked by the worker.
	CompleteExternalTask(ctx context.Context, id string, c CompleteExternalTask) error
	// ExternalTaskFailure reports a failure: the lock is released, Retries
	// are set, and with Retries 0 the task is no longer fetched (an incident).
	ExternalTaskFailure(ctx context.Context, id string, f ExternalTaskFailure) error
	// ExternalTaskBPMNError throws a BPMN error from an external task,
	// caught by an error boundary event on it.
	ExternalTaskBPMNError(ctx context.Context, id string, e ExternalTaskBPMNError) error
	// ExtendLock extends the lock of an external task held by the worker.
	ExtendLock(ctx context.Context, id, workerID string, d time.Duration) error
	// SetExternalTaskRetries sets the retries of an external task (PUT
	// /external-task/{id}/retries): above 0 it resolves the task's
	// incident and the task is fetched again, 0 opens an incident.
	SetExternalTaskRetries(ctx context.Context, id string, retries int) error

	// Incidents lists open incidents (GET /incident).
	Incidents(ctx context.Context, q IncidentQuery) ([]Incident, error)
	// IncidentCount counts the open incidents the query matches (paging ignored).
	IncidentCount(ctx context.Context, q IncidentQuery) (int, error)

	// HistoricProcessInstances lists process instances, running and ended.
	HistoricProcessInstances(ctx context.Context, q HistoricProcessInstanceQuery) ([]HistoricProcessInstance, error)
	// HistoricProcessInstance returns one historic process instance.
	HistoricProcessInstance(ctx context.Context, id string) (HistoricProcessInstance, error)
	// HistoricTasks lists user tasks, open and finished.
	HistoricTasks(ctx context.Context, q HistoricTaskQuery) ([]HistoricTask, error)
	// HistoricVariables lists variable instances, of running and ended instances.
	HistoricVariables(ctx context.Context, q HistoricVariableQuery) ([]HistoricVariable, error)
	// HistoricActivities lists activity instances.
	HistoricActivities(ctx context.Context, q HistoricActivityQuery) ([]HistoricActivity, error)
	// HistoricDecisions lists the decision evaluations of business-rule tasks.
	HistoricDecisions(ctx context.Context, q HistoricDecisionQuery) ([]HistoricDecision, error)

	// DeploymentResources lists the resources of a deployment.
	DeploymentResources(ctx context.Context, deploymentID string) ([]DeploymentResource, error)
	// DeploymentResourceData returns the content of one resource.
	DeploymentResourceData(ctx context.Context, deploymentID, resourceID string) ([]byte, error)
	// DeleteDeployment deletes a deployment and its definitions; with
	// Cascade its running instances are cancelled and its history removed,
	// without it a deployment with running instances is refused.
	DeleteDeployment(ctx context.Context, id string, o DeleteDeployment) error
}

// ProcessEngine is an engine with decisions and processes.
type ProcessEngine interface {
	Engine
	Processes
}

// ProcessDefinition is a deployed BPMN process (Operaton's process
// definition). ID is key:version:uuid.
type ProcessDefinition struct {
	ID, Key, Category, Description, Name string
	Version                              int
	Resource, DeploymentID, Diagram      string
	Suspended                            bool
	TenantID, VersionTag                 string
	HistoryTimeToLive                    *int // days
	StartableInTasklist                  bool
}

// ProcessDefinitionQuery filters and pages process definitions, with the
// parameters of Operaton's GET /process-definition. Zero values do not filter.
type ProcessDefinitionQuery struct {
	ID                     string   // processDefinitionId
	IDIn                   []string // processDefinitionIdIn
	Key, KeyLike           string
	KeysIn                 []string
	Name, NameLike         string
	DeploymentID           string
	ResourceName           string
	Version                int // 0: any
	LatestVersion          bool
	TenantIDIn             []string
	WithoutTenantID        bool
	IncludeWithoutTenantID bool // adds definitions of no tenant to TenantIDIn
	VersionTag             string
	// SortBy is one of category, key, id, name, version, deploymentId,
	// tenantId, versionTag; SortOrder asc or desc.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// StartProcess says which definition to start and with what. Either
// DefinitionID or Key is set; with Key, TenantID "" chooses the
// definition of no tenant (as Operaton's /process-definition/key/{key}/start).
type StartProcess struct {
	DefinitionID string
	Key          string
	TenantID     string
	BusinessKey  string
	Variables    Variables
	// StartUserID is the user who starts the instance, when known: the
	// history's startUserId and the variable a start event's
	// camunda:initiator names. Not sent to a remote engine, which takes
	// the user from its own authentication.
	StartUserID string
	// WithVariablesInReturn fills ProcessInstance.Variables in the answer.
	WithVariablesInReturn bool
}

// Form is a deployed form: a form-js schema (ContentType
// application/json) or any other deployed resource such as an embedded
// HTML form (its own content type).
type Form struct {
	ContentType string
	Data        []byte
}

// ProcessInstance is a process instance (Operaton's ProcessInstanceDto).
type ProcessInstance struct {
	ID, DefinitionID, DefinitionKey string
	BusinessKey, CaseInstanceID     string
	TenantID                        string
	Ended, Suspended                bool
	Variables                       Variables // only with WithVariablesInReturn
}

// VariableFilter compares a variable with a value, as Operaton's
// name_op_value (GET) or {name, operator, value} (POST) filters. Operator
// is eq, neq, gt, gteq, lt, lteq or like. Value is a plain value (string,
// json.Number, bool or nil); values from a query string are strings and
// compare as text, as in Operaton.
type VariableFilter struct {
	Name, Operator string
	Value          any
}

// Sorting is one sort key of a POST query's "sorting" list.
type Sorting struct {
	SortBy, SortOrder string
}

// ProcessInstanceQuery filters and pages running process instances (GET
// and POST /process-instance).
type ProcessInstanceQuery struct {
	ProcessInstanceIDs     []string
	BusinessKey            string
	BusinessKeyLike        string
	ProcessDefinitionID    string
	ProcessDefinitionKey   string
	ProcessDefinitionKeyIn []string
	DeploymentID           string
	SuperProcessInstance   string
	SubProcessInstance     string
	Active, Suspended      bool
	TenantIDIn             []string
	WithoutTenantID        bool
	Variables              []VariableFilter
	// SortBy is one of instanceId, definitionKey, definitionId, tenantId,
	// businessKey; Sorting (POST) takes precedence.
	SortBy, SortOrder string
	Sorting           []Sorting
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// VariableModification is the body of POST /process-instance/{id}/variables.
type VariableModification struct {
	Modifications Variables
	Deletions     []string
}

// DeleteProcessInstance are the options of a cancellation.
type DeleteProcessInstance struct {
	Reason              string // the history's deleteReason
	SkipCustomListeners bool
	SkipIoMappings      bool
}

// DeleteDeployment are the options of a deployment deletion.
type DeleteDeployment struct {
	Cascade bool
}

// DeploymentResource is a resource of a deployment (GET
// /deployment/{id}/resources).
type DeploymentResource struct {
	ID, Name, DeploymentID string
}

// FormRef is a user task's or start event's camunda:formRef.
type FormRef struct {
	Key     string
	Binding string // latest, deployment or version
	Version *int
}

// Task is an open user task (Operaton's TaskDto).
type Task struct {
	ID, Name, Assignee, Owner, Description string
	Created, LastUpdated                   time.Time
	Due, FollowUp                          *time.Time
	DelegationState                        string
	ExecutionID, ProcessDefinitionID       string
	ProcessInstanceID, TaskDefinitionKey   string
	ParentTaskID                           string
	Priority                               int
	Suspended                              bool
	FormKey                                string
	FormRef                                *FormRef // operatonFormRef
	TenantID                               string
	TaskState                              string // Created, Assigned, …
	// CandidateUsers and CandidateGroups are the task's identity links
	// (not part of Operaton's TaskDto; GET /task/{id}/identity-links).
	CandidateUsers, CandidateGroups []string
}

// TaskQuery filters, sorts and pages open user tasks, with the parameters
// of Operaton's GET /task and POST /task.
type TaskQuery struct {
	TaskID                     string
	TaskIDIn                   []string
	ProcessInstanceID          string
	ProcessInstanceIDIn        []string
	ProcessInstanceBusinessKey string
	ProcessDefinitionID        string
	ProcessDefinitionKey       string
	ProcessDefinitionKeyIn     []string
	TaskDefinitionKey          string
	TaskDefinitionKeyIn        []string
	Name, NameLike             string
	Assignee                   string
	AssigneeIn                 []string
	Assigned, Unassigned       bool
	CandidateUser              string
	CandidateGroup             string
	CandidateGroups            []string
	// IncludeAssignedTasks keeps assigned tasks in a candidate filter
	// (Operaton leaves them out otherwise).
	IncludeAssignedTasks bool
	TenantIDIn           []string
	WithoutTenantID      bool
	Active, Suspended    bool
	// ProcessVariables filters on the variables of the task's process
	// instance (processVariables=name_eq_value).
	ProcessVariables []VariableFilter
	// SortBy is one of instanceId, caseInstanceId, dueDate, executionId,
	// caseExecutionId, assignee, created, lastUpdated, followUpDate,
	// description, id, name, nameCaseInsensitive, priority, tenantId;
	// Sorting (POST) takes precedence.
	SortBy, SortOrder string
	Sorting           []Sorting
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// FetchTopic is one topic of a fetch-and-lock request.
type FetchTopic struct {
	TopicName            string
	LockDuration         time.Duration
	Variables            []string // nil: all variables
	LocalVariables       bool
	BusinessKey          string
	ProcessDefinitionKey string
	TenantIDIn           []string
	WithoutTenantID      bool
	DeserializeValues    bool
}

// FetchAndLock is the body of POST /external-task/fetchAndLock.
type FetchAndLock struct {
	WorkerID    string
	MaxTasks    int
	UsePriority bool
	// AsyncResponseTimeout makes the call wait up to this long for a task
	// when none is available (long polling); 0 answers at once.
	AsyncResponseTimeout time.Duration
	Topics               []FetchTopic
}

// LockedExternalTask is an external task locked for a worker (Operaton's
// LockedExternalTaskDto).
type LockedExternalTask struct {
	ID, ActivityID, ActivityInstanceID string
	ErrorMessage, ErrorDetails         string
	ExecutionID                        string
	LockExpirationTime                 time.Time
	CreateTime                         time.Time
	ProcessDefinitionID                string
	ProcessDefinitionKey               string
	ProcessDefinitionVersionTag        string
	ProcessInstanceID                  string
	Retries                            *int
	Suspended                          bool
	WorkerID, TopicName, TenantID      string
	BusinessKey                        string
	Priority                           int64
	Variables                          Variables
	ExtensionProperties                map[string]string
}

// CompleteExternalTask is the body of POST /external-task/{id}/complete.
type CompleteExternalTask struct {
	WorkerID       string
	Variables      Variables
	LocalVariables Variables
}

// ExternalTaskFailure is the body of POST /external-task/{id}/failure.
type ExternalTaskFailure struct {
	WorkerID     string
	ErrorMessage string
	ErrorDetails string
	Retries      int
	RetryTimeout time.Duration
}

// ExternalTaskBPMNError is the body of POST /external-task/{id}/bpmnError.
type ExternalTaskBPMNError struct {
	WorkerID     string
	ErrorCode    string
	ErrorMessage string
	Variables    Variables
}

// History states of process instances.
const (
	StateActive               = "ACTIVE"
	StateSuspended            = "SUSPENDED"
	StateCompleted            = "COMPLETED"
	StateExternallyTerminated = "EXTERNALLY_TERMINATED"
	StateInternallyTerminated = "INTERNALLY_TERMINATED"
)

// HistoricProcessInstance is a process instance in history (Operaton's
// HistoricProcessInstanceDto).
type HistoricProcessInstance struct {
	ID, BusinessKey                            string
	ProcessDefinitionID, ProcessDefinitionKey  string
	ProcessDefinitionName                      string
	ProcessDefinitionVersion                   int
	StartTime                                  time.Time
	EndTime, RemovalTime                       *time.Time
	DurationInMillis                           *int64
	StartUserID, StartActivityID, DeleteReason string
	RootProcessInstanceID                      string
	SuperProcessInstanceID                     string
	SuperCaseInstanceID, CaseInstanceID        string
	TenantID                                   string
	State                                      string // StateActive, …
}

// HistoricProcessInstanceQuery filters, sorts and pages historic process
// instances (GET and POST /history/process-instance).
type HistoricProcessInstanceQuery struct {
	ProcessInstanceID      string
	ProcessInstanceIDs     []string
	BusinessKey            string
	BusinessKeyLike        string
	ProcessDefinitionID    string
	ProcessDefinitionKey   string
	ProcessDefinitionKeyIn []string
	SuperProcessInstanceID string
	Finished, Unfinished   bool
	// State keeps only instances in that state (StateActive, …).
	State           string
	TenantIDIn      []string
	WithoutTenantID bool
	// Variables filters on the instances' variables (their latest values).
	Variables []VariableFilter
	// SortBy is one of instanceId, definitionId, definitionKey,
	// definitionName, definitionVersion, businessKey, startTime, endTime,
	// duration, tenantId; Sorting (POST) takes precedence.
	SortBy, SortOrder string
	Sorting           []Sorting
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// HistoricTask is a user task in history (Operaton's HistoricTaskInstanceDto).
type HistoricTask struct {
	ID, ProcessDefinitionKey, ProcessDefinitionID string
	ProcessInstanceID, ExecutionID                string
	ActivityInstanceID                            string
	Name, Description, DeleteReason               string
	Owner, Assignee                               string
	StartTime                                     time.Time
	EndTime                                       *time.Time
	Duration                                      *int64
	TaskDefinitionKey                             string
	Priority                                      int
	Due, FollowUp, RemovalTime                    *time.Time
	ParentTaskID                                  string
	TenantID, RootProcessInstanceID               string
	TaskState                                     string
}

// HistoricTaskQuery filters, sorts and pages historic tasks (GET
// /history/task).
type HistoricTaskQuery struct {
	TaskID               string
	ProcessInstanceID    string
	ProcessInstanceIDIn  []string
	ProcessDefinitionID  string
	ProcessDefinitionKey string
	TaskDefinitionKey    string
	TaskAssignee         string
	Finished, Unfinished bool
	TenantIDIn           []string
	// ProcessVariables filters on the variables of the task's process
	// instance (their latest values, also after it ended).
	ProcessVariables []VariableFilter
	// SortBy is one of taskId, activityInstanceId, processDefinitionId,
	// processInstanceId, executionId, duration, endTime, startTime,
	// taskName, taskDescription, assignee, owner, dueDate, followUpDate,
	// deleteReason, taskDefinitionKey, priority, tenantId.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// HistoricVariable is a variable instance in history (Operaton's
// HistoricVariableInstanceDto): the latest value of a variable of a
// process instance, running or ended.
type HistoricVariable struct {
	ID, Name                                  string
	Value                                     Variable
	ProcessDefinitionKey, ProcessDefinitionID string
	ProcessInstanceID, ExecutionID            string
	ActivityInstanceID, TaskID                string
	TenantID, ErrorMessage                    string
	State                                     string // CREATED or DELETED
	CreateTime                                time.Time
	RemovalTime                               *time.Time
	RootProcessInstanceID                     string
}

// HistoricVariableQuery filters and pages historic variables (GET and
// POST /history/variable-instance).
type HistoricVariableQuery struct {
	VariableName, VariableNameLike string
	ProcessInstanceID              string
	ProcessInstanceIDIn            []string
	ProcessDefinitionID            string
	ProcessDefinitionKey           string
	TaskIDIn                       []string
	TenantIDIn                     []string
	IncludeDeleted                 bool
	// SortBy is one of instanceId, variableName, tenantId.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// HistoricActivity is an activity instance in history (Operaton's
// HistoricActivityInstanceDto).
type HistoricActivity struct {
	ID, ParentActivityInstanceID              string
	ActivityID, ActivityName, ActivityType    string // ActivityType as Operaton's: startEvent, userTask, …
	ProcessDefinitionKey, ProcessDefinitionID string
	ProcessInstanceID, ExecutionID            string
	TaskID, Assignee                          string
	CalledProcessInstanceID                   string
	CalledCaseInstanceID                      string
	StartTime                                 time.Time
	EndTime, RemovalTime                      *time.Time
	DurationInMillis                          *int64
	Canceled, CompleteScope                   bool
	TenantID, RootProcessInstanceID           string
}

// HistoricActivityQuery filters and pages historic activities (GET
// /history/activity-instance).
type HistoricActivityQuery struct {
	ActivityInstanceID   string
	ProcessInstanceID    string
	ProcessDefinitionID  string
	ActivityID           string
	ActivityType         string
	Finished, Unfinished bool
	Canceled             bool
	TenantIDIn           []string
	// SortBy is one of activityInstanceId, instanceId, executionId,
	// activityId, activityName, activityType, startTime, endTime,
	// duration, definitionId, occurrence, tenantId.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// HistoricDecision is one decision evaluation of a business-rule task
// (Operaton's HistoricDecisionInstanceDto).
type HistoricDecision struct {
	ID                                string
	DecisionDefinitionID              string
	DecisionDefinitionKey             string
	DecisionDefinitionName            string
	EvaluationTime                    time.Time
	RemovalTime                       *time.Time
	ProcessDefinitionID               string
	ProcessDefinitionKey              string
	ProcessInstanceID                 string
	ActivityID, ActivityInstanceID    string
	UserID                            string
	CollectResultValue                *float64
	RootDecisionInstanceID            string
	RootProcessInstanceID             string
	DecisionRequirementsDefinitionID  string
	DecisionRequirementsDefinitionKey string
	TenantID                          string
	Inputs                            []HistoricDecisionInput  // with IncludeInputs
	Outputs                           []HistoricDecisionOutput // with IncludeOutputs
}

// HistoricDecisionInput is one input clause's value of a decision evaluation.
type HistoricDecisionInput struct {
	ID, DecisionInstanceID, ClauseID, ClauseName string
	Value                                        Variable
	CreateTime                                   time.Time
}

// HistoricDecisionOutput is one output value of a matched rule.
type HistoricDecisionOutput struct {
	ID, DecisionInstanceID, ClauseID, ClauseName string
	RuleID                                       string
	RuleOrder                                    int
	VariableName                                 string
	Value                                        Variable
	CreateTime                                   time.Time
}

// HistoricDecisionQuery filters and pages historic decisions (GET
// /history/decision-instance).
type HistoricDecisionQuery struct {
	DecisionInstanceID    string
	DecisionDefinitionID  string
	DecisionDefinitionKey string
	ProcessInstanceID     string
	ProcessDefinitionKey  string
	ActivityIDIn          []string
	TenantIDIn            []string
	IncludeInputs         bool
	IncludeOutputs        bool
	// SortBy is one of evaluationTime, tenantId.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}

// IncidentFailedExternalTask is the type of the incident an external task
// opens when its retries reach 0.
const IncidentFailedExternalTask = "failedExternalTask"

// Incident is an open incident (Operaton's IncidentDto). The embedded
// engine opens one, of type IncidentFailedExternalTask, when an external
// task's retries reach 0; setting its retries again or completing it
// resolves the incident, which then leaves the runtime list.
type Incident struct {
	ID                  string
	ProcessDefinitionID string
	ProcessInstanceID   string
	ExecutionID         string
	Timestamp           time.Time // incidentTimestamp
	Type                string    // incidentType
	ActivityID          string
	FailedActivityID    string
	CauseIncidentID     string
	RootCauseIncidentID string
	// Configuration is the failed job's or external task's id.
	Configuration   string
	TenantID        string
	Message         string // incidentMessage
	JobDefinitionID string
	Annotation      string
}

// IncidentQuery filters, sorts and pages open incidents (GET /incident,
// GET /incident/count). Zero values do not filter.
type IncidentQuery struct {
	IncidentID          string
	IncidentType        string
	ProcessInstanceID   string
	ProcessDefinitionID string
	ActivityID          string
	TenantIDIn          []string
	// SortBy is one of incidentId, incidentMessage, incidentTimestamp,
	// incidentType, executionId, activityId, processInstanceId,
	// processDefinitionId, causeIncidentId, rootCauseIncidentId,
	// configuration, tenantId; SortOrder asc or desc.
	SortBy, SortOrder string
	FirstResult       int
	MaxResults        int // 0: no limit; -1: no rows
}
