package engine

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The process queries share one description per query type: a table of
// Operaton's parameter names bound to the query's fields. Values, the
// ParseXxxQuery functions and the POST bodies are all driven by it, so
// the GET and POST spellings of a parameter cannot drift apart.

// param binds one Operaton parameter to one field; exactly one pointer is set.
type param struct {
	name string
	s    *string
	l    *[]string
	b    *bool
	i    *int
	vf   *[]VariableFilter
}

// Operators of variable filters.
var variableOperators = []string{"eq", "neq", "gt", "gteq", "lt", "lteq", "like"}

// Bounds of what one query may carry, so a crafted query string cannot make
// the engine compare against thousands of filters.
const (
	maxListItems       = 1000
	maxVariableFilters = 100
	maxSortings        = 20
)

func paramValues(ps []param) url.Values {
	v := url.Values{}
	for _, p := range ps {
		switch {
		case p.s != nil && *p.s != "":
			v.Set(p.name, *p.s)
		case p.l != nil && len(*p.l) > 0:
			v.Set(p.name, strings.Join(*p.l, ","))
		case p.b != nil && *p.b:
			v.Set(p.name, "true")
		case p.i != nil && *p.i != 0:
			v.Set(p.name, strconv.Itoa(*p.i))
		case p.vf != nil && len(*p.vf) > 0:
			parts := make([]string, len(*p.vf))
			for i, f := range *p.vf {
				parts[i] = f.Name + "_" + f.Operator + "_" + filterText(f.Value)
			}
			v.Set(p.name, strings.Join(parts, ","))
		}
	}
	return v
}

// filterText is a filter value as the GET form carries it.
func filterText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func (p *paramReader) params(ps []param) {
	for _, f := range ps {
		switch {
		case f.s != nil:
			*f.s = p.v.Get(f.name)
		case f.l != nil:
			*f.l = p.list(f.name)
			if len(*f.l) > maxListItems {
				p.fail("Query parameter '%s' has more than %d values", f.name, maxListItems)
			}
		case f.b != nil:
			*f.b = p.bool(f.name)
		case f.i != nil:
			*f.i = p.int(f.name)
		case f.vf != nil:
			*f.vf = p.variableFilters(f.name)
		}
	}
}

// variableFilters reads name_operator_value,… . A name or value may itself
// contain underscores: the first _op_ with a known operator splits it.
func (p *paramReader) variableFilters(k string) []VariableFilter {
	s := p.v.Get(k)
	if s == "" {
		return nil
	}
	exprs := strings.Split(s, ",")
	if len(exprs) > maxVariableFilters {
		p.fail("Query parameter '%s' has more than %d variable filters", k, maxVariableFilters)
		return nil
	}
	out := make([]VariableFilter, 0, len(exprs))
	for _, e := range exprs {
		f, ok := splitFilter(e)
		if !ok {
			parts := strings.Split(e, "_")
			if len(parts) == 3 {
				p.fail("Invalid variable comparator specified: %s", clip(parts[1]))
			} else {
				p.fail("Cannot set query parameter '%s' to value '%s': variable query parameter has to have format KEY_OPERATOR_VALUE", k, clip(e))
			}
			return nil
		}
		out = append(out, f)
	}
	return out
}

func splitFilter(e string) (VariableFilter, bool) {
	for i := 1; i < len(e); i++ {
		if e[i] != '_' {
			continue
		}
		rest := e[i+1:]
		for _, op := range variableOperators {
			if strings.HasPrefix(rest, op+"_") {
				return VariableFilter{Name: e[:i], Operator: op, Value: rest[len(op)+1:]}, true
			}
		}
	}
	return VariableFilter{}, false
}

// checkSortings checks the sort keys of a POST body's sorting list.
func checkSortings(s []Sorting, valid []string) error {
	if len(s) > maxSortings {
		return InvalidRequest("At most %d sortings are allowed", maxSortings)
	}
	for _, so := range s {
		if so.SortBy == "" || so.SortOrder == "" {
			return InvalidRequest("Only a single sorting parameter specified. sortBy and sortOrder required")
		}
		if !slices.Contains(valid, so.SortBy) {
			return InvalidRequest("Cannot set query parameter 'sortBy' to value '%s'", clip(so.SortBy))
		}
		if so.SortOrder != "asc" && so.SortOrder != "desc" {
			return InvalidRequest("Cannot set query parameter 'sortOrder' to value '%s'", clip(so.SortOrder))
		}
	}
	return nil
}

