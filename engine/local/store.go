package local

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// Store is where the embedded engine keeps what must outlive one command:
// deployments with their resources, process definitions, running process
// instances, open user tasks, external tasks and history. The engine
// itself keeps only caches (compiled models) that it can rebuild from the
// store, so several engines may share one store (engine/local/pgstore:
// PostgreSQL) and a restarted engine continues where the last one
// stopped. NewMemoryStore is the default, in-memory store.
//
// # The contract
//
// Every method is safe for concurrent use. Records passed in and returned
// are copies: a store never keeps a caller's slice or map, nor hands out
// its own.
//
// Versioning. InstanceRecord, TaskRecord and ExternalTaskRecord carry a
// Version, an optimistic lock. A record read from the store has the
// version it was stored with (1 after its insert). A write in a Change
// carries the version it was read at, 0 for an insert; Commit checks that
// the stored version is still that one (and, for an insert, that no
// record with the id exists) and stores the record with Version+1. Any
// mismatch fails the whole Commit with an error matching ErrConflict, and
// nothing of the Change is applied. The engine then re-reads and
// re-applies its command (a bounded number of times), so two engines
// never complete one task twice.
//
// Atomicity. Commit applies one step of the engine atomically: every
// instance write and delete, task and external-task upsert and delete,
// and history row of the Change, or none of them (PostgreSQL: one
// transaction; memory: under one lock). A step that fails (a script
// error, an unsupported element reached) never reaches Commit, so nothing
// of it is kept.
//
// Queries. The store filters, sorts and pages the engine's query types
// itself (Tasks with engine.TaskQuery, history with the History… queries),
// so that a database store answers them from its indexes. The fields a
// store must index are marked "indexed" below; MatchTask, MatchInstance
// and the other Match… helpers define what each filter means, so a store
// may use them for filters it does not translate into its own query
// language. Variable filters (TaskQuery.ProcessVariables,
// ProcessInstanceQuery.Variables) compare with the instance's current
// Variables; history variable filters compare with the latest historic
// values (HistoricVariable rows). TaskQuery's filter on the variable
// "municipality" with operator eq is the hot one: TaskRecord.Municipality
// carries its value and is indexed.
//
// Deployments made by another engine on the same store. CreateDeployment
// numbers deployments with a store-wide, increasing Seq. Process
// definitions are read from the store on every lookup (by id, by key and
// tenant), so a definition deployed elsewhere is seen at once; the engine
// caches only the parsed BPMN, by deployment id and resource name, which
// never changes. Decision definitions live in the engine's own repository
// (see the package documentation): on a decision lookup that misses, and
// before listing, the engine loads the deployments with a Seq above the
// highest it has seen (Deployments(ctx, afterSeq)) and adds their
// decisions, so it sees other engines' decision deployments on first use.
//
// Errors. Lookups of a missing id return an error matching ErrNoRecord
// (the engine turns it into Operaton's 404). Commit returns an error
// matching ErrConflict on a stale version and an *engine.StorageFullError
// when the store is at its bound (NewMemoryStore's MemoryOptions).
type Store interface {
	// CreateDeployment stores a deployment with its resources and process
	// definitions. It assigns d.Seq (store-wide, increasing) and, for each
	// process definition, Version (one above the highest version of its
	// Key and TenantID, 1 for the first) and ID (DefinitionID(Key,
	// Version, the ID the caller set, a fresh uuid)), atomically, so that
	// two engines deploying the same key get different versions.
	CreateDeployment(ctx context.Context, d *DeploymentRecord) error
	// Deployment returns one deployment with its resources.
	Deployment(ctx context.Context, id string) (DeploymentRecord, error)
	// Deployments returns the deployments with Seq > afterSeq, in Seq
	// order, with their resources and process definitions.
	Deployments(ctx context.Context, afterSeq int64) ([]DeploymentRecord, error)
	// DeleteDeployment deletes a deployment and its process definitions.
	// The engine first cancels or refuses running instances (the store
	// does not check them).
	DeleteDeployment(ctx context.Context, id string) error

	// ProcessDefinitions lists process definitions (filtered, sorted and
	// paged by the query; unsorted: in deployment order).
	ProcessDefinitions(ctx context.Context, q engine.ProcessDefinitionQuery) ([]engine.ProcessDefinition, error)
	// ProcessDefinition returns a process definition by id (indexed).
	ProcessDefinition(ctx context.Context, id string) (engine.ProcessDefinition, error)
	// LatestProcessDefinition returns the highest version of the key and
	// tenant ("" = no tenant) (indexed on key, tenant, version).
	LatestProcessDefinition(ctx context.Context, key, tenantID string) (engine.ProcessDefinition, error)

	// Instance returns a running process instance by id (indexed).
	Instance(ctx context.Context, id string) (InstanceRecord, error)
	// Instances lists running instances matching the query (filtered,
	// sorted and paged; unsorted: in start order).
	Instances(ctx context.Context, q engine.ProcessInstanceQuery) ([]InstanceRecord, error)
	// InstanceCount counts the running instances of a deployment ("": all).
	InstanceCount(ctx context.Context, deploymentID string) (int, error)

	// Task returns an open user task by id (indexed).
	Task(ctx context.Context, id string) (TaskRecord, error)
	// Tasks lists open user tasks matching the query (filtered, sorted and
	// paged; unsorted: in creation order).
	Tasks(ctx context.Context, q engine.TaskQuery) ([]TaskRecord, error)
	// TaskCount counts the open user tasks matching the query (paging ignored).
	TaskCount(ctx context.Context, q engine.TaskQuery) (int, error)
	// InstanceTasks lists the open user tasks of instances (indexed on
	// InstanceID), in creation order.
	InstanceTasks(ctx context.Context, instanceIDs ...string) ([]TaskRecord, error)

	// ExternalTask returns an external task by id (indexed).
	ExternalTask(ctx context.Context, id string) (ExternalTaskRecord, error)
	// InstanceExternalTasks lists the external tasks of instances
	// (indexed on InstanceID), in creation order.
	InstanceExternalTasks(ctx context.Context, instanceIDs ...string) ([]ExternalTaskRecord, error)
	// LockExternalTasks locks up to r.MaxTasks fetchable external tasks of
	// r's topics for r.WorkerID and returns them, locked (Version
	// incremented). Fetchable: its topic is one of r.Topics and matches
	// that topic's filters, it is not suspended, it is unlocked or its lock
	// expired (LockExpiration <= r.Now), its Retries is nil or > 0 and its
	// RetryAt is zero or <= r.Now. Candidates are taken by Priority
	// descending when r.UsePriority, then in creation order. Atomic: two
	// concurrent calls never lock the same task (PostgreSQL: SELECT … FOR
	// UPDATE SKIP LOCKED). Indexed on TopicName, LockExpiration.
	LockExternalTasks(ctx context.Context, r LockRequest) ([]ExternalTaskRecord, error)

	// Incidents lists the open incidents (IncidentOf the external tasks
	// with an IncidentID) matching the query, sorted and paged (unsorted:
	// in the tasks' creation order). Indexed on the incidents' presence.
	Incidents(ctx context.Context, q engine.IncidentQuery) ([]engine.Incident, error)

	// Commit applies one step atomically (see the contract above).
	Commit(ctx context.Context, c Change) error

	// HistoricProcessInstances, HistoricTasks, HistoricVariables,
	// HistoricActivities and HistoricDecisions query history (filtered,
	// sorted and paged by the query; unsorted: in insertion order).
	HistoricProcessInstances(ctx context.Context, q engine.HistoricProcessInstanceQuery) ([]engine.HistoricProcessInstance, error)
	HistoricTasks(ctx context.Context, q engine.HistoricTaskQuery) ([]engine.HistoricTask, error)
	HistoricVariables(ctx context.Context, q engine.HistoricVariableQuery) ([]engine.HistoricVariable, error)
	HistoricActivities(ctx context.Context, q engine.HistoricActivityQuery) ([]engine.HistoricActivity, error)
	// HistoricDecisions returns decisions with their inputs and outputs;
	// the engine drops them unless the query asks for them.
	HistoricDecisions(ctx context.Context, q engine.HistoricDecisionQuery) ([]engine.HistoricDecision, error)
	// DeleteHistory deletes the history of process instances (a cascading
	// deployment deletion).
	DeleteHistory(ctx context.Context, instanceIDs ...string) error
}

