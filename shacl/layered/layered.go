package layered

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

// The layer keys and labels of the explorer's publishing check.
const (
	KeyCPSVAP = "cpsv-ap"
	KeyCPRMV  = "cprmv"
	KeyCustom = "custom"

	LabelCPSVAP = "CPSV-AP 3.2.0"
	LabelCPRMV  = "CPRMV 0.4.1"
	LabelCustom = "Custom"
)

//go:embed shapes
var builtinShapes embed.FS

// ShapeSet is one layer: a key, a label and the Turtle shape files (*.ttl
// at the root of Files) that make up its shapes graph.
type ShapeSet struct {
	Key, Label string
	// Files holds the layer's shape files; nil, or no *.ttl file, means the
	// layer is not loaded.
	Files fs.FS
}

// BuiltinSets returns the three embedded layers in report order: CPSV-AP
// 3.2.0 (32 node shapes), CPRMV 0.4.1 (20 node shapes) and the custom
// publishing invariants (2 node shapes).
func BuiltinSets() []ShapeSet {
	sub := func(dir string) fs.FS {
		f, err := fs.Sub(builtinShapes, path.Join("shapes", dir))
		if err != nil {
			return nil
		}
		return f
	}
	return []ShapeSet{
		{Key: KeyCPSVAP, Label: LabelCPSVAP, Files: sub(KeyCPSVAP)},
		{Key: KeyCPRMV, Label: LabelCPRMV, Files: sub(KeyCPRMV)},
		{Key: KeyCustom, Label: LabelCustom, Files: sub(KeyCustom)},
	}
}

// Checker validates Turtle against the layers' shapes. Shapes are loaded
// and compiled once, in New; a Checker is immutable and safe for concurrent
// use.
type Checker struct {
	layers    []layer
	locations *graph.Prefixes // prefixes for issue locations; never modified
}

type layer struct {
	key, label string
	validator  *shacl.Validator // nil when the layer is not loaded
}

// Options configure a Checker.
type Options struct {
	// Limits bound the validation of each layer (each layer's Validate
	// call separately); the zero value takes shacl.DefaultLimits.
	Limits shacl.Limits
}

// New loads and compiles every shape set with the default Options. A set
// without shape files is kept as a layer that is not loaded: it reports no
// issues and makes every result invalid (fail closed). New always returns a usable Checker; the
// error, when not nil, names every set whose files could not be read,
// parsed or compiled (those layers are not loaded either).
func New(sets []ShapeSet) (*Checker, error) { return NewWith(sets, Options{}) }

// NewWith is New with options.
func NewWith(sets []ShapeSet, opt Options) (*Checker, error) {
	c := &Checker{locations: graph.NewPrefixes(
		"foaf", "http://xmlns.com/foaf/0.1/",
		"skos", "http://www.w3.org/2004/02/skos/core#",
		"dct", "http://purl.org/dc/terms/",
		"cv", "http://data.europa.eu/m8g/",
		"ronl", "https://regels.overheid.nl/ontology#",
		"sh", shacl.SH,
	)}
	var errs []error
	for _, set := range sets {
		v, err := loadSet(set, opt)
		if err != nil {
			errs = append(errs, fmt.Errorf("layered: shape set %s: %w", set.Key, err))
		}
		c.layers = append(c.layers, layer{key: set.Key, label: set.Label, validator: v})
	}
	return c, errors.Join(errs...)
}

// Builtin returns a Checker over the embedded shape sets.
func Builtin() (*Checker, error) { return New(BuiltinSets()) }

// BuiltinWith returns a Checker over the embedded shape sets with options.
func BuiltinWith(opt Options) (*Checker, error) { return NewWith(BuiltinSets(), opt) }

