package sparql

import (
	"mime"
	"strconv"
	"strings"
)

// Negotiate picks the media type from offers that an HTTP Accept header
// prefers (quality values, then specificity, then the order of offers).
// An empty or "*/*" header gives offers[0]; no acceptable offer gives "".
func Negotiate(accept string, offers []string) string {
	if strings.TrimSpace(accept) == "" {
		return offers[0]
	}
	type rng struct {
		typ, sub string
		q        float64
		order    int
	}
	var ranges []rng
	for i, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		typ, sub, _ := strings.Cut(mt, "/")
		ranges = append(ranges, rng{typ, sub, q, i})
	}
	best, bestQ, bestSpec := "", 0.0, -1
	for _, offer := range offers {
		ot, os, _ := strings.Cut(offer, "/")
		q, spec := -1.0, -1
		for _, r := range ranges {
			s := -1
			switch {
			case r.typ == ot && r.sub == os:
				s = 2
			case r.typ == ot && r.sub == "*":
				s = 1
			case r.typ == "*" && r.sub == "*":
				s = 0
			}
			if s > spec {
				spec, q = s, r.q
			}
		}
		if spec >= 0 && q > 0 && (q > bestQ || (q == bestQ && spec > bestSpec)) {
			best, bestQ, bestSpec = offer, q, spec
		}
	}
	return best
}
