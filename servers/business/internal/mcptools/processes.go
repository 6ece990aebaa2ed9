package mcptools

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine"
)

// countCap bounds what a count tool reads: the interface has no count of
// process instances, so they are listed up to this many.
const countCap = 10_000

// Allowed tools of a hosted knowledge-graph MCP server.
var TriplyDBTools = []string{
	"dmn_list", "dmn_get", "dmn_chain_links", "dmn_enhanced_chain_links", "dmn_semantic_equivalences",
	"organization_list", "service_list", "rule_list", "concept_list", "service_rules_metadata", "sparql_query",
}

// processTenant limits a definition query to the caller's tenant and the
// untenanted definitions.
func processTenant(q engine.ProcessDefinitionQuery, tenant string) engine.ProcessDefinitionQuery {
	if tenant == "" {
		q.WithoutTenantID = true
	} else {
		q.TenantIDIn, q.IncludeWithoutTenantID = []string{tenant}, true
	}
	return q
}

// tenantLabel filters instances and tasks on the municipality process
// variable, the only tenant label (as the REST routes).
func tenantLabel(tenant string) []engine.VariableFilter {
	return []engine.VariableFilter{{Name: TenantVariable, Operator: "eq", Value: tenant}}
}

type processDefinition struct {
	ID           string  `json:"id"`
	Key          string  `json:"key"`
	Name         string  `json:"name"`
	Version      int     `json:"version"`
	DeploymentID string  `json:"deploymentId"`
	Suspended    bool    `json:"suspended"`
	TenantID     *string `json:"tenantId"`
}

func toProcessDefinition(d engine.ProcessDefinition) processDefinition {
	out := processDefinition{ID: d.ID, Key: d.Key, Name: d.Name, Version: d.Version, DeploymentID: d.DeploymentID, Suspended: d.Suspended}
	if d.TenantID != "" {
		t := d.TenantID
		out.TenantID = &t
	}
	return out
}

type processInstance struct {
	ID            string         `json:"id"`
	DefinitionID  string         `json:"definitionId"`
	DefinitionKey string         `json:"definitionKey"`
	BusinessKey   string         `json:"businessKey,omitempty"`
	Suspended     bool           `json:"suspended"`
	Variables     map[string]any `json:"variables,omitempty"`
}

type task struct {
	ID                  string    `json:"id"`
	Name                string    `json:"name"`
	Assignee            string    `json:"assignee,omitempty"`
	Created             time.Time `json:"created"`
	ProcessInstanceID   string    `json:"processInstanceId"`
	ProcessDefinitionID string    `json:"processDefinitionId"`
	TaskDefinitionKey   string    `json:"taskDefinitionKey"`
	CandidateGroups     []string  `json:"candidateGroups,omitempty"`
}

func toTask(t engine.Task) task {
	return task{ID: t.ID, Name: t.Name, Assignee: t.Assignee, Created: t.Created, ProcessInstanceID: t.ProcessInstanceID,
		ProcessDefinitionID: t.ProcessDefinitionID, TaskDefinitionKey: t.TaskDefinitionKey, CandidateGroups: t.CandidateGroups}
}

var errNotFound = errors.New("not found")

// ownInstance returns the variables of a running instance of the caller's
// tenant; another tenant's instance is "not found", never "forbidden", so
// the model learns nothing about it.
func ownInstance(ctx context.Context, p engine.Processes, id string) (engine.Variables, error) {
	vars, err := p.ProcessInstanceVariables(ctx, id)
	if err != nil {
		return nil, err
	}
	tenant := callerFrom(ctx).Tenant
	label, _ := vars[TenantVariable].Plain().(string)
	if tenant == "" || label != tenant {
		return nil, errNotFound
	}
	return vars, nil
}

// addProcessTools registers the process, task and incident tools of the
// operaton provider over o.Processes, each filtered to the caller's tenant:
// definitions of the tenant and untenanted ones; instances and tasks whose
// municipality variable is the tenant (a caller without tenant sees none).
func addProcessTools(s *mcp.Server, o Options, caller who, timeout time.Duration) {
	p := o.Processes
	with := func(name string, h handler) handler {
		return func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			if p == nil {
				return notConfigured(name, "the process side of the engine is not available"), nil
			}
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			return h(ctx, args)
		}
	}
	listArgs := func(m map[string]any) map[string]any {
		out := map[string]any{"maxResults": intg("at most this many (default 20, max 200)")}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	addDefinitionTools(s, caller, p, with, listArgs)
	addInstanceTools(s, caller, p, with, listArgs)
	addTaskTools(s, caller, p, with, listArgs)
	addIncidentTools(s, caller, p, with, listArgs)
}

