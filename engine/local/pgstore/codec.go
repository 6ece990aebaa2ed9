package pgstore

import (
	"encoding/json"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// Rows keep records as JSON. The engine's types carry Operaton's JSON
// shapes (dates to the millisecond, nulls for unused fields), which would
// not give back the record that was stored; these defined types have the
// same fields without those methods, so encoding/json writes every field
// as it is (times to the nanosecond). engine.Variable keeps its own JSON,
// which is typed and exact.
type (
	deploymentDoc engine.Deployment
	definitionDoc engine.ProcessDefinition
	taskFields    engine.Task
	hpiDoc        engine.HistoricProcessInstance
	hactDoc       engine.HistoricActivity
	htaskDoc      engine.HistoricTask
	hvarDoc       engine.HistoricVariable
	hdecFields    engine.HistoricDecision
	hdecInputDoc  engine.HistoricDecisionInput
	hdecOutputDoc engine.HistoricDecisionOutput
	formRefDoc    engine.FormRef
)

// taskDoc is a TaskRecord without its Version (a column), the task's
// FormRef in plain form too.
type taskDoc struct {
	Task                              taskFields
	FormRef                           *formRefDoc
	ProcessDefinitionKey, BusinessKey string
	Municipality                      string
	ActivityInstanceID                string
}

func encodeTask(r *local.TaskRecord) ([]byte, error) {
	d := taskDoc{Task: taskFields(r.Task), ProcessDefinitionKey: r.ProcessDefinitionKey,
		BusinessKey: r.BusinessKey, Municipality: r.Municipality, ActivityInstanceID: r.ActivityInstanceID}
	d.Task.FormRef, d.FormRef = nil, (*formRefDoc)(r.Task.FormRef)
	return json.Marshal(d)
}

func decodeTask(data []byte, version int64) (local.TaskRecord, error) {
	var d taskDoc
	if err := json.Unmarshal(data, &d); err != nil {
		return local.TaskRecord{}, err
	}
	r := local.TaskRecord{Version: version, Task: engine.Task(d.Task), ProcessDefinitionKey: d.ProcessDefinitionKey,
		BusinessKey: d.BusinessKey, Municipality: d.Municipality, ActivityInstanceID: d.ActivityInstanceID}
	r.Task.FormRef = (*engine.FormRef)(d.FormRef)
	return r, nil
}

// hdecDoc is a HistoricDecision with its inputs and outputs in plain form.
type hdecDoc struct {
	Decision hdecFields
	Inputs   []hdecInputDoc
	Outputs  []hdecOutputDoc
}

func encodeDecision(d *engine.HistoricDecision) ([]byte, error) {
	doc := hdecDoc{Decision: hdecFields(*d)}
	doc.Decision.Inputs, doc.Decision.Outputs = nil, nil
	for _, in := range d.Inputs {
		doc.Inputs = append(doc.Inputs, hdecInputDoc(in))
	}
	for _, out := range d.Outputs {
		doc.Outputs = append(doc.Outputs, hdecOutputDoc(out))
	}
	return json.Marshal(doc)
}

func decodeDecision(data []byte) (engine.HistoricDecision, error) {
	var doc hdecDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return engine.HistoricDecision{}, err
	}
	d := engine.HistoricDecision(doc.Decision)
	for _, in := range doc.Inputs {
		d.Inputs = append(d.Inputs, engine.HistoricDecisionInput(in))
	}
	for _, out := range doc.Outputs {
		d.Outputs = append(d.Outputs, engine.HistoricDecisionOutput(out))
	}
	return d, nil
}

// instanceDoc is an InstanceRecord without Version, Variables and State
// (columns of their own).
func encodeInstance(r *local.InstanceRecord) (doc, vars []byte, err error) {
	c := *r
	c.Version, c.Variables, c.State = 0, nil, nil
	if doc, err = json.Marshal(c); err != nil {
		return nil, nil, err
	}
	if r.Variables == nil {
		return doc, []byte("{}"), nil
	}
	vars, err = json.Marshal(r.Variables)
	return doc, vars, err
}

func decodeInstance(doc, vars, state []byte, version int64) (local.InstanceRecord, error) {
	var r local.InstanceRecord
	if err := json.Unmarshal(doc, &r); err != nil {
		return r, err
	}
	if err := json.Unmarshal(vars, &r.Variables); err != nil {
		return r, err
	}
	r.Version, r.State = version, state
	return r, nil
}

// decodeJSON decodes a row's doc into a T read as the plain form P.
func decodeAs[P, T any](data []byte, conv func(P) T) (T, error) {
	var p P
	if err := json.Unmarshal(data, &p); err != nil {
		var zero T
		return zero, err
	}
	return conv(p), nil
}
