package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinaryExitStatus builds the command and checks that the process
// exits with run's code, as a CI runner sees it.
func TestBinaryExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "regelkit-validate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"dmn", "testdata/ok.dmn"}, 0},
		{[]string{"dmn", "testdata/toeslag.dmn"}, 1},
		{[]string{"shacl", "-format", "sarif", "testdata/regels.ttl"}, 1},
		{[]string{"dmn", "testdata/nope.dmn"}, 2},
		{[]string{"validate"}, 2},
	} {
		cmd := exec.Command(bin, tc.args...)
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code {
			t.Errorf("%s: exit status %d, want %d", strings.Join(tc.args, " "), code, tc.code)
		}
	}
}

// An endless input costs -max-bytes of memory, then is refused.
func TestEndlessInput(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	code, _, errOut := runCmd(t, "dmn", "-max-bytes", "1000", "/dev/zero")
	if code != exitUsage || !strings.Contains(errOut, "/dev/zero: file too large: more than 1000 bytes (-max-bytes)") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
