package cprmv

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// cvdrSRU is a recorded CVDR SRU answer, trimmed to the fields read.
const cvdrSRU = `<?xml version="1.0" encoding="UTF-8"?>
<sru:searchRetrieveResponse xmlns:sru="http://docs.oasis-open.org/ns/search-ws/sruResponse">
 <sru:numberOfRecords>2</sru:numberOfRecords>
 <sru:records><sru:record><sru:recordData><gzd xmlns="http://standaarden.overheid.nl/sru">
  <originalData><meta><owmsmantel/><cvdripm xmlns:cvdr="http://standaarden.overheid.nl/cvdr/terms/">
   <cvdr:inwerkingtredingDatum>2024-01-01</cvdr:inwerkingtredingDatum></cvdripm></meta></originalData>
  <enrichedData><publicatieurl_xml>https://repository.officiele-overheidspublicaties.nl/cvdr/CVDR712517/1/xml/CVDR712517_1.xml</publicatieurl_xml></enrichedData>
 </gzd></sru:recordData></sru:record></sru:records>
</sru:searchRetrieveResponse>`

func TestHTTPRepositoryCVDRAndStatuses(t *testing.T) {
	var sru, docs atomic.Int64
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/sru"):
			sru.Add(1)
			q := r.URL.Query().Get("query")
			if !strings.Contains(q, "dcterms.identifier=CVDR712517_*") || !strings.Contains(q, "inwerkingtredingDatum<=2024-06-01") {
				http.Error(w, "unexpected query "+q, 400)
				return
			}
			_, _ = w.Write([]byte(cvdrSRU))
		case strings.HasSuffix(r.URL.Path, "CVDR712517_1.xml"):
			docs.Add(1)
			b, _ := embedded.ReadFile("repository/cvdr/CVDR712517/1/xml/CVDR712517_1.xml")
			_, _ = w.Write(b)
		case strings.Contains(r.URL.Path, "BWBR0005537"):
			http.Error(w, "down", http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r)
		}
	}))
	defer upstream.Close()
	repo, err := HTTPRepository(HTTPOptions{Rewrite: map[string]string{
		"https://repository.officiele-overheidspublicaties.nl": upstream.URL,
		"https://zoekservice.overheid.nl/sru/Search":           upstream.URL + "/sru",
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := newService(t, Options{Repository: repo})
	for range 2 {
		rs, err := s.RuleSet(context.Background(), "CVDR712517_2024-06-01_latest")
		if err != nil {
			t.Fatal(err)
		}
		if rs.ID != "CVDR712517_1" || rs.ValidFrom != "2024-01-01" || rs.Comment != "Verordening meedoen (fixture)" {
			t.Errorf("CVDR over SRU: %s %s %q", rs.ID, rs.ValidFrom, rs.Comment)
		}
	}
	if sru.Load() != 1 || docs.Load() != 1 {
		t.Errorf("second call not cached: %d SRU requests, %d fetches", sru.Load(), docs.Load())
	}
	if _, err := s.RuleSet(context.Background(), "BWBR0005537_2025-01-01_0"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("503 upstream: %v, want ErrUnavailable", err)
	}
	if _, err := s.RuleSet(context.Background(), "BWBR0011825_2024-01-01_0"); !errors.Is(err, ErrNotFound) {
		t.Errorf("404 upstream: %v, want ErrNotFound", err)
	}
	if _, err := HTTPRepository(HTTPOptions{ExtraCAPEM: []byte("not a certificate")}); err == nil {
		t.Error("a CA file without certificates must be refused")
	}
}
