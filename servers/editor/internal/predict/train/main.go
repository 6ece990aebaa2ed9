package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/regelkit/regelkit/servers/editor/internal/predict"
)

func main() {
	corpus := flag.String("corpus", "examples/editor/corpus/nl-legal.tsv", "annotated corpus")
	out := flag.String("out", "examples/editor/models/regelkit-perceptron-nl", "model directory to write")
	flag.Parse()
	if err := run(*corpus, *out); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(corpusPath, out string) error {
	data, err := os.ReadFile(corpusPath)
	if err != nil {
		return err
	}
	manifest, weights, err := predict.BuildModel(data)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "weights.json.gz"), weights, 0o644); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(manifest); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "model.json"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	sum := sha256.Sum256(weights)
	fmt.Printf("weights sha256 %s; test macro F1 %.3f (baseline %.3f)\n", hex.EncodeToString(sum[:]),
		manifest.Test.MacroF1, manifest.Baseline.MacroF1)
	return nil
}
