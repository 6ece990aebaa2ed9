package predict

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPostProcess(t *testing.T) {
	cases := []struct {
		name string
		in   []Piece
		want [][2]string
	}{
		{"empty", nil, [][2]string{}},
		{"special tokens and renaming", []Piece{{"[CLS]", "O"}, {"college", "ACTOR"}, {"verleent", "V"}, {"bijstand", "OBJ"}, {"aan", "O"}, {"hem", "REC"}, {"[SEP]", "O"}},
			[][2]string{{"college", "Actor"}, {"verleent", "Action"}, {"bijstand", "Object"}, {"aan", "None"}, {"hem", "Recipient"}}},
		{"other label set", []Piece{{"a", "ACTION"}, {"b", "OBJECT"}, {"c", "RECIPIENT"}}, [][2]string{{"a", "Action"}, {"b", "Object"}, {"c", "Recipient"}}},
		{"continuation keeps previous label", []Piece{{"bij", "OBJ"}, {"##stand", "O"}, {"##suitkering", "V"}}, [][2]string{{"bijstandsuitkering", "Object"}}},
		{"leading continuation", []Piece{{"##ing", "O"}, {"x", "ACTOR"}}, [][2]string{{"##ing", "None"}, {"x", "Actor"}}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, PostProcess(c.in)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestTokenize(t *testing.T) {
	got := Tokenize("Het college (B&W) verleent bijstand aan d'ouders, zo'n 12,5%-deel.")
	want := []string{"Het", "college", "(", "B", "&", "W", ")", "verleent", "bijstand", "aan", "d'ouders", ",", "zo'n", "12", ",", "5", "%", "-", "deel", "."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func post(t *testing.T, opts Options, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest("POST", "/api/predict", strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	New(opts).ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("not JSON: %q", rec.Body.String())
	}
	return rec.Code, out
}

func TestRegistry(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "torch-model"), 0o755)
	os.WriteFile(filepath.Join(dir, "torch-model", "model.json"), []byte(`{"format":"pytorch"}`), 0o644)
	opts := Options{ModelPath: dir}
	code, body := post(t, opts, `{"text":"Het college verleent bijstand."}`)
	if diff := cmp.Diff(map[string]any{"text": "Het college verleent bijstand.", "error": "Model does not exist on filesystem."}, body); code != 500 || diff != "" {
		t.Errorf("default bertje absent: %d %s", code, diff)
	}
	code, body = post(t, opts, `{"text":"x","model":"torch-model"}`)
	if code != 500 || body["error"] != "Model format not supported." {
		t.Errorf("unsupported: %d %v", code, body)
	}
	opts.DefaultModel = KeyRules
	for _, model := range []string{"", "unknown", KeyRules} {
		code, body = post(t, opts, `{"text":"Het college verleent bijstand aan de aanvrager.","model":"`+model+`"}`)
		want := map[string]any{"text": "Het college verleent bijstand aan de aanvrager.", "model": KeyRules, "predicted_entities": []any{
			[]any{"Het", "None"}, []any{"college", "Actor"}, []any{"verleent", "Action"}, []any{"bijstand", "Object"},
			[]any{"aan", "None"}, []any{"de", "None"}, []any{"aanvrager", "Recipient"}, []any{".", "None"}}}
		if diff := cmp.Diff(want, body); code != 200 || diff != "" {
			t.Errorf("model %q: %d (-want +got):\n%s", model, code, diff)
		}
	}
	code, body = post(t, opts, `{"text":"   "}`)
	if code != 200 || len(body["predicted_entities"].([]any)) != 0 {
		t.Errorf("blank: %d %v", code, body)
	}
	for _, bad := range []string{`{}`, `nope`, `{"text":3}`} {
		code, body = post(t, opts, bad)
		if diff := cmp.Diff(map[string]any{"text": "", "error": "Field 'text' is required."}, body); code != 400 || diff != "" {
			t.Errorf("%s: %d %s", bad, code, diff)
		}
	}
	code, body = post(t, opts, `{"text":"`+strings.Repeat("woord ", 200000)+`"}`)
	if code != 413 || body["error"] != "Payload too large." {
		t.Errorf("1 MiB+: %d %v", code, body["error"])
	}
	opts.APIKey = "k"
	code, body = post(t, opts, `{"text":"x"}`, "X-API-KEY", "wrong")
	if code != 401 || body["error"] != "Unauthorized: Invalid key" {
		t.Errorf("key: %d %v", code, body)
	}
}
