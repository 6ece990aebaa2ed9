package server

import (
	"bytes"
	"context"
	"html"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

// chromium finds a headless browser. Without one the test skips loudly,
// unless REGELKIT_REQUIRE_BROWSER=1 (CI) makes that a failure.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("REGELKIT_REQUIRE_BROWSER") == "1" {
		t.Fatal("REGELKIT_REQUIRE_BROWSER=1 but no chromium on PATH (Debian: apt-get install chromium)")
	}
	t.Skip("SKIPPED: browser test needs headless Chromium (Debian: apt-get install chromium); set REGELKIT_REQUIRE_BROWSER=1 to make this a failure")
	return ""
}

func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=10000"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%.2000s", err, stderr.String())
	}
	return out
}

// TestBrowser loads the app in headless Chromium against the real front on
// the embedded store: the task list, an opened task, a prediction and the
// converted TriG (the content of the download link), which must parse.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	srv := httptest.NewServer(testApp(t, nil))
	defer srv.Close()
	q := url.Values{
		"task":     {"http://ontology.tno.nl/normengineering/editor#task-3d0c8f6e-1a2b-4c5d-8e9f-0a1b2c3d4e5f"},
		"convert":  {"1"},
		"sentence": {"Het college verleent bijstand aan de aanvrager."},
		"model":    {"regelkit-rules-nl"},
	}
	page := srv.URL + "/?" + q.Encode()
	dom := string(runChromium(t, bin, "--dump-dom", page))

	for _, want := range []string{
		`>Participatiewet art. 43</button>`, `>Uitvoeringswet AVG art. 22</button>`, // the task list
		`>Participatiewet, artikel 43</button>`,                // the source list
		`>vaststellen bijstand college aanvrager</b>`,          // an act of the opened task
		`>recht op bijstand</b>`,                               // its claim-duty
		`<mark>recht op bijstand</mark>`,                       // an anchored range
		`<span class="tag Actor" title="Actor">college</span>`, // the prediction
		`<span class="tag Action" title="Action">verleent</span>`,
		`Successful conversion to RDF!`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	m := regexp.MustCompile(`(?s)<pre id="trig" data-testid="trig">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("no TriG on the page")
	}
	ds, err := graph.ParseDataset(strings.NewReader(html.UnescapeString(m[1])), graph.TriG, graph.ParseOptions{})
	if err != nil {
		t.Fatalf("downloaded TriG does not parse: %v", err)
	}
	if n := len(ds.Names()); n != 3 {
		t.Errorf("TriG has %d graphs, want 3 (task, interpretation, source)", n)
	}

	dir := os.Getenv("REGELKIT_ARTIFACT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	shot := filepath.Join(dir, "editor-screenshot.png")
	runChromium(t, bin, "--window-size=1280,1000", "--screenshot="+shot, page)
	if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
		t.Errorf("screenshot %s: %v", shot, err)
	}
	t.Logf("screenshot: %s", shot)
}
