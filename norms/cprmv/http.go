package cprmv

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// HTTPOptions configure HTTPRepository.
type HTTPOptions struct {
	// Rewrite maps URL prefixes of the official locations (as the methods
	// graph names them) to other ones: a mirror, or a test server.
	Rewrite map[string]string
	// ExtraCAPEM adds PEM certificates to the system pool: the official
	// repository serves an incomplete chain, and the deployment supplies the
	// missing intermediate (RULES_EXTRA_CA_FILE). Verification is never off.
	ExtraCAPEM []byte
	// Timeout bounds each request (default 10 s).
	Timeout time.Duration
	// LatestTTL is how long a "latest" resolution is kept (default 1 h);
	// LatestEntries bounds how many are kept (default 4096).
	LatestTTL     time.Duration
	LatestEntries int
	// Now is the clock of the latest cache (default time.Now).
	Now func() time.Time
	// Transport replaces the default transport (tests); ExtraCAPEM then
	// does not apply.
	Transport http.RoundTripper
	// Wrap, when set, wraps the transport in use (a server's metrics).
	Wrap func(http.RoundTripper) http.RoundTripper
}

type httpRepo struct {
	client  *http.Client
	rewrite map[string]string
	latest  *lru[RuleSetID]
}

// HTTPRepository reads the official repositories over HTTP and resolves
// "latest" through their SRU search services; resolutions are cached per
// (method, work, valid-on date), and concurrent misses share one request.
func HTTPRepository(opts HTTPOptions) (Repository, error) {
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.LatestTTL == 0 {
		opts.LatestTTL = time.Hour
	}
	if opts.LatestEntries == 0 {
		opts.LatestEntries = 4096
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	tr := opts.Transport
	if tr == nil {
		base := http.DefaultTransport.(*http.Transport).Clone()
		if len(opts.ExtraCAPEM) > 0 {
			pool, err := x509.SystemCertPool()
			if err != nil || pool == nil {
				pool = x509.NewCertPool()
			}
			if !pool.AppendCertsFromPEM(opts.ExtraCAPEM) {
				return nil, errors.New("cprmv: the extra CA file holds no PEM certificate")
			}
			base.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		}
		tr = base
	}
	if opts.Wrap != nil {
		tr = opts.Wrap(tr)
	}
	return &httpRepo{
		client:  &http.Client{Transport: tr, Timeout: opts.Timeout},
		rewrite: opts.Rewrite,
		latest:  newLRU[RuleSetID](opts.LatestEntries, opts.LatestTTL, opts.Now),
	}, nil
}

func (h *httpRepo) url(u string) string {
	best := ""
	for from := range h.rewrite {
		if strings.HasPrefix(u, from) && len(from) > len(best) {
			best = from
		}
	}
	if best == "" {
		return u
	}
	return h.rewrite[best] + strings.TrimPrefix(u, best)
}

// get fetches u; a 404 is ErrNotFound, any other failure ErrUnavailable.
func (h *httpRepo) get(ctx context.Context, u string, maxBytes int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url(u), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%w: status %d", ErrUnavailable, resp.StatusCode)
	case maxBytes >= 0 && resp.ContentLength > maxBytes:
		return nil, &LimitError{Limit: "MaxBytes", Max: maxBytes}
	}
	return readBounded(resp.Body, maxBytes)
}

func (h *httpRepo) Open(ctx context.Context, location string, maxBytes int64) ([]byte, error) {
	return h.get(ctx, location, maxBytes)
}

// sruMaxBytes bounds an SRU answer: one record.
const sruMaxBytes = 1 << 20

var (
	bwbLocation  = regexp.MustCompile(`/(\d{4}-\d{2}-\d{2})_(\d+)/`)
	cvdrLocation = regexp.MustCompile(`_(\d+)\.xml$`)
)

func (h *httpRepo) Latest(ctx context.Context, m *Method, id RuleSetID, validOn string) (RuleSetID, error) {
	if m == nil || m.SRU == "" || (id.Method != "bwb" && id.Method != "cvdr") {
		return id, nil
	}
	key := id.Method + "|" + id.Fields["rulesetid"] + "|" + validOn
	return h.latest.get(key, func() (RuleSetID, error) {
		u := fill(m.SRU, map[string]string{"rulesetid": id.Fields["rulesetid"], "date": validOn})
		// Shared by concurrent callers: bounded by the client timeout, not
		// by the first caller's cancellation.
		body, err := h.get(context.WithoutCancel(ctx), u, sruMaxBytes)
		if err != nil {
			return id, err
		}
		fields, err := sruFields(body)
		if err != nil {
			return id, err
		}
		switch id.Method {
		case "bwb":
			loc := bwbLocation.FindStringSubmatch(fields["locatie_toestand"])
			if loc == nil {
				return id, ErrNotFound
			}
			out := id.with("date", loc[1], "index", loc[2])
			out.ValidFrom = loc[1]
			return out, nil
		default:
			loc := cvdrLocation.FindStringSubmatch(fields["publicatieurl_xml"])
			if loc == nil {
				return id, ErrNotFound
			}
			out := id.with("index", loc[1])
			out.ValidFrom = fields["inwerkingtredingDatum"]
			return out, nil
		}
	})
}

// sruFields reads the first value of the record fields the adapters need.
func sruFields(body []byte) (map[string]string, error) {
	want := map[string]bool{"locatie_toestand": true, "geldigheidsperiode_startdatum": true,
		"publicatieurl_xml": true, "inwerkingtredingDatum": true}
	out := map[string]string{}
	d := xml.NewDecoder(strings.NewReader(string(body)))
	var cur string
	var text strings.Builder
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: SRU answer: %v", ErrUnavailable, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > 100 {
				return nil, fmt.Errorf("%w: SRU answer nests too deeply", ErrUnavailable)
			}
			if want[t.Name.Local] && out[t.Name.Local] == "" {
				cur = t.Name.Local
				text.Reset()
			}
		case xml.EndElement:
			depth--
			if t.Name.Local == cur {
				out[cur] = strings.TrimSpace(text.String())
				cur = ""
			}
		case xml.CharData:
			if cur != "" {
				text.Write(t)
			}
		}
	}
}
