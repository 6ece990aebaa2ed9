package public

import (
	"context"
	"net/http"
	"time"
)

// feed is one configured XML source behind its cache, served as a paged
// list.
type feed[T any] struct {
	src        *source
	cache      *cache[[]T]
	parse      func(data []byte, fetched time.Time) ([]T, error)
	code, what string // the 502's code and subject
	def, max   int    // page size: default and maximum
}

// items returns the cached items, fetching and parsing them when stale.
func (f *feed[T]) items(ctx context.Context, now func() time.Time) (cached[[]T], error) {
	return f.cache.get(ctx, false, func(ctx context.Context) ([]T, error) {
		data, err := f.src.fetch(ctx)
		if err != nil {
			return nil, err
		}
		return f.parse(data, now())
	})
}

// serveFeed answers a page of the feed, a stale copy with its age, or the
// feed's 502 when nothing is cached.
func serveFeed[T any](p *Public, f *feed[T], w http.ResponseWriter, r *http.Request) error {
	res, err := f.items(r.Context(), p.now)
	if err != nil {
		return p.fetchFailed(r.Context(), f.code, f.what, f.src.name, err)
	}
	if res.stale {
		p.logStale(r.Context(), f.src.name, res.fetched)
	}
	return writePage(w, r, res.value, f.def, f.max, p.cacheMeta(w, res.stale, res.fetched))
}
