package graph

import (
	"fmt"

	"github.com/knakk/rdf"
)

// FromKnakk converts a github.com/knakk/rdf term to a Term. Term follows
// knakk's term model (IRI, blank node, literal with datatype or language
// tag) as a comparable value; these two functions are the bridge for code
// that still holds knakk terms.
func FromKnakk(t rdf.Term) Term {
	switch v := t.(type) {
	case rdf.IRI:
		return IRI(v.String())
	case rdf.Blank:
		return Blank(v.String())
	case rdf.Literal:
		if v.Lang() != "" {
			return LangLiteral(v.String(), v.Lang())
		}
		return Literal(v.String(), v.DataType.String())
	}
	return Term{}
}

// ToKnakk converts t to a github.com/knakk/rdf term. It fails for the zero
// Term and for IRIs knakk rejects (those with spaces or other characters an
// IRI may not hold).
func ToKnakk(t Term) (rdf.Term, error) {
	switch t.Kind {
	case KindIRI:
		return rdf.NewIRI(t.Value)
	case KindBlank:
		return rdf.NewBlank(t.Value)
	case KindLiteral:
		if t.Lang != "" {
			return rdf.NewLangLiteral(t.Value, t.Lang)
		}
		dt, err := rdf.NewIRI(t.Datatype)
		if err != nil {
			return nil, err
		}
		return rdf.NewTypedLiteral(t.Value, dt), nil
	}
	return nil, fmt.Errorf("graph: cannot convert the zero Term")
}