// queryBody writes a POST query body: every set parameter with its JSON
// type, variable filters as [{name, operator, value}], sorting as
// [{sortBy, sortOrder}]. Paging is not part of the body (Operaton takes
// firstResult and maxResults from the query string of a POST query too).
func queryBody(ps []param, sorting []Sorting, by, order string) ([]byte, error) {
	m := map[string]any{}
	for _, p := range ps {
		switch {
		case p.s != nil && *p.s != "":
			m[p.name] = *p.s
		case p.l != nil && len(*p.l) > 0:
			m[p.name] = *p.l
		case p.b != nil && *p.b:
			m[p.name] = true
		case p.i != nil && *p.i != 0:
			m[p.name] = *p.i
		case p.vf != nil && len(*p.vf) > 0:
			fs := make([]map[string]any, len(*p.vf))
			for i, f := range *p.vf {
				fs[i] = map[string]any{"name": f.Name, "operator": f.Operator, "value": f.Value}
			}
			m[p.name] = fs
		}
	}
	if len(sorting) == 0 && by != "" {
		sorting = []Sorting{{SortBy: by, SortOrder: order}}
	}
	if len(sorting) > 0 {
		s := make([]map[string]string, len(sorting))
		for i, so := range sorting {
			s[i] = map[string]string{"sortBy": so.SortBy, "sortOrder": so.SortOrder}
		}
		m["sorting"] = s
	}
	return json.Marshal(m)
}

