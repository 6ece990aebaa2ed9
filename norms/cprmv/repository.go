package cprmv

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Repository retrieves publication documents. Adapters: the local
// directory (LocalRepository, EmbeddedRepository), the official HTTP
// repositories (HTTPRepository), and both in turn (Fallback).
type Repository interface {
	// Latest resolves an id whose version is "latest" (or whose date is
	// "now"/"na") to the exact version in force on validOn: for bwb the
	// date and index fields, for cvdr the index, with ValidFrom set. No
	// version in force gives ErrNotFound.
	Latest(ctx context.Context, m *Method, id RuleSetID, validOn string) (RuleSetID, error)
	// Open reads the document at location (an official repository URL),
	// at most maxBytes of it; more gives a *LimitError. A missing document
	// gives ErrNotFound, any other failure wraps ErrUnavailable.
	Open(ctx context.Context, location string, maxBytes int64) ([]byte, error)
}

//go:embed repository
var embedded embed.FS

// EmbeddedRepository is the offline default: the fixtures in this
// package's repository directory (Participatiewet in two versions, an
// Algemene wet bestuursrecht excerpt, BWBR0011825, a CVDR regulation in two
// versions, a Formex 4 act and a DMN model).
func EmbeddedRepository() Repository {
	sub, _ := fs.Sub(embedded, "repository")
	return LocalRepository(sub)
}

// LocalRepository reads a directory laid out like the official
// repository's URL paths:
//
//	bwb/BWBR0015703/2025-07-01_0/xml/BWBR0015703_2025-07-01_0.xml
//	cvdr/CVDR712517/1/xml/CVDR712517_1.xml
//	cvdr/CVDR712517/versions.json   [{"index":1,"inwerkingtredingDatum":"2024-01-01"}, …]
//
// and, for the other methods, the path of their location URL.
func LocalRepository(fsys fs.FS) Repository { return &local{fsys: fsys} }

type local struct{ fsys fs.FS }

type cvdrVersion struct {
	Index     int    `json:"index"`
	InForceOn string `json:"inwerkingtredingDatum"`
}

func (l *local) Latest(_ context.Context, _ *Method, id RuleSetID, validOn string) (RuleSetID, error) {
	work := id.Fields["rulesetid"]
	switch id.Method {
	case "bwb":
		entries, err := fs.ReadDir(l.fsys, path.Join("bwb", "BWB"+work))
		if err != nil {
			return id, ErrNotFound
		}
		bestDate, bestIndex := "", -1
		for _, e := range entries {
			date, idx, ok := strings.Cut(e.Name(), "_")
			n, err := strconv.Atoi(idx)
			if !ok || err != nil || !validDate(date) || date > validOn {
				continue
			}
			if date > bestDate || (date == bestDate && n > bestIndex) {
				bestDate, bestIndex = date, n
			}
		}
		if bestIndex < 0 {
			return id, ErrNotFound
		}
		out := id.with("date", bestDate, "index", strconv.Itoa(bestIndex))
		out.ValidFrom = bestDate
		return out, nil
	case "cvdr":
		b, err := fs.ReadFile(l.fsys, path.Join("cvdr", "CVD"+work, "versions.json"))
		if err != nil {
			return id, ErrNotFound
		}
		var versions []cvdrVersion
		if err := json.Unmarshal(b, &versions); err != nil {
			return id, fmt.Errorf("%w: versions.json of CVD%s: %v", ErrUnavailable, work, err)
		}
		best, ok := latestCVDR(versions, validOn)
		if !ok {
			return id, ErrNotFound
		}
		out := id.with("index", strconv.Itoa(best.Index))
		out.ValidFrom = best.InForceOn
		return out, nil
	}
	return id, nil
}

// latestCVDR picks the version with the greatest in-force date not after
// validOn; ties go to the highest index.
func latestCVDR(versions []cvdrVersion, validOn string) (cvdrVersion, bool) {
	sort.Slice(versions, func(i, j int) bool {
		if versions[i].InForceOn != versions[j].InForceOn {
			return versions[i].InForceOn > versions[j].InForceOn
		}
		return versions[i].Index > versions[j].Index
	})
	for _, v := range versions {
		if v.InForceOn <= validOn {
			return v, true
		}
	}
	return cvdrVersion{}, false
}

// cvdrInForce is the in-force date of an exact CVDR version, from
// versions.json when the local repository has one.
func (l *local) inForce(work string, index string) string {
	b, err := fs.ReadFile(l.fsys, path.Join("cvdr", "CVD"+work, "versions.json"))
	if err != nil {
		return ""
	}
	var versions []cvdrVersion
	if json.Unmarshal(b, &versions) != nil {
		return ""
	}
	for _, v := range versions {
		if strconv.Itoa(v.Index) == index {
			return v.InForceOn
		}
	}
	return ""
}

func (l *local) Open(_ context.Context, location string, maxBytes int64) ([]byte, error) {
	u, err := url.Parse(location)
	if err != nil {
		return nil, ErrNotFound
	}
	p := strings.TrimPrefix(path.Clean(u.Path), "/")
	if !fs.ValidPath(p) {
		return nil, ErrNotFound
	}
	f, err := l.fsys.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer f.Close()
	return readBounded(f, maxBytes)
}

// readBounded reads r up to maxBytes; a longer body is a *LimitError.
func readBounded(r io.Reader, maxBytes int64) ([]byte, error) {
	if maxBytes < 0 {
		return io.ReadAll(r)
	}
	b, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if int64(len(b)) > maxBytes {
		return nil, &LimitError{Limit: "MaxBytes", Max: maxBytes}
	}
	return b, nil
}

// Fallback asks each repository in turn: a rule set one of them does not
// have (ErrNotFound) is looked up in the next. RULES_REPOSITORY=local+http
// is Fallback(local, http).
func Fallback(repos ...Repository) Repository { return fallback(repos) }

type fallback []Repository

func (f fallback) Latest(ctx context.Context, m *Method, id RuleSetID, validOn string) (RuleSetID, error) {
	err := error(ErrNotFound)
	for _, r := range f {
		var out RuleSetID
		if out, err = r.Latest(ctx, m, id, validOn); !errors.Is(err, ErrNotFound) {
			return out, err
		}
	}
	return id, err
}

// inForce asks the repositories that know in-force dates, in order, so
// that a Fallback keeps the date its local repository knows.
func (f fallback) inForce(work, index string) string {
	for _, r := range f {
		if d, ok := r.(interface {
			inForce(work, index string) string
		}); ok {
			if date := d.inForce(work, index); date != "" {
				return date
			}
		}
	}
	return ""
}

func (f fallback) Open(ctx context.Context, location string, maxBytes int64) ([]byte, error) {
	err := error(ErrNotFound)
	for _, r := range f {
		var b []byte
		if b, err = r.Open(ctx, location, maxBytes); !errors.Is(err, ErrNotFound) {
			return b, err
		}
	}
	return nil, err
}