// TaskInstanceReader is an optional Store method the engine uses when a
// store has it: one read of an open task with its running instance, which
// a database answers in one round trip instead of two (completing a task
// reads both). inst is the zero record (ID "") when the instance is gone;
// a missing task is ErrNoRecord. Both carry the versions they were read
// at, so Commit checks them as after two reads.
type TaskInstanceReader interface {
	TaskWithInstance(ctx context.Context, taskID string) (task TaskRecord, inst InstanceRecord, err error)
}

// ErrNoRecord matches (errors.Is) a lookup of an id the store does not hold.
var ErrNoRecord = errors.New("local: no such record")

// ErrConflict matches (errors.Is) a Commit that found a record at another
// version than the one the Change was computed from.
var ErrConflict = errors.New("local: concurrent modification")

// ConflictError is a Commit refused because a record changed since it was
// read. It matches ErrConflict.
type ConflictError struct {
	Kind string // "instance", "task", "externalTask"
	ID   string
	// Want is the version the Change expected (0: absent), Have the stored
	// one (0: absent).
	Want, Have int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("local: %s %s was modified concurrently (version %d, expected %d)", e.Kind, e.ID, e.Have, e.Want)
}

// Is makes a ConflictError match ErrConflict.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// DefinitionID is Operaton's definition id key:version:uuid, or the uuid
// alone when that would be longer than 64 characters.
func DefinitionID(key string, version int, uuid string) string {
	id := key + ":" + strconv.Itoa(version) + ":" + uuid
	if len(id) > 64 {
		return uuid
	}
	return id
}

