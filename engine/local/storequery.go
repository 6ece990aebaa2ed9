package local

import (
	"cmp"
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// The Match… helpers define the meaning of each query filter, for the
// memory store and for filters a database store evaluates in Go.

// MatchVariable reports whether a variable passes a filter (Operaton's
// name_op_value). A text filter value (from a query string) compares with
// the variable's text; a number compares numerically with a number
// variable; a boolean and nil compare by equality. like matches the
// variable's text with an SQL LIKE pattern. A missing variable (ok false)
// matches nothing.
func MatchVariable(v engine.Variable, ok bool, f engine.VariableFilter) bool {
	if !ok {
		return false
	}
	op := f.Operator
	if op == "" {
		op = "eq"
	}
	var c int
	comparable := true
	switch want := f.Value.(type) {
	case nil:
		isNull := v.Type == engine.TypeNull || v.Value == nil
		switch op {
		case "eq":
			return isNull
		case "neq":
			return !isNull
		}
		return false
	case bool:
		b, isBool := v.Value.(bool)
		switch op {
		case "eq":
			return isBool && b == want
		case "neq":
			return !isBool || b != want
		}
		return false
	case json.Number:
		n, isNum := v.Value.(json.Number)
		if !isNum {
			if s, isStr := v.Value.(string); isStr && v.Type != engine.TypeJSON {
				n, isNum = json.Number(s), true
			}
		}
		x, okx := new(big.Float).SetString(string(n))
		y, oky := new(big.Float).SetString(string(want))
		if !isNum || !okx || !oky {
			comparable = false
			if op == "neq" {
				return true
			}
			break
		}
		c = x.Cmp(y)
	case string:
		text := variableText(v)
		if op == "like" {
			return engine.Like(text, want)
		}
		// a number variable compares numerically with numeric text
		if n, isNum := v.Value.(json.Number); isNum {
			x, okx := new(big.Float).SetString(string(n))
			y, oky := new(big.Float).SetString(want)
			if okx && oky {
				c = x.Cmp(y)
				break
			}
		}
		c = strings.Compare(text, want)
	default:
		comparable = false
	}
	if !comparable {
		return false
	}
	switch op {
	case "eq":
		return c == 0
	case "neq":
		return c != 0
	case "gt":
		return c > 0
	case "gteq":
		return c >= 0
	case "lt":
		return c < 0
	case "lteq":
		return c <= 0
	}
	return false
}

// variableText is a variable's value as text, as Operaton compares it
// with a query string's value.
func variableText(v engine.Variable) string {
	switch x := v.Value.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	case time.Time:
		return x.Format(engine.DateLayout)
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v.Plain())
	return string(b)
}

// MunicipalityOf returns the text a TaskRecord indexes for an instance's
// variables: the value of "municipality" as text (as a query string's
// value compares with it), "" when it is absent or null.
func MunicipalityOf(vars engine.Variables) string {
	if v, ok := vars["municipality"]; ok && v.Type != engine.TypeNull && v.Value != nil {
		return variableText(v)
	}
	return ""
}

// matchVariables reports whether every filter passes on vars.
func matchVariables(vars engine.Variables, fs []engine.VariableFilter) bool {
	for _, f := range fs {
		v, ok := vars[f.Name]
		if !MatchVariable(v, ok, f) {
			return false
		}
	}
	return true
}

func tenantOK(in []string, without bool, tenant string) bool {
	if without && tenant != "" {
		return false
	}
	return len(in) == 0 || slices.Contains(in, tenant)
}

func eqOK(want, got string) bool { return want == "" || want == got }

func inOK(in []string, got string) bool { return len(in) == 0 || slices.Contains(in, got) }

