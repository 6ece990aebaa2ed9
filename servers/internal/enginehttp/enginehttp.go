// Package enginehttp mounts an engine under Operaton's REST paths on a
// server's router: engine/rest's handler behind a same-site guard for
// writes, and one OpenAPI entry per route that handler serves, so every
// server that offers /engine-rest documents and guards it alike.
//
//	enginehttp.Mount(router, eng, enginehttp.Options{CORSOrigins: origins, Logger: logger})
package enginehttp

import (
	"log/slog"
	"net/http"
	"slices"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/rest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// DefaultBasePath is where Operaton serves its REST API.
const DefaultBasePath = "/engine-rest"

// Options configure Mount.
type Options struct {
	BasePath    string       // "" = DefaultBasePath
	CORSOrigins []string     // browser origins whose writes are accepted
	Logger      *slog.Logger // receives engine/rest's 500 records
}

// Mount serves eng under opts.BasePath on r and adds its routes to r's
// OpenAPI document.
func Mount(r *httpapi.Router, eng engine.Engine, opts Options) {
	if opts.BasePath == "" {
		opts.BasePath = DefaultBasePath
	}
	ro := rest.Options{BasePath: opts.BasePath, Logger: opts.Logger}
	r.Mux().PathPrefix(opts.BasePath + "/").Handler(SameSiteWrites(rest.NewHandler(eng, ro), opts.CORSOrigins))
	doc := r.Doc()
	for _, rt := range rest.Routes(eng, ro) {
		doc.Add(rt.Method, rt.Path, openapi.Operation{
			Summary:     "Operaton " + rt.Method + " " + rt.Path[len(opts.BasePath):],
			Description: "Operaton (Camunda 7) REST shapes, parameters and status codes; errors are {type, message}, not the envelope.",
			Tags:        []string{"engine (Operaton-compatible)"},
			Responses:   map[string]openapi.Response{"200": {Description: "Operaton JSON"}, "default": {Description: "{type, message}"}},
		})
	}
}

// SameSiteWrites refuses a state-changing request that a browser sends
// from another site: Operaton's deployment upload is multipart/form-data,
// a "simple" type a cross-site form may POST without a CORS preflight, so
// the JSON content-type rule cannot guard it. A request with an Origin
// outside origins, or marked Sec-Fetch-Site: cross-site without an Origin,
// gets 403 in Operaton's error shape; tools that send neither (curl, the
// other servers, Operaton clients) are unaffected.
func SameSiteWrites(h http.Handler, origins []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			h.ServeHTTP(w, r)
			return
		}
		origin := r.Header.Get("Origin")
		if (origin != "" && !slices.Contains(origins, origin)) || (origin == "" && r.Header.Get("Sec-Fetch-Site") == "cross-site") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"type":"ForbiddenException","message":"cross-site requests may not change the engine"}` + "\n"))
			return
		}
		h.ServeHTTP(w, r)
	})
}
