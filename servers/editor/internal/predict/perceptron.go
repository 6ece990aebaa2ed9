package predict

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Labels in the order the perceptron numbers them.
var perceptronLabels = []string{None, Action, Actor, Object, Recipient}

// FeatureSet names the features below; a model records it in its manifest.
const FeatureSet = "regelkit-perceptron-features/1"

// Perceptron is a structured perceptron tagger: emission weights per
// feature and label, and label-transition weights decoded with Viterbi, so
// that spans are labelled as a whole.
type Perceptron struct {
	Labels      []string             `json:"labels"`
	Features    map[string][]float64 `json:"features"`
	Transitions [][]float64          `json:"transitions"` // row 0: sentence start; row k+1: after label k
}

// Sentence is one annotated corpus sentence.
type Sentence struct {
	Ref    string
	Tokens []string
	Labels []string
}

// ReadCorpus reads token<TAB>label lines with a blank line between
// sentences; "# ref: " lines give the Juriconnect reference, other "#"
// lines are comments.
func ReadCorpus(r io.Reader) ([]Sentence, error) {
	var out []Sentence
	var cur Sentence
	flush := func() {
		if len(cur.Tokens) > 0 {
			out = append(out, cur)
		}
		cur = Sentence{}
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# ref: "):
			flush()
			cur.Ref = strings.TrimPrefix(line, "# ref: ")
		case strings.HasPrefix(line, "#"):
		case strings.TrimSpace(line) == "":
			flush()
		default:
			tok, label, ok := strings.Cut(line, "\t")
			if !ok || !slices.Contains(perceptronLabels, label) {
				return nil, fmt.Errorf("corpus line %d: want token<TAB>label with a known label, got %q", n, line)
			}
			cur.Tokens = append(cur.Tokens, tok)
			cur.Labels = append(cur.Labels, label)
		}
	}
	flush()
	return out, sc.Err()
}

// Split assigns a sentence to "train" (70 %), "dev" (10 %) or "test" (20 %)
// by a hash of its tokens, so the split never depends on corpus order.
func Split(s Sentence) string {
	h := fnv.New32a()
	_, _ = io.WriteString(h, strings.Join(s.Tokens, " "))
	switch v := h.Sum32() % 10; {
	case v < 7:
		return "train"
	case v < 8:
		return "dev"
	}
	return "test"
}

func shape(w string) string {
	var b strings.Builder
	var last rune
	for _, r := range w {
		c := 'x'
		switch {
		case unicode.IsUpper(r):
			c = 'X'
		case unicode.IsDigit(r):
			c = 'd'
		case !unicode.IsLetter(r):
			c = r
		}
		if c != last {
			b.WriteRune(c)
			last = c
		}
	}
	return b.String()
}

func affix(w string, n int, prefix bool) string {
	r := []rune(w)
	if len(r) < n {
		return ""
	}
	if prefix {
		return string(r[:n])
	}
	return string(r[len(r)-n:])
}

// features lists the emission features of token i (the word,
// its affixes and shape, the words at ±1 and ±2, the distance to the
// nearest verb candidate).
func features(tokens, lower []string, i int) []string {
	w := lower[i]
	f := []string{"b", "w=" + w, "sh=" + shape(tokens[i])}
	for n := 1; n <= 3; n++ {
		if p := affix(w, n, true); p != "" {
			f = append(f, "p"+strconv.Itoa(n)+"="+p, "s"+strconv.Itoa(n)+"="+affix(w, n, false))
		}
	}
	for _, d := range []int{-2, -1, 1, 2} {
		j := i + d
		ctx := "<s>"
		if j >= len(lower) {
			ctx = "</s>"
		} else if j >= 0 {
			ctx = lower[j]
		}
		f = append(f, "w"+strconv.Itoa(d)+"="+ctx)
	}
	dist := 99
	for j := range lower {
		if verbs[lower[j]] && abs(j-i) < abs(dist) {
			dist = j - i
		}
	}
	switch {
	case dist == 99:
		f = append(f, "v=none")
	default:
		f = append(f, "v="+strconv.Itoa(max(-3, min(3, dist))))
	}
	if i > 0 && verbs[lower[i-1]] {
		f = append(f, "after-verb")
	}
	return f
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// maxChunk bounds one Viterbi pass; longer inputs are tagged in chunks so
// that the work stays linear in the input.
const maxChunk = 256

// Tag labels tokens with Viterbi decoding.
func (m *Perceptron) Tag(tokens []string) []string {
	out := make([]string, 0, len(tokens))
	for start := 0; start < len(tokens); start += maxChunk {
		chunk := tokens[start:min(len(tokens), start+maxChunk)]
		for _, l := range m.viterbi(chunk) {
			out = append(out, m.Labels[l])
		}
	}
	return out
}

func lowerAll(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = strings.ToLower(t)
	}
	return out
}

