package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// cluster is a throwaway PostgreSQL server: initdb into a temporary
// directory, postgres as a child process on 127.0.0.1.
type cluster struct {
	bin  string // directory of initdb and postgres
	dir  string // temporary directory: data/, the socket, postgres.log
	port int
	cred *syscall.Credential // non-nil when running as root

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited
}

const (
	startTimeout = 60 * time.Second
	stopTimeout  = 30 * time.Second
)

func startCluster() (*cluster, error) {
	bin, err := findBinaries()
	if err != nil {
		return nil, err
	}
	c := &cluster{bin: bin}
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root.
		if c.cred, err = postgresUser(); err != nil {
			return nil, err
		}
	}
	if c.dir, err = os.MkdirTemp("", "regelkit-pgtest-"); err != nil {
		return nil, err
	}
	if c.cred != nil {
		if err := os.Chown(c.dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			c.remove()
			return nil, fmt.Errorf("hand the temporary directory to the postgres user: %w", err)
		}
	}
	if c.port, err = freePort(); err != nil {
		c.remove()
		return nil, err
	}
	initdb := c.command(filepath.Join(bin, "initdb"),
		"-D", c.dataDir(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		c.remove()
		return nil, fmt.Errorf("initdb: %v: %s", err, tail(string(out), 600))
	}
	if err := c.start(); err != nil {
		c.remove()
		return nil, err
	}
	return c, nil
}

func (c *cluster) dataDir() string { return filepath.Join(c.dir, "data") }
func (c *cluster) logPath() string { return filepath.Join(c.dir, "postgres.log") }

// url connects to database name as the superuser postgres.
func (c *cluster) url(name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable&connect_timeout=5", c.port, name)
}

// command prepares a PostgreSQL program, as the postgres user when running
// as root.
func (c *cluster) command(path string, args ...string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	cmd.Dir = c.dir // a working directory the postgres user can enter
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	cmd.SysProcAttr = sysProcAttr(c.cred)
	return cmd
}

func (c *cluster) running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return false
	}
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

// start runs postgres and waits until it accepts connections.
func (c *cluster) start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd != nil {
		select {
		case <-c.exited:
		default:
			return nil // already running
		}
	}
	logFile, err := os.OpenFile(c.logPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	cmd := c.command(filepath.Join(c.bin, "postgres"),
		"-D", c.dataDir(),
		"-p", strconv.Itoa(c.port),
		"-k", c.dir,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "shared_buffers=32MB",
		"-c", "max_connections=200",
	)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	c.cmd, c.exited = cmd, exited

	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.url("postgres"))
		if err == nil {
			_ = conn.Close(ctx)
			cancel()
			return nil
		}
		cancel()
		select {
		case <-exited:
			return fmt.Errorf("postgres exited at start-up: %s", tail(c.readLog(), 800))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections within %v: %v", startTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop asks for a fast shutdown (SIGINT) and waits; after stopTimeout it
// kills the server.
func (c *cluster) stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return nil
	}
	select {
	case <-c.exited:
		return nil
	default:
	}
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-c.exited:
		return nil
	case <-time.After(stopTimeout):
		_ = c.cmd.Process.Kill()
		<-c.exited
		return fmt.Errorf("postgres did not stop within %v; killed", stopTimeout)
	}
}

// remove stops the server and deletes its directory.
func (c *cluster) remove() {
	_ = c.stop()
	if c.dir != "" {
		_ = os.RemoveAll(c.dir)
	}
}

func (c *cluster) readLog() string {
	b, _ := os.ReadFile(c.logPath())
	return string(b)
}

// findBinaries locates the directory holding initdb and postgres.
func findBinaries() (string, error) {
	var candidates []string
	if d := os.Getenv(EnvBin); d != "" {
		candidates = append(candidates, d)
	}
	// Debian and Ubuntu keep them off PATH, one directory per major version.
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(matches, func(i, j int) bool { return majorVersion(matches[i]) > majorVersion(matches[j]) })
	candidates = append(candidates, matches...)
	candidates = append(candidates, "/usr/local/pgsql/bin")
	if p, err := exec.LookPath("initdb"); err == nil {
		candidates = append(candidates, filepath.Dir(p))
	}
	for _, d := range candidates {
		if isExecutable(filepath.Join(d, "initdb")) && isExecutable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", errors.New("no initdb/postgres binaries found (looked in " + EnvBin +
		", /usr/lib/postgresql/*/bin, /usr/local/pgsql/bin and PATH)")
}

func majorVersion(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// postgresUser returns the credentials of the postgres OS user.
func postgresUser() (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and there is no postgres OS user to run initdb and postgres as: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("postgres OS user has non-numeric ids %q/%q", u.Uid, u.Gid)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
