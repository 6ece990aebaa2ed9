package virtuosotest

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// EnvRequire, when "1", turns a skip for missing Virtuoso binaries into a
// failure. CI sets it after installing virtuoso-opensource.
const EnvRequire = "REGELKIT_REQUIRE_VIRTUOSO"

// startTimeout bounds the wait for Virtuoso's HTTP listener.
const startTimeout = 60 * time.Second

// Options configure a throwaway Virtuoso.
type Options struct {
	// AllowUpdate grants SPARQL_UPDATE to the anonymous "SPARQL" user, so
	// the /sparql endpoint accepts SPARQL Update (INSERT DATA, CLEAR, ...).
	AllowUpdate bool
}

// Server is a running throwaway Virtuoso.
type Server struct {
	dir      string
	isql     string
	sqlPort  int
	httpPort int
	loads    atomic.Int64 // names the files handed to DB.DBA.TTLP
}

// Start runs a fresh Virtuoso for t and returns it once its SPARQL endpoint
// answers. It is killed and its files removed when t ends. Without the
// binaries t is skipped, or fails when REGELKIT_REQUIRE_VIRTUOSO=1.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin, err1 := lookBin("virtuoso-t")
	isql, err2 := lookBin("isql-vt")
	if err1 != nil || err2 != nil {
		msg := "SKIPPING: virtuoso-t and isql-vt not found (apt-get install virtuoso-opensource); set " +
			EnvRequire + "=1 to make this a failure"
		if os.Getenv(EnvRequire) == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	s := &Server{dir: t.TempDir(), isql: isql, sqlPort: freePort(t), httpPort: freePort(t)}
	iniPath := filepath.Join(s.dir, "virtuoso.ini")
	if err := os.WriteFile(iniPath, []byte(s.ini()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd := exec.Command(bin, "+foreground", "+configfile", iniPath)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start virtuoso-t: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Registered after TempDir, so it runs before the directory is removed.
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	if err := waitReady(s.SPARQL(), exited); err != nil {
		t.Fatalf("virtuoso: %v\n%s", err, tail(out.String(), 2000))
	}
	if opts.AllowUpdate {
		s.ISQL(t, `GRANT SPARQL_UPDATE TO "SPARQL";`)
	}
	return s
}

func (s *Server) ini() string {
	return fmt.Sprintf(`[Database]
DatabaseFile = %[1]s/virtuoso.db
ErrorLogFile = %[1]s/virtuoso.log
LockFile = %[1]s/virtuoso.lck
TransactionFile = %[1]s/virtuoso.trx
xa_persistent_file = %[1]s/virtuoso.pxa
[TempDatabase]
DatabaseFile = %[1]s/virtuoso-temp.db
TransactionFile = %[1]s/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:%[2]d
DisableUnixSocket = 1
DirsAllowed = ., %[1]s
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
CheckpointInterval = 0
[HTTPServer]
ServerPort = 127.0.0.1:%[3]d
ServerRoot = %[1]s
ServerThreads = 4
[SPARQL]
ResultSetMaxRows = 100000
MaxQueryExecutionTime = 60
`, s.dir, s.sqlPort, s.httpPort)
}

// waitReady polls the SPARQL endpoint until it answers ASK {} with 200.
func waitReady(endpoint string, exited chan error) error {
	c := &http.Client{Timeout: 2 * time.Second}
	for deadline := time.Now().Add(startTimeout); time.Now().Before(deadline); {
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("virtuoso-t exited at start-up: %v", err)
		default:
		}
		resp, err := c.Get(endpoint + "?query=" + url.QueryEscape("ASK {}"))
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("no answer at %s within %v", endpoint, startTimeout)
}

// SPARQL is the URL of the SPARQL 1.1 query (and, with AllowUpdate, update)
// endpoint.
func (s *Server) SPARQL() string { return fmt.Sprintf("http://127.0.0.1:%d/sparql", s.httpPort) }

// BaseURL is the HTTP listener's root, e.g. for /sparql-graph-crud.
func (s *Server) BaseURL() string { return fmt.Sprintf("http://127.0.0.1:%d", s.httpPort) }

// ISQL runs SQL statements as dba through isql-vt and returns the output;
// an error, or "*** Error" in the output, fails t.
func (s *Server) ISQL(t testing.TB, stmt string) string {
	t.Helper()
	cmd := exec.Command(s.isql, fmt.Sprintf("127.0.0.1:%d", s.sqlPort), "dba", "dba", "exec="+stmt)
	out, err := cmd.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("*** Error")) {
		t.Fatalf("isql %s: %v\n%s", tail(stmt, 200), err, tail(string(out), 2000))
	}
	return string(out)
}

// LoadTurtle loads Turtle into the named graph, or into Virtuoso's default
// graph when graphIRI is empty; relative IRIs resolve against base
// https://data.regelkit.example/.
func (s *Server) LoadTurtle(t testing.TB, data []byte, graphIRI string) {
	t.Helper()
	s.load(t, data, graphIRI, 0)
}

// LoadTriG loads TriG: each GRAPH block into its graph, triples outside any
// block into graphIRI (the default graph when empty).
func (s *Server) LoadTriG(t testing.TB, data []byte, graphIRI string) {
	t.Helper()
	s.load(t, data, graphIRI, ttlpTriG)
}

// ttlpTriG is DB.DBA.TTLP's flag for TriG input (graph blocks).
const ttlpTriG = 256

func (s *Server) load(t testing.TB, data []byte, graphIRI string, flags int) {
	t.Helper()
	if graphIRI == "" {
		// TTLP has no default-graph target of its own: Virtuoso keeps
		// triples loaded without a graph in this one.
		graphIRI = DefaultGraph
	}
	if strings.ContainsAny(graphIRI, "'\\") {
		t.Fatalf("virtuosotest: graph IRI %q has a quote or backslash", graphIRI)
	}
	file := filepath.Join(s.dir, fmt.Sprintf("load-%d.ttl", s.loads.Add(1)))
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s.ISQL(t, fmt.Sprintf("DB.DBA.TTLP(file_to_string_output('%s'), 'https://data.regelkit.example/', '%s', %d);", file, graphIRI, flags))
}

// DefaultGraph is where LoadTurtle puts data given no graph. Queries that
// name no graph see every graph, so it acts as the default graph.
const DefaultGraph = "urn:regelkit:virtuosotest:default"

func lookBin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	p := "/usr/bin/" + name
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
