package public

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// source is one configured feed.
type source struct {
	name      string // for logs: "news", "berichten", "products"
	url       string
	client    *http.Client
	timeout   time.Duration
	maxBytes  int64
	accept    string
	userAgent string
	header    http.Header // further request headers, e.g. a bearer token
}

// TooLargeError reports a response over a source's size cap.
type TooLargeError struct{ Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("response exceeds the cap of %d bytes", e.Max)
}

// errNoItems: a feed that parses to nothing is a failure, so the last good
// copy stays.
var errNoItems = errors.New("the feed holds no usable items")

// fetch GETs the source within its timeout and reads at most maxBytes: a
// larger body is refused after maxBytes+1 bytes, never read whole.
func (s *source) fetch(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", s.accept)
	req.Header.Set("User-Agent", s.userAgent)
	for k, v := range s.header {
		req.Header[k] = v
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	if resp.ContentLength > s.maxBytes {
		return nil, &TooLargeError{Max: s.maxBytes}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, s.maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > s.maxBytes {
		return nil, &TooLargeError{Max: s.maxBytes}
	}
	return data, nil
}
