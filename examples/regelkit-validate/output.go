package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
)

// toolName and toolURI identify the command in SARIF.
const (
	toolName = "regelkit-validate"
	toolURI  = "https://github.com/regelkit/regelkit/tree/main/examples/regelkit-validate"
)

// sarifSchema is the schema URI a SARIF 2.1.0 log names.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

func write(w io.Writer, format, kind string, results []fileResult) error {
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "json":
		err = writeJSON(bw, kind, results)
	case "sarif":
		err = writeSARIF(bw, results)
	default:
		err = writeHuman(bw, results)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

type summary struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

func summarise(results []fileResult) summary {
	s := summary{Files: len(results)}
	for _, r := range results {
		for _, f := range r.Findings {
			switch f.Severity {
			case "error":
				s.Errors++
			case "warning":
				s.Warnings++
			default:
				s.Infos++
			}
		}
	}
	return s
}

// writeHuman writes one line per issue in the form compilers use, which
// editors and terminals turn into links: file:line:column: severity code:
// message (location). An issue without a position names the file alone.
func writeHuman(w io.Writer, results []fileResult) error {
	for _, r := range results {
		for _, f := range r.Findings {
			pos := r.File
			if f.Line > 0 {
				pos = fmt.Sprintf("%s:%d:%d", r.File, f.Line, max(f.Column, 1))
			}
			msg := oneLine(f.Message)
			if f.Location != "" {
				msg += " (at " + oneLine(f.Location) + ")"
			}
			if _, err := fmt.Fprintf(w, "%s: %s %s: %s\n", pos, f.Severity, f.Code, msg); err != nil {
				return err
			}
		}
	}
	s := summarise(results)
	_, err := fmt.Fprintf(w, "%d %s checked: %d %s, %d %s, %d %s\n",
		s.Files, plural(s.Files, "file", "files"),
		s.Errors, plural(s.Errors, "error", "errors"),
		s.Warnings, plural(s.Warnings, "warning", "warnings"),
		s.Infos, plural(s.Infos, "info", "infos"))
	return err
}

// oneLine keeps one issue on one output line whatever its message holds.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func writeJSON(w io.Writer, kind string, results []fileResult) error {
	if results == nil {
		results = []fileResult{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Kind    string       `json:"kind"`
		Files   []fileResult `json:"files"`
		Summary summary      `json:"summary"`
	}{kind, results, summarise(results)})
}

// The SARIF 2.1.0 objects this command writes (OASIS SARIF 2.1.0, §3).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		Results    []sarifResult `json:"results"`
		ColumnKind string        `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string        `json:"id"`
		ShortDescription     sarifMessage  `json:"shortDescription"`
		DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
	}
	sarifRuleConf struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical          `json:"physicalLocation"`
		LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	}
	sarifLogicalLocation struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
	}
)

// sarifLevel maps a severity to SARIF's level: info is "note".
func sarifLevel(severity string) string {
	switch severity {
	case "error", "warning":
		return severity
	}
	return "note"
}

// writeSARIF writes one run whose driver lists the rules (codes) that
// occur, sorted, and one result per issue pointing at the file and, when
// the issue has a position, at its line and column.
func writeSARIF(w io.Writer, results []fileResult) error {
	rules := map[string]rule{}
	for _, r := range results {
		for code, ru := range r.rules {
			rules[code] = ru
		}
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	index := make(map[string]int, len(ids))
	driver := sarifDriver{Name: toolName, InformationURI: toolURI, Rules: []sarifRule{}}
	for i, id := range ids {
		index[id] = i
		ru := rules[id]
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   id,
			ShortDescription:     sarifMessage{Text: ru.Text},
			DefaultConfiguration: sarifRuleConf{Level: sarifLevel(ru.Severity)},
		})
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}, ColumnKind: "unicodeCodePoints"}
	for _, r := range results {
		uri := artifactURI(r.File)
		for _, f := range r.Findings {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}}}
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: max(f.Column, 1)}
			}
			if f.Location != "" {
				loc.LogicalLocations = []sarifLogicalLocation{{FullyQualifiedName: f.Location}}
			}
			msg := f.Message
			if f.Location != "" {
				msg += " (at " + f.Location + ")"
			}
			run.Results = append(run.Results, sarifResult{
				RuleID:    f.Code,
				RuleIndex: index[f.Code],
				Level:     sarifLevel(f.Severity),
				Message:   sarifMessage{Text: msg},
				Locations: []sarifLocation{loc},
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// artifactURI writes a file name as a URI reference: a relative path stays
// relative (CI systems resolve it against the repository root), an
// absolute one becomes a file: URI; both are percent-encoded.
func artifactURI(name string) string {
	slashed := filepath.ToSlash(name)
	if filepath.IsAbs(name) {
		if !strings.HasPrefix(slashed, "/") {
			slashed = "/" + slashed // Windows drive letter
		}
		return (&url.URL{Scheme: "file", Path: slashed}).String()
	}
	return (&url.URL{Path: strings.TrimPrefix(slashed, "./")}).String()
}
