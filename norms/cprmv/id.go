package cprmv

import (
	"regexp"
	"strings"
	"time"
)

// RuleSetID is a detected rule set identifier.
type RuleSetID struct {
	Method string // the publication method id: bwb, cvdr, cellarfmx4, dmn13operaton
	// Fields are the method's placeholder values: rulesetid, date, index
	// (bwb, cvdr, dmn13operaton), docid (cellarfmx4), deploymentid and
	// resourceid (dmn13operaton).
	Fields map[string]string
	// ValidFrom is the in-force date of the version once known (the BWB
	// version date, the CVDR in-force date).
	ValidFrom string
}

// Normalize applies upstream's normalisation: an id without "_" becomes
// "{id}_now_latest", an id with exactly one "_" ("X_n") becomes "X_na_n",
// any other id is returned unchanged.
func Normalize(id string) string {
	switch strings.Count(id, "_") {
	case 0:
		return id + "_now_latest"
	case 1:
		x, n, _ := strings.Cut(id, "_")
		return x + "_na_" + n
	}
	return id
}

var (
	bwbWork   = regexp.MustCompile(`^[A-Z][0-9]{7}$`)
	cvdrWork  = regexp.MustCompile(`^R[0-9]+$`)
	digits    = regexp.MustCompile(`^[0-9]+$`)
	cellarID  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9]{4}\.[0-9]{2}$`)
	cellarDoc = regexp.MustCompile(`^DOC_[0-9]+$`)
	lowerUUID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// Detect normalises id and matches it against each publication method's
// normalized-id-format in list order; the first match whose fields the
// method accepts wins. An unsupported id gives ErrUnsupportedID.
func (m *Methods) Detect(id string) (RuleSetID, error) {
	norm := Normalize(id)
	for _, meth := range m.Publication {
		if meth.pattern == nil {
			continue
		}
		sub := meth.pattern.FindStringSubmatch(norm)
		if sub == nil {
			continue
		}
		f := map[string]string{}
		for i, name := range meth.fields {
			f[name] = sub[i+1]
		}
		if validFields(meth.ID, f) {
			return RuleSetID{Method: meth.ID, Fields: f}, nil
		}
	}
	return RuleSetID{}, ErrUnsupportedID
}

func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func validFields(method string, f map[string]string) bool {
	date, index := f["date"], f["index"]
	indexOK := index == "latest" || digits.MatchString(index)
	switch method {
	case "bwb":
		return bwbWork.MatchString(f["rulesetid"]) && indexOK &&
			(validDate(date) || date == "now" || (date == "na" && index == "latest"))
	case "cvdr":
		return cvdrWork.MatchString(f["rulesetid"]) && indexOK && (validDate(date) || date == "now" || date == "na")
	case "cellarfmx4":
		return cellarID.MatchString(f["rulesetid"]) && cellarDoc.MatchString(f["docid"])
	case "dmn13operaton":
		return lowerUUID.MatchString(f["deploymentid"]) && lowerUUID.MatchString(f["resourceid"]) &&
			(validDate(date) || date == "now" || date == "na") && indexOK
	}
	return false
}

// Exact reports whether the id names one version and needs no look-up.
func (id RuleSetID) Exact() bool {
	switch id.Method {
	case "bwb":
		return id.Fields["index"] != "latest" && validDate(id.Fields["date"])
	case "cvdr":
		return id.Fields["index"] != "latest"
	}
	return true
}

// ValidOn is the date a "latest" id resolves on: the id's date, or today
// when it is "now" or "na".
func (id RuleSetID) ValidOn(today string) string {
	if d := id.Fields["date"]; validDate(d) {
		return d
	}
	return today
}

// String is the official identifier: BWBR0015703_2025-07-01_0, CVDR712517_1,
// or the normalised id for the other methods.
func (id RuleSetID) String() string {
	f := id.Fields
	switch id.Method {
	case "bwb":
		return "BWB" + f["rulesetid"] + "_" + f["date"] + "_" + f["index"]
	case "cvdr":
		return "CVD" + f["rulesetid"] + "_" + f["index"]
	case "cellarfmx4":
		return "CFMX4" + f["rulesetid"] + "_" + f["docid"]
	case "dmn13operaton":
		return "DMN1.3_" + f["deploymentid"] + "R" + f["resourceid"] + "_" + f["date"] + "_" + f["index"]
	}
	return ""
}

// with returns a copy with the given fields replaced.
func (id RuleSetID) with(kv ...string) RuleSetID {
	f := make(map[string]string, len(id.Fields))
	for k, v := range id.Fields {
		f[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		f[kv[i]] = kv[i+1]
	}
	return RuleSetID{Method: id.Method, Fields: f, ValidFrom: id.ValidFrom}
}
