package examples

import "embed"

// FS holds the example files under their paths in this directory.
//
//go:embed models knowledge-graph processes
var FS embed.FS

// LocalPass lists the local-pass chain in execution order: model
// identifier (the dct:identifier in the knowledge graph and the engine's
// decision key) and the path of its DMN file in FS.
var LocalPass = []struct{ Identifier, Path string }{
	{"SVB_LeeftijdsInformatie", "models/localpass/SVB_LeeftijdsInformatie.dmn"},
	{"SZW_BijstandsnormInformatie", "models/localpass/SZW_BijstandsnormInformatie.dmn"},
	{"RONL_LocalpassEindresultaat", "models/localpass/RONL_LocalpassEindresultaat.dmn"},
}

// KnowledgeGraph lists the Turtle files of the example knowledge graph.
var KnowledgeGraph = []string{
	"knowledge-graph/organisations.ttl",
	"knowledge-graph/localpass.ttl",
	"knowledge-graph/models.ttl",
	"knowledge-graph/norms.ttl",
}

// ProcessBundle is one example process deployment: a directory under
// processes/ deployed as a whole (forms, templates and called processes
// resolve inside it).
type ProcessBundle struct {
	Name  string   // the directory under processes/, used as the deployment name
	Keys  []string // its process keys; the first is the one to start
	Files []string // its files' paths in FS
}

// Processes lists the example process bundles (see processes/README.md).
var Processes = []ProcessBundle{
	{"localpass", []string{"LocalpassAanvraagProcess"}, []string{
		"processes/localpass/LocalpassAanvraag.bpmn", "processes/localpass/localpass-aanvraag-start.form",
		"processes/localpass/localpass-beoordeling.form", "processes/localpass/localpass-besluit.document"}},
	{"onboarding", []string{"HrOnboardingProcess"}, []string{
		"processes/onboarding/HrOnboarding.bpmn", "processes/onboarding/HrOnboardingItAccess.dmn",
		"processes/onboarding/hr-it-handover.document", "processes/onboarding/hr-notify-employee.form",
		"processes/onboarding/hr-onboarding-start.form", "processes/onboarding/hr-role-review.form"}},
	{"projectphase", []string{"RipPhase1Process"}, []string{
		"processes/projectphase/RipPhase1.bpmn", "processes/projectphase/rip-intake-report.document",
		"processes/projectphase/rip-pdp.document", "processes/projectphase/rip-phase1-start.form",
		"processes/projectphase/rip-psu-report.document"}},
	{"subprocess", []string{"KapvergunningProcess", "BoomInspectieProcess"}, []string{
		"processes/subprocess/BoomInspectie.bpmn", "processes/subprocess/Kapvergunning.bpmn",
		"processes/subprocess/kapvergunning-start.form", "processes/subprocess/tree-felling-review.form"}},
}
