package predict

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/regelkit/regelkit/servers/editor/internal/backend"
	"github.com/regelkit/regelkit/servers/editor/internal/convert"
)

// Spec model keys (spec §2) and the built-in baseline.
const (
	KeyBERTje    = "bertje_2022_e4"
	KeyLegalBERT = "legal-bert-dutch-english"
	KeyRules     = "regelkit-rules-nl"
)

// MaxBodyBytes bounds a prediction request.
const MaxBodyBytes = 1 << 20

// Options configure the prediction service.
type Options struct {
	// ModelPath holds one directory per model with a model.json manifest;
	// empty means "./models".
	ModelPath string
	// DefaultModel is the key used when a request names none or an unknown
	// one; empty means bertje_2022_e4 (spec §2).
	DefaultModel string
	// APIKey, when set, is required in X-API-KEY.
	APIKey string

	cache *modelCache
}

var keyPattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// Keys lists the registry: the spec's two keys, the built-in baseline and
// every directory under ModelPath with a model.json, sorted.
func (o Options) Keys() []string {
	keys := []string{KeyBERTje, KeyLegalBERT, KeyRules}
	entries, _ := os.ReadDir(o.modelPath())
	for _, e := range entries {
		if e.IsDir() && keyPattern.MatchString(e.Name()) {
			if _, err := os.Stat(filepath.Join(o.modelPath(), e.Name(), "model.json")); err == nil && !slices.Contains(keys, e.Name()) {
				keys = append(keys, e.Name())
			}
		}
	}
	slices.Sort(keys)
	return keys
}

func (o Options) modelPath() string {
	if o.ModelPath == "" {
		return "./models"
	}
	return o.ModelPath
}

func (o Options) defaultKey() string {
	if o.DefaultModel == "" {
		return KeyBERTje
	}
	return o.DefaultModel
}

// resolve picks the key (falling back to the default) and finds its tagger.
func (o Options) resolve(requested string) (string, func([]string) []string, string) {
	key := requested
	if key == "" || !slices.Contains(o.Keys(), key) {
		key = o.defaultKey()
	}
	if key == KeyRules {
		return key, RuleTagger, ""
	}
	if !keyPattern.MatchString(key) {
		return key, nil, "Model does not exist on filesystem."
	}
	data, err := os.ReadFile(filepath.Join(o.modelPath(), key, "model.json"))
	if err != nil {
		return key, nil, "Model does not exist on filesystem."
	}
	var manifest struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(data, &manifest) != nil {
		return key, nil, "Model format not supported."
	}
	switch manifest.Format {
	case "regelkit-rules/1":
		return key, RuleTagger, ""
	case PerceptronFormat:
		m, err := o.cache.load(filepath.Join(o.modelPath(), key, "weights.json.gz"))
		if err != nil {
			return key, nil, "Model does not exist on filesystem."
		}
		return key, m.Tag, ""
	}
	return key, nil, "Model format not supported."
}

// modelCache keeps loaded weights by path. Its size is bounded: a registry
// holds few models, and past maxCached the oldest entry is dropped.
type modelCache struct {
	mu    sync.Mutex
	order []string
	m     map[string]*Perceptron
}

const maxCached = 8

// maxWeightBytes bounds the JSON of one model's weights.
const maxWeightBytes = 256 << 20

func (c *modelCache) load(path string) (*Perceptron, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.m[path]; ok {
		return m, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := LoadPerceptron(f, maxWeightBytes)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*Perceptron{}
	}
	if len(c.order) == maxCached {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[path] = m
	c.order = append(c.order, path)
	return m, nil
}

// New returns the prediction handler for POST /api/predict.
func New(opts Options) http.Handler {
	opts.cache = &modelCache{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/predict", func(w http.ResponseWriter, r *http.Request) {
		if !convert.CheckAPIKey(w, r, opts.APIKey) {
			return
		}
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			backend.WriteJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"text": "", "error": "Payload too large."})
			return
		}
		var body struct {
			Text  *string `json:"text"`
			Model string  `json:"model"`
		}
		if err != nil || json.Unmarshal(data, &body) != nil || body.Text == nil {
			backend.WriteJSON(w, http.StatusBadRequest, map[string]any{"text": "", "error": "Field 'text' is required."})
			return
		}
		key, tag, problem := opts.resolve(body.Model)
		if problem != "" {
			backend.WriteJSON(w, http.StatusInternalServerError, map[string]any{"text": *body.Text, "error": problem})
			return
		}
		entities := [][2]string{}
		if strings.TrimSpace(*body.Text) != "" {
			tokens := Tokenize(*body.Text)
			for i, l := range tag(tokens) {
				entities = append(entities, [2]string{tokens[i], l})
			}
		}
		backend.WriteJSON(w, http.StatusOK, map[string]any{"text": *body.Text, "model": key, "predicted_entities": entities})
	})
	return mux
}
