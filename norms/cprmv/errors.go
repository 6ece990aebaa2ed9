//lint:file-ignore ST1005 these are the exact error texts of the rule-serving API, which clients match

package cprmv

import (
	"errors"
	"fmt"
	"time"
)

// The errors a Service reports; servers map each to its status and body.
// Wrapped errors keep these as their cause.
var (
	// ErrUnsupportedID: no publication method accepts the identifier format.
	ErrUnsupportedID = errors.New("No supported publication repository use identifiers with the format of the given Ruleset Id.")
	// ErrNotFound: the work, or a version in force, is not in the repository.
	ErrNotFound = errors.New("Rule set not found in the publication repository.")
	// ErrNoRules: the rule set was found but the path matches no rule.
	ErrNoRules = errors.New("No rules found for given path...")
	// ErrUnavailable: the repository is unreachable, timed out, answered 5xx
	// or sent a document that cannot be read.
	ErrUnavailable = errors.New("Publication repository unavailable.")
	// ErrPathLength: rule_id_path outside 10..500 code points.
	ErrPathLength = errors.New("rule_id_path must be 10 to 500 characters.")
	// ErrFormat: an output format that is not offered.
	ErrFormat = errors.New("Unsupported format.")
	// ErrLanguage: a language other than nl.
	ErrLanguage = errors.New("Unsupported language.")
	// ErrPattern: an unformat pattern outside the supported subset.
	ErrPattern = errors.New("Invalid unformat pattern.")
	// ErrReference: a reference that cannot be resolved, or an unknown
	// reference method.
	ErrReference = errors.New("not a valid or supported reference...")
)

// Limits bound the work of one retrieval and conversion. A zero field takes
// the package default (see DefaultLimits); a negative field disables that
// bound.
type Limits struct {
	Timeout  time.Duration // one repository request
	MaxDepth int           // XML nesting of a document
	MaxBytes int64         // bytes of one document
}

// DefaultLimits returns the bounds used when a Limits field is zero: 10 s,
// nesting 200, 50 MiB.
func DefaultLimits() Limits {
	return Limits{Timeout: 10 * time.Second, MaxDepth: 200, MaxBytes: 50 << 20}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Timeout == 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = d.MaxBytes
	}
	return l
}

// LimitError reports that a retrieval stopped at one of its Limits. It
// wraps ErrUnavailable: an oversized document is the repository's doing,
// not the caller's.
type LimitError struct {
	Limit string // "Timeout" or "MaxBytes"
	Max   int64  // the bound (nanoseconds for Timeout)
}

func (e *LimitError) Error() string {
	if e.Limit == "MaxBytes" {
		return fmt.Sprintf("cprmv: document exceeded MaxBytes (%d bytes)", e.Max)
	}
	return fmt.Sprintf("cprmv: repository request exceeded %s (%s)", e.Limit, time.Duration(e.Max))
}

// LimitExceeded returns the Limits field that was exceeded.
func (e *LimitError) LimitExceeded() string { return e.Limit }

// Unwrap makes errors.Is(err, ErrUnavailable) hold.
func (e *LimitError) Unwrap() error { return ErrUnavailable }

// SyntaxError is a document that is not well-formed or nests too deeply,
// with its position.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("cprmv: document: %s at line %d, column %d", e.Msg, e.Line, e.Column)
}

// Unwrap: a broken document from the repository is a repository failure.
func (e *SyntaxError) Unwrap() error { return ErrUnavailable }
