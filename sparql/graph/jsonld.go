package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/piprate/json-gold/ld"
)

// ErrRemoteContext is returned (wrapped) when a JSON-LD document or a
// compaction context refers to a remote context: this package never fetches
// one.
var ErrRemoteContext = errors.New("graph: remote JSON-LD contexts are not loaded")

// refuseRemote is the json-gold document loader: it loads nothing.
type refuseRemote struct{}

func (refuseRemote) LoadDocument(u string) (*ld.RemoteDocument, error) {
	return nil, fmt.Errorf("%w: %s", ErrRemoteContext, u)
}

func jsonldOptions(base string) *ld.JsonLdOptions {
	o := ld.NewJsonLdOptions(base)
	o.DocumentLoader = refuseRemote{}
	return o
}

// contained runs a json-gold call, turning a panic inside json-gold (it
// has some on malformed documents) into an error: bad input must never
// crash the caller.
func contained(call func() (any, error)) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the JSON-LD processor failed on this document: %v", r)
		}
	}()
	return call()
}

// jsonldError turns a json-gold error into a ParseError, keeping
// ErrRemoteContext visible to errors.Is.
func jsonldError(err error) error {
	if errors.Is(err, ErrRemoteContext) {
		return err
	}
	var le *ld.JsonLdError
	if errors.As(err, &le) {
		if inner, ok := le.Details.(error); ok && errors.Is(inner, ErrRemoteContext) {
			return inner
		}
		return &ParseError{Msg: fmt.Sprintf("JSON-LD: %s: %v", le.Code, le.Details)}
	}
	return &ParseError{Msg: "JSON-LD: " + err.Error()}
}

// decodeJSON decodes a whole JSON document, reporting syntax errors with
// line and column. A document nested deeper than maxNesting is refused
// before decoding: the JSON-LD processor walks the document recursively.
func decodeJSON(data []byte) (any, error) {
	if off := jsonTooDeep(data, maxNesting); off >= 0 {
		return nil, positionedJSONError(data, off, fmt.Sprintf("JSON: objects and arrays nested deeper than %d levels", maxNesting))
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&doc)
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			return nil, positionedJSONError(data, dec.InputOffset(), "unexpected data after the JSON document")
		}
		return doc, nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included.
		return nil, positionedJSONError(data, se.Offset-1, "JSON: "+se.Error())
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, positionedJSONError(data, int64(len(data)), "JSON: unexpected end of input")
	}
	return nil, &ParseError{Msg: "JSON: " + err.Error()}
}

// jsonTooDeep returns the offset of the first '{' or '[' that opens
// level limit+1, or -1. It only counts brackets outside strings; whether
// the text is JSON at all is the decoder's business.
func jsonTooDeep(data []byte, limit int) int64 {
	depth, inString, escaped := 0, false, false
	for i, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return int64(i)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return -1
}

func positionedJSONError(data []byte, off int64, msg string) error {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := len([]rune(string(before[bytes.LastIndexByte(before, '\n')+1:]))) + 1
	return &ParseError{Line: line, Column: col, Msg: msg}
}

