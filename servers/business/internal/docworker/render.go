package docworker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/regelkit/regelkit/engine"
)

// Bounds of one rendering: templates come from deployments, which any
// deployer writes.
const (
	// MaxTemplateBytes bounds the template resource.
	MaxTemplateBytes = 4 << 20
	// MaxRenderDepth bounds the nesting of a block's content document.
	MaxRenderDepth = 64
	// MaxRenderedBytes bounds the rendered text.
	MaxRenderedBytes = 1 << 20
)

// zoneOrder is the order in which a DocumentTemplate's zones are printed.
var zoneOrder = []string{"letterhead", "reference", "body", "closing", "signoff", "contactInfo", "annex"}

// template is the part of a DocumentTemplate the worker reads.
type template struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Zones map[string]struct {
		Blocks []struct {
			Content json.RawMessage `json:"content"`
		} `json:"blocks"`
	} `json:"zones"`
}

// Rendered is a rendered document.
type Rendered struct {
	Name string // the template's name, the document's DOCNAME
	Text []byte // plain text, UTF-8
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}`)

// Render prints a DocumentTemplate as plain text: the text of each block's
// content document, zone by zone, with every {{name}} whose variable is set
// replaced by its value. Unset placeholders stay visible, so a missing
// variable shows in the filed document rather than silently vanishing.
func Render(data []byte, vars engine.Variables) (Rendered, error) {
	if len(data) > MaxTemplateBytes {
		return Rendered{}, fmt.Errorf("template is larger than %d bytes", MaxTemplateBytes)
	}
	var t template
	if err := json.Unmarshal(data, &t); err != nil {
		return Rendered{}, fmt.Errorf("template is not a DocumentTemplate: %w", err)
	}
	var out bytes.Buffer
	for _, zone := range zoneOrder {
		z, ok := t.Zones[zone]
		if !ok {
			continue
		}
		for _, b := range z.Blocks {
			if err := writeText(&out, b.Content); err != nil {
				return Rendered{}, fmt.Errorf("zone %s: %w", zone, err)
			}
		}
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n\n")) {
			out.WriteByte('\n')
		}
	}
	text := placeholder.ReplaceAllFunc(out.Bytes(), func(m []byte) []byte {
		v, ok := vars[string(placeholder.FindSubmatch(m)[1])]
		if !ok {
			return m
		}
		return []byte(plainText(v))
	})
	if len(text) > MaxRenderedBytes {
		return Rendered{}, fmt.Errorf("rendered document is larger than %d bytes", MaxRenderedBytes)
	}
	name := t.Name
	if name == "" {
		name = t.ID
	}
	return Rendered{Name: name, Text: bytes.TrimRight(text, "\n")}, nil
}

func plainText(v engine.Variable) string {
	switch x := v.Plain().(type) {
	case nil:
		return ""
	case string:
		return x
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// blockNodes end with a line break.
var blockNodes = map[string]bool{"paragraph": true, "heading": true, "listItem": true, "blockquote": true, "codeBlock": true}

var errTooDeep = errors.New("content nested deeper than 64 levels")

// writeText appends the text of a TipTap/ProseMirror document, walking it
// with an explicit stack (the nesting follows data).
func writeText(out *bytes.Buffer, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		return err
	}
	type frame struct {
		node  any
		depth int
		close bool // the closing visit of a block node
	}
	stack := []frame{{node: root}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if out.Len() > MaxRenderedBytes {
			return fmt.Errorf("rendered document is larger than %d bytes", MaxRenderedBytes)
		}
		if f.close {
			if !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
				out.WriteByte('\n')
			}
			continue
		}
		if f.depth > MaxRenderDepth {
			return errTooDeep
		}
		n, ok := f.node.(map[string]any)
		if !ok {
			continue
		}
		typ, _ := n["type"].(string)
		switch typ {
		case "text":
			s, _ := n["text"].(string)
			out.WriteString(s)
			continue
		case "hardBreak":
			out.WriteByte('\n')
			continue
		case "listItem":
			out.WriteString("- ")
		}
		if blockNodes[typ] {
			stack = append(stack, frame{close: true})
		}
		children, _ := n["content"].([]any)
		for i := len(children) - 1; i >= 0; i-- {
			stack = append(stack, frame{node: children[i], depth: f.depth + 1})
		}
	}
	return nil
}

// variableName is the completion variable of a template id: camel case of
// its words plus suffix, e.g. rip-intake-report → ripIntakeReportDocumentId.
func variableName(templateID, suffix string) string {
	var b strings.Builder
	upper := false
	for _, r := range templateID {
		switch {
		case r == '-' || r == '_' || r == '.' || r == ' ':
			upper = b.Len() > 0
		case upper:
			b.WriteString(strings.ToUpper(string(r)))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String() + suffix
}
