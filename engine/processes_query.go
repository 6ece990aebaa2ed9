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
		if order == "" {
			order = "asc"
		}
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

// queryShape describes one query type for the generic encoders below:
// its parameter table, sort keys and the fields for sorting and paging.
type queryShape struct {
	params     []param
	sortKeys   []string
	by, order  *string
	sorting    *[]Sorting // nil: the type sorts by one key only
	first, max *int
}

// values encodes the GET form; the first of Sorting stands for SortBy.
func (s queryShape) values() url.Values {
	v := paramValues(s.params)
	by, order := *s.by, *s.order
	if s.sorting != nil && len(*s.sorting) > 0 {
		by, order = firstSorting(*s.sorting)
	}
	setSort(v, by, order)
	return withPaging(v, *s.first, *s.max)
}

// parse reads the GET form. Unknown parameters are ignored, as Operaton
// does; malformed values give a 400 *Error.
func (s queryShape) parse(v url.Values) error {
	p := paramReader{v: v}
	p.params(s.params)
	*s.by, *s.order = p.sort(s.sortKeys)
	*s.first, *s.max = p.paging()
	return p.err
}

// body encodes the POST form (paging excluded).
func (s queryShape) body() ([]byte, error) {
	var sorting []Sorting
	if s.sorting != nil {
		sorting = *s.sorting
	}
	return queryBody(s.params, sorting, *s.by, *s.order)
}

// parseBody reads the POST form, paging from the query string.
func (s queryShape) parseBody(data []byte, paging url.Values) error {
	sorting, err := parseQueryBody(data, s.params, s.sortKeys)
	if err != nil {
		return err
	}
	if s.sorting != nil {
		*s.sorting = sorting
	} else {
		*s.by, *s.order = firstSorting(sorting)
	}
	p := paramReader{v: paging}
	*s.first, *s.max = p.paging()
	return p.err
}

// setSort writes sortBy and sortOrder; a SortBy without SortOrder sorts
// ascending, as the embedded engine does (Operaton requires both).
func setSort(v url.Values, by, order string) {
	if by != "" && order == "" {
		order = "asc"
	}
	if by != "" {
		v.Set("sortBy", by)
	}
	if order != "" {
		v.Set("sortOrder", order)
	}
}

// firstSorting is the first sort key of a POST query, for the GET form.
func firstSorting(s []Sorting) (by, order string) {
	if len(s) == 0 {
		return "", ""
	}
	return s[0].SortBy, s[0].SortOrder
}

// ---- ProcessDefinitionQuery

var processDefinitionSortKeys = []string{"category", "key", "id", "name", "version", "deploymentId", "tenantId", "versionTag"}

func (q *ProcessDefinitionQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "processDefinitionId", s: &q.ID}, {name: "processDefinitionIdIn", l: &q.IDIn},
		{name: "key", s: &q.Key}, {name: "keyLike", s: &q.KeyLike}, {name: "keysIn", l: &q.KeysIn},
		{name: "name", s: &q.Name}, {name: "nameLike", s: &q.NameLike}, {name: "deploymentId", s: &q.DeploymentID},
		{name: "resourceName", s: &q.ResourceName}, {name: "version", i: &q.Version},
		{name: "latestVersion", b: &q.LatestVersion}, {name: "tenantIdIn", l: &q.TenantIDIn},
		{name: "withoutTenantId", b: &q.WithoutTenantID},
		{name: "includeProcessDefinitionsWithoutTenantId", b: &q.IncludeWithoutTenantID},
		{name: "versionTag", s: &q.VersionTag},
	}, sortKeys: processDefinitionSortKeys, by: &q.SortBy, order: &q.SortOrder, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /process-definition.
func (q ProcessDefinitionQuery) Values() url.Values { return q.shape().values() }

// ParseProcessDefinitionQuery reads the parameters of Operaton's GET /process-definition.
func ParseProcessDefinitionQuery(v url.Values) (ProcessDefinitionQuery, error) {
	var q ProcessDefinitionQuery
	if err := q.shape().parse(v); err != nil {
		return ProcessDefinitionQuery{}, err
	}
	return q, nil
}

// ---- ProcessInstanceQuery

var processInstanceSortKeys = []string{"instanceId", "definitionKey", "definitionId", "tenantId", "businessKey"}

