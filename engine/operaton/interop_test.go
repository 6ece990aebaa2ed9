package operaton

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/dmn/tck"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"
	"github.com/regelkit/regelkit/sparql/suitetest"
)

// TestInteropTCK deploys every compliance-level-2 model of the DMN TCK
// through this client into engine/rest serving engine/local (over real
// HTTP, one tenant per TCK folder) and evaluates every test case twice:
// over HTTP and in-process on the same embedded engine. The results must
// be identical; how many also meet the TCK's expectations is reported and
// held to the floor file testdata/interop-<mode>.txt, which lists the ids
// of the cases that do ("folder test-id decision-name"). It runs in
// Operaton mode (the engine's default) and in standard DMN mode.
func TestInteropTCK(t *testing.T) {
	root := suitetest.Dir(t, suitetest.DMNTCK)
	dir := filepath.Join(root, "TestCases", "compliance-level-2")
	folders, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("operaton", func(t *testing.T) { interopTCK(t, dir, folders, "operaton", local.Options{}) })
	t.Run("standard", func(t *testing.T) { interopTCK(t, dir, folders, "standard", local.Options{Standard: true}) })
}

func interopTCK(t *testing.T, dir string, folders []os.DirEntry, mode string, opts local.Options) {
	eng := local.New(opts)
	srv := httptest.NewServer(rest.NewHandler(eng, rest.Options{}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL + "/engine-rest"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res := suitetest.NewResults("engine interop dmn-tck cl2 " + mode)
	cases, identical, expected := 0, 0, 0
	for _, f := range folders {
		if !f.IsDir() {
			continue
		}
		folder := filepath.Join(dir, f.Name())
		tenant := f.Name()
		models, tests := readFolder(t, folder)
		var rs []engine.Resource
		ids := map[string]string{} // decision name -> id
		multi := map[string]bool{} // decision id -> multi-hit table (its value is a list)
		for name, data := range models {
			rs = append(rs, engine.Resource{Name: name, Data: data})
			defs, err := dmn.ParseBytes(data)
			if err != nil {
				t.Fatalf("%s/%s: %v", tenant, name, err)
			}
			for _, d := range defs.Decisions {
				ids[d.Name] = d.ID
				if dt, ok := d.Logic.(*dmn.DecisionTable); ok {
					switch dt.HitPolicy {
					case dmn.HitRuleOrder, dmn.HitOutputOrder:
						multi[d.ID] = true
					case dmn.HitCollect:
						multi[d.ID] = dt.Aggregation == ""
					}
				}
			}
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
		if _, err := c.Deploy(ctx, engine.NewDeployment{Name: tenant, TenantID: tenant, Resources: rs}); err != nil {
			t.Errorf("%s: deploy over HTTP: %v", tenant, err)
			continue
		}
		for _, tf := range tests {
			for _, tc := range tf.Cases {
				if tc.Type != "decision" {
					continue
				}
				vars := engine.Variables{}
				for _, in := range tc.Inputs {
					v, err := local.FromFEEL(in.Value.FEEL())
					if err != nil {
						t.Fatalf("%s %s: input %s: %v", tenant, tc.ID, in.Name, err)
					}
					vars[in.Name] = v
				}
				for _, rn := range tc.Results {
					cases++
					id := tenant + " " + tc.ID + " " + rn.Name
					key := ids[rn.Name]
					if key == "" {
						t.Errorf("%s: no decision named %q", id, rn.Name)
						res.Record(t, id, errors.New("no such decision"))
						continue
					}
					want, errIn := eng.Evaluate(ctx, key, tenant, vars)
					got, errHTTP := c.Evaluate(ctx, key, tenant, vars)
					if same, why := sameOutcome(want, errIn, got, errHTTP); !same {
						t.Errorf("%s: in-process and HTTP differ: %s", id, why)
						res.Record(t, id, errors.New("in-process and HTTP differ: "+why))
						continue
					}
					identical++
					if errIn == nil && rn.Expected != nil && !rn.ErrorResult && tck.Equal(rn.Expected.FEEL(), resultValue(t, want, multi[key])) {
						expected++
						res.Record(t, id, nil)
					} else {
						res.Record(t, id, errors.New("not as the TCK expects"))
					}
				}
			}
		}
	}
	line := fmt.Sprintf("engine interop dmn-tck cl2 (%s mode): %d cases, %d identical over HTTP and in-process, %d as the TCK expects", mode, cases, identical, expected)
	fmt.Println(line)
	t.Log(line)
	if identical != cases {
		t.Errorf("%d of %d cases differ between HTTP and in-process", cases-identical, cases)
	}
	res.Check(t, filepath.Join("testdata", "interop-"+mode+".txt"))
}

func readFolder(t *testing.T, dir string) (map[string][]byte, []*tck.TestCases) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	models := map[string][]byte{}
	var tests []*tck.TestCases
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".dmn":
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			models[e.Name()] = data
		case ".xml":
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			tc, err := tck.ParseTestCases(f)
			f.Close()
			if err == nil {
				tests = append(tests, tc)
			}
		}
	}
	return models, tests
}

// sameOutcome compares an in-process result with one over HTTP: both fail,
// or both have the same rows with equal variables.
func sameOutcome(a engine.Result, errA error, b engine.Result, errB error) (bool, string) {
	if errA != nil || errB != nil {
		if errA == nil || errB == nil {
			return false, fmt.Sprintf("in-process error %v, HTTP error %v", errA, errB)
		}
		// the HTTP error carries the in-process message after Operaton's prefix
		var ee *engine.Error
		if !errors.As(errB, &ee) || !strings.HasSuffix(ee.Message, errA.Error()) {
			return false, fmt.Sprintf("in-process error %q, HTTP error %v", errA, errB)
		}
		return true, ""
	}
	if len(a) != len(b) {
		return false, fmt.Sprintf("%d rows in-process, %d over HTTP", len(a), len(b))
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false, fmt.Sprintf("row %d: %v in-process, %v over HTTP", i, a[i], b[i])
		}
		for k, v := range a[i] {
			if w, ok := b[i][k]; !ok || !v.Equal(w) {
				return false, fmt.Sprintf("row %d, %s: %v in-process, %v over HTTP", i, k, v, w)
			}
		}
	}
	return true, ""
}

// resultValue is the decision's value the TCK compares: the single output
// of a single row, a context of a row's outputs, a list over the rows of a
// multi-hit table.
func resultValue(t *testing.T, r engine.Result, multi bool) feel.Value {
	row := func(m map[string]engine.Variable) feel.Value {
		if len(m) == 1 {
			for _, v := range m {
				x, err := local.FEEL(v)
				if err != nil {
					t.Fatal(err)
				}
				return x
			}
		}
		c := feel.NewContext(len(m))
		for _, k := range sortedKeys(m) {
			x, err := local.FEEL(m[k])
			if err != nil {
				t.Fatal(err)
			}
			c.Put(k, x)
		}
		return c
	}
	switch {
	case len(r) == 0 && !multi:
		return nil
	case len(r) == 1 && !multi:
		return row(r[0])
	}
	out := make([]feel.Value, len(r))
	for i, m := range r {
		out[i] = row(m)
	}
	return out
}

func sortedKeys(m map[string]engine.Variable) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