func (m *Perceptron) emissions(tokens []string) [][]float64 {
	lower := lowerAll(tokens)
	L := len(m.Labels)
	em := make([][]float64, len(tokens))
	for i := range tokens {
		em[i] = make([]float64, L)
		for _, f := range features(tokens, lower, i) {
			if w, ok := m.Features[f]; ok {
				for l := range L {
					em[i][l] += w[l]
				}
			}
		}
	}
	return em
}

func (m *Perceptron) viterbi(tokens []string) []int {
	n, L := len(tokens), len(m.Labels)
	if n == 0 {
		return nil
	}
	em := m.emissions(tokens)
	score := make([][]float64, n)
	back := make([][]int, n)
	for i := range n {
		score[i] = make([]float64, L)
		back[i] = make([]int, L)
		for l := range L {
			if i == 0 {
				score[0][l] = em[0][l] + m.Transitions[0][l]
				continue
			}
			best, arg := 0.0, -1
			for k := range L {
				s := score[i-1][k] + m.Transitions[k+1][l]
				if arg < 0 || s > best {
					best, arg = s, k
				}
			}
			score[i][l], back[i][l] = best+em[i][l], arg
		}
	}
	path := make([]int, n)
	for l := range L {
		if score[n-1][l] > score[n-1][path[n-1]] {
			path[n-1] = l
		}
	}
	for i := n - 1; i > 0; i-- {
		path[i-1] = back[i][path[i]]
	}
	return path
}

// TrainOptions fix the training run; the same options and corpus give the
// same weights byte for byte.
type TrainOptions struct {
	Epochs int    // zero means 10
	Seed   uint64 // of the shuffle between epochs
}

// Train fits an averaged structured perceptron.
func Train(sents []Sentence, opts TrainOptions) *Perceptron {
	if opts.Epochs == 0 {
		opts.Epochs = 10
	}
	L := len(perceptronLabels)
	index := map[string]int{}
	for i, l := range perceptronLabels {
		index[l] = i
	}
	m := &Perceptron{Labels: perceptronLabels, Features: map[string][]float64{}, Transitions: make([][]float64, L+1)}
	// Averaging: sums[f][l] accumulates c·Δ; the average is w − sums/c.
	sums := map[string][]float64{}
	tsums := make([][]float64, L+1)
	for i := range m.Transitions {
		m.Transitions[i], tsums[i] = make([]float64, L), make([]float64, L)
	}
	c := 1.0
	update := func(f string, l int, d float64) {
		w, ok := m.Features[f]
		if !ok {
			w = make([]float64, L)
			m.Features[f] = w
			sums[f] = make([]float64, L)
		}
		w[l] += d
		sums[f][l] += c * d
	}
	order := make([]int, len(sents))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x5eed))
	for range opts.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			s := sents[si]
			pred := m.viterbi(s.Tokens)
			lower := lowerAll(s.Tokens)
			prevG, prevP := 0, 0
			for i := range s.Tokens {
				g, p := index[s.Labels[i]], pred[i]
				if g != p {
					for _, f := range features(s.Tokens, lower, i) {
						update(f, g, 1)
						update(f, p, -1)
					}
				}
				if g != p || prevG != prevP {
					m.Transitions[prevG][g]++
					tsums[prevG][g] += c
					m.Transitions[prevP][p]--
					tsums[prevP][p] -= c
				}
				prevG, prevP = g+1, p+1
			}
			c++
		}
	}
	for f, w := range m.Features {
		zero := true
		for l := range w {
			w[l] = round(w[l] - sums[f][l]/c)
			zero = zero && w[l] == 0
		}
		if zero {
			delete(m.Features, f)
		}
	}
	for k := range m.Transitions {
		for l := range m.Transitions[k] {
			m.Transitions[k][l] = round(m.Transitions[k][l] - tsums[k][l]/c)
		}
	}
	return m
}

