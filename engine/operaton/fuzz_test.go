package operaton

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// FuzzAnswers feeds arbitrary answers to the client's decoding: every
// outcome is a result or an error the package documents, never a panic.
func FuzzAnswers(f *testing.F) {
	for _, s := range []struct {
		status int
		body   string
	}{
		{200, `[{"a":{"type":"Integer","value":1,"valueInfo":{}}}]`},
		{200, `[{"a":{"type":"Object","value":"x","valueInfo":{"serializationDataFormat":"application/json"}}}]`},
		{404, `{"type":"RestException","message":"No matching decision definition"}`},
		{400, `{"type":"ParseException","message":"m","details":{"r.dmn":{"errors":[{"message":"x","line":1,"column":2}]}}}`},
		{500, `<html/>`}, {200, `{}`}, {200, `[{"a":{"type":"Date","value":"bad"}}]`}, {204, ``},
	} {
		f.Add(s.status, s.body)
	}
	fk := &fake{}
	srv := httptest.NewServer(fk)
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, status int, body string) {
		if status < 200 || status > 599 {
			return
		}
		fk.mu.Lock()
		fk.status, fk.body, fk.reqs, fk.bodies = status, body, nil, nil
		fk.mu.Unlock()
		res, err := c.Evaluate(context.Background(), "k", "", nil)
		if err == nil {
			for _, row := range res {
				for _, v := range row {
					_, _ = local.FEEL(v)
					v.Plain()
				}
			}
			return
		}
		var (
			ee *engine.Error
			ve *engine.VariableError
		)
		if !errors.As(err, &ee) && !errors.As(err, &ve) && !errors.Is(err, engine.ErrUnavailable) {
			t.Fatalf("status %d, body %q: undocumented error %v", status, body, err)
		}
	})
}