// parseQueryBody reads a POST query body into the parameters; unknown
// members are ignored as in Operaton's GET form. Errors are 400
// InvalidRequestException naming the member.
func parseQueryBody(data []byte, ps []param, validSort []string) ([]Sorting, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, InvalidRequest("The query body is not a JSON object: %s", jsonErrorText(err))
	}
	for _, p := range ps {
		raw, ok := m[p.name]
		if !ok || string(raw) == "null" {
			continue
		}
		var err error
		switch {
		case p.s != nil:
			err = json.Unmarshal(raw, p.s)
		case p.l != nil:
			err = json.Unmarshal(raw, p.l)
			if err == nil && len(*p.l) > maxListItems {
				return nil, InvalidRequest("Member '%s' has more than %d values", p.name, maxListItems)
			}
		case p.b != nil:
			err = json.Unmarshal(raw, p.b)
		case p.i != nil:
			err = json.Unmarshal(raw, p.i)
		case p.vf != nil:
			*p.vf, err = bodyFilters(raw)
			if e, ok := err.(*Error); ok {
				return nil, e
			}
		}
		if err != nil {
			return nil, InvalidRequest("Cannot set member '%s' to %s: %s", p.name, clip(string(raw)), jsonErrorText(err))
		}
		// an empty list filters nothing, as an absent one
		if p.l != nil && len(*p.l) == 0 {
			*p.l = nil
		}
		if p.vf != nil && len(*p.vf) == 0 {
			*p.vf = nil
		}
	}
	var sorting []Sorting
	if raw, ok := m["sorting"]; ok && string(raw) != "null" {
		var s []struct {
			SortBy    string `json:"sortBy"`
			SortOrder string `json:"sortOrder"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, InvalidRequest("Cannot set member 'sorting' to %s: %s", clip(string(raw)), jsonErrorText(err))
		}
		for _, so := range s {
			sorting = append(sorting, Sorting(so))
		}
	}
	// a top-level sortBy/sortOrder pair, as in the GET form
	var by, order string
	json.Unmarshal(m["sortBy"], &by)
	json.Unmarshal(m["sortOrder"], &order)
	if by != "" || order != "" {
		sorting = append([]Sorting{{SortBy: by, SortOrder: order}}, sorting...)
	}
	if err := checkSortings(sorting, validSort); err != nil {
		return nil, err
	}
	return sorting, nil
}

func bodyFilters(raw json.RawMessage) ([]VariableFilter, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var fs []struct {
		Name     string `json:"name"`
		Operator string `json:"operator"`
		Value    any    `json:"value"`
	}
	if err := d.Decode(&fs); err != nil {
		return nil, err
	}
	if len(fs) > maxVariableFilters {
		return nil, InvalidRequest("At most %d variable filters are allowed", maxVariableFilters)
	}
	out := make([]VariableFilter, len(fs))
	for i, f := range fs {
		if !slices.Contains(variableOperators, f.Operator) {
			return nil, InvalidRequest("Invalid variable comparator specified: %s", clip(f.Operator))
		}
		switch f.Value.(type) {
		case nil, string, json.Number, bool:
		default:
			return nil, InvalidRequest("Variable filter '%s': the value must be a string, number, boolean or null", clip(f.Name))
		}
		out[i] = VariableFilter{Name: f.Name, Operator: f.Operator, Value: f.Value}
	}
	return out, nil
}

// firstSorting is the first sort key of a POST query, for the GET form.
func firstSorting(s []Sorting) (by, order string) {
	if len(s) == 0 {
		return "", ""
	}
	return s[0].SortBy, s[0].SortOrder
}

// ---- process definitions

var processDefinitionSortKeys = []string{"category", "key", "id", "name", "version", "deploymentId", "tenantId", "versionTag"}

func (q *ProcessDefinitionQuery) params() []param {
	return []param{
		{name: "processDefinitionId", s: &q.ID}, {name: "processDefinitionIdIn", l: &q.IDIn},
		{name: "key", s: &q.Key}, {name: "keyLike", s: &q.KeyLike}, {name: "keysIn", l: &q.KeysIn},
		{name: "name", s: &q.Name}, {name: "nameLike", s: &q.NameLike}, {name: "deploymentId", s: &q.DeploymentID},
		{name: "resourceName", s: &q.ResourceName}, {name: "version", i: &q.Version},
		{name: "latestVersion", b: &q.LatestVersion}, {name: "tenantIdIn", l: &q.TenantIDIn},
		{name: "withoutTenantId", b: &q.WithoutTenantID},
		{name: "includeProcessDefinitionsWithoutTenantId", b: &q.IncludeWithoutTenantID},
		{name: "versionTag", s: &q.VersionTag},
	}
}

// Values encodes the query as Operaton's query parameters.
func (q ProcessDefinitionQuery) Values() url.Values {
	v := paramValues(q.params())
	setSort(v, q.SortBy, q.SortOrder)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseProcessDefinitionQuery reads Operaton's query parameters of GET
// /process-definition. Unknown parameters are ignored; malformed values
// give a 400 *Error.
func ParseProcessDefinitionQuery(v url.Values) (ProcessDefinitionQuery, error) {
	var q ProcessDefinitionQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(processDefinitionSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

func setSort(v url.Values, by, order string) {
	if by != "" {
		v.Set("sortBy", by)
	}
	if order != "" {
		v.Set("sortOrder", order)
	}
}

// ---- process instances

var processInstanceSortKeys = []string{"instanceId", "definitionKey", "definitionId", "tenantId", "businessKey"}

func (q *ProcessInstanceQuery) params() []param {
	return []param{
		{name: "processInstanceIds", l: &q.ProcessInstanceIDs}, {name: "businessKey", s: &q.BusinessKey},
		{name: "businessKeyLike", s: &q.BusinessKeyLike}, {name: "processDefinitionId", s: &q.ProcessDefinitionID},
		{name: "processDefinitionKey", s: &q.ProcessDefinitionKey}, {name: "processDefinitionKeyIn", l: &q.ProcessDefinitionKeyIn},
		{name: "deploymentId", s: &q.DeploymentID}, {name: "superProcessInstance", s: &q.SuperProcessInstance},
		{name: "subProcessInstance", s: &q.SubProcessInstance}, {name: "active", b: &q.Active},
		{name: "suspended", b: &q.Suspended}, {name: "tenantIdIn", l: &q.TenantIDIn},
		{name: "withoutTenantId", b: &q.WithoutTenantID}, {name: "variables", vf: &q.Variables},
	}
}

// Values encodes the query as Operaton's GET parameters (the first of
// Sorting stands for SortBy when SortBy is empty).
func (q ProcessInstanceQuery) Values() url.Values {
	v := paramValues(q.params())
	by, order := q.SortBy, q.SortOrder
	if len(q.Sorting) > 0 {
		by, order = firstSorting(q.Sorting)
	}
	setSort(v, by, order)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseProcessInstanceQuery reads Operaton's query parameters of GET
// /process-instance, variables as name_operator_value,… .
func ParseProcessInstanceQuery(v url.Values) (ProcessInstanceQuery, error) {
	var q ProcessInstanceQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(processInstanceSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

// MarshalJSON writes the body of POST /process-instance (paging excluded).
func (q ProcessInstanceQuery) MarshalJSON() ([]byte, error) {
	return queryBody(q.params(), q.Sorting, q.SortBy, q.SortOrder)
}

// ParseProcessInstanceQueryJSON reads the body of POST /process-instance;
// paging comes from the query string.
func ParseProcessInstanceQueryJSON(data []byte, paging url.Values) (ProcessInstanceQuery, error) {
	var q ProcessInstanceQuery
	s, err := parseQueryBody(data, q.params(), processInstanceSortKeys)
	if err != nil {
		return ProcessInstanceQuery{}, err
	}
	q.Sorting = s
	q.FirstResult, q.MaxResults, err = parsePaging(paging)
	return q, err
}

func parsePaging(v url.Values) (first, maxResults int, err error) {
	p := paramReader{v: v}
	first, maxResults = p.paging()
	return first, maxResults, p.err
}

// ---- tasks

var taskSortKeys = []string{"instanceId", "caseInstanceId", "dueDate", "executionId", "caseExecutionId", "assignee",
	"created", "lastUpdated", "followUpDate", "description", "id", "name", "nameCaseInsensitive", "priority", "tenantId"}

func (q *TaskQuery) params() []param {
	return []param{
		{name: "taskId", s: &q.TaskID}, {name: "taskIdIn", l: &q.TaskIDIn},
		{name: "processInstanceId", s: &q.ProcessInstanceID}, {name: "processInstanceIdIn", l: &q.ProcessInstanceIDIn},
		{name: "processInstanceBusinessKey", s: &q.ProcessInstanceBusinessKey},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "processDefinitionKey", s: &q.ProcessDefinitionKey},
		{name: "processDefinitionKeyIn", l: &q.ProcessDefinitionKeyIn},
		{name: "taskDefinitionKey", s: &q.TaskDefinitionKey}, {name: "taskDefinitionKeyIn", l: &q.TaskDefinitionKeyIn},
		{name: "name", s: &q.Name}, {name: "nameLike", s: &q.NameLike},
		{name: "assignee", s: &q.Assignee}, {name: "assigneeIn", l: &q.AssigneeIn},
		{name: "assigned", b: &q.Assigned}, {name: "unassigned", b: &q.Unassigned},
		{name: "candidateUser", s: &q.CandidateUser}, {name: "candidateGroup", s: &q.CandidateGroup},
		{name: "candidateGroups", l: &q.CandidateGroups}, {name: "includeAssignedTasks", b: &q.IncludeAssignedTasks},
		{name: "tenantIdIn", l: &q.TenantIDIn}, {name: "withoutTenantId", b: &q.WithoutTenantID},
		{name: "active", b: &q.Active}, {name: "suspended", b: &q.Suspended},
		{name: "processVariables", vf: &q.ProcessVariables},
	}
}

// Values encodes the query as Operaton's GET /task parameters (the first
// of Sorting stands for SortBy when set).
func (q TaskQuery) Values() url.Values {
	v := paramValues(q.params())
	by, order := q.SortBy, q.SortOrder
	if len(q.Sorting) > 0 {
		by, order = firstSorting(q.Sorting)
	}
	setSort(v, by, order)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseTaskQuery reads Operaton's query parameters of GET /task:
// processVariables=name_eq_value,other_neq_x, lists comma-separated.
func ParseTaskQuery(v url.Values) (TaskQuery, error) {
	var q TaskQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(taskSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

// MarshalJSON writes the body of POST /task (paging excluded).
func (q TaskQuery) MarshalJSON() ([]byte, error) {
	return queryBody(q.params(), q.Sorting, q.SortBy, q.SortOrder)
}

// ParseTaskQueryJSON reads the body of POST /task; paging comes from the
// query string.
func ParseTaskQueryJSON(data []byte, paging url.Values) (TaskQuery, error) {
	var q TaskQuery
	s, err := parseQueryBody(data, q.params(), taskSortKeys)
	if err != nil {
		return TaskQuery{}, err
	}
	q.Sorting = s
	q.FirstResult, q.MaxResults, err = parsePaging(paging)
	return q, err
}

// ---- historic process instances

var historicProcessInstanceSortKeys = []string{"instanceId", "definitionId", "definitionKey", "definitionName",
	"definitionVersion", "businessKey", "startTime", "endTime", "duration", "tenantId"}

func (q *HistoricProcessInstanceQuery) params() []param {
	return []param{
		{name: "processInstanceId", s: &q.ProcessInstanceID}, {name: "processInstanceIds", l: &q.ProcessInstanceIDs},
		{name: "processInstanceBusinessKey", s: &q.BusinessKey}, {name: "processInstanceBusinessKeyLike", s: &q.BusinessKeyLike},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "processDefinitionKey", s: &q.ProcessDefinitionKey},
		{name: "processDefinitionKeyIn", l: &q.ProcessDefinitionKeyIn},
		{name: "superProcessInstanceId", s: &q.SuperProcessInstanceID},
		{name: "finished", b: &q.Finished}, {name: "unfinished", b: &q.Unfinished}, {name: "state", s: &q.State},
		{name: "tenantIdIn", l: &q.TenantIDIn}, {name: "withoutTenantId", b: &q.WithoutTenantID},
		{name: "variables", vf: &q.Variables},
	}
}

var historyStates = []string{StateActive, StateSuspended, StateCompleted, StateExternallyTerminated, StateInternallyTerminated}

func checkState(s string) error {
	if s != "" && !slices.Contains(historyStates, s) {
		return InvalidRequest("Cannot set query parameter 'state' to value '%s'", clip(s))
	}
	return nil
}

// Values encodes the query as Operaton's GET /history/process-instance parameters.
func (q HistoricProcessInstanceQuery) Values() url.Values {
	v := paramValues(q.params())
	by, order := q.SortBy, q.SortOrder
	if len(q.Sorting) > 0 {
		by, order = firstSorting(q.Sorting)
	}
	setSort(v, by, order)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseHistoricProcessInstanceQuery reads Operaton's query parameters of
// GET /history/process-instance.
func ParseHistoricProcessInstanceQuery(v url.Values) (HistoricProcessInstanceQuery, error) {
	var q HistoricProcessInstanceQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(historicProcessInstanceSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	if p.err != nil {
		return q, p.err
	}
	return q, checkState(q.State)
}

// MarshalJSON writes the body of POST /history/process-instance (paging excluded).
func (q HistoricProcessInstanceQuery) MarshalJSON() ([]byte, error) {
	return queryBody(q.params(), q.Sorting, q.SortBy, q.SortOrder)
}

// ParseHistoricProcessInstanceQueryJSON reads the body of POST
// /history/process-instance; paging comes from the query string.
func ParseHistoricProcessInstanceQueryJSON(data []byte, paging url.Values) (HistoricProcessInstanceQuery, error) {
	var q HistoricProcessInstanceQuery
	s, err := parseQueryBody(data, q.params(), historicProcessInstanceSortKeys)
	if err != nil {
		return HistoricProcessInstanceQuery{}, err
	}
	if err := checkState(q.State); err != nil {
		return HistoricProcessInstanceQuery{}, err
	}
	q.Sorting = s
	q.FirstResult, q.MaxResults, err = parsePaging(paging)
	return q, err
}

// ---- historic tasks

var historicTaskSortKeys = []string{"taskId", "activityInstanceId", "processDefinitionId", "processInstanceId",
	"executionId", "duration", "endTime", "startTime", "taskName", "taskDescription", "assignee", "owner", "dueDate",
	"followUpDate", "deleteReason", "taskDefinitionKey", "priority", "tenantId"}

func (q *HistoricTaskQuery) params() []param {
	return []param{
		{name: "taskId", s: &q.TaskID}, {name: "processInstanceId", s: &q.ProcessInstanceID},
		{name: "processInstanceIdIn", l: &q.ProcessInstanceIDIn},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "processDefinitionKey", s: &q.ProcessDefinitionKey},
		{name: "taskDefinitionKey", s: &q.TaskDefinitionKey}, {name: "taskAssignee", s: &q.TaskAssignee},
		{name: "finished", b: &q.Finished}, {name: "unfinished", b: &q.Unfinished},
		{name: "tenantIdIn", l: &q.TenantIDIn}, {name: "processVariables", vf: &q.ProcessVariables},
	}
}

// Values encodes the query as Operaton's GET /history/task parameters.
func (q HistoricTaskQuery) Values() url.Values {
	v := paramValues(q.params())
	setSort(v, q.SortBy, q.SortOrder)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseHistoricTaskQuery reads Operaton's query parameters of GET /history/task.
func ParseHistoricTaskQuery(v url.Values) (HistoricTaskQuery, error) {
	var q HistoricTaskQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(historicTaskSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

// ---- historic variables

var historicVariableSortKeys = []string{"instanceId", "variableName", "tenantId"}

func (q *HistoricVariableQuery) params() []param {
	return []param{
		{name: "variableName", s: &q.VariableName}, {name: "variableNameLike", s: &q.VariableNameLike},
		{name: "processInstanceId", s: &q.ProcessInstanceID}, {name: "processInstanceIdIn", l: &q.ProcessInstanceIDIn},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "processDefinitionKey", s: &q.ProcessDefinitionKey},
		{name: "taskIdIn", l: &q.TaskIDIn}, {name: "tenantIdIn", l: &q.TenantIDIn},
		{name: "includeDeleted", b: &q.IncludeDeleted},
	}
}

// Values encodes the query as Operaton's GET /history/variable-instance parameters.
func (q HistoricVariableQuery) Values() url.Values {
	v := paramValues(q.params())
	setSort(v, q.SortBy, q.SortOrder)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseHistoricVariableQuery reads Operaton's query parameters of GET
// /history/variable-instance.
func ParseHistoricVariableQuery(v url.Values) (HistoricVariableQuery, error) {
	var q HistoricVariableQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(historicVariableSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

// MarshalJSON writes the body of POST /history/variable-instance (paging excluded).
func (q HistoricVariableQuery) MarshalJSON() ([]byte, error) {
	return queryBody(q.params(), nil, q.SortBy, q.SortOrder)
}

// ParseHistoricVariableQueryJSON reads the body of POST
// /history/variable-instance; paging comes from the query string. Only the
// first sorting is kept (the query sorts by one key).
func ParseHistoricVariableQueryJSON(data []byte, paging url.Values) (HistoricVariableQuery, error) {
	var q HistoricVariableQuery
	s, err := parseQueryBody(data, q.params(), historicVariableSortKeys)
	if err != nil {
		return HistoricVariableQuery{}, err
	}
	q.SortBy, q.SortOrder = firstSorting(s)
	q.FirstResult, q.MaxResults, err = parsePaging(paging)
	return q, err
}

// ---- historic activities

var historicActivitySortKeys = []string{"activityInstanceId", "instanceId", "executionId", "activityId", "activityName",
	"activityType", "startTime", "endTime", "duration", "definitionId", "occurrence", "tenantId"}

func (q *HistoricActivityQuery) params() []param {
	return []param{
		{name: "activityInstanceId", s: &q.ActivityInstanceID}, {name: "processInstanceId", s: &q.ProcessInstanceID},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "activityId", s: &q.ActivityID},
		{name: "activityType", s: &q.ActivityType}, {name: "finished", b: &q.Finished},
		{name: "unfinished", b: &q.Unfinished}, {name: "canceled", b: &q.Canceled},
		{name: "tenantIdIn", l: &q.TenantIDIn},
	}
}

// Values encodes the query as Operaton's GET /history/activity-instance parameters.
func (q HistoricActivityQuery) Values() url.Values {
	v := paramValues(q.params())
	setSort(v, q.SortBy, q.SortOrder)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseHistoricActivityQuery reads Operaton's query parameters of GET
// /history/activity-instance.
func ParseHistoricActivityQuery(v url.Values) (HistoricActivityQuery, error) {
	var q HistoricActivityQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(historicActivitySortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}

// ---- historic decisions

var historicDecisionSortKeys = []string{"evaluationTime", "tenantId"}

func (q *HistoricDecisionQuery) params() []param {
	return []param{
		{name: "decisionInstanceId", s: &q.DecisionInstanceID}, {name: "decisionDefinitionId", s: &q.DecisionDefinitionID},
		{name: "decisionDefinitionKey", s: &q.DecisionDefinitionKey}, {name: "processInstanceId", s: &q.ProcessInstanceID},
		{name: "processDefinitionKey", s: &q.ProcessDefinitionKey}, {name: "activityIdIn", l: &q.ActivityIDIn},
		{name: "tenantIdIn", l: &q.TenantIDIn}, {name: "includeInputs", b: &q.IncludeInputs},
		{name: "includeOutputs", b: &q.IncludeOutputs},
	}
}

// Values encodes the query as Operaton's GET /history/decision-instance parameters.
func (q HistoricDecisionQuery) Values() url.Values {
	v := paramValues(q.params())
	setSort(v, q.SortBy, q.SortOrder)
	return withPaging(v, q.FirstResult, q.MaxResults)
}

// ParseHistoricDecisionQuery reads Operaton's query parameters of GET
// /history/decision-instance.
func ParseHistoricDecisionQuery(v url.Values) (HistoricDecisionQuery, error) {
	var q HistoricDecisionQuery
	p := paramReader{v: v}
	p.params(q.params())
	q.SortBy, q.SortOrder = p.sort(historicDecisionSortKeys)
	q.FirstResult, q.MaxResults = p.paging()
	return q, p.err
}
