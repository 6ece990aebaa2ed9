package graph

import (
	"fmt"
	"io"
)

func parseRDFXML(r io.Reader, opt ParseOptions, emit func(Quad) error) error {
	return fmt.Errorf("%w: RDF/XML parsing not yet implemented", ErrUnsupported)
}

func writeRDFXML(w io.Writer, g *Graph, opt WriteOptions) error {
	return fmt.Errorf("%w: RDF/XML writing not yet implemented", ErrUnsupported)
}