// MatchTask reports whether an open task passes the query's filters; vars
// are its instance's variables (for ProcessVariables).
func MatchTask(q engine.TaskQuery, r *TaskRecord, vars engine.Variables) bool {
	t := &r.Task
	switch {
	case !eqOK(q.TaskID, t.ID), !inOK(q.TaskIDIn, t.ID),
		!eqOK(q.ProcessInstanceID, t.ProcessInstanceID), !inOK(q.ProcessInstanceIDIn, t.ProcessInstanceID),
		!eqOK(q.ProcessInstanceBusinessKey, r.BusinessKey),
		!eqOK(q.ProcessDefinitionID, t.ProcessDefinitionID),
		!eqOK(q.ProcessDefinitionKey, r.ProcessDefinitionKey), !inOK(q.ProcessDefinitionKeyIn, r.ProcessDefinitionKey),
		!eqOK(q.TaskDefinitionKey, t.TaskDefinitionKey), !inOK(q.TaskDefinitionKeyIn, t.TaskDefinitionKey),
		!eqOK(q.Name, t.Name), q.NameLike != "" && !engine.Like(t.Name, q.NameLike),
		!eqOK(q.Assignee, t.Assignee), !inOK(q.AssigneeIn, t.Assignee),
		q.Assigned && t.Assignee == "", q.Unassigned && t.Assignee != "",
		!tenantOK(q.TenantIDIn, q.WithoutTenantID, t.TenantID),
		q.Active && t.Suspended, q.Suspended && !t.Suspended:
		return false
	}
	candidate := q.CandidateUser != "" || q.CandidateGroup != "" || len(q.CandidateGroups) > 0
	if candidate {
		if t.Assignee != "" && !q.IncludeAssignedTasks {
			return false
		}
		ok := false
		if q.CandidateUser != "" && slices.Contains(t.CandidateUsers, q.CandidateUser) {
			ok = true
		}
		if q.CandidateGroup != "" && slices.Contains(t.CandidateGroups, q.CandidateGroup) {
			ok = true
		}
		for _, g := range q.CandidateGroups {
			if slices.Contains(t.CandidateGroups, g) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return matchVariables(vars, q.ProcessVariables)
}

// SortTasks sorts tasks by the query's sorting (stable; no sorting keeps
// the order).
func SortTasks(q engine.TaskQuery, ts []TaskRecord) {
	keys := q.Sorting
	if len(keys) == 0 && q.SortBy != "" {
		keys = []engine.Sorting{{SortBy: q.SortBy, SortOrder: q.SortOrder}}
	}
	if len(keys) == 0 {
		return
	}
	slices.SortStableFunc(ts, func(a, b TaskRecord) int {
		for _, k := range keys {
			c := compareTask(k.SortBy, &a.Task, &b.Task)
			if k.SortOrder == "desc" {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
}

func compareTask(by string, a, b *engine.Task) int {
	switch by {
	case "instanceId", "processInstanceId":
		return strings.Compare(a.ProcessInstanceID, b.ProcessInstanceID)
	case "executionId":
		return strings.Compare(a.ExecutionID, b.ExecutionID)
	case "assignee":
		return strings.Compare(a.Assignee, b.Assignee)
	case "created":
		return a.Created.Compare(b.Created)
	case "lastUpdated":
		return a.LastUpdated.Compare(b.LastUpdated)
	case "dueDate":
		return compareTimePtr(a.Due, b.Due)
	case "followUpDate":
		return compareTimePtr(a.FollowUp, b.FollowUp)
	case "description":
		return strings.Compare(a.Description, b.Description)
	case "id":
		return strings.Compare(a.ID, b.ID)
	case "name":
		return strings.Compare(a.Name, b.Name)
	case "nameCaseInsensitive":
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	case "priority":
		return cmp.Compare(a.Priority, b.Priority)
	case "tenantId":
		return strings.Compare(a.TenantID, b.TenantID)
	}
	return 0
}

func compareTimePtr(a, b *time.Time) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return a.Compare(*b)
}

// MatchInstance reports whether a running instance passes the query's
// filters (SubProcessInstance needs the store: the caller checks it).
func MatchInstance(q engine.ProcessInstanceQuery, r *InstanceRecord) bool {
	switch {
	case !inOK(q.ProcessInstanceIDs, r.ID),
		!eqOK(q.BusinessKey, r.BusinessKey), q.BusinessKeyLike != "" && !engine.Like(r.BusinessKey, q.BusinessKeyLike),
		!eqOK(q.ProcessDefinitionID, r.DefinitionID),
		!eqOK(q.ProcessDefinitionKey, r.DefinitionKey), !inOK(q.ProcessDefinitionKeyIn, r.DefinitionKey),
		!eqOK(q.DeploymentID, r.DeploymentID),
		!eqOK(q.SuperProcessInstance, r.SuperInstanceID),
		q.Active && r.Suspended, q.Suspended && !r.Suspended,
		!tenantOK(q.TenantIDIn, q.WithoutTenantID, r.TenantID):
		return false
	}
	return matchVariables(r.Variables, q.Variables)
}

// SortInstances sorts instances by the query's sorting.
func SortInstances(q engine.ProcessInstanceQuery, rs []InstanceRecord) {
	keys := q.Sorting
	if len(keys) == 0 && q.SortBy != "" {
		keys = []engine.Sorting{{SortBy: q.SortBy, SortOrder: q.SortOrder}}
	}
	if len(keys) == 0 {
		return
	}
	field := func(by string, r *InstanceRecord) string {
		switch by {
		case "instanceId":
			return r.ID
		case "definitionKey":
			return r.DefinitionKey
		case "definitionId":
			return r.DefinitionID
		case "tenantId":
			return r.TenantID
		case "businessKey":
			return r.BusinessKey
		}
		return ""
	}
	slices.SortStableFunc(rs, func(a, b InstanceRecord) int {
		for _, k := range keys {
			c := strings.Compare(field(k.SortBy, &a), field(k.SortBy, &b))
			if k.SortOrder == "desc" {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
}

// MatchProcessDefinition reports whether a definition passes the query's
// filters (LatestVersion needs all definitions: the caller checks it).
func MatchProcessDefinition(q engine.ProcessDefinitionQuery, d *engine.ProcessDefinition) bool {
	like := func(p, got string) bool { return p == "" || engine.Like(got, p) }
	switch {
	case !eqOK(q.ID, d.ID), !inOK(q.IDIn, d.ID),
		!eqOK(q.Key, d.Key), !like(q.KeyLike, d.Key), !inOK(q.KeysIn, d.Key),
		!eqOK(q.Name, d.Name), !like(q.NameLike, d.Name),
		!eqOK(q.DeploymentID, d.DeploymentID), !eqOK(q.ResourceName, d.Resource),
		q.Version != 0 && q.Version != d.Version,
		!eqOK(q.VersionTag, d.VersionTag):
		return false
	}
	if q.WithoutTenantID && d.TenantID != "" {
		return false
	}
	if len(q.TenantIDIn) > 0 {
		return slices.Contains(q.TenantIDIn, d.TenantID) || (q.IncludeWithoutTenantID && d.TenantID == "")
	}
	return true
}

// SortProcessDefinitions sorts definitions by the query's sorting.
func SortProcessDefinitions(q engine.ProcessDefinitionQuery, ds []engine.ProcessDefinition) {
	if q.SortBy == "" {
		return
	}
	slices.SortStableFunc(ds, func(a, b engine.ProcessDefinition) int {
		var c int
		switch q.SortBy {
		case "category":
			c = strings.Compare(a.Category, b.Category)
		case "key":
			c = strings.Compare(a.Key, b.Key)
		case "id":
			c = strings.Compare(a.ID, b.ID)
		case "name":
			c = strings.Compare(a.Name, b.Name)
		case "version":
			c = cmp.Compare(a.Version, b.Version)
		case "deploymentId":
			c = strings.Compare(a.DeploymentID, b.DeploymentID)
		case "tenantId":
			c = strings.Compare(a.TenantID, b.TenantID)
		case "versionTag":
			c = strings.Compare(a.VersionTag, b.VersionTag)
		}
		if q.SortOrder == "desc" {
			c = -c
		}
		return c
	})
}

// MatchHistoricProcessInstance reports whether a historic instance passes
// the query's filters; vars are its latest variable values.
func MatchHistoricProcessInstance(q engine.HistoricProcessInstanceQuery, h *engine.HistoricProcessInstance, vars engine.Variables) bool {
	switch {
	case !eqOK(q.ProcessInstanceID, h.ID), !inOK(q.ProcessInstanceIDs, h.ID),
		!eqOK(q.BusinessKey, h.BusinessKey), q.BusinessKeyLike != "" && !engine.Like(h.BusinessKey, q.BusinessKeyLike),
		!eqOK(q.ProcessDefinitionID, h.ProcessDefinitionID),
		!eqOK(q.ProcessDefinitionKey, h.ProcessDefinitionKey), !inOK(q.ProcessDefinitionKeyIn, h.ProcessDefinitionKey),
		!eqOK(q.SuperProcessInstanceID, h.SuperProcessInstanceID),
		q.Finished && h.EndTime == nil, q.Unfinished && h.EndTime != nil,
		!eqOK(q.State, h.State),
		!tenantOK(q.TenantIDIn, q.WithoutTenantID, h.TenantID):
		return false
	}
	return matchVariables(vars, q.Variables)
}

// SortHistoricProcessInstances sorts by the query's sorting.
func SortHistoricProcessInstances(q engine.HistoricProcessInstanceQuery, hs []engine.HistoricProcessInstance) {
	keys := q.Sorting
	if len(keys) == 0 && q.SortBy != "" {
		keys = []engine.Sorting{{SortBy: q.SortBy, SortOrder: q.SortOrder}}
	}
	if len(keys) == 0 {
		return
	}
	slices.SortStableFunc(hs, func(a, b engine.HistoricProcessInstance) int {
		for _, k := range keys {
			var c int
			switch k.SortBy {
			case "instanceId":
				c = strings.Compare(a.ID, b.ID)
			case "definitionId":
				c = strings.Compare(a.ProcessDefinitionID, b.ProcessDefinitionID)
			case "definitionKey":
				c = strings.Compare(a.ProcessDefinitionKey, b.ProcessDefinitionKey)
			case "definitionName":
				c = strings.Compare(a.ProcessDefinitionName, b.ProcessDefinitionName)
			case "definitionVersion":
				c = cmp.Compare(a.ProcessDefinitionVersion, b.ProcessDefinitionVersion)
			case "businessKey":
				c = strings.Compare(a.BusinessKey, b.BusinessKey)
			case "startTime":
				c = a.StartTime.Compare(b.StartTime)
			case "endTime":
				c = compareTimePtr(a.EndTime, b.EndTime)
			case "duration":
				c = compareInt64Ptr(a.DurationInMillis, b.DurationInMillis)
			case "tenantId":
				c = strings.Compare(a.TenantID, b.TenantID)
			}
			if k.SortOrder == "desc" {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
}

func compareInt64Ptr(a, b *int64) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Compare(*a, *b)
}

// MatchHistoricTask reports whether a historic task passes the query's
// filters; vars are its instance's latest variable values.
func MatchHistoricTask(q engine.HistoricTaskQuery, h *engine.HistoricTask, vars engine.Variables) bool {
	switch {
	case !eqOK(q.TaskID, h.ID),
		!eqOK(q.ProcessInstanceID, h.ProcessInstanceID), !inOK(q.ProcessInstanceIDIn, h.ProcessInstanceID),
		!eqOK(q.ProcessDefinitionID, h.ProcessDefinitionID), !eqOK(q.ProcessDefinitionKey, h.ProcessDefinitionKey),
		!eqOK(q.TaskDefinitionKey, h.TaskDefinitionKey), !eqOK(q.TaskAssignee, h.Assignee),
		q.Finished && h.EndTime == nil, q.Unfinished && h.EndTime != nil,
		!tenantOK(q.TenantIDIn, false, h.TenantID):
		return false
	}
	return matchVariables(vars, q.ProcessVariables)
}

// SortHistoricTasks sorts by the query's sorting.
func SortHistoricTasks(q engine.HistoricTaskQuery, hs []engine.HistoricTask) {
	if q.SortBy == "" {
		return
	}
	slices.SortStableFunc(hs, func(a, b engine.HistoricTask) int {
		var c int
		switch q.SortBy {
		case "taskId":
			c = strings.Compare(a.ID, b.ID)
		case "activityInstanceId":
			c = strings.Compare(a.ActivityInstanceID, b.ActivityInstanceID)
		case "processDefinitionId":
			c = strings.Compare(a.ProcessDefinitionID, b.ProcessDefinitionID)
		case "processInstanceId":
			c = strings.Compare(a.ProcessInstanceID, b.ProcessInstanceID)
		case "executionId":
			c = strings.Compare(a.ExecutionID, b.ExecutionID)
		case "duration":
			c = compareInt64Ptr(a.Duration, b.Duration)
		case "endTime":
			c = compareTimePtr(a.EndTime, b.EndTime)
		case "startTime":
			c = a.StartTime.Compare(b.StartTime)
		case "taskName":
			c = strings.Compare(a.Name, b.Name)
		case "taskDescription":
			c = strings.Compare(a.Description, b.Description)
		case "assignee":
			c = strings.Compare(a.Assignee, b.Assignee)
		case "owner":
			c = strings.Compare(a.Owner, b.Owner)
		case "dueDate":
			c = compareTimePtr(a.Due, b.Due)
		case "followUpDate":
			c = compareTimePtr(a.FollowUp, b.FollowUp)
		case "deleteReason":
			c = strings.Compare(a.DeleteReason, b.DeleteReason)
		case "taskDefinitionKey":
			c = strings.Compare(a.TaskDefinitionKey, b.TaskDefinitionKey)
		case "priority":
			c = cmp.Compare(a.Priority, b.Priority)
		case "tenantId":
			c = strings.Compare(a.TenantID, b.TenantID)
		}
		if q.SortOrder == "desc" {
			c = -c
		}
		return c
	})
}

// MatchHistoricVariable reports whether a historic variable passes the
// query's filters.
func MatchHistoricVariable(q engine.HistoricVariableQuery, h *engine.HistoricVariable) bool {
	switch {
	case !eqOK(q.VariableName, h.Name), q.VariableNameLike != "" && !engine.Like(h.Name, q.VariableNameLike),
		!eqOK(q.ProcessInstanceID, h.ProcessInstanceID), !inOK(q.ProcessInstanceIDIn, h.ProcessInstanceID),
		!eqOK(q.ProcessDefinitionID, h.ProcessDefinitionID), !eqOK(q.ProcessDefinitionKey, h.ProcessDefinitionKey),
		!inOK(q.TaskIDIn, h.TaskID),
		!tenantOK(q.TenantIDIn, false, h.TenantID),
		!q.IncludeDeleted && h.State == "DELETED":
		return false
	}
	return true
}

// SortHistoricVariables sorts by the query's sorting.
func SortHistoricVariables(q engine.HistoricVariableQuery, hs []engine.HistoricVariable) {
	if q.SortBy == "" {
		return
	}
	slices.SortStableFunc(hs, func(a, b engine.HistoricVariable) int {
		var c int
		switch q.SortBy {
		case "instanceId":
			c = strings.Compare(a.ProcessInstanceID, b.ProcessInstanceID)
		case "variableName":
			c = strings.Compare(a.Name, b.Name)
		case "tenantId":
			c = strings.Compare(a.TenantID, b.TenantID)
		}
		if q.SortOrder == "desc" {
			c = -c
		}
		return c
	})
}

// MatchHistoricActivity reports whether a historic activity passes the
// query's filters.
func MatchHistoricActivity(q engine.HistoricActivityQuery, h *engine.HistoricActivity) bool {
	switch {
	case !eqOK(q.ActivityInstanceID, h.ID),
		!eqOK(q.ProcessInstanceID, h.ProcessInstanceID), !eqOK(q.ProcessDefinitionID, h.ProcessDefinitionID),
		!eqOK(q.ActivityID, h.ActivityID), !eqOK(q.ActivityType, h.ActivityType),
		q.Finished && h.EndTime == nil, q.Unfinished && h.EndTime != nil,
		q.Canceled && !h.Canceled,
		!tenantOK(q.TenantIDIn, false, h.TenantID):
		return false
	}
	return true
}

// SortHistoricActivities sorts by the query's sorting.
func SortHistoricActivities(q engine.HistoricActivityQuery, hs []engine.HistoricActivity) {
	if q.SortBy == "" {
		return
	}
	slices.SortStableFunc(hs, func(a, b engine.HistoricActivity) int {
		var c int
		switch q.SortBy {
		case "activityInstanceId":
			c = strings.Compare(a.ID, b.ID)
		case "instanceId":
			c = strings.Compare(a.ProcessInstanceID, b.ProcessInstanceID)
		case "executionId":
			c = strings.Compare(a.ExecutionID, b.ExecutionID)
		case "activityId":
			c = strings.Compare(a.ActivityID, b.ActivityID)
		case "activityName":
			c = strings.Compare(a.ActivityName, b.ActivityName)
		case "activityType":
			c = strings.Compare(a.ActivityType, b.ActivityType)
		case "startTime", "occurrence":
			c = a.StartTime.Compare(b.StartTime)
		case "endTime":
			c = compareTimePtr(a.EndTime, b.EndTime)
		case "duration":
			c = compareInt64Ptr(a.DurationInMillis, b.DurationInMillis)
		case "definitionId":
			c = strings.Compare(a.ProcessDefinitionID, b.ProcessDefinitionID)
		case "tenantId":
			c = strings.Compare(a.TenantID, b.TenantID)
		}
		if q.SortOrder == "desc" {
			c = -c
		}
		return c
	})
}

// MatchHistoricDecision reports whether a historic decision passes the
// query's filters.
func MatchHistoricDecision(q engine.HistoricDecisionQuery, h *engine.HistoricDecision) bool {
	switch {
	case !eqOK(q.DecisionInstanceID, h.ID),
		!eqOK(q.DecisionDefinitionID, h.DecisionDefinitionID), !eqOK(q.DecisionDefinitionKey, h.DecisionDefinitionKey),
		!eqOK(q.ProcessInstanceID, h.ProcessInstanceID), !eqOK(q.ProcessDefinitionKey, h.ProcessDefinitionKey),
		!inOK(q.ActivityIDIn, h.ActivityID),
		!tenantOK(q.TenantIDIn, false, h.TenantID):
		return false
	}
	return true
}

// SortHistoricDecisions sorts by the query's sorting.
func SortHistoricDecisions(q engine.HistoricDecisionQuery, hs []engine.HistoricDecision) {
	if q.SortBy == "" {
		return
	}
	slices.SortStableFunc(hs, func(a, b engine.HistoricDecision) int {
		var c int
		switch q.SortBy {
		case "evaluationTime":
			c = a.EvaluationTime.Compare(b.EvaluationTime)
		case "tenantId":
			c = strings.Compare(a.TenantID, b.TenantID)
		}
		if q.SortOrder == "desc" {
			c = -c
		}
		return c
	})
}

// IncidentOf is the open incident of an external task with an IncidentID:
// a root incident (its own cause) of type failedExternalTask whose
// configuration is the task's id, as Operaton records it.
func IncidentOf(r *ExternalTaskRecord) engine.Incident {
	return engine.Incident{ID: r.IncidentID, ProcessDefinitionID: r.DefinitionID, ProcessInstanceID: r.InstanceID,
		ExecutionID: r.ExecutionID, Timestamp: r.IncidentTime, Type: engine.IncidentFailedExternalTask,
		ActivityID: r.ActivityID, FailedActivityID: r.ActivityID, CauseIncidentID: r.IncidentID,
		RootCauseIncidentID: r.IncidentID, Configuration: r.ID, TenantID: r.TenantID, Message: r.ErrorMessage}
}

// MatchIncident reports whether an incident passes the query's filters.
func MatchIncident(q engine.IncidentQuery, i *engine.Incident) bool {
	switch {
	case !eqOK(q.IncidentID, i.ID), !eqOK(q.IncidentType, i.Type),
		!eqOK(q.ProcessInstanceID, i.ProcessInstanceID), !eqOK(q.ProcessDefinitionID, i.ProcessDefinitionID),
		!eqOK(q.ActivityID, i.ActivityID), !tenantOK(q.TenantIDIn, false, i.TenantID):
		return false
	}
	return true
}

// SortIncidents sorts by the query's sorting.
func SortIncidents(q engine.IncidentQuery, is []engine.Incident) {
	if q.SortBy == "" {
		return
	}
	text := func(i *engine.Incident) string {
		switch q.SortBy {
		case "incidentId":
			return i.ID
		case "incidentMessage":
			return i.Message
		case "incidentType":
			return i.Type
		case "executionId":
			return i.ExecutionID
		case "activityId":
			return i.ActivityID
		case "processInstanceId":
			return i.ProcessInstanceID
		case "processDefinitionId":
			return i.ProcessDefinitionID
		case "causeIncidentId":
			return i.CauseIncidentID
		case "rootCauseIncidentId":
			return i.RootCauseIncidentID
		case "configuration":
			return i.Configuration
		case "tenantId":
			return i.TenantID
		}
		return ""
	}
	slices.SortStableFunc(is, func(a, b engine.Incident) int {
		var c int
		if q.SortBy == "incidentTimestamp" {
			c = a.Timestamp.Compare(b.Timestamp)
		} else {
			c = strings.Compare(text(&a), text(&b))
		}
		if q.SortOrder == "desc" {
			c = -c
		}
		return c
	})
}

// Incidents filters, sorts and pages the incidents of external tasks
// given in creation order: the Store.Incidents of a store that holds its
// external tasks in memory or reads the few with an incident at once.
func Incidents(q engine.IncidentQuery, recs []ExternalTaskRecord) []engine.Incident {
	var out []engine.Incident
	for i := range recs {
		if recs[i].IncidentID == "" {
			continue
		}
		in := IncidentOf(&recs[i])
		if MatchIncident(q, &in) {
			out = append(out, in)
		}
	}
	SortIncidents(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults)
}