// addDefinitionTools registers processDefinition_list, _count and
// _getByKey: the definitions of the caller's municipality and the
// untenanted ones.
func addDefinitionTools(s *mcp.Server, caller who, p engine.Processes, with func(string, handler) handler,
	listArgs func(map[string]any) map[string]any) {
	defQuery := func(args map[string]any) (engine.ProcessDefinitionQuery, error) {
		keyLike, err := stringArg(args, "keyLike", false)
		if err != nil {
			return engine.ProcessDefinitionQuery{}, err
		}
		nameLike, err := stringArg(args, "nameLike", false)
		if err != nil {
			return engine.ProcessDefinitionQuery{}, err
		}
		latest, err := boolArg(args, "latestVersion", true)
		if err != nil {
			return engine.ProcessDefinitionQuery{}, err
		}
		return engine.ProcessDefinitionQuery{KeyLike: keyLike, NameLike: nameLike, LatestVersion: latest, SortBy: "key", SortOrder: "asc"}, nil
	}
	defArgs := map[string]any{
		"keyLike":       str("SQL LIKE pattern on the key, e.g. %Aanvraag%"),
		"nameLike":      str("SQL LIKE pattern on the name"),
		"latestVersion": boolean("only the latest version per key (default true)"),
	}
	add(s, caller, "processDefinition_list", "List process definitions visible to the caller (untenanted and the caller's municipality).",
		objectSchema(listArgs(defArgs)),
		with("processDefinition_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, err := defQuery(args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			max, err := intArg(args, "maxResults", 20, 200)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			q.MaxResults = max
			defs, err := p.ProcessDefinitions(ctx, processTenant(q, callerFrom(ctx).Tenant))
			if err != nil {
				return nil, engineMessage(err)
			}
			out := make([]processDefinition, 0, len(defs))
			for _, d := range defs {
				out = append(out, toProcessDefinition(d))
			}
			return jsonResult(out)
		}))
	add(s, caller, "processDefinition_count", "Count the process definitions visible to the caller.", objectSchema(defArgs),
		with("processDefinition_count", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, err := defQuery(args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			defs, err := p.ProcessDefinitions(ctx, processTenant(q, callerFrom(ctx).Tenant))
			if err != nil {
				return nil, engineMessage(err)
			}
			return jsonResult(map[string]int{"count": len(defs)})
		}))
	add(s, caller, "processDefinition_getByKey", "The latest process definition with the key (untenanted first, else the caller's municipality's).",
		objectSchema(map[string]any{"key": str("process key (the BPMN process id)")}, "key"),
		with("processDefinition_getByKey", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			key, err := stringArg(args, "key", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			d, err := p.LatestProcessDefinition(ctx, key, "")
			if errors.Is(err, engine.ErrNotFound) && callerFrom(ctx).Tenant != "" {
				d, err = p.LatestProcessDefinition(ctx, key, callerFrom(ctx).Tenant)
			}
			if err != nil {
				return nil, engineMessage(err)
			}
			return jsonResult(toProcessDefinition(d))
		}))
}

