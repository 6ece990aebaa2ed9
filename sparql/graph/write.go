package graph

import (
	"fmt"
	"io"
)

// WriteOptions configures Write.
type WriteOptions struct {
	Prefixes *Prefixes
	Base     string
	Context  any
}

func WriteDataset(w io.Writer, f Format, d *Dataset, opt WriteOptions) error {
	return fmt.Errorf("%w: todo", ErrUnsupported)
}
