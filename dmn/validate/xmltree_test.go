package validate

import (
	"strings"
	"testing"
	"time"
)

// parseFailure validates src and returns its single BASE-PARSE issue.
func parseFailure(t *testing.T, src string) Issue {
	t.Helper()
	r := Validate([]byte(src))
	if r.Valid || r.ParseError == "" {
		t.Fatalf("want a parse error, got %s", dump(r))
	}
	if len(r.Layers.Base.Issues) != 1 || r.Layers.Base.Issues[0].Code != "BASE-PARSE" {
		t.Fatalf("want one BASE-PARSE, got %s", dump(r))
	}
	for _, k := range LayerKeys[1:] {
		if len(r.Layers.Get(k).Issues) != 0 {
			t.Fatalf("layer %s not empty after a parse error", k)
		}
	}
	is := r.Layers.Base.Issues[0]
	if !strings.Contains(is.Message, r.ParseError) {
		t.Errorf("message %q does not carry parseError %q", is.Message, r.ParseError)
	}
	return is
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name      string
		src       string
		line, col int
		contains  string
	}{
		{"empty", "", 1, 1, "empty"},
		{"blank", " \n\t", 1, 1, "empty"},
		{"not xml", "hello", 1, 1, "text outside the root element"},
		{"unclosed", "<definitions>\n  <decision>", 2, 13, "<decision> (line 2, column 3) is not closed"},
		{"mismatched end", "<a>\n  <b></a>", 2, 6, "element <b> (line 2, column 3) closed by </a>"},
		{"stray end", "<a/></b>", 1, 5, "unexpected end tag </b>"},
		{"two roots", "<a/>\n<b/>", 2, 1, "second root element <b>"},
		{"text after root", "<a/>x", 1, 5, "text outside the root element"},
		{"unbound element prefix", "<dmn:definitions/>", 1, 1, `prefix "dmn" of element <dmn:definitions> is not declared`},
		{"unbound attribute prefix", `<a x:y="1"/>`, 1, 1, `prefix "x" of attribute x:y is not declared`},
		{"duplicate attribute", `<a id="1" name="n" id="2"/>`, 1, 1, "attribute id appears twice"},
		{"duplicate attribute, many", `<a a1="" a2="" a3="" a4="" a5="" a6="" a7="" a8="" a9="" a5=""/>`, 1, 1, "attribute a5 appears twice"},
		{"unknown entity", "<a>&nbsp;</a>", 1, 10, "invalid character entity &nbsp;"}, // just after the reference
		{"bad attribute syntax", "<a b=c/>", 1, 7, "unquoted or missing attribute value"},
		{"invalid UTF-8", "<a>\xff\xfe</a>", 1, 6, "invalid UTF-8"},
		{"colon name", "<a:b:c xmlns:a=\"x\"/>", 1, 7, "expected element name"},
		{"unsupported encoding", `<?xml version="1.0" encoding="klingon"?><a/>`, 1, 41, `unsupported encoding "klingon"`},
		{"empty prefix binding", `<a xmlns:p=""/>`, 1, 1, "empty IRI"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := parseFailure(t, c.src)
			if is.Line != c.line || is.Column != c.col {
				t.Errorf("at %d:%d, want %d:%d (%s)", is.Line, is.Column, c.line, c.col, is.Message)
			}
			if !strings.Contains(is.Message, c.contains) {
				t.Errorf("message %q lacks %q", is.Message, c.contains)
			}
			if is.Location != "" || is.Severity != Error {
				t.Errorf("issue %+v", is)
			}
		})
	}
}

// TestEncodings: a declared legacy encoding is decoded, so Dutch text in
// ISO-8859-1 validates.
func TestEncodings(t *testing.T) {
	src := strings.Replace(doc(ns13, ageTable("", goodRules...)), `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1)
	src = strings.Replace(src, `name="D1"`, "name=\"Co\xf6peratie\"", 1)
	r := Validate([]byte(src))
	if !r.Valid {
		t.Fatalf("latin-1 model: %s", dump(r))
	}
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" name="&lol9;" namespace="x"><decision id="d"/></definitions>`

func TestHostileInput(t *testing.T) {
	cases := []struct {
		name     string
		src      string
		line     int
		contains string
	}{
		{"billion laughs", billionLaughs, 2, "DOCTYPE"},
		{"external entity", `<?xml version="1.0"?>
<!DOCTYPE definitions [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" name="&xxe;" namespace="x"><decision id="d"/></definitions>`, 2, "DOCTYPE"},
		{"external DTD", `<!DOCTYPE definitions SYSTEM "http://example.com/evil.dtd"><definitions/>`, 1, "DOCTYPE"},
		{"entity without DTD", `<definitions name="&xxe;"/>`, 1, "entity"},
		{"deep nesting", strings.Repeat("<a>", 100000) + strings.Repeat("</a>", 100000), 1, "nest more than 256"},
		{"oversized", "<a>" + strings.Repeat("x", MaxDocumentBytes) + "</a>", 0, "more than the limit of 10 MB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			is := parseFailure(t, c.src)
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			if is.Line != c.line || !strings.Contains(is.Message, c.contains) {
				t.Errorf("got line %d message %q, want line %d and %q", is.Line, is.Message, c.line, c.contains)
			}
			if strings.Contains(is.Message, "root:") || strings.Contains(is.Message, "lollol") {
				t.Errorf("message leaks expanded content: %q", is.Message)
			}
		})
	}
}

// TestDepthBoundIsExact: MaxDepth levels are fine, one more is not.
func TestDepthBoundIsExact(t *testing.T) {
	ok := strings.Repeat("<a>", MaxDepth) + strings.Repeat("</a>", MaxDepth)
	if _, err := parseTree([]byte(ok)); err != nil {
		t.Fatalf("depth %d: %v", MaxDepth, err)
	}
	deep := "<a>" + ok + "</a>"
	if _, err := parseTree([]byte(deep)); err == nil || err.col != 3*MaxDepth+1 {
		t.Fatalf("depth %d: %v", MaxDepth+1, err)
	}
}

// TestTreePositions: element positions are the start tags, in bytes.
func TestTreePositions(t *testing.T) {
	src := "<?xml version=\"1.0\"?>\n<!-- c -->\n<r xmlns=\"u\" xmlns:p=\"v\">\n\t<p:x p:a=\"1\" b=\"2\"/><é/>\n  <y><text>a &amp; <![CDATA[<b>]]></text></y></r>"
	root, err := parseTree([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	x, e, y := root.children[0], root.children[1], root.children[2]
	checks := []struct {
		el           *element
		space, local string
		line, col    int
	}{
		{root, "u", "r", 3, 1},
		{x, "v", "x", 4, 2},
		{e, "u", "é", 4, 22},
		{y, "u", "y", 5, 3},
	}
	for _, c := range checks {
		if c.el.space != c.space || c.el.local != c.local || c.el.line != c.line || c.el.col != c.col {
			t.Errorf("got {%s}%s at %d:%d, want {%s}%s at %d:%d", c.el.space, c.el.local, c.el.line, c.el.col, c.space, c.local, c.line, c.col)
		}
	}
	if v, ok := x.attrNS("v", "a"); !ok || v != "1" {
		t.Errorf("p:a = %q %v", v, ok)
	}
	if v, ok := x.attr("b"); !ok || v != "2" {
		t.Errorf("b = %q %v", v, ok)
	}
	if got := textOfAny(y); got != "a & <b>" {
		t.Errorf("text = %q", got)
	}
}

func textOfAny(e *element) string {
	for _, c := range e.children {
		if c.local == "text" {
			return c.text
		}
	}
	return ""
}