// loadSet parses every *.ttl file of the set into one shapes graph and
// compiles it; nil without error when there is no file.
func loadSet(set ShapeSet, opt Options) (*shacl.Validator, error) {
	if set.Files == nil {
		return nil, nil
	}
	names, err := fs.Glob(set.Files, "*.ttl")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, nil
	}
	sort.Strings(names)
	g := graph.NewGraph()
	for _, name := range names {
		f, err := set.Files.Open(name)
		if err != nil {
			return nil, err
		}
		err = graph.Parse(f, graph.Turtle, graph.ParseOptions{}, func(q graph.Quad) error {
			g.Add(q.Triple())
			return nil
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return shacl.CompileWith(g, shacl.Options{Limits: opt.Limits})
}

// State is the load state of the layers, for the health endpoint.
type State struct {
	// Complete is true when every layer is loaded.
	Complete bool                  `json:"complete"`
	Layers   map[string]LayerState `json:"layers"`
}

// LayerState says whether one layer's shapes are loaded.
type LayerState struct {
	Label  string `json:"label"`
	Loaded bool   `json:"loaded"`
}

// State reports which layers are loaded.
func (c *Checker) State() State {
	s := State{Complete: c.complete(), Layers: map[string]LayerState{}}
	for _, l := range c.layers {
		s.Layers[l.key] = LayerState{Label: l.label, Loaded: l.validator != nil}
	}
	return s
}

func (c *Checker) complete() bool {
	for _, l := range c.layers {
		if l.validator == nil {
			return false
		}
	}
	return true
}

// CheckTurtle parses content as Turtle and validates it against every
// layer. A syntax error is not a Go error: it gives a Result with
// ParseError set (line and column included), Valid false and no issues.
// The error is non-nil only when ctx ends first.
func (c *Checker) CheckTurtle(ctx context.Context, content string) (*Result, error) {
	g, err := parseTurtle(content)
	if err != nil {
		return c.parseFailure(err), nil
	}
	return c.Check(ctx, g)
}

func parseTurtle(content string) (*graph.Graph, error) {
	return graph.ParseGraph(strings.NewReader(content), graph.Turtle, graph.ParseOptions{})
}

func (c *Checker) parseFailure(err error) *Result {
	msg := err.Error()
	r := c.newResult()
	r.ParseError = &msg
	r.Valid = false
	return r
}

func (c *Checker) newResult() *Result {
	r := &Result{Complete: c.complete()}
	for _, l := range c.layers {
		r.Layers = append(r.Layers, LayerResult{Key: l.key, Label: l.label, Loaded: l.validator != nil, Issues: []Issue{}})
	}
	return r
}

// Check validates a data graph against every loaded layer (each layer's
// shapes separately, in parallel) and converts the results to issues. The
// error is the context's, or a *shacl.LimitError when a layer's
// validation reached one of the Limits (the first layer's, in layer
// order).
func (c *Checker) Check(ctx context.Context, data *graph.Graph) (*Result, error) {
	res := c.newResult()
	reports := make([]*shacl.Report, len(c.layers))
	errs := make([]error, len(c.layers))
	// The first layer to fail stops the others: the result is lost anyway.
	vctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, l := range c.layers {
		if l.validator == nil {
			continue
		}
		wg.Go(func() {
			if reports[i], errs[i] = l.validator.Validate(vctx, data); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		// Skip the layers stopped above, to report what stopped the first.
		if err != nil && (ctx.Err() != nil || !errors.Is(err, context.Canceled)) {
			return nil, err
		}
	}
	for i, rep := range reports {
		if rep == nil {
			continue
		}
		res.Layers[i].Issues = append(res.Layers[i].Issues, c.issues(data, rep.Results)...)
		for _, is := range res.Layers[i].Issues {
			switch is.Severity {
			case SeverityWarning:
				res.Summary.Warnings++
			case SeverityInfo:
				res.Summary.Infos++
			default:
				res.Summary.Errors++
			}
		}
	}
	res.Valid = res.Summary.Errors == 0 && res.Complete
	return res, nil
}
