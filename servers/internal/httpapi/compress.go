package httpapi

import (
	"bufio"
	"compress/gzip"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// CompressMinBytes is the smallest body Compress compresses: below it the
// gzip header and trailer (18 bytes) and the CPU cost buy little.
const CompressMinBytes = 1 << 10

// gzipWriters pools the compressors: a gzip.Writer holds about 800 KB of
// tables, too much to allocate per response.
var gzipWriters = sync.Pool{New: func() any {
	// BestSpeed: on the 11 MB catalogue listing it compresses about 12:1
	// at a fraction of the default level's time; the listing is
	// repetitive JSON, where higher levels gain little.
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// Compress gzips responses of at least CompressMinBytes with a compressible
// Content-Type (text, JSON, XML, SPARQL results, RDF syntaxes) when the
// request accepts gzip. Every response gets "Vary: Accept-Encoding", so a
// cache keeps the two forms apart. It leaves alone HEAD requests, range
// requests, bodiless statuses (1xx, 204, 304) and bodies a handler
// already encoded (Content-Encoding set). A handler's Flush flushes the
// compressor too, so streamed responses stay streamed.
//
// Middleware applies it; a server with its own chain wraps its handler in
// it directly. Response ceilings (RouterOptions.MaxResponseBytes) count
// the uncompressed bytes, as the router sits inside it.
func Compress(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method == http.MethodHead || r.Header.Get("Range") != "" || !acceptsGzip(r.Header.Values("Accept-Encoding")) {
			h.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w}
		h.ServeHTTP(cw, r)
		cw.close()
	})
}

// acceptsGzip reports whether Accept-Encoding values list gzip (or *) with
// a non-zero quality.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			q := 1.0
			for p := range strings.SplitSeq(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			if q > 0 {
				return true
			}
		}
	}
	return false
}

// compressible reports whether a Content-Type is worth gzipping: text and
// structured data, not images, archives or already-compressed formats.
func compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch {
	case strings.HasPrefix(mt, "text/"),
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript",
		"application/n-triples", "application/n-quads", "application/trig",
		"application/sparql-query", "application/sparql-update",
		"application/yaml", "application/x-yaml", "image/svg+xml":
		return true
	}
	return false
}

// ensureVary keeps "Accept-Encoding" in Vary when a handler replaced the
// header Compress added (Set("Vary", "Accept")).
func ensureVary(h http.Header) {
	for _, v := range h.Values("Vary") {
		for part := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), "Accept-Encoding") {
				return
			}
		}
	}
	h.Add("Vary", "Accept-Encoding")
}

// compressWriter holds the first CompressMinBytes of a body back to decide
// whether to compress: a short body goes out as it is.
type compressWriter struct {
	http.ResponseWriter
	status  int // held back until the decision
	buf     []byte
	decided bool
	gz      *gzip.Writer // nil: passing through
}

func (c *compressWriter) WriteHeader(code int) {
	if c.status != 0 {
		return // superfluous, as net/http treats it
	}
	if code < 200 {
		c.ResponseWriter.WriteHeader(code) // 1xx: informational, pass on
		return
	}
	c.status = code
	if code == http.StatusNoContent || code == http.StatusNotModified || !c.candidate() {
		c.passThrough()
	}
}

// candidate reports whether what is known so far allows compression.
func (c *compressWriter) candidate() bool {
	h := c.ResponseWriter.Header()
	if h.Get("Content-Encoding") != "" {
		return false
	}
	if ct := h.Get("Content-Type"); ct != "" && !compressible(ct) {
		return false
	}
	if cl := h.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n < CompressMinBytes {
			return false
		}
	}
	return true
}

func (c *compressWriter) Write(b []byte) (int, error) {
	if !c.decided {
		if c.status == 0 {
			c.WriteHeader(http.StatusOK)
		}
		if !c.decided {
			if len(c.buf)+len(b) < CompressMinBytes {
				c.buf = append(c.buf, b...)
				return len(b), nil
			}
			c.decide(append(c.buf, b...))
			if err := c.writeHeld(); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	if c.gz != nil {
		return c.gz.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// decide settles compression on the body seen so far (sniffing a missing
// Content-Type as net/http would, since it must not sniff gzip bytes) and
// sends the held status.
func (c *compressWriter) decide(body []byte) {
	c.buf = body
	h := c.ResponseWriter.Header()
	if h.Get("Content-Type") == "" && len(body) > 0 {
		h.Set("Content-Type", http.DetectContentType(body))
	}
	if !c.candidate() || len(body) == 0 {
		c.passThrough()
		return
	}
	c.decided = true
	ensureVary(h)
	h.Del("Content-Length")
	h.Set("Content-Encoding", "gzip")
	c.gz = gzipWriters.Get().(*gzip.Writer)
	c.gz.Reset(c.ResponseWriter)
	c.ResponseWriter.WriteHeader(c.status)
}

// passThrough sends the held status and stops looking.
func (c *compressWriter) passThrough() {
	c.decided = true
	ensureVary(c.ResponseWriter.Header())
	if c.status != 0 {
		c.ResponseWriter.WriteHeader(c.status)
	}
}

// writeHeld writes the held-back bytes through the decided path.
func (c *compressWriter) writeHeld() error {
	b := c.buf
	c.buf = nil
	if len(b) == 0 {
		return nil
	}
	var err error
	if c.gz != nil {
		_, err = c.gz.Write(b)
	} else {
		_, err = c.ResponseWriter.Write(b)
	}
	return err
}

// Flush decides on what is held (a streaming handler flushes before its
// body is complete; a compressible stream is compressed) and flushes the
// compressor and the connection.
func (c *compressWriter) Flush() {
	if !c.decided {
		if c.status == 0 {
			c.WriteHeader(http.StatusOK)
		}
		if !c.decided {
			c.decide(c.buf)
			_ = c.writeHeld()
		}
	}
	if c.gz != nil {
		_ = c.gz.Flush()
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// close ends the response: a short held body goes out uncompressed, a
// compressed one gets its trailer and the compressor goes back to the pool.
func (c *compressWriter) close() {
	if !c.decided {
		if c.status != 0 || len(c.buf) > 0 {
			c.passThrough()
			_ = c.writeHeld()
		}
		return
	}
	if c.gz != nil {
		_ = c.gz.Close()
		c.gz.Reset(nil)
		gzipWriters.Put(c.gz)
		c.gz = nil
	}
}

// Hijack lets a handler take over the connection (nothing is held by
// then in the cases that use it: upgrades write no body first).
func (c *compressWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(c.ResponseWriter).Hijack()
}

func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
