package tck

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// suiteRoot finds the DMN TCK: $REGELKIT_DMN_TCK or ../shared/testsuites/dmn-tck
// beside the repository.
func suiteRoot(t *testing.T) string {
	if d := os.Getenv("REGELKIT_DMN_TCK"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "testsuites", "dmn-tck")
}

func readFloor(t *testing.T) map[string]int {
	f, err := os.Open(filepath.Join("..", "testdata", "tck-floor.txt"))
	if err != nil {
		t.Fatalf("floor file: %v", err)
	}
	defer f.Close()
	floor := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			continue
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil {
			t.Fatalf("floor file: %q: %v", sc.Text(), err)
		}
		floor[fields[0]] = n
	}
	return floor
}

func TestTCK(t *testing.T) {
	root := suiteRoot(t)
	if _, err := os.Stat(filepath.Join(root, "TestCases")); err != nil {
		t.Skipf("DMN TCK not found at %s (set REGELKIT_DMN_TCK): %v", root, err)
	}
	floor := readFloor(t)
	var all []Outcome
	for _, level := range []struct{ dir, name, short string }{
		{"compliance-level-2", "dmn-tck-cl2", "cl2"},
		{"compliance-level-3", "dmn-tck-cl3", "cl3"},
	} {
		outcomes, err := RunSuite(context.Background(), root, level.dir)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, outcomes...)
		passed, failed := 0, 0
		byFolder := map[string]int{}
		for _, o := range outcomes {
			if o.Status == Success {
				passed++
			} else {
				failed++
				byFolder[o.Folder]++
				if testing.Verbose() && os.Getenv("REGELKIT_DMN_TCK_DETAIL") != "" {
					t.Logf("FAIL %s %s %s: %s", o.Folder, o.File, o.ID, o.Detail)
				}
			}
		}
		fmt.Printf("dmn-tck %s: %d passed, %d failed\n", level.short, passed, failed)
		t.Logf("dmn-tck %s: %d passed, %d failed", level.short, passed, failed)
		if testing.Verbose() {
			var folders []string
			for f := range byFolder {
				folders = append(folders, f)
			}
			sort.Strings(folders)
			for _, f := range folders {
				t.Logf("  failures in %s: %d", f, byFolder[f])
			}
		}
		if passed < floor[level.name] {
			t.Errorf("%s: %d passed, below the floor of %d", level.name, passed, floor[level.name])
		}
	}
	if p := os.Getenv("REGELKIT_DMN_TCK_CSV"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := WriteCSV(f, all); err != nil {
			t.Fatal(err)
		}
	}
}
