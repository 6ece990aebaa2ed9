package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// freePorts returns n distinct free loopback ports.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// syncBuffer is the stack's stdout, read while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type running struct {
	*stack
	explorer, business, editor, rules string
	tokens                            map[string]string
	stop                              func() error
}

// startStack runs serve on free ports and waits until all four answer.
func startStack(t *testing.T, extra map[string]string) *running {
	t.Helper()
	p := freePorts(t, 4)
	env := map[string]string{
		"EXPLORER_PORT": strconv.Itoa(p[0]), "BUSINESS_PORT": strconv.Itoa(p[1]),
		"EDITOR_PORT": strconv.Itoa(p[2]), "RULES_PORT": strconv.Itoa(p[3]),
		"DEV_IDENTITY_KEY_FILE": filepath.Join(t.TempDir(), "dev-key.pem"),
		"LOG_LEVEL":             "warn",
	}
	for k, v := range extra {
		env[k] = v
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	st, err := build(ctx, lookup, out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- st.run(ctx) }()
	s := &running{stack: st,
		explorer: "http://127.0.0.1:" + strconv.Itoa(p[0]), business: "http://127.0.0.1:" + strconv.Itoa(p[1]),
		editor: "http://127.0.0.1:" + strconv.Itoa(p[2]), rules: "http://127.0.0.1:" + strconv.Itoa(p[3]),
	}
	var stopped bool
	var stopErr error
	s.stop = func() error {
		if !stopped {
			stopped = true
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the stack did not stop within 30s")
			}
		}
		return stopErr
	}
	t.Cleanup(func() { _ = s.stop() })
	deadline := time.Now().Add(60 * time.Second)
	for _, u := range []string{s.explorer + "/v1/health", s.business + "/v1/health/live", s.editor + "/api/ready", s.rules + "/"} {
		for {
			resp, err := http.Get(u)
			if err == nil {
				resp.Body.Close()
				break
			}
			select {
			case err := <-done:
				t.Fatalf("the stack stopped: %v", err)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s does not answer: %v", u, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	s.tokens = map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Z0-9]+)=(\S+)  # `).FindAllStringSubmatch(out.String(), -1) {
		s.tokens[m[1]] = m[2]
	}
	return s
}

func do(t *testing.T, method, url, token string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// localPassInputs are the README's local-pass inputs: both final outputs
// true.
var localPassInputs = map[string]any{
	"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": nil,
	"aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true, "aanvragerHeeftKind4Tm17": true,
	"aanvragerInwonerMunicipality": true, "maandelijksBrutoInkomenAanvrager": 1500,
	"aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
	"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
	"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false,
}

// TestStackEndToEnd: a DRD exported by the explorer is evaluated through
// the business API with a printed development token and read through the
// rules API's DMN method, all in one process on one engine.
func TestStackEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four servers")
	}
	s := startStack(t, nil)
	for _, name := range []string{"CASEWORKER", "CITIZEN", "M2M"} {
		if strings.Count(s.tokens[name], ".") != 2 {
			t.Fatalf("no %s token printed: %v", name, s.tokens)
		}
	}

	code, body := do(t, "POST", s.explorer+"/v1/chains/export", "", map[string]any{
		"chain": []string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "RONL_LocalpassEindresultaat"},
		"name":  "Localpass DRD", "endpoint": "/v1/sparql",
	})
	var exp struct {
		Data struct {
			DeploymentID string `json:"deploymentId"`
			EntryPointID string `json:"entryPointId"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &exp); code != http.StatusOK || err != nil || exp.Data.EntryPointID != "dmn2_RONL_LocalpassEindresultaat" {
		t.Fatalf("export: %d %.500s", code, body)
	}

	// The business API evaluates the exported DRD: the key exists only in
	// the deployment the explorer just made.
	code, body = do(t, "POST", s.business+"/v1/decision/dmn2_RONL_LocalpassEindresultaat/evaluate", s.tokens["CASEWORKER"],
		map[string]any{"variables": localPassInputs})
	var ev struct {
		Success bool           `json:"success"`
		Data    map[string]any `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); code != http.StatusOK || err != nil || !ev.Success {
		t.Fatalf("business evaluate: %d %.500s", code, body)
	}
	if ev.Data["aanmerkingLocalPass"] != true || ev.Data["aanmerkingKindPakket"] != true {
		t.Errorf("business evaluate: data %v, want aanmerkingLocalPass and aanmerkingKindPakket true", ev.Data)
	}
	// The machine token works too.
	if code, body := do(t, "GET", s.business+"/v1/m2m/decision/dmn2_RONL_LocalpassEindresultaat", s.tokens["M2M"], nil); code != http.StatusOK {
		t.Errorf("m2m definition: %d %.300s", code, body)
	}

	// The rules API reads the same deployment as a DMN 1.3 rule set.
	ids, err := resourceIDs(context.Background(), s.eng, exp.Data.DeploymentID)
	if err != nil || len(ids) != 1 {
		t.Fatalf("resources of the deployment: %v %v", ids, err)
	}
	var res string
	for _, id := range ids {
		res = id
	}
	rid := "DMN1.3_" + exp.Data.DeploymentID + "R" + res + "_2025-12-24_1"
	code, body = do(t, "GET", s.rules+"/rules/"+rid, "", nil)
	if code != http.StatusOK {
		t.Fatalf("rules %s: %d %.500s", rid, code, body)
	}
	for _, want := range []string{
		`"` + rid + `"`, "DecisionModel",
		"https://operaton.open-regels.nl/engine-rest/deployment/" + exp.Data.DeploymentID + "/resources/" + res + "/data",
		`"dmn2_RONL_LocalpassEindresultaat"`, `"dmn1_SZW_BijstandsnormInformatie"`,
	} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("rules answer lacks %s: %.800s", want, body)
		}
	}
	// The rules API's own repository still answers the rest, with what it
	// knows: an exact CVDR version keeps its in-force date from the
	// embedded versions.json behind the shared engine's repository.
	if code, body := do(t, "GET", s.rules+"/rules/CVDR712517_2", "", nil); code != http.StatusOK || !bytes.Contains(body, []byte(`"2025-01-01"`)) {
		t.Errorf("CVDR712517_2 through the stack: %d, want validFrom 2025-01-01: %.400s", code, body)
	}
	// An unknown deployment is the rules API's 404, not a failure.
	if code, body := do(t, "GET", s.rules+"/rules/DMN1.3_00000000-0000-4000-8000-000000000000R"+res+"_2025-12-24_1", "", nil); code != http.StatusNotFound {
		t.Errorf("unknown deployment: %d %.300s", code, body)
	}

	if code, body := do(t, "GET", s.editor+"/api/ready", "", nil); code != http.StatusOK || string(body) != `{"status":"ready"}`+"\n" {
		t.Errorf("editor readiness: %d %q", code, body)
	}
	// The editor shares the knowledge graph: its sources are there.
	if code, body := do(t, "GET", s.editor+"/api/getSources", "", nil); code != http.StatusOK || !bytes.Contains(body, []byte("Sources retrieved!")) {
		t.Errorf("editor sources: %d %.300s", code, body)
	}
	if err := s.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
}

