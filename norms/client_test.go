package norms_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// TestOverHTTP runs the real queries through the SPARQL 1.1 Protocol client
// against memstore's handler: the answer and the ETag equal the in-process
// ones.
func TestOverHTTP(t *testing.T) {
	store := exampleStore(t)
	srv := httptest.NewServer(store.Handler(memstore.HandlerOptions{ReadOnly: true}))
	t.Cleanup(srv.Close)
	client := sparql.NewClient(srv.URL, sparql.ClientOptions{})

	for _, q := range []norms.Query{
		{},
		{RulesetID: "BWBR0015703", ApplicableDate: "2025-07-01"},
		{Version: norms.V032},
		{Version: norms.V041},
	} {
		local, _ := newService()
		remote, _ := newService()
		want := mustNorms(t, local, store, q)
		got, err := remote.Norms(context.Background(), client, q)
		if err != nil {
			t.Fatalf("%+v over HTTP: %v", q, err)
		}
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(got)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%+v: over HTTP\n%s\nin process\n%s", q, gotJSON, wantJSON)
		}
		if (got.Validators == nil) != (want.Validators == nil) || (got.Validators != nil && *got.Validators != *want.Validators) {
			t.Errorf("%+v: validators over HTTP %+v, in process %+v", q, got.Validators, want.Validators)
		}
	}
}
