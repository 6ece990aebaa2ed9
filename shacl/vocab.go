package shacl

import "github.com/regelkit/regelkit/sparql/graph"

// SH is the SHACL namespace.
const SH = "http://www.w3.org/ns/shacl#"

// Severities (values of sh:severity and sh:resultSeverity).
var (
	Violation = graph.IRI(SH + "Violation")
	Warning   = graph.IRI(SH + "Warning")
	Info      = graph.IRI(SH + "Info")
)

// Terms of the SHACL vocabulary the compiler and the report use. They are
// immutable values.
var (
	rdfType         = graph.IRI(graph.RDFType)
	rdfFirst        = graph.IRI(graph.RDFFirst)
	rdfNil          = graph.IRI(graph.RDFNil)
	rdfsClass       = graph.IRI(graph.RDFS + "Class")
	rdfsSubClassOf  = graph.IRI(graph.RDFS + "subClassOf")
	xsdTrue         = graph.Literal("true", graph.XSDBoolean)
	xsdFalse        = graph.Literal("false", graph.XSDBoolean)
	shNodeShape     = graph.IRI(SH + "NodeShape")
	shPropertyShape = graph.IRI(SH + "PropertyShape")

	shTargetClass      = graph.IRI(SH + "targetClass")
	shTargetNode       = graph.IRI(SH + "targetNode")
	shTargetSubjectsOf = graph.IRI(SH + "targetSubjectsOf")
	shTargetObjectsOf  = graph.IRI(SH + "targetObjectsOf")

	shPath            = graph.IRI(SH + "path")
	shInversePath     = graph.IRI(SH + "inversePath")
	shAlternativePath = graph.IRI(SH + "alternativePath")
	shZeroOrMorePath  = graph.IRI(SH + "zeroOrMorePath")
	shOneOrMorePath   = graph.IRI(SH + "oneOrMorePath")
	shZeroOrOnePath   = graph.IRI(SH + "zeroOrOnePath")

	shDeactivated = graph.IRI(SH + "deactivated")
	shSeverity    = graph.IRI(SH + "severity")
	shMessage     = graph.IRI(SH + "message")

	shClass                        = graph.IRI(SH + "class")
	shDatatype                     = graph.IRI(SH + "datatype")
	shNodeKind                     = graph.IRI(SH + "nodeKind")
	shMinCount                     = graph.IRI(SH + "minCount")
	shMaxCount                     = graph.IRI(SH + "maxCount")
	shMinExclusive                 = graph.IRI(SH + "minExclusive")
	shMinInclusive                 = graph.IRI(SH + "minInclusive")
	shMaxExclusive                 = graph.IRI(SH + "maxExclusive")
	shMaxInclusive                 = graph.IRI(SH + "maxInclusive")
	shMinLength                    = graph.IRI(SH + "minLength")
	shMaxLength                    = graph.IRI(SH + "maxLength")
	shPattern                      = graph.IRI(SH + "pattern")
	shFlags                        = graph.IRI(SH + "flags")
	shLanguageIn                   = graph.IRI(SH + "languageIn")
	shUniqueLang                   = graph.IRI(SH + "uniqueLang")
	shEquals                       = graph.IRI(SH + "equals")
	shDisjoint                     = graph.IRI(SH + "disjoint")
	shLessThan                     = graph.IRI(SH + "lessThan")
	shLessThanOrEquals             = graph.IRI(SH + "lessThanOrEquals")
	shNot                          = graph.IRI(SH + "not")
	shAnd                          = graph.IRI(SH + "and")
	shOr                           = graph.IRI(SH + "or")
	shXone                         = graph.IRI(SH + "xone")
	shNode                         = graph.IRI(SH + "node")
	shProperty                     = graph.IRI(SH + "property")
	shQualifiedValueShape          = graph.IRI(SH + "qualifiedValueShape")
	shQualifiedMinCount            = graph.IRI(SH + "qualifiedMinCount")
	shQualifiedMaxCount            = graph.IRI(SH + "qualifiedMaxCount")
	shQualifiedValueShapesDisjoint = graph.IRI(SH + "qualifiedValueShapesDisjoint")
	shClosed                       = graph.IRI(SH + "closed")
	shIgnoredProperties            = graph.IRI(SH + "ignoredProperties")
	shHasValue                     = graph.IRI(SH + "hasValue")
	shIn                           = graph.IRI(SH + "in")

	shIRI                = graph.IRI(SH + "IRI")
	shBlankNode          = graph.IRI(SH + "BlankNode")
	shLiteral            = graph.IRI(SH + "Literal")
	shBlankNodeOrIRI     = graph.IRI(SH + "BlankNodeOrIRI")
	shBlankNodeOrLiteral = graph.IRI(SH + "BlankNodeOrLiteral")
	shIRIOrLiteral       = graph.IRI(SH + "IRIOrLiteral")

	shValidationReport          = graph.IRI(SH + "ValidationReport")
	shValidationResult          = graph.IRI(SH + "ValidationResult")
	shConforms                  = graph.IRI(SH + "conforms")
	shResult                    = graph.IRI(SH + "result")
	shFocusNode                 = graph.IRI(SH + "focusNode")
	shResultPath                = graph.IRI(SH + "resultPath")
	shValue                     = graph.IRI(SH + "value")
	shResultSeverity            = graph.IRI(SH + "resultSeverity")
	shSourceConstraintComponent = graph.IRI(SH + "sourceConstraintComponent")
	shSourceShape               = graph.IRI(SH + "sourceShape")
	shResultMessage             = graph.IRI(SH + "resultMessage")
)

// component returns the IRI of the SHACL Core constraint component with the
// given local name stem, e.g. "MinCount" → sh:MinCountConstraintComponent.
func component(stem string) graph.Term { return graph.IRI(SH + stem + "ConstraintComponent") }

// The Core constraint components.
var (
	ccClass            = component("Class")
	ccDatatype         = component("Datatype")
	ccNodeKind         = component("NodeKind")
	ccMinCount         = component("MinCount")
	ccMaxCount         = component("MaxCount")
	ccMinExclusive     = component("MinExclusive")
	ccMinInclusive     = component("MinInclusive")
	ccMaxExclusive     = component("MaxExclusive")
	ccMaxInclusive     = component("MaxInclusive")
	ccMinLength        = component("MinLength")
	ccMaxLength        = component("MaxLength")
	ccPattern          = component("Pattern")
	ccLanguageIn       = component("LanguageIn")
	ccUniqueLang       = component("UniqueLang")
	ccEquals           = component("Equals")
	ccDisjoint         = component("Disjoint")
	ccLessThan         = component("LessThan")
	ccLessThanOrEquals = component("LessThanOrEquals")
	ccNot              = component("Not")
	ccAnd              = component("And")
	ccOr               = component("Or")
	ccXone             = component("Xone")
	ccNode             = component("Node")
	ccQualifiedMin     = component("QualifiedMinCount")
	ccQualifiedMax     = component("QualifiedMaxCount")
	ccClosed           = component("Closed")
	ccHasValue         = component("HasValue")
	ccIn               = component("In")
)
