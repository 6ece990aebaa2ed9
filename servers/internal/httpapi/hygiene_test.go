package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// engineLimitError has the shape of the engines' LimitError types.
type engineLimitError struct {
	limit string
	max   int64
}

func (e *engineLimitError) Error() string {
	return fmt.Sprintf("sparql: query exceeded %s (%d)", e.limit, e.max)
}
func (e *engineLimitError) LimitExceeded() string { return e.limit }

func hygieneServer(t *testing.T, dev bool) *apitest.Client {
	t.Helper()
	r := httpapi.NewRouter(httpapi.RouterOptions{Development: dev, MaxResponseBytes: 200})
	// A route that documents a JSON body but reads it itself.
	r.Handle("POST", "/v1/deploy", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, "deployed")
	}, openapi.Operation{RequestBody: &openapi.RequestBody{Content: openapi.JSON(openapi.Object(nil))}})
	// A route that documents nothing and decodes with DecodeJSON.
	r.Handle("POST", "/v1/decode", func(w http.ResponseWriter, req *http.Request) error {
		var v map[string]any
		if err := httpapi.DecodeJSON(req, &v); err != nil {
			return err
		}
		return httpapi.WriteData(w, http.StatusOK, len(v))
	}, openapi.Operation{})
	r.Handle("GET", "/v1/big", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, strings.Repeat("x", 300))
	}, openapi.Operation{})
	r.Handle("GET", "/v1/big-raw", func(w http.ResponseWriter, req *http.Request) error {
		_, err := w.Write([]byte(strings.Repeat("x", 300)))
		return err
	}, openapi.Operation{})
	r.Handle("GET", "/v1/big-raw-after-header", func(w http.ResponseWriter, req *http.Request) error {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusOK)
		_, err := w.Write([]byte(strings.Repeat("x", 300)))
		return err
	}, openapi.Operation{})
	r.Handle("GET", "/v1/not-modified", func(w http.ResponseWriter, req *http.Request) error {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}, openapi.Operation{})
	r.Handle("GET", "/v1/small-raw", func(w http.ResponseWriter, req *http.Request) error {
		w.WriteHeader(http.StatusCreated)
		_, err := w.Write([]byte("ok"))
		return err
	}, openapi.Operation{})
	r.Handle("GET", "/v1/big-allowed", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, strings.Repeat("x", 300))
	}, openapi.Operation{}, httpapi.ResponseLimit(1000))
	r.Handle("GET", "/v1/limit/{which}", func(w http.ResponseWriter, req *http.Request) error {
		le := &engineLimitError{limit: mux.Vars(req)["which"], max: 7}
		switch req.URL.Query().Get("wrap") {
		case "error":
			// A handler's own 500 mapping does not hide the limit.
			e := httpapi.NewError(http.StatusInternalServerError, "QUERY_ERROR", "Failed to list DMNs")
			e.Cause = fmt.Errorf("listing: %w", le)
			return e
		case "deadline":
			ctx, cancel := context.WithTimeout(req.Context(), time.Nanosecond)
			defer cancel()
			<-ctx.Done()
			return fmt.Errorf("evaluating: %w", ctx.Err())
		}
		return le
	}, openapi.Operation{})
	r.Handle("GET", "/v1/upstream", func(w http.ResponseWriter, req *http.Request) error {
		e := httpapi.NewError(http.StatusBadGateway, "QUERY_ERROR", "Failed to list DMNs: SPARQL endpoint unreachable")
		e.DevDetail = "dial tcp 10.1.2.3:8890: connect: connection refused"
		return e
	}, openapi.Operation{})
	return apitest.New(t, r)
}

func TestJSONRoutesRequireJSON(t *testing.T) {
	c := hygieneServer(t, false)
	for _, path := range []string{"/v1/deploy", "/v1/decode"} {
		for _, tc := range []struct {
			ctype  string
			status int
		}{
			{"application/json", 200},
			{"application/json; charset=utf-8", 200},
			{"Application/JSON", 200},
			{"application/merge-patch+json", 200},
			{"text/plain", 415},
			{"text/plain; charset=utf-8", 415},
			{"application/x-www-form-urlencoded", 415},
			{"multipart/form-data; boundary=x", 415},
			{"application/jsonx", 415},
			{"text/json+", 415},
			{"not a media type", 415},
		} {
			resp := c.Do("POST", path, `{"a":1}`, "Content-Type", tc.ctype)
			if tc.status == 200 {
				resp.ExpectStatus(t, 200)
				continue
			}
			msg := resp.ExpectError(t, 415, "UNSUPPORTED_MEDIA_TYPE")
			if !strings.Contains(msg, "application/json") {
				t.Errorf("%s %q: message %q does not say what to send", path, tc.ctype, msg)
			}
		}
	}
	// A body without any Content-Type is refused too; no body at all passes
	// to the handler's own validation.
	c.Do("POST", "/v1/decode", []byte(`{"a":1}`), "Content-Type", "").ExpectError(t, 415, "UNSUPPORTED_MEDIA_TYPE")
	c.Do("POST", "/v1/deploy", nil).ExpectStatus(t, 200)
}