// TestREADMEDocumentsEveryVariable keeps the README's stack configuration
// table in step with what loadConfig reads.
func TestREADMEDocumentsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := bytes.Cut(readme, []byte("## Stack configuration"))
	if !ok {
		t.Fatal(`README has no "## Stack configuration" section`)
	}
	if i := bytes.Index(section, []byte("\n## ")); i >= 0 {
		section = section[:i]
	}
	_, env, err := loadConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range env.Vars() {
		if !bytes.Contains(section, []byte("| `"+v.Name+"` |")) {
			t.Errorf("README's stack configuration table lacks %s", v.Name)
		}
	}
}

// TestConfig: the documented defaults, and two servers on one port refused.
func TestConfig(t *testing.T) {
	cfg, _, err := loadConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Explorer != 8081 || cfg.Business != 3002 || cfg.Editor != 8084 || cfg.Rules != 8083 || !cfg.Development ||
		cfg.Shutdown.Grace != 20*time.Second || cfg.Shutdown.Delay != 0 {
		t.Errorf("defaults: %+v", cfg)
	}
	_, _, err = loadConfig(lookupOf(map[string]string{"RULES_PORT": "8081"}))
	if err == nil || !strings.Contains(err.Error(), "EXPLORER_PORT and RULES_PORT are both 8081") {
		t.Errorf("a shared port: %v", err)
	}
	if got, _ := withPort(lookupOf(map[string]string{"PORT": "1"}), 9, "")("PORT"); got != "9" {
		t.Errorf("PORT = %s, want the stack's 9", got)
	}
	if got, ok := withPort(lookupOf(nil), 9, "")("METRICS_ADDR"); ok || got != "" {
		t.Errorf("METRICS_ADDR = %q, %v; want unset", got, ok)
	}
	if got, _ := withPort(lookupOf(nil), 9, ":9092")("METRICS_ADDR"); got != ":9092" {
		t.Errorf("METRICS_ADDR = %q, want :9092", got)
	}
	cfg, _, err = loadConfig(lookupOf(map[string]string{"BUSINESS_METRICS_ADDR": ":9092"}))
	if err != nil || cfg.MetricsAddr["business"] != ":9092" || cfg.MetricsAddr["explorer"] != "" {
		t.Errorf("BUSINESS_METRICS_ADDR: %v, %v", cfg, err)
	}
	_, _, err = loadConfig(lookupOf(map[string]string{"METRICS_ADDR": ":9090"}))
	if err == nil || !strings.Contains(err.Error(), "METRICS_ADDR would be every server's") {
		t.Errorf("METRICS_ADDR in the stack: %v", err)
	}
	_, _, err = loadConfig(lookupOf(map[string]string{"EDITOR_METRICS_ADDR": ":9090", "RULES_METRICS_ADDR": ":9090"}))
	if err == nil || !strings.Contains(err.Error(), "would both serve /metrics on :9090") {
		t.Errorf("one metrics address twice: %v", err)
	}
}
