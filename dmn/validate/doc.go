// Package validate checks DMN XML before it is published: structure,
// decision tables, CPRMV extension attributes, the decision requirements
// diagram and metadata quality, in the five layers of the explorer's
// POST /v1/dmns/validate.
//
// Validate parses the document with its own bounded, position-keeping pass
// over encoding/xml (no DTD, no entity expansion, depth and size limits) and
// reports every problem as an Issue with a code, severity, element path,
// line and column; it never panics on hostile input.
//
//	report := validate.Validate(xmlBytes)
//	if !report.Valid { for _, is := range report.Issues() { fmt.Println(is.Code, is.Location, is.Message) } }
package validate
