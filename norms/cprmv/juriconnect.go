package cprmv

import (
	"net/url"
	"regexp"
	"strings"
)

var jciHead = regexp.MustCompile(`^jci1\.(3|31):c:(?i:BWB)([A-Za-z0-9]{8})$`)

// Resolve turns a reference into the /rules/ path it names, percent-encoded
// as upstream writes it ("%20" for spaces, "%2C" for commas), e.g.
// "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020". method is the
// reference method, case-insensitive: "juriconnect", "cprmvapi", or ""
// to try each reference method of the methods graph in order. Nothing is
// fetched; an unresolvable reference gives ErrReference.
func (s *Service) Resolve(method, reference string) (string, error) {
	method = strings.ToLower(method)
	for _, m := range s.methods.Reference {
		if method != "" && m.ID != method {
			continue
		}
		var segs []string
		var ok bool
		switch m.ID {
		case "juriconnect":
			segs, ok = s.juriconnect(m, reference)
		case "cprmvapi":
			segs, ok = cprmvapi(reference)
		}
		if ok {
			return "/rules/" + url.PathEscape(strings.Join(segs, ",")), nil
		}
	}
	return "", ErrReference
}

// juriconnect maps "jci1.3:c:BWBR0015703&hoofdstuk=3&artikel=20&g=…" to
// segments. The reference may still be percent-encoded (as
// cut from a raw URL path); each part is decoded once: single consolidations only; mapped keys become
// "<Label> <value>" in reference order; g is the valid-on date; z and
// unknown keys are ignored.
func (s *Service) juriconnect(m *Method, ref string) ([]string, bool) {
	parts := strings.Split(ref, "&")
	head, err := url.PathUnescape(parts[0])
	if err != nil {
		return nil, false
	}
	h := jciHead.FindStringSubmatch(head)
	if h == nil {
		return nil, false
	}
	date := s.Today()
	var segs []string
	for _, kv := range parts[1:] {
		rawKey, v, _ := strings.Cut(kv, "=")
		k, err := url.PathUnescape(rawKey)
		if err != nil {
			return nil, false
		}
		val, err := url.PathUnescape(v)
		if err != nil {
			return nil, false
		}
		val = strings.TrimSpace(val)
		switch {
		case k == m.ValidOn && m.ValidOn != "":
			if !validDate(val) {
				return nil, false
			}
			date = val
		case k == m.SeenOn && m.SeenOn != "":
		case m.Mapping[k] != "" && val != "":
			segs = append(segs, m.Mapping[k]+" "+val)
		}
	}
	id := fill("BWB{rulesetid}_{date}_{index}", map[string]string{
		"rulesetid": strings.ToUpper(h[2]), "date": date, "index": "latest"})
	if bwb := s.methods.publication("bwb"); bwb != nil && bwb.Format != "" {
		id = fill(bwb.Format, map[string]string{"rulesetid": strings.ToUpper(h[2]), "date": date, "index": "latest"})
	}
	return append([]string{id}, segs...), true
}

// cprmvapi maps "{baseuri}/rules/a/b/…" (or ",") to segments a, b, ….
func cprmvapi(ref string) ([]string, bool) {
	_, rest, ok := strings.Cut(ref, "/rules/")
	if !ok {
		return nil, false
	}
	var segs []string
	for _, seg := range SplitPath(rest, ",") {
		v, err := url.PathUnescape(seg)
		if err != nil {
			return nil, false
		}
		if v = strings.TrimSpace(v); v != "" {
			segs = append(segs, v)
		}
	}
	return segs, len(segs) > 0
}
