package predict

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

const corpusPath = "../../../../examples/editor/corpus/nl-legal.tsv"
const modelDir = "../../../../examples/editor/models/regelkit-perceptron-nl"

// TestRetrainingIsByteIdentical retrains from the corpus and compares with
// the shipped model directory: same weights byte for byte, same manifest.
func TestRetrainingIsByteIdentical(t *testing.T) {
	corpus, err := os.ReadFile(corpusPath)
	if err != nil {
		t.Fatal(err)
	}
	man, weights, err := BuildModel(corpus)
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile(modelDir + "/weights.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(weights, shipped) {
		t.Error("retrained weights differ from the shipped weights.json.gz (run the train command and commit)")
	}
	var shippedMan Manifest
	data, _ := os.ReadFile(modelDir + "/model.json")
	if err := json.Unmarshal(data, &shippedMan); err != nil {
		t.Fatal(err)
	}
	if shippedMan.CorpusSHA256 != man.CorpusSHA256 || shippedMan.Test.MacroF1 != man.Test.MacroF1 {
		t.Errorf("manifest is stale: corpus %s F1 %v, retrained %s F1 %v", shippedMan.CorpusSHA256, shippedMan.Test.MacroF1, man.CorpusSHA256, man.Test.MacroF1)
	}
	// The learned model must beat the rule-based baseline on the test split.
	if man.Test.MacroF1 < man.Baseline.MacroF1+0.10 {
		t.Errorf("macro F1 %.3f is not 10 points above the baseline %.3f", man.Test.MacroF1, man.Baseline.MacroF1)
	}
}

func TestPerceptronModelThroughRegistry(t *testing.T) {
	opts := Options{ModelPath: "../../../../examples/editor/models", DefaultModel: "regelkit-perceptron-nl"}
	text := "Het college verleent de aanvrager bijstand, zo'n 12,5%-deel."
	code, body := post(t, opts, `{"text":"`+text+`"}`)
	if code != 200 || body["model"] != "regelkit-perceptron-nl" {
		t.Fatalf("%d %v", code, body)
	}
	// Every token is an in-order substring of the text.
	at := 0
	for _, e := range body["predicted_entities"].([]any) {
		tok := e.([]any)[0].(string)
		i := strings.Index(text[at:], tok)
		if i < 0 {
			t.Fatalf("token %q not found after offset %d", tok, at)
		}
		at += i + len(tok)
	}
	// A long input is tagged in bounded chunks.
	long := strings.Repeat("Het college verleent bijstand. ", 20000)
	code, body = post(t, opts, `{"text":"`+long+`"}`)
	if n := len(body["predicted_entities"].([]any)); code != 200 || n != 100000 {
		t.Errorf("long input: %d, %d tokens", code, n)
	}
}

func TestLoadPerceptronRejectsMalformed(t *testing.T) {
	var buf bytes.Buffer
	bad := &Perceptron{Labels: []string{"None"}, Transitions: [][]float64{{0}}}
	if err := bad.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPerceptron(&buf, 1<<20); err == nil {
		t.Error("transitions without the start row accepted")
	}
}

func BenchmarkPerceptronTag(b *testing.B) {
	f, err := os.Open(modelDir + "/weights.json.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	m, err := LoadPerceptron(f, 1<<28)
	if err != nil {
		b.Fatal(err)
	}
	tokens := Tokenize("De verwerkingsverantwoordelijke verstrekt de betrokkene binnen een maand een kopie van de persoonsgegevens.")
	for b.Loop() {
		m.Tag(tokens)
	}
}

func BenchmarkTrain(b *testing.B) {
	corpus, err := os.ReadFile(corpusPath)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := BuildModel(corpus); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGoldenSentences pins the model's output on sentences outside the
// corpus, annotated by hand per the corpus's annotation guideline.
func TestGoldenSentences(t *testing.T) {
	f, err := os.Open(modelDir + "/weights.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := LoadPerceptron(f, 1<<28)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ text, labels string }{
		{"Het college verleent de aanvrager een toeslag .", "None Actor Action None Recipient None Object None"},
		{"De burgemeester trekt de vergunning in .", "None Actor Action None Object Action None"},
		{"De inspecteur legt de belastingplichtige een boete op .", "None Actor Action None Recipient None Object Action None"},
	}
	for _, c := range cases {
		got := strings.Join(m.Tag(Tokenize(c.text)), " ")
		if got != c.labels {
			t.Errorf("%s\n got  %s\n want %s", c.text, got, c.labels)
		}
	}
}

// BenchmarkPerceptronTagCorpus tags every corpus sentence once per
// iteration and reports the 99th percentile of one sentence's latency.
func BenchmarkPerceptronTagCorpus(b *testing.B) {
	f, err := os.Open(modelDir + "/weights.json.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	m, err := LoadPerceptron(f, 1<<28)
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(corpusPath)
	if err != nil {
		b.Fatal(err)
	}
	sents, err := ReadCorpus(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for b.Loop() {
		for _, s := range sents {
			start := time.Now()
			m.Tag(s.Tokens)
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs/sentence")
}
