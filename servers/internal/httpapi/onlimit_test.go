package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// TestOnLimit: the router names the bound of every LIMIT_EXCEEDED answer
// it writes, and of nothing else.
func TestOnLimit(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	r := httpapi.NewRouter(httpapi.RouterOptions{OnLimit: func(limit string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, limit)
	}})
	errs := map[string]func(*http.Request) error{
		"rows": func(*http.Request) error {
			return fmt.Errorf("listing: %w", &engineLimitError{limit: "MaxRows", max: 7})
		},
		"wrapped": func(*http.Request) error {
			e := httpapi.NewError(http.StatusInternalServerError, "QUERY_ERROR", "Failed")
			e.Cause = &engineLimitError{limit: "Timeout", max: 7}
			return e
		},
		"deadline": func(req *http.Request) error {
			ctx, cancel := context.WithTimeout(req.Context(), time.Nanosecond)
			defer cancel()
			<-ctx.Done()
			return ctx.Err()
		},
		"plain":     func(*http.Request) error { return errors.New("broken") },
		"not-found": func(*http.Request) error { return httpapi.NotFound("no such thing") },
	}
	for name, f := range errs {
		r.Handle("GET", "/v1/"+name, func(w http.ResponseWriter, req *http.Request) error { return f(req) }, openapi.Operation{})
	}
	r.Handle("GET", "/v1/big", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, strings.Repeat("x", 300))
	}, openapi.Operation{}, httpapi.ResponseLimit(100))
	for _, path := range []string{"/v1/rows", "/v1/wrapped", "/v1/deadline", "/v1/big", "/v1/plain", "/v1/not-found", "/v1/nothing"} {
		r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	want := []string{"MaxRows", "Timeout", "Timeout", "MaxResponseBytes"}
	if !slices.Equal(seen, want) {
		t.Errorf("OnLimit saw %q, want %q", seen, want)
	}
}
