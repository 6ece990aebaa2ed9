// Package validate checks DMN XML before it is published, in the five
// layers of the explorer's POST /v1/dmns/validate: structure, decision
// tables, CPRMV extension attributes, the decision requirements diagram and
// metadata quality. Every problem is an Issue with a code from the project's
// code table (Codes), a severity, the element path and the line and column
// of the element's start tag (or of the XML parse error); a structural
// failure skips layers 2–5.
//
//	report := validate.Validate(xmlBytes) // report.Valid, report.Issues(), json.Marshal(report)
//
// # Input safety
//
// The document is read by the package's own pass over encoding/xml raw
// tokens (etree keeps no positions). A DOCTYPE is refused outright, so no
// DTD is read and no entity is declared or expanded (billion-laughs and
// external-entity documents fail at once with BASE-PARSE); only the five
// predefined entities and character references are resolved. Nesting deeper
// than MaxDepth, documents over MaxDocumentBytes, duplicate attributes,
// unbound prefixes and a second root element are parse errors too. Encodings
// other than UTF-8 are decoded when IANA names them (ISO-8859-1, windows-1252, …).
// Validate never panics: an internal failure becomes a BASE-ERR issue.
//
// # Output bounds
//
// The report grows with the number of findings, never with their product
// with the input's size: a message quotes at most MaxExcerpt (200)
// characters of an expression or attribute value, ending in "…" and the
// number of characters left out, and ids in locations at most 100; an
// input expression contributes at most MaxListed (20) INT-007 issues, the
// last of them counting the other names; a report lists at most
// MaxIssuesPerCode (1000) issues of one code and then one note counting
// the rest (Summary counts them all). A 31 KB expression with 4,000
// undeclared names gives 21 issues and about 11 KB of JSON (it gave
// 125 MB). INT-007 searches each input expression for the declared names
// with spaces only within a work budget (about 20 M byte comparisons);
// past it, the words of such names count as declared.
//
// # Namespaces
//
// The checks run for every accepted root namespace: the specification's
// four (DMN 1.3, 1.2, 1.1 and the legacy process-engine namespace
// https://www.camunda.org/schema/1.0/dmn) and, because regelkit's engine
// runs them, DMN 1.4 and 1.5. BASE-NS lists all six. Elements count as DMN
// when they are in any of these namespaces.
//
// # Beyond the upstream checks
//
// BIZ-015 reports FEEL syntax errors in input expressions, input entries and
// output entries (parsed with dmn/feel; cells of another expressionLanguage
// and empty output entries are skipped). BIZ-016 reports rules of a UNIQUE
// table whose input entries overlap semantically: each entry is read as a
// set of values of its column (unions of numeric or date intervals with open
// or closed ends, integers and dates as discrete values, string and boolean
// enumerations, not(...), null, "-"), and two rules overlap when their sets
// meet in every column; the message names both rules and an input that
// matches both. Entries that are no literal tests (names, function calls
// other than date, string order comparisons) are not read, so their rules
// take no part: BIZ-016 never claims an overlap it cannot show. Pairs with
// identical text are left to BIZ-008, catch-all rules to BIZ-009. The search
// splits the rules on their columns instead of comparing all pairs; it
// reports at most 100 pairs per table and stops after a work budget
// proportional to the table, saying so in the last message, when thousands
// of rules overlap each other. INT-003 also reports longer cycles of
// required decisions; typeRefs naming an itemDefinition of the model, or a
// FEEL type with a prefix bound to a FEEL namespace (DMN 1.1 feel:string),
// are known types.
//
// # Performance
//
// BenchmarkValidateLarge validates a 6.2 MB model with one UNIQUE table
// of 20,000 rules over three columns (string, integer, date; every rule
// with ids and a CPRMV attribute), all five layers and BIZ-015/BIZ-016 on
// every cell; its figure is in the README's performance table. Most of the time goes
// to XML tokenising, then to FEEL parsing of the distinct cell texts and
// the overlap search.
package validate
