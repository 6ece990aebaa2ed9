package predict

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// PerceptronFormat is the manifest format of a perceptron model directory.
const PerceptronFormat = "regelkit-perceptron/1"

// Manifest is a model directory's model.json.
type Manifest struct {
	Format       string         `json:"format"`
	Labels       []string       `json:"labels"`
	FeatureSet   string         `json:"featureSet"`
	CorpusSHA256 string         `json:"corpusSha256"`
	Sentences    map[string]int `json:"sentences"` // per split
	Epochs       int            `json:"epochs"`
	Seed         uint64         `json:"seed"`
	Test         Metrics        `json:"test"`     // the model on the test split
	Baseline     Metrics        `json:"baseline"` // RuleTagger on the same split
	Note         string         `json:"note"`
}

// BuildModel trains on the corpus's train split and measures on its test
// split: the manifest and the gzip weights, both deterministic.
func BuildModel(corpus []byte) (*Manifest, []byte, error) {
	sents, err := ReadCorpus(bytes.NewReader(corpus))
	if err != nil {
		return nil, nil, err
	}
	split := map[string][]Sentence{}
	for _, s := range sents {
		split[Split(s)] = append(split[Split(s)], s)
	}
	if len(split["train"]) == 0 || len(split["test"]) == 0 {
		return nil, nil, fmt.Errorf("corpus of %d sentences has an empty train or test split", len(sents))
	}
	opts := TrainOptions{Epochs: 10, Seed: 1}
	m := Train(split["train"], opts)
	var w bytes.Buffer
	if err := m.Save(&w); err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(corpus)
	man := &Manifest{
		Format: PerceptronFormat, Labels: m.Labels, FeatureSet: FeatureSet,
		CorpusSHA256: hex.EncodeToString(sum[:]),
		Sentences:    map[string]int{"train": len(split["train"]), "dev": len(split["dev"]), "test": len(split["test"])},
		Epochs:       opts.Epochs, Seed: opts.Seed,
		Test:     Evaluate(m.Tag, split["test"]),
		Baseline: Evaluate(RuleTagger, split["test"]),
		Note: "A suggestion aid: measured on a small test split of sentences modelled on Dutch legislation; " +
			"expect accuracy well below the published transformer figures.",
	}
	return man, w.Bytes(), nil
}
