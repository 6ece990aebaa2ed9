package graph

import "fmt"

// checkTerm reports why t cannot be written faithfully: an IRI with a
// character no IRI may hold, a relative IRI in a syntax that needs absolute
// ones, or a malformed language tag.
func checkTerm(t Term, absolute bool) error {
	switch t.Kind {
	case KindIRI:
		return checkIRI(t.Value, absolute)
	case KindLiteral:
		if t.Lang != "" && !validLangTag(t.Lang) {
			return fmt.Errorf("%w: language tag %q is not well-formed", ErrUnsupported, t.Lang)
		}
		if t.Lang == "" && t.Datatype != XSDString {
			return checkIRI(t.Datatype, true)
		}
	}
	return nil
}

func checkIRI(s string, absolute bool) error {
	if !iriCharsValid(s) {
		return fmt.Errorf("%w: IRI %q holds characters an IRI may not contain", ErrUnsupported, s)
	}
	if absolute && !IsAbsoluteIRI(s) {
		return fmt.Errorf("%w: relative IRI %q where an absolute IRI is needed (parse with a Base)", ErrUnsupported, s)
	}
	return nil
}

// checkQuad reports why q cannot be written: a literal subject or graph
// name, a predicate that is not an IRI, or a term checkTerm refuses.
func checkQuad(q Quad, absolute bool) error {
	switch {
	case q.S.Kind == KindLiteral:
		return fmt.Errorf("%w: literal subject %v", ErrUnsupported, q.S)
	case q.P.Kind != KindIRI:
		return fmt.Errorf("%w: predicate %v is not an IRI", ErrUnsupported, q.P)
	case q.G.Kind == KindLiteral:
		return fmt.Errorf("%w: literal graph name %v", ErrUnsupported, q.G)
	}
	for _, t := range [4]Term{q.S, q.P, q.O, q.G} {
		if err := checkTerm(t, absolute); err != nil {
			return err
		}
	}
	return nil
}
