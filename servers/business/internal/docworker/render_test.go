package docworker

import (
	"os"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
)

func TestRenderIntakeReport(t *testing.T) {
	data, err := os.ReadFile("../../../../examples/processes/projectphase/rip-intake-report.document")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Render(data, engine.Variables{
		"projectNumber": engine.String("2026-017"), "projectName": engine.String("Fietsbrug Noord"), "count": engine.Integer(3),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "Gemeente Voorbeeldstad, Realisatie Infrastructuur\n\n" +
		"Project 2026-017 — Fietsbrug Noord\n\n" +
		"Dit document legt de uitkomst van het intakegesprek vast.\n" +
		"Projectleider: {{projectLeader}}\n\n" +
		"Vastgesteld door het projectteam"
	if string(got.Text) != want || got.Name != "Intakerapport" {
		t.Errorf("Render = %q (name %q), want %q", got.Text, got.Name, want)
	}
}

func TestRenderShapes(t *testing.T) {
	tmpl := `{"id":"t","zones":{"annex":{"blocks":[{"content":{"type":"doc","content":[
		{"type":"bulletList","content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"een {{n}}"}]}]},
		                                {"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"twee"},{"type":"hardBreak"},{"type":"text","text":"{{ok}}"}]}]}]}]}}]},
		"body":{"blocks":[{"content":{"type":"doc","content":[{"type":"heading","content":[{"type":"text","text":"Kop"}]}]}}]}}}`
	got, err := Render([]byte(tmpl), engine.Variables{"n": engine.Long(42), "ok": engine.Boolean(true)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Kop\n\n- een 42\n- twee\ntrue"; string(got.Text) != want || got.Name != "t" {
		t.Errorf("Render = %q (name %q), want %q", got.Text, got.Name, want)
	}
}

func TestRenderBounds(t *testing.T) {
	deep := `{"type":"doc","content":[` + strings.Repeat(`{"type":"paragraph","content":[`, 100) +
		strings.Repeat(`]}`, 100) + `]}`
	if _, err := Render([]byte(`{"zones":{"body":{"blocks":[{"content":`+deep+`}]}}}`), nil); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep content: %v, want a nesting error", err)
	}
	if _, err := Render([]byte(strings.Repeat(" ", MaxTemplateBytes+1)), nil); err == nil {
		t.Error("oversized template accepted")
	}
	if _, err := Render([]byte(`[1,2]`), nil); err == nil {
		t.Error("a JSON array accepted as a template")
	}
	big := strings.Repeat("x", 300<<10)
	para := `{"type":"paragraph","content":[{"type":"text","text":"` + big + `"}]}`
	tmpl := `{"zones":{"body":{"blocks":[{"content":{"type":"doc","content":[` + strings.Repeat(para+",", 4) + para + `]}}]}}}`
	if _, err := Render([]byte(tmpl), nil); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("1.5 MB of text: %v, want a size error", err)
	}
}

func TestVariableName(t *testing.T) {
	for in, want := range map[string]string{"rip-intake-report": "ripIntakeReportDocumentId", "rip-pdp": "ripPdpDocumentId", "x": "xDocumentId"} {
		if got := variableName(in, "DocumentId"); got != want {
			t.Errorf("variableName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBackoffDoublesToItsCap(t *testing.T) {
	w := New(Options{RetryTimeout: 10e9, MaxRetryTimeout: 35e9})
	for n, want := range []int64{10e9, 20e9, 35e9, 35e9} {
		if got := w.backoff(n); int64(got) != want {
			t.Errorf("backoff(%d) = %v, want %v", n, got, want)
		}
	}
}

func FuzzRender(f *testing.F) {
	f.Add([]byte(`{"zones":{"body":{"blocks":[{"content":{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"{{a}}"}]}]}}]}}}`))
	f.Add([]byte(`{"zones":{"body":{"blocks":[{"content":[[[[]]]]}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Render(data, engine.Variables{"a": engine.String("{{a}}")})
		if err == nil && len(r.Text) > MaxRenderedBytes {
			t.Fatalf("rendered %d bytes", len(r.Text))
		}
	})
}