func (q *ProcessInstanceQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "processInstanceIds", l: &q.ProcessInstanceIDs}, {name: "businessKey", s: &q.BusinessKey},
		{name: "businessKeyLike", s: &q.BusinessKeyLike}, {name: "processDefinitionId", s: &q.ProcessDefinitionID},
		{name: "processDefinitionKey", s: &q.ProcessDefinitionKey}, {name: "processDefinitionKeyIn", l: &q.ProcessDefinitionKeyIn},
		{name: "deploymentId", s: &q.DeploymentID}, {name: "superProcessInstance", s: &q.SuperProcessInstance},
		{name: "subProcessInstance", s: &q.SubProcessInstance}, {name: "active", b: &q.Active},
		{name: "suspended", b: &q.Suspended}, {name: "tenantIdIn", l: &q.TenantIDIn},
		{name: "withoutTenantId", b: &q.WithoutTenantID}, {name: "variables", vf: &q.Variables},
	}, sortKeys: processInstanceSortKeys, by: &q.SortBy, order: &q.SortOrder, sorting: &q.Sorting, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /process-instance.
func (q ProcessInstanceQuery) Values() url.Values { return q.shape().values() }

// ParseProcessInstanceQuery reads the parameters of Operaton's GET /process-instance (variables as name_operator_value,…).
func ParseProcessInstanceQuery(v url.Values) (ProcessInstanceQuery, error) {
	var q ProcessInstanceQuery
	if err := q.shape().parse(v); err != nil {
		return ProcessInstanceQuery{}, err
	}
	return q, nil
}

// MarshalJSON writes the body of Operaton's POST /process-instance (paging excluded: it
// travels in the query string).
func (q ProcessInstanceQuery) MarshalJSON() ([]byte, error) { return q.shape().body() }

// ParseProcessInstanceQueryJSON reads the body of Operaton's POST /process-instance; paging comes from
// the query string.
func ParseProcessInstanceQueryJSON(data []byte, paging url.Values) (ProcessInstanceQuery, error) {
	var q ProcessInstanceQuery
	if err := q.shape().parseBody(data, paging); err != nil {
		return ProcessInstanceQuery{}, err
	}
	return q, nil
}

// ---- TaskQuery

var taskSortKeys = []string{"instanceId", "caseInstanceId", "dueDate", "executionId", "caseExecutionId", "assignee",
	"created", "lastUpdated", "followUpDate", "description", "id", "name", "nameCaseInsensitive", "priority", "tenantId"}

func (q *TaskQuery) shape() queryShape {
	return queryShape{params: []param{
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
	}, sortKeys: taskSortKeys, by: &q.SortBy, order: &q.SortOrder, sorting: &q.Sorting, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /task.
func (q TaskQuery) Values() url.Values { return q.shape().values() }

// ParseTaskQuery reads the parameters of Operaton's GET /task (processVariables=name_eq_value,other_neq_x; lists comma-separated).
func ParseTaskQuery(v url.Values) (TaskQuery, error) {
	var q TaskQuery
	if err := q.shape().parse(v); err != nil {
		return TaskQuery{}, err
	}
	return q, nil
}

// MarshalJSON writes the body of Operaton's POST /task (paging excluded: it
// travels in the query string).
func (q TaskQuery) MarshalJSON() ([]byte, error) { return q.shape().body() }

// ParseTaskQueryJSON reads the body of Operaton's POST /task; paging comes from
// the query string.
func ParseTaskQueryJSON(data []byte, paging url.Values) (TaskQuery, error) {
	var q TaskQuery
	if err := q.shape().parseBody(data, paging); err != nil {
		return TaskQuery{}, err
	}
	return q, nil
}

// ---- HistoricProcessInstanceQuery

var historicProcessInstanceSortKeys = []string{"instanceId", "definitionId", "definitionKey", "definitionName",
	"definitionVersion", "businessKey", "startTime", "endTime", "duration", "tenantId"}

func (q *HistoricProcessInstanceQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "processInstanceId", s: &q.ProcessInstanceID}, {name: "processInstanceIds", l: &q.ProcessInstanceIDs},
		{name: "processInstanceBusinessKey", s: &q.BusinessKey}, {name: "processInstanceBusinessKeyLike", s: &q.BusinessKeyLike},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "processDefinitionKey", s: &q.ProcessDefinitionKey},
		{name: "processDefinitionKeyIn", l: &q.ProcessDefinitionKeyIn},
		{name: "superProcessInstanceId", s: &q.SuperProcessInstanceID},
		{name: "finished", b: &q.Finished}, {name: "unfinished", b: &q.Unfinished}, {name: "state", s: &q.State},
		{name: "tenantIdIn", l: &q.TenantIDIn}, {name: "withoutTenantId", b: &q.WithoutTenantID},
		{name: "variables", vf: &q.Variables},
	}, sortKeys: historicProcessInstanceSortKeys, by: &q.SortBy, order: &q.SortOrder, sorting: &q.Sorting, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /history/process-instance.