// DeploymentRecord is a deployment as stored.
type DeploymentRecord struct {
	// Seq is assigned by CreateDeployment: store-wide and increasing.
	Seq        int64
	Deployment engine.Deployment // ID, Name, Source, TenantID, Time (the Deployed… lists empty)
	Resources  []ResourceRecord
	// ProcessDefinitions are the process definitions the deployment
	// created; CreateDeployment assigns their Version and ID.
	ProcessDefinitions []engine.ProcessDefinition
}

// ResourceRecord is one resource of a deployment.
type ResourceRecord struct {
	ID, Name string
	Data     []byte
}

// InstanceRecord is a running process instance. Columns a store indexes:
// ID, DefinitionID, DefinitionKey, BusinessKey, TenantID, SuperInstanceID,
// DeploymentID.
type InstanceRecord struct {
	ID      string
	Version int64 // optimistic lock, see Store
	// DefinitionID, DefinitionKey and DeploymentID are those of its
	// process definition.
	DefinitionID, DefinitionKey, DeploymentID string
	BusinessKey, TenantID                     string
	// SuperInstanceID is the calling instance of a call activity's
	// instance; RootInstanceID the top of the call chain (its own ID at
	// the top).
	SuperInstanceID, RootInstanceID string
	Suspended                       bool
	StartTime                       time.Time
	// Variables are the instance's process variables (current values).
	Variables engine.Variables
	// State is the engine's execution state (tokens, activity instances,
	// waits), opaque to the store: a database stores it as bytes.
	State []byte
}

