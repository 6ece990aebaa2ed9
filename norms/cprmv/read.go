package cprmv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// readNamespaces are tried in order when reading, as consumers' importers
// do: 0.4.1 hash, 0.4.1 slash, 0.4.0, 0.3.2, 0.3.0; then any
// other IRI by its local name, then bare keys.
var readNamespaces = []string{
	NS,
	"https://standaarden.open-regels.nl/standards/cprmv/0.4.1/#",
	"https://standaarden.open-regels.nl/standards/cprmv/0.4.0/#",
	"https://cprmv.open-regels.nl/0.3.2/",
	"https://cprmv.open-regels.nl/0.3.0/",
}

// ReadJSON reads a cprmv-json document tolerantly: this package's output
// and the legacy shapes (0.3.x flat rules with "contains", the 0.4.1 slash
// namespace, bare keys). hasPart and contains are objects keyed by child id
// whose order is kept. Nesting deeper than DefaultLimits().MaxDepth is an
// error.
func ReadJSON(doc []byte) (*RuleSet, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	r := &jsonReader{d: d, max: DefaultLimits().MaxDepth}
	tok, err := d.Token()
	if err != nil {
		return nil, r.fail(err)
	}
	if tok != json.Delim('{') {
		return nil, r.fail(errors.New("expected an object"))
	}
	root, err := r.object(1)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, r.fail(errors.New("data after the object"))
	}
	rs := &RuleSet{ID: root.fields["id"], Class: root.fields["type"], ValidFrom: root.fields["validFrom"],
		DerivedFrom: root.fields["wasDerivedFrom"], Comment: root.fields["comment"], Parts: root.rule.Parts}
	if m := root.fields["hasMethod"]; m != "" {
		rs.Method = m[strings.LastIndexAny(m, "/#")+1:]
	}
	if rs.DerivedFrom == "" {
		rs.DerivedFrom = root.fields["isBasedOn"]
	}
	return rs, nil
}

type jsonReader struct {
	d   *json.Decoder
	max int
}

func (r *jsonReader) fail(err error) error {
	return fmt.Errorf("cprmv: cprmv-json at byte %d: %w", r.d.InputOffset(), err)
}

type jsonNode struct {
	fields map[string]string
	rule   *Rule
}

// localName strips a known namespace, or any IRI up to its last "#" or "/".
func localName(key string) string {
	for _, ns := range readNamespaces {
		if strings.HasPrefix(key, ns) {
			return key[len(ns):]
		}
	}
	if i := strings.LastIndexAny(key, "/#"); i >= 0 && strings.Contains(key, ":") {
		return key[i+1:]
	}
	return key
}

// object reads the members of an object whose '{' was consumed. The
// recursion follows the document and stops at r.max.
func (r *jsonReader) object(depth int) (*jsonNode, error) {
	if depth > r.max {
		return nil, r.fail(fmt.Errorf("nesting deeper than %d", r.max))
	}
	n := &jsonNode{fields: map[string]string{}, rule: &Rule{}}
	for r.d.More() {
		tok, err := r.d.Token()
		if err != nil {
			return nil, r.fail(err)
		}
		key, _ := tok.(string)
		name := localName(key)
		if name == "hasPart" || name == "contains" {
			if err := r.parts(n.rule, depth+1); err != nil {
				return nil, err
			}
			continue
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, ok := n.fields[name]; !ok {
			n.fields[name] = v
		}
	}
	if _, err := r.d.Token(); err != nil { // '}'
		return nil, r.fail(err)
	}
	n.rule.ID = n.fields["id"]
	n.rule.Comment = n.fields["comment"]
	n.rule.Definition = n.fields["definition"]
	n.rule.PostDefinition = n.fields["postDefinition"]
	return n, nil
}

// parts reads an object keyed by child id (or, tolerantly, an array of
// child objects).
func (r *jsonReader) parts(parent *Rule, depth int) error {
	tok, err := r.d.Token()
	if err != nil {
		return r.fail(err)
	}
	keyed := tok == json.Delim('{')
	if !keyed && tok != json.Delim('[') {
		return r.fail(errors.New("hasPart must be an object or an array"))
	}
	for r.d.More() {
		key := ""
		if keyed {
			k, err := r.d.Token()
			if err != nil {
				return r.fail(err)
			}
			key, _ = k.(string)
		}
		open, err := r.d.Token()
		if err != nil {
			return r.fail(err)
		}
		if open != json.Delim('{') {
			return r.fail(errors.New("a part must be an object"))
		}
		child, err := r.object(depth + 1)
		if err != nil {
			return err
		}
		if child.rule.ID == "" {
			child.rule.ID = key
		}
		parent.Parts = append(parent.Parts, child.rule)
	}
	if _, err := r.d.Token(); err != nil {
		return r.fail(err)
	}
	return nil
}

// value reads a literal: a string, number or boolean as text, an array as
// its first scalar, an object as its "@value" or "@id".
func (r *jsonReader) value(depth int) (string, error) {
	if depth > r.max {
		return "", r.fail(fmt.Errorf("nesting deeper than %d", r.max))
	}
	tok, err := r.d.Token()
	if err != nil {
		return "", r.fail(err)
	}
	switch t := tok.(type) {
	case string:
		return t, nil
	case float64, bool:
		return fmt.Sprint(t), nil
	case nil:
		return "", nil
	case json.Delim:
		first := ""
		for r.d.More() {
			if t == '{' {
				k, err := r.d.Token()
				if err != nil {
					return "", r.fail(err)
				}
				v, err := r.value(depth + 1)
				if err != nil {
					return "", err
				}
				if (k == "@value" || k == "@id") && first == "" {
					first = v
				}
				continue
			}
			v, err := r.value(depth + 1)
			if err != nil {
				return "", err
			}
			if first == "" {
				first = v
			}
		}
		if _, err := r.d.Token(); err != nil {
			return "", r.fail(err)
		}
		return first, nil
	}
	return "", nil
}