func TestResponseCeiling(t *testing.T) {
	c := hygieneServer(t, false)
	msg := c.Get("/v1/big").ExpectError(t, 400, "LIMIT_EXCEEDED")
	if !strings.Contains(msg, "200 bytes") || !strings.Contains(msg, "MaxResponseBytes") {
		t.Errorf("message %q must name the ceiling", msg)
	}
	c.Get("/v1/big-raw").ExpectError(t, 400, "LIMIT_EXCEEDED")
	// A handler that set its status before the oversized body still gets
	// the envelope out, not a 200 with nothing.
	resp := c.Get("/v1/big-raw-after-header")
	resp.ExpectError(t, 400, "LIMIT_EXCEEDED")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	c.Get("/v1/not-modified").ExpectStatus(t, 304)
	if got := c.Get("/v1/small-raw").ExpectStatus(t, 201); string(got.Body) != "ok" {
		t.Errorf("small raw body %q", got.Body)
	}
	c.Get("/v1/big-allowed").ExpectStatus(t, 200)
}

func TestLimitErrorsMap(t *testing.T) {
	c := hygieneServer(t, false)
	cases := []struct {
		path   string
		status int
		msg    string
	}{
		{"/v1/limit/Timeout", 503, "exceeded Timeout (7)"},
		{"/v1/limit/MaxRows", 400, "exceeded MaxRows (7)"},
		{"/v1/limit/MaxBytes?wrap=error", 400, "exceeded MaxBytes (7)"},
		{"/v1/limit/Timeout?wrap=error", 503, "exceeded Timeout (7)"},
		{"/v1/limit/x?wrap=deadline", 503, "time limit"},
	}
	for _, tc := range cases {
		msg := c.Get(tc.path).ExpectError(t, tc.status, "LIMIT_EXCEEDED")
		if !strings.Contains(msg, tc.msg) {
			t.Errorf("%s: message %q lacks %q", tc.path, msg, tc.msg)
		}
	}
	if httpapi.LimitError(errors.New("plain")) != nil || httpapi.LimitError(nil) != nil {
		t.Error("LimitError must ignore errors without LimitExceeded")
	}
}

func TestDevDetailOnlyInDevelopment(t *testing.T) {
	prod := hygieneServer(t, false).Get("/v1/upstream")
	if msg := prod.ExpectError(t, 502, "QUERY_ERROR"); strings.Contains(string(prod.Body), "10.1.2.3") {
		t.Errorf("production body leaks the address: %s (%s)", prod.Body, msg)
	}
	dev := hygieneServer(t, true).Get("/v1/upstream")
	if msg := dev.ExpectError(t, 502, "QUERY_ERROR"); !strings.Contains(msg, "10.1.2.3") {
		t.Errorf("development message %q should carry the detail", msg)
	}
}

func TestExcerpt(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc… (3 more characters)"},
		{"ééééé", 2, "éé… (3 more characters)"},
		{"ab", 0, "… (2 more characters)"},
		{"日本語テキスト", 3, "日本語… (4 more characters)"},
		{"abc", 3, "abc"},
	}
	for _, tc := range cases {
		if got := httpapi.Excerpt(tc.in, tc.n); got != tc.want {
			t.Errorf("Excerpt(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestJSONRoutesDocument415(t *testing.T) {
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	shared := map[string]openapi.Response{"200": {Description: "ok"}}
	r.Handle("POST", "/v1/json", func(http.ResponseWriter, *http.Request) error { return nil },
		openapi.Operation{Responses: shared, RequestBody: &openapi.RequestBody{Content: openapi.JSON(openapi.Object(nil))}})
	r.Handle("GET", "/v1/plain", func(http.ResponseWriter, *http.Request) error { return nil },
		openapi.Operation{Responses: shared})
	if _, ok := r.Doc().Operation("POST", "/v1/json").Responses["415"]; !ok {
		t.Error("a JSON route must document 415")
	}
	if _, ok := r.Doc().Operation("GET", "/v1/plain").Responses["415"]; ok {
		t.Error("a route without a JSON body documents no 415")
	}
	if len(shared) != 1 {
		t.Error("the shared responses map was changed")
	}
}