func parseJSONLD(r io.Reader, opt ParseOptions, emit func(Quad) error) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	doc, err := decodeJSON(data)
	if err != nil {
		return err
	}
	reportContextPrefixes(doc, opt.Prefixes)
	out, err := contained(func() (any, error) { return ld.NewJsonLdProcessor().ToRDF(doc, jsonldOptions(opt.Base)) })
	if err != nil {
		return jsonldError(err)
	}
	ds, ok := out.(*ld.RDFDataset)
	if !ok {
		return fmt.Errorf("graph: unexpected JSON-LD processor result %T", out)
	}
	blanks := newBlankLabels(opt.BlankScope)
	term := func(n ld.Node) Term {
		switch n := n.(type) {
		case ld.IRI:
			return IRI(n.Value)
		case ld.BlankNode:
			return blanks.labelled([]byte(strings.TrimPrefix(n.Attribute, "_:")))
		case ld.Literal:
			if n.Language != "" {
				return LangLiteral(n.Value, n.Language)
			}
			return Literal(n.Value, n.Datatype)
		}
		return Term{}
	}
	names := make([]string, 0, len(ds.Graphs))
	for name := range ds.Graphs {
		names = append(names, name)
	}
	slices.Sort(names) // "@default" sorts first
	for _, name := range names {
		g := opt.Graph
		switch {
		case name == "@default":
		case strings.HasPrefix(name, "_:"):
			g = blanks.labelled([]byte(name[2:]))
		default:
			g = IRI(name)
		}
		for _, q := range ds.Graphs[name] {
			s, p, o := term(q.Subject), term(q.Predicate), term(q.Object)
			if s.IsZero() || p.IsZero() || o.IsZero() {
				continue
			}
			// JSON-LD 1.1 §8.5: statements with ill-formed IRIs or
			// language tags are ignored.
			if checkQuad(Quad{s, p, o, g}, true) != nil {
				continue
			}
			if err := emit(Quad{s, p, o, g}); err != nil {
				return err
			}
		}
	}
	return nil
}

// reportContextPrefixes reports the top-level context's terms that map to
// a namespace (an IRI ending in '/' or '#') as prefixes.
func reportContextPrefixes(doc any, p *Prefixes) {
	m, ok := doc.(map[string]any)
	if !ok || p == nil {
		return
	}
	ctx, ok := m["@context"].(map[string]any)
	if !ok {
		return
	}
	keys := make([]string, 0, len(ctx))
	for k := range ctx {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, ok := ctx[k].(string)
		if ok && validPrefixName(k) && IsAbsoluteIRI(v) && (strings.HasSuffix(v, "/") || strings.HasSuffix(v, "#")) {
			p.Set(k, v)
		}
	}
}

// contextDocument normalises a WriteOptions.Context into a JSON-LD
// document with an "@context" key.
func contextDocument(c any) (any, error) {
	switch v := c.(type) {
	case string:
		return contextDocument([]byte(v))
	case []byte:
		doc, err := decodeJSON(v)
		if err != nil {
			return nil, fmt.Errorf("JSON-LD context: %w", err)
		}
		return contextDocument(doc)
	case map[string]any:
		if _, ok := v["@context"]; ok {
			return v, nil
		}
		return map[string]any{"@context": v}, nil
	}
	return nil, fmt.Errorf("graph: JSON-LD context must be a map[string]any, string or []byte, not %T", c)
}

func writeJSONLD(w io.Writer, d *Dataset, opt WriteOptions) error {
	ds := ld.NewRDFDataset()
	names := blankNamer{}
	node := func(t Term) ld.Node {
		switch t.Kind {
		case KindIRI:
			return ld.NewIRI(t.Value)
		case KindBlank:
			return ld.NewBlankNode("_:" + names.label(t))
		}
		return ld.NewLiteral(t.Value, t.Datatype, t.Lang)
	}
	for q := range d.Quads() {
		if err := checkQuad(q, true); err != nil {
			return err
		}
		name := "@default"
		switch q.G.Kind {
		case KindIRI:
			name = q.G.Value
		case KindBlank:
			name = "_:" + names.label(q.G)
		}
		ds.Graphs[name] = append(ds.Graphs[name], ld.NewQuad(node(q.S), node(q.P), node(q.O), name))
	}
	opts := jsonldOptions(opt.Base)
	expanded, err := contained(func() (any, error) { return ld.NewJsonLdApi().FromRDF(ds, opts) })
	if err != nil {
		return fmt.Errorf("graph: writing JSON-LD: %w", err)
	}
	var out any = expanded
	if opt.Context != nil {
		ctx, err := contextDocument(opt.Context)
		if err != nil {
			return err
		}
		out, err = contained(func() (any, error) { return ld.NewJsonLdProcessor().Compact(expanded, ctx, opts) })
		if err != nil {
			return fmt.Errorf("graph: compacting JSON-LD: %w", jsonldError(err))
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