// TaskRecord is an open user task. Columns a store indexes: Task.ID,
// Task.ProcessInstanceID, Municipality, CandidateGroups (PostgreSQL: a
// GIN index on an array column), Task.Assignee, Task.Created.
type TaskRecord struct {
	Version int64 // optimistic lock, see Store
	Task    engine.Task
	// ProcessDefinitionKey and BusinessKey are the instance's, for the
	// query's filters on them.
	ProcessDefinitionKey, BusinessKey string
	// Municipality is the value of the instance's variable "municipality"
	// as text ("" when it has none or it is not a string); the engine
	// keeps it current when the variable changes.
	Municipality string
	// ActivityInstanceID is the task's activity instance (for history).
	ActivityInstanceID string
}

// ExternalTaskRecord is an external task, fetchable or locked. Columns a
// store indexes: ID, InstanceID, TopicName, LockExpiration.
type ExternalTaskRecord struct {
	Version                   int64 // optimistic lock, see Store
	ID                        string
	InstanceID, ExecutionID   string
	ActivityID                string
	ActivityInstanceID        string
	TopicName                 string
	WorkerID                  string    // "" when not locked
	LockExpiration            time.Time // zero when not locked
	Retries                   *int      // nil: never failed
	RetryAt                   time.Time // not fetchable before (a failure's retry timeout)
	ErrorMessage              string
	ErrorDetails              string
	Priority                  int64
	DefinitionID              string
	DefinitionKey, VersionTag string
	TenantID, BusinessKey     string
	Suspended                 bool
	CreateTime                time.Time
	// IncidentID and IncidentTime are the task's open incident ("" when
	// none): opened when its retries reach 0, resolved (cleared) when they
	// are set above 0 again; completing the task deletes the record and
	// with it the incident.
	IncidentID   string
	IncidentTime time.Time
}

// LockRequest is what LockExternalTasks locks.
type LockRequest struct {
	WorkerID    string
	MaxTasks    int
	UsePriority bool
	Topics      []engine.FetchTopic
	// Now is the time the locks start at; a topic's LockDuration is added
	// to it for LockExpiration.
	Now time.Time
}

// Change is one step of the engine, applied atomically by Commit.
type Change struct {
	// Instances are inserted (Version 0) or updated (Version = the
	// version read); DeleteInstances are removed (an instance ended).
	Instances       []InstanceRecord
	DeleteInstances []Ref
	// Tasks are inserted or updated likewise, DeleteTasks removed.
	Tasks       []TaskRecord
	DeleteTasks []Ref
	// ExternalTasks are inserted or updated, DeleteExternalTasks removed.
	ExternalTasks       []ExternalTaskRecord
	DeleteExternalTasks []Ref
	History             HistoryChange
}

// Ref names a record and the version it was read at.
type Ref struct {
	ID      string
	Version int64
}

// HistoryChange is the history rows of a step. Every row is upserted by
// its ID (inserted, or replacing the row with that ID), in this order:
// an activity that starts and ends in one step appears once, ended.
// Decisions are inserted with their inputs and outputs.
type HistoryChange struct {
	ProcessInstances []engine.HistoricProcessInstance
	Activities       []engine.HistoricActivity
	Tasks            []engine.HistoricTask
	// Variables are the latest values: one row per instance and name
	// (the ID is derived from both). An update keeps the stored row's
	// CreateTime (PostgreSQL: ON CONFLICT … DO UPDATE without create_time).
	Variables []engine.HistoricVariable
	Decisions []engine.HistoricDecision
}

// Empty reports whether the change writes nothing.
func (c *Change) Empty() bool {
	h := &c.History
	return len(c.Instances)+len(c.DeleteInstances)+len(c.Tasks)+len(c.DeleteTasks)+len(c.ExternalTasks)+
		len(c.DeleteExternalTasks)+len(h.ProcessInstances)+len(h.Activities)+len(h.Tasks)+len(h.Variables)+len(h.Decisions) == 0
}