// addInstanceTools registers processInstance_list, _count and _get: the
// running instances whose municipality variable is the caller's.
func addInstanceTools(s *mcp.Server, caller who, p engine.Processes, with func(string, handler) handler,
	listArgs func(map[string]any) map[string]any) {
	instArgs := map[string]any{
		"processDefinitionKey": str("only instances of this process key"),
		"businessKey":          str("only instances with this business key"),
	}
	instQuery := func(ctx context.Context, args map[string]any) (engine.ProcessInstanceQuery, bool, error) {
		key, err := stringArg(args, "processDefinitionKey", false)
		if err != nil {
			return engine.ProcessInstanceQuery{}, false, err
		}
		bk, err := stringArg(args, "businessKey", false)
		if err != nil {
			return engine.ProcessInstanceQuery{}, false, err
		}
		tenant := callerFrom(ctx).Tenant
		return engine.ProcessInstanceQuery{ProcessDefinitionKey: key, BusinessKey: bk, Variables: tenantLabel(tenant),
			SortBy: "instanceId", SortOrder: "asc"}, tenant != "", nil
	}
	add(s, caller, "processInstance_list", "List running process instances of the caller's municipality.", objectSchema(listArgs(instArgs)),
		with("processInstance_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, ok, err := instQuery(ctx, args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			max, err := intArg(args, "maxResults", 20, 200)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			out := []processInstance{}
			if !ok {
				return jsonResult(out)
			}
			q.MaxResults = max
			list, err := p.ProcessInstances(ctx, q)
			if err != nil {
				return nil, engineMessage(err)
			}
			for _, pi := range list {
				out = append(out, processInstance{ID: pi.ID, DefinitionID: pi.DefinitionID, DefinitionKey: pi.DefinitionKey,
					BusinessKey: pi.BusinessKey, Suspended: pi.Suspended})
			}
			return jsonResult(out)
		}))
	add(s, caller, "processInstance_count", "Count the running process instances of the caller's municipality (at most 10000 are counted).",
		objectSchema(instArgs),
		with("processInstance_count", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, ok, err := instQuery(ctx, args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			if !ok {
				return jsonResult(map[string]any{"count": 0})
			}
			q.MaxResults = countCap + 1
			list, err := p.ProcessInstances(ctx, q)
			if err != nil {
				return nil, engineMessage(err)
			}
			if len(list) > countCap {
				return jsonResult(map[string]any{"count": countCap, "capped": true})
			}
			return jsonResult(map[string]any{"count": len(list)})
		}))
	add(s, caller, "processInstance_get", "One running process instance of the caller's municipality, with its variables.",
		objectSchema(map[string]any{"id": str("process instance id")}, "id"),
		with("processInstance_get", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			id, err := stringArg(args, "id", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			vars, err := ownInstance(ctx, p, id)
			if err != nil {
				return nil, engineMessage(err)
			}
			pi, err := p.ProcessInstance(ctx, id)
			if err != nil {
				return nil, engineMessage(err)
			}
			plain := make(map[string]any, len(vars))
			for k, v := range vars {
				plain[k] = v.Plain()
			}
			return jsonResult(processInstance{ID: pi.ID, DefinitionID: pi.DefinitionID, DefinitionKey: pi.DefinitionKey,
				BusinessKey: pi.BusinessKey, Suspended: pi.Suspended, Variables: plain})
		}))
}

// addTaskTools registers task_list, task_count and task_getById: the open
// user tasks of the caller's municipality's instances.
func addTaskTools(s *mcp.Server, caller who, p engine.Processes, with func(string, handler) handler,
	listArgs func(map[string]any) map[string]any) {
	taskArgs := map[string]any{
		"processDefinitionKey": str("only tasks of this process key"),
		"assignee":             str("only tasks assigned to this user"),
		"unassigned":           boolean("only tasks nobody has claimed"),
	}
	taskQuery := func(ctx context.Context, args map[string]any) (engine.TaskQuery, bool, error) {
		key, err := stringArg(args, "processDefinitionKey", false)
		if err != nil {
			return engine.TaskQuery{}, false, err
		}
		assignee, err := stringArg(args, "assignee", false)
		if err != nil {
			return engine.TaskQuery{}, false, err
		}
		unassigned, err := boolArg(args, "unassigned", false)
		if err != nil {
			return engine.TaskQuery{}, false, err
		}
		tenant := callerFrom(ctx).Tenant
		return engine.TaskQuery{ProcessDefinitionKey: key, Assignee: assignee, Unassigned: unassigned,
			ProcessVariables: tenantLabel(tenant), SortBy: "created", SortOrder: "desc"}, tenant != "", nil
	}
	add(s, caller, "task_list", "List open user tasks of the caller's municipality, newest first.", objectSchema(listArgs(taskArgs)),
		with("task_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, ok, err := taskQuery(ctx, args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			max, err := intArg(args, "maxResults", 20, 200)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			out := []task{}
			if !ok {
				return jsonResult(out)
			}
			q.MaxResults = max
			list, err := p.Tasks(ctx, q)
			if err != nil {
				return nil, engineMessage(err)
			}
			for _, t := range list {
				out = append(out, toTask(t))
			}
			return jsonResult(out)
		}))
	add(s, caller, "task_count", "Count the open user tasks of the caller's municipality.", objectSchema(taskArgs),
		with("task_count", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, ok, err := taskQuery(ctx, args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			if !ok {
				return jsonResult(map[string]int{"count": 0})
			}
			n, err := p.TaskCount(ctx, q)
			if err != nil {
				return nil, engineMessage(err)
			}
			return jsonResult(map[string]int{"count": n})
		}))
	add(s, caller, "task_getById", "One open user task of the caller's municipality.",
		objectSchema(map[string]any{"id": str("task id")}, "id"),
		with("task_getById", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			id, err := stringArg(args, "id", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			t, err := p.Task(ctx, id)
			if err != nil {
				return nil, engineMessage(err)
			}
			if _, err := ownInstance(ctx, p, t.ProcessInstanceID); err != nil {
				return nil, engineMessage(err)
			}
			return jsonResult(toTask(t))
		}))
}

