package pgstore_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/engine/rest"
)

// TestScanLimitOverREST: a task list that would read more rows than
// MaxScan answers 400 InvalidRequestException with the store's message
// through engine/rest (not a 500); a page of it answers 200.
func TestScanLimitOverREST(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	s, err := pgstore.Open(ctx, db.Pool(t), pgstore.Options{MaxScan: 5})
	if err != nil {
		t.Fatal(err)
	}
	var c local.Change
	for i := range 10 {
		c.Tasks = append(c.Tasks, openTask(fmt.Sprintf("t%d", i), "i1", "0363", "behandelaar"))
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rest.NewHandler(local.New(local.Options{Store: s}), rest.Options{}))
	defer srv.Close()
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, strings.TrimSpace(string(b))
	}
	status, body := get("/engine-rest/task?nameLike=%25")
	want := `{"type":"InvalidRequestException","message":"pgstore: the tasks query reads more than 5 rows; narrow it with more filters"}`
	if status != 400 || body != want {
		t.Errorf("unpaged task list: %d %s\nwant 400 %s", status, body, want)
	}
	if status, body := get("/engine-rest/task?firstResult=0&maxResults=3"); status != 200 || strings.Count(body, `"id"`) != 3 {
		t.Errorf("a page of 3: %d %s", status, body)
	}
}
