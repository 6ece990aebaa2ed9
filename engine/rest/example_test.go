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
