package examples

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
)

// DefaultPublicBase is the address the example knowledge graph's links to
// the serving explorer are written with (the engine evaluation URLs of
// ronl:implementedBy): the explorer on its default port. A server on
// another address loads the graph through KnowledgeGraphFile, so the links
// point at itself.
const DefaultPublicBase = "http://localhost:8081"

// KnowledgeGraphFile returns the Turtle file path of KnowledgeGraph with
// every IRI under DefaultPublicBase rebased onto publicBase, the address
// clients reach the server at (the explorer's PUBLIC_BASE_URL, e.g.
// "http://localhost:9000" or "https://explorer.example.nl/base"). ""
// leaves the file as it is. publicBase must be an absolute http(s) URL
// without query or fragment, and contain nothing an IRI in Turtle cannot.
func KnowledgeGraphFile(path, publicBase string) ([]byte, error) {
	data, err := fs.ReadFile(FS, path)
	if err != nil {
		return nil, err
	}
	publicBase = strings.TrimSuffix(publicBase, "/")
	if publicBase == "" || publicBase == DefaultPublicBase {
		return data, nil
	}
	u, err := url.Parse(publicBase)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" ||
		strings.ContainsAny(publicBase, "<>\"{}|^`\\ ") || strings.ContainsFunc(publicBase, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, fmt.Errorf("examples: public base %q is not an absolute http(s) URL usable in an IRI", publicBase)
	}
	// Only whole IRIs: "<" + base + "/" never occurs but as an IRI's start.
	return bytes.ReplaceAll(data, []byte("<"+DefaultPublicBase+"/"), []byte("<"+publicBase+"/")), nil
}