// round keeps six decimals, so that the saved weights are short and
// identical across platforms.
func round(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 6, 64), 64)
	return v
}

// Save writes the weights as gzip-compressed JSON (sorted keys, no gzip
// time stamp: byte-identical for identical weights).
func (m *Perceptron) Save(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(zw).Encode(m); err != nil {
		return err
	}
	return zw.Close()
}

// LoadPerceptron reads weights written by Save, at most maxBytes of JSON.
func LoadPerceptron(r io.Reader, maxBytes int64) (*Perceptron, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	var m Perceptron
	if err := json.NewDecoder(io.LimitReader(zr, maxBytes)).Decode(&m); err != nil {
		return nil, err
	}
	if len(m.Labels) == 0 || len(m.Transitions) != len(m.Labels)+1 {
		return nil, fmt.Errorf("predict: malformed perceptron weights")
	}
	for _, row := range m.Transitions {
		if len(row) != len(m.Labels) {
			return nil, fmt.Errorf("predict: malformed perceptron transitions")
		}
	}
	for f, w := range m.Features {
		if len(w) != len(m.Labels) {
			return nil, fmt.Errorf("predict: feature %q has %d weights", f, len(w))
		}
	}
	return &m, nil
}

// LabelScore is precision, recall and F1 of one label.
type LabelScore struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Support   int     `json:"support"`
}

// Metrics measure a tagger on annotated sentences, token by token.
type Metrics struct {
	Tokens        int                   `json:"tokens"`
	TokenAccuracy float64               `json:"tokenAccuracy"`
	PerLabel      map[string]LabelScore `json:"perLabel"`
	MacroF1       float64               `json:"macroF1"` // over Action, Actor, Object, Recipient
}

// Evaluate scores tag against the gold labels.
func Evaluate(tag func([]string) []string, sents []Sentence) Metrics {
	tp, fp, fn := map[string]int{}, map[string]int{}, map[string]int{}
	var met Metrics
	correct := 0
	for _, s := range sents {
		pred := tag(s.Tokens)
		for i, g := range s.Labels {
			met.Tokens++
			if pred[i] == g {
				correct++
				tp[g]++
			} else {
				fp[pred[i]]++
				fn[g]++
			}
		}
	}
	met.PerLabel = map[string]LabelScore{}
	if met.Tokens > 0 {
		met.TokenAccuracy = round(float64(correct) / float64(met.Tokens))
	}
	for _, l := range perceptronLabels {
		var s LabelScore
		s.Support = tp[l] + fn[l]
		if tp[l]+fp[l] > 0 {
			s.Precision = float64(tp[l]) / float64(tp[l]+fp[l])
		}
		if s.Support > 0 {
			s.Recall = float64(tp[l]) / float64(s.Support)
		}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		s.Precision, s.Recall, s.F1 = round(s.Precision), round(s.Recall), round(s.F1)
		met.PerLabel[l] = s
		if l != None {
			met.MacroF1 += s.F1 / 4
		}
	}
	met.MacroF1 = round(met.MacroF1)
	return met
}
