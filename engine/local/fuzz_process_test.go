package local

import (
	"context"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/examples"
)

// FuzzStartProcess deploys a BPMN document and starts every process in
// it under tight budgets: whatever the model, the engine answers with a
// value or an error, never a panic or a hang, and stays consistent (a
// started instance that did not end can be read back).
func FuzzStartProcess(f *testing.F) {
	for _, b := range examples.Processes {
		for _, p := range b.Files {
			if IsBPMN(p) {
				data, err := examples.FS.ReadFile(p)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(data)
			}
		}
	}
	f.Add([]byte(bpmnHead + `<bpmn:process id="P" isExecutable="true"><bpmn:startEvent id="s"/><bpmn:parallelGateway id="g"/><bpmn:endEvent id="e"/>
<bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="g"/><bpmn:sequenceFlow id="f2" sourceRef="g" targetRef="e"/></bpmn:process></bpmn:definitions>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		e := New(Options{ProcessLimits: Limits{Timeout: 50 * time.Millisecond, MaxSteps: 200, MaxDepth: 4}, MaxInstances: 50})
		dep, err := e.Deploy(ctx, engine.NewDeployment{Name: "fuzz", Resources: []engine.Resource{{Name: "fuzz.bpmn", Data: data}}})
		if err != nil {
			return
		}
		for _, pd := range dep.DeployedProcessDefinitions {
			pi, err := e.StartProcess(ctx, engine.StartProcess{DefinitionID: pd.ID, Variables: engine.Variables{"x": engine.Integer(1)}})
			if err != nil || pi.Ended {
				continue
			}
			if _, err := e.ProcessInstance(ctx, pi.ID); err != nil {
				t.Fatalf("started instance %s cannot be read: %v", pi.ID, err)
			}
			ts, err := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: pi.ID})
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range ts {
				_ = e.CompleteTask(ctx, task.ID, nil)
			}
		}
	})
}
