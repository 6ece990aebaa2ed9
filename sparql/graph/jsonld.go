package graph

import (
	"fmt"
	"io"
)

func parseJSONLD(r io.Reader, opt ParseOptions, emit func(Quad) error) error {
	return fmt.Errorf("%w: JSON-LD parsing not yet implemented", ErrUnsupported)
}

func writeJSONLD(w io.Writer, d *Dataset, opt WriteOptions) error {
	return fmt.Errorf("%w: JSON-LD writing not yet implemented", ErrUnsupported)
}