type incident struct {
	ID                  string    `json:"id"`
	Type                string    `json:"incidentType"`
	Timestamp           time.Time `json:"incidentTimestamp"`
	Message             string    `json:"incidentMessage,omitempty"`
	ProcessInstanceID   string    `json:"processInstanceId"`
	ProcessDefinitionID string    `json:"processDefinitionId"`
	ActivityID          string    `json:"activityId"`
	// Configuration is the failed external task's id.
	Configuration string `json:"configuration"`
}

// ownIncidents reads the incidents the query matches, newest first, up to
// countCap, and keeps those of instances whose municipality is the
// caller's: incidents carry no variables, so the instances are looked up
// (in batches, by id and tenant label). capped reports that more than
// countCap incidents matched before that filter.
func ownIncidents(ctx context.Context, p engine.Processes, q engine.IncidentQuery) (own []engine.Incident, capped bool, err error) {
	tenant := callerFrom(ctx).Tenant
	if tenant == "" {
		return nil, false, nil
	}
	q.SortBy, q.SortOrder, q.FirstResult, q.MaxResults = "incidentTimestamp", "desc", 0, countCap+1
	all, err := p.Incidents(ctx, q)
	if err != nil {
		return nil, false, err
	}
	if len(all) > countCap {
		all, capped = all[:countCap], true
	}
	var ids []string
	for _, in := range all {
		if !slices.Contains(ids, in.ProcessInstanceID) {
			ids = append(ids, in.ProcessInstanceID)
		}
	}
	mine := map[string]bool{}
	const batch = 500 // under engine/rest's 1,000 values of one list parameter
	for i := 0; i < len(ids); i += batch {
		chunk := ids[i:min(i+batch, len(ids))]
		insts, err := p.ProcessInstances(ctx, engine.ProcessInstanceQuery{ProcessInstanceIDs: chunk, Variables: tenantLabel(tenant)})
		if err != nil {
			return nil, false, err
		}
		for _, pi := range insts {
			mine[pi.ID] = true
		}
	}
	for _, in := range all {
		if mine[in.ProcessInstanceID] {
			own = append(own, in)
		}
	}
	return own, capped, nil
}

// addIncidentTools registers incident_list and incident_count: the open
// incidents (failed external tasks) of the caller's municipality's instances.
func addIncidentTools(s *mcp.Server, caller who, p engine.Processes, with func(string, handler) handler,
	listArgs func(map[string]any) map[string]any) {
	args := map[string]any{
		"processInstanceId": str("only incidents of this process instance"),
		"activityId":        str("only incidents of this activity (the BPMN element id)"),
	}
	query := func(args map[string]any) (engine.IncidentQuery, error) {
		pi, err := stringArg(args, "processInstanceId", false)
		if err != nil {
			return engine.IncidentQuery{}, err
		}
		act, err := stringArg(args, "activityId", false)
		if err != nil {
			return engine.IncidentQuery{}, err
		}
		return engine.IncidentQuery{ProcessInstanceID: pi, ActivityID: act}, nil
	}
	add(s, caller, "incident_list", "List open incidents (external tasks out of retries) of the caller's municipality, newest first.",
		objectSchema(listArgs(args)),
		with("incident_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, err := query(args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			max, err := intArg(args, "maxResults", 20, 200)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			list, _, err := ownIncidents(ctx, p, q)
			if err != nil {
				return nil, engineMessage(err)
			}
			out := []incident{}
			for _, in := range list[:min(max, len(list))] {
				out = append(out, incident{ID: in.ID, Type: in.Type, Timestamp: in.Timestamp, Message: in.Message,
					ProcessInstanceID: in.ProcessInstanceID, ProcessDefinitionID: in.ProcessDefinitionID,
					ActivityID: in.ActivityID, Configuration: in.Configuration})
			}
			return jsonResult(out)
		}))
	add(s, caller, "incident_count", "Count the open incidents of the caller's municipality (at most 10000 incidents are read).",
		objectSchema(args),
		with("incident_count", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, err := query(args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			list, capped, err := ownIncidents(ctx, p, q)
			if err != nil {
				return nil, engineMessage(err)
			}
			if capped {
				return jsonResult(map[string]any{"count": len(list), "capped": true})
			}
			return jsonResult(map[string]any{"count": len(list)})
		}))
}
