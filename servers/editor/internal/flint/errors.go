package flint

import (
	"fmt"
	"strings"
)

// SchemaError reports an interpretation (JSON or RDF) that does not fit the
// FLINT mapping. Each detail names the place, e.g.
// "frames[3].actorId: unknown frame 'x'". Servers answer 422.
type SchemaError struct {
	Message string   // "Invalid interpretation.", "No task or source found.", ...
	Details []string // at most maxDetails entries
}

const maxDetails = 50

func (e *SchemaError) Error() string {
	if len(e.Details) == 0 {
		return "flint: " + e.Message
	}
	return "flint: " + e.Message + " " + strings.Join(e.Details, "; ")
}

// problems collects schema violations up to a bound.
type problems struct{ list []string }

func (p *problems) add(format string, args ...any) {
	if len(p.list) < maxDetails {
		p.list = append(p.list, excerpt(fmt.Sprintf(format, args...)))
	}
}

func (p *problems) err(msg string) error {
	if len(p.list) == 0 {
		return nil
	}
	return &SchemaError{Message: msg, Details: p.list}
}

// excerpt keeps messages bounded when they quote input.
func excerpt(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "…"
}

// Limits bound the work of one conversion. A zero field takes the default of
// DefaultLimits; a negative field disables that bound.
type Limits struct {
	MaxDepth int // nesting of constructs
	MaxRows  int // frames of one interpretation
}

// DefaultLimits returns the bounds used when a Limits field is zero.
func DefaultLimits() Limits { return Limits{MaxDepth: 64, MaxRows: 20000} }

func (l Limits) resolved() Limits {
	d := DefaultLimits()
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxRows == 0 {
		l.MaxRows = d.MaxRows
	}
	return l
}

// LimitError reports that a conversion stopped at one of its Limits.
type LimitError struct {
	Limit string // "MaxDepth" or "MaxRows"
	Max   int64
}

func (e *LimitError) Error() string {
	what := map[string]string{"MaxDepth": "nested constructs", "MaxRows": "frames"}[e.Limit]
	return fmt.Sprintf("flint: interpretation exceeded %s (%d %s)", e.Limit, e.Max, what)
}

// LimitExceeded returns the name of the exceeded limit.
func (e *LimitError) LimitExceeded() string { return e.Limit }
