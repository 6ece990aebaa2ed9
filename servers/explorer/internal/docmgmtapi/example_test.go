package docmgmtapi_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/servers/explorer/internal/docmgmtapi"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Register mounts the endpoints on a router; here with the stub client.
func Example() {
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	docmgmtapi.Register(r, docmgmtapi.Deps{Client: docmgmt.NewStub(docmgmt.StubConfig{})})

	req := httptest.NewRequest("POST", "/v1/docmgmt/workspaces/ensure",
		strings.NewReader(`{"projectNumber":"2024-001","projectName":"Bridge A12"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	var env struct{ Data map[string]any }
	_ = json.Unmarshal(rec.Body.Bytes(), &env)
	fmt.Println(rec.Code, env.Data["workspaceId"], env.Data["workspaceName"], env.Data["created"])
	// Output: 200 stub-ws-2024-001 2024-001 — Bridge A12 false
}