func (q HistoricProcessInstanceQuery) Values() url.Values { return q.shape().values() }

// ParseHistoricProcessInstanceQuery reads the parameters of Operaton's GET /history/process-instance.
func ParseHistoricProcessInstanceQuery(v url.Values) (HistoricProcessInstanceQuery, error) {
	var q HistoricProcessInstanceQuery
	if err := q.shape().parse(v); err != nil {
		return HistoricProcessInstanceQuery{}, err
	}
	if err := checkState(q.State); err != nil {
		return HistoricProcessInstanceQuery{}, err
	}
	return q, nil
}

// MarshalJSON writes the body of Operaton's POST /history/process-instance (paging excluded: it
// travels in the query string).
func (q HistoricProcessInstanceQuery) MarshalJSON() ([]byte, error) { return q.shape().body() }

// ParseHistoricProcessInstanceQueryJSON reads the body of Operaton's POST /history/process-instance; paging comes from
// the query string.
func ParseHistoricProcessInstanceQueryJSON(data []byte, paging url.Values) (HistoricProcessInstanceQuery, error) {
	var q HistoricProcessInstanceQuery
	if err := q.shape().parseBody(data, paging); err != nil {
		return HistoricProcessInstanceQuery{}, err
	}
	if err := checkState(q.State); err != nil {
		return HistoricProcessInstanceQuery{}, err
	}
	return q, nil
}

var historyStates = []string{StateActive, StateSuspended, StateCompleted, StateExternallyTerminated, StateInternallyTerminated}

func checkState(s string) error {
	if s != "" && !slices.Contains(historyStates, s) {
		return InvalidRequest("Cannot set query parameter 'state' to value '%s'", clip(s))
	}
	return nil
}

// ---- HistoricTaskQuery

var historicTaskSortKeys = []string{"taskId", "activityInstanceId", "processDefinitionId", "processInstanceId",
	"executionId", "duration", "endTime", "startTime", "taskName", "taskDescription", "assignee", "owner", "dueDate",
	"followUpDate", "deleteReason", "taskDefinitionKey", "priority", "tenantId"}

func (q *HistoricTaskQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "taskId", s: &q.TaskID}, {name: "processInstanceId", s: &q.ProcessInstanceID},
		{name: "processInstanceIdIn", l: &q.ProcessInstanceIDIn},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "processDefinitionKey", s: &q.ProcessDefinitionKey},
		{name: "taskDefinitionKey", s: &q.TaskDefinitionKey}, {name: "taskAssignee", s: &q.TaskAssignee},
		{name: "finished", b: &q.Finished}, {name: "unfinished", b: &q.Unfinished},
		{name: "tenantIdIn", l: &q.TenantIDIn}, {name: "processVariables", vf: &q.ProcessVariables},
	}, sortKeys: historicTaskSortKeys, by: &q.SortBy, order: &q.SortOrder, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /history/task.
func (q HistoricTaskQuery) Values() url.Values { return q.shape().values() }

// ParseHistoricTaskQuery reads the parameters of Operaton's GET /history/task.
func ParseHistoricTaskQuery(v url.Values) (HistoricTaskQuery, error) {
	var q HistoricTaskQuery
	if err := q.shape().parse(v); err != nil {
		return HistoricTaskQuery{}, err
	}
	return q, nil
}

// ---- HistoricVariableQuery

var historicVariableSortKeys = []string{"instanceId", "variableName", "tenantId"}

func (q *HistoricVariableQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "variableName", s: &q.VariableName}, {name: "variableNameLike", s: &q.VariableNameLike},
		{name: "processInstanceId", s: &q.ProcessInstanceID}, {name: "processInstanceIdIn", l: &q.ProcessInstanceIDIn},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "processDefinitionKey", s: &q.ProcessDefinitionKey},
		{name: "taskIdIn", l: &q.TaskIDIn}, {name: "tenantIdIn", l: &q.TenantIDIn},
		{name: "includeDeleted", b: &q.IncludeDeleted},
	}, sortKeys: historicVariableSortKeys, by: &q.SortBy, order: &q.SortOrder, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /history/variable-instance.
func (q HistoricVariableQuery) Values() url.Values { return q.shape().values() }

// ParseHistoricVariableQuery reads the parameters of Operaton's GET /history/variable-instance.
func ParseHistoricVariableQuery(v url.Values) (HistoricVariableQuery, error) {
	var q HistoricVariableQuery
	if err := q.shape().parse(v); err != nil {
		return HistoricVariableQuery{}, err
	}
	return q, nil
}

