package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"
)

// Serve the embedded engine under Operaton's REST paths and evaluate a
// decision the way any Operaton client does.
func ExampleNewHandler() {
	e := local.New(local.Options{})
	dmn := `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="d" namespace="urn:x">
  <decision id="greeting" name="Greeting"><variable name="greeting"/>
    <literalExpression><text>"Hello " + name</text></literalExpression></decision>
</definitions>`
	e.Deploy(context.Background(), engine.NewDeployment{Resources: []engine.Resource{{Name: "greeting.dmn", Data: []byte(dmn)}}})

	srv := httptest.NewServer(rest.NewHandler(e, rest.Options{}))
	defer srv.Close()
	for _, key := range []string{"greeting", "unknown"} {
		resp, err := http.Post(srv.URL+"/engine-rest/decision-definition/key/"+key+"/evaluate", "application/json",
			strings.NewReader(`{"variables": {"name": {"value": "Heusden", "type": "String"}}}`))
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(body))
	}
	// Output:
	// 200 [{"greeting":{"type":"String","value":"Hello Heusden","valueInfo":{}}}]
	// 404 {"type":"RestException","message":"No matching decision definition with key: unknown and no tenant-id"}
}

// Start a process over Operaton's paths and find its user task in a
// municipality's task list, as the business API does.
func ExampleNewHandler_processes() {
	e := local.New(local.Options{})
	bpmn := `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
    id="defs" targetNamespace="urn:x">
  <process id="request" isExecutable="true" camunda:historyTimeToLive="30">
    <startEvent id="start"/><sequenceFlow id="f1" sourceRef="start" targetRef="review"/>
    <userTask id="review" name="Review the request" camunda:candidateGroups="caseworker"/>
    <sequenceFlow id="f2" sourceRef="review" targetRef="end"/><endEvent id="end"/>
  </process>
</definitions>`
	if _, err := e.Deploy(context.Background(), engine.NewDeployment{Resources: []engine.Resource{{Name: "request.bpmn", Data: []byte(bpmn)}}}); err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(rest.NewHandler(e, rest.Options{}))
	defer srv.Close()
	send := func(method, path, body string) string {
		req, _ := http.NewRequest(method, srv.URL+"/engine-rest"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err.Error()
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return fmt.Sprint(resp.StatusCode, " ", string(out))
	}
	started := send("POST", "/process-definition/key/request/start", `{"businessKey": "R-1", "variables": {"municipality": {"value": "heusden", "type": "String"}}}`)
	fmt.Println(strings.Contains(started, `"businessKey":"R-1"`))
	fmt.Println(send("GET", "/task/count?processVariables=municipality_eq_heusden&candidateGroups=caseworker", ""))
	fmt.Println(send("GET", "/task/count?processVariables=municipality_eq_utrecht", ""))
	fmt.Println(send("GET", "/task?processVariables=municipality_between_a", ""))
	// Output:
	// true
	// 200 {"count":1}
	// 200 {"count":0}
	// 400 {"type":"InvalidRequestException","message":"Invalid variable comparator specified: between"}
}