// MarshalJSON writes the body of Operaton's POST /history/variable-instance (paging excluded: it
// travels in the query string).
func (q HistoricVariableQuery) MarshalJSON() ([]byte, error) { return q.shape().body() }

// ParseHistoricVariableQueryJSON reads the body of Operaton's POST /history/variable-instance; paging comes from
// the query string.
func ParseHistoricVariableQueryJSON(data []byte, paging url.Values) (HistoricVariableQuery, error) {
	var q HistoricVariableQuery
	if err := q.shape().parseBody(data, paging); err != nil {
		return HistoricVariableQuery{}, err
	}
	return q, nil
}

// ---- HistoricActivityQuery

var historicActivitySortKeys = []string{"activityInstanceId", "instanceId", "executionId", "activityId", "activityName",
	"activityType", "startTime", "endTime", "duration", "definitionId", "occurrence", "tenantId"}

func (q *HistoricActivityQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "activityInstanceId", s: &q.ActivityInstanceID}, {name: "processInstanceId", s: &q.ProcessInstanceID},
		{name: "processDefinitionId", s: &q.ProcessDefinitionID}, {name: "activityId", s: &q.ActivityID},
		{name: "activityType", s: &q.ActivityType}, {name: "finished", b: &q.Finished},
		{name: "unfinished", b: &q.Unfinished}, {name: "canceled", b: &q.Canceled},
		{name: "tenantIdIn", l: &q.TenantIDIn},
	}, sortKeys: historicActivitySortKeys, by: &q.SortBy, order: &q.SortOrder, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /history/activity-instance.
func (q HistoricActivityQuery) Values() url.Values { return q.shape().values() }

// ParseHistoricActivityQuery reads the parameters of Operaton's GET /history/activity-instance.
func ParseHistoricActivityQuery(v url.Values) (HistoricActivityQuery, error) {
	var q HistoricActivityQuery
	if err := q.shape().parse(v); err != nil {
		return HistoricActivityQuery{}, err
	}
	return q, nil
}

// ---- HistoricDecisionQuery

var historicDecisionSortKeys = []string{"evaluationTime", "tenantId"}

func (q *HistoricDecisionQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "decisionInstanceId", s: &q.DecisionInstanceID}, {name: "decisionDefinitionId", s: &q.DecisionDefinitionID},
		{name: "decisionDefinitionKey", s: &q.DecisionDefinitionKey}, {name: "processInstanceId", s: &q.ProcessInstanceID},
		{name: "processDefinitionKey", s: &q.ProcessDefinitionKey}, {name: "activityIdIn", l: &q.ActivityIDIn},
		{name: "tenantIdIn", l: &q.TenantIDIn}, {name: "includeInputs", b: &q.IncludeInputs},
		{name: "includeOutputs", b: &q.IncludeOutputs},
	}, sortKeys: historicDecisionSortKeys, by: &q.SortBy, order: &q.SortOrder, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /history/decision-instance.
func (q HistoricDecisionQuery) Values() url.Values { return q.shape().values() }

// ParseHistoricDecisionQuery reads the parameters of Operaton's GET /history/decision-instance.
func ParseHistoricDecisionQuery(v url.Values) (HistoricDecisionQuery, error) {
	var q HistoricDecisionQuery
	if err := q.shape().parse(v); err != nil {
		return HistoricDecisionQuery{}, err
	}
	return q, nil
}

// ---- IncidentQuery

var incidentSortKeys = []string{"incidentId", "incidentMessage", "incidentTimestamp", "incidentType", "executionId",
	"activityId", "processInstanceId", "processDefinitionId", "causeIncidentId", "rootCauseIncidentId",
	"configuration", "tenantId"}

func (q *IncidentQuery) shape() queryShape {
	return queryShape{params: []param{
		{name: "incidentId", s: &q.IncidentID}, {name: "incidentType", s: &q.IncidentType},
		{name: "processInstanceId", s: &q.ProcessInstanceID}, {name: "processDefinitionId", s: &q.ProcessDefinitionID},
		{name: "activityId", s: &q.ActivityID}, {name: "tenantIdIn", l: &q.TenantIDIn},
	}, sortKeys: incidentSortKeys, by: &q.SortBy, order: &q.SortOrder, first: &q.FirstResult, max: &q.MaxResults}
}

// Values encodes the query as the parameters of Operaton's GET /incident.
func (q IncidentQuery) Values() url.Values { return q.shape().values() }

// ParseIncidentQuery reads the parameters of Operaton's GET /incident and
// GET /incident/count.
func ParseIncidentQuery(v url.Values) (IncidentQuery, error) {
	var q IncidentQuery
	if err := q.shape().parse(v); err != nil {
		return IncidentQuery{}, err
	}
	return q, nil
}
