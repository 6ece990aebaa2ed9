package envconfig

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Var describes one setting as read.
type Var struct {
	Name        string
	Default     string
	Description string
	Value       string // the effective value, unmasked
	Set         bool   // the variable was present in the environment
	Secret      bool   // mask the whole value when printing
	URL         bool   // mask the password of a URL value when printing
}

// Display returns the value as it may be printed.
func (v Var) Display() string {
	switch {
	case v.Secret && v.Value != "":
		return "****"
	case v.URL && v.Value != "":
		u, err := url.Parse(v.Value)
		if err != nil {
			return "(unparsable URL)"
		}
		return u.Redacted()
	}
	return v.Value
}

// Reader reads settings through a lookup function.
type Reader struct {
	lookup func(string) (string, bool)
	vars   []Var
	errs   []error
}

// New returns a Reader over lookup (os.LookupEnv in a server's main).
func New(lookup func(string) (string, bool)) *Reader { return &Reader{lookup: lookup} }

// FromMap returns a Reader over a fixed map, for tests.
func FromMap(m map[string]string) *Reader {
	return New(func(k string) (string, bool) { v, ok := m[k]; return v, ok })
}

func (r *Reader) raw(name, def, desc string) (Var, string, bool) {
	v := Var{Name: name, Default: def, Description: desc}
	val, ok := r.lookup(name)
	val = strings.TrimSpace(val)
	if ok && val != "" {
		v.Set = true
		return v, val, true
	}
	return v, def, false
}

func (r *Reader) record(v Var, value string) {
	v.Value = value
	r.vars = append(r.vars, v)
}

func (r *Reader) fail(name, value, want string) {
	r.errs = append(r.errs, fmt.Errorf("%s=%q: %s", name, value, want))
}

// String reads a string setting.
func (r *Reader) String(name, def, desc string) string {
	v, val, _ := r.raw(name, def, desc)
	r.record(v, val)
	return val
}

// Secret reads a setting whose value is never printed.
func (r *Reader) Secret(name, def, desc string) string {
	v, val, _ := r.raw(name, def, desc)
	v.Secret = true
	r.record(v, val)
	return val
}

// URL reads an optional absolute http(s), postgres or similar URL; the
// password part is masked when printed.
func (r *Reader) URL(name, def, desc string) string {
	v, val, _ := r.raw(name, def, desc)
	v.URL = true
	if val != "" {
		u, err := url.Parse(val)
		if err != nil || u.Scheme == "" || u.Host == "" {
			r.fail(name, "(redacted)", "must be an absolute URL")
		}
	}
	r.record(v, val)
	return val
}

// Int reads an integer setting.
func (r *Reader) Int(name string, def int, desc string) int {
	v, val, set := r.raw(name, strconv.Itoa(def), desc)
	n := def
	if set {
		parsed, err := strconv.Atoi(val)
		if err != nil {
			r.fail(name, val, "must be an integer")
		} else {
			n = parsed
		}
	}
	r.record(v, strconv.Itoa(n))
	return n
}

// Bytes reads a size in bytes: a plain integer or one with a unit, B, KB,
// MB, GB (powers of 1024, like KiB, MiB, GiB), e.g. "32MB". Negative sizes
// are allowed (they disable a bound where the setting says so). The value
// is printed in bytes.
func (r *Reader) Bytes(name string, def int64, desc string) int64 {
	v, val, set := r.raw(name, strconv.FormatInt(def, 10), desc)
	n := def
	if set {
		parsed, err := parseBytes(val)
		if err != nil {
			r.fail(name, val, "must be a size such as 1048576, 512KB or 32MB")
		} else {
			n = parsed
		}
	}
	r.record(v, strconv.FormatInt(n, 10))
	return n
}

func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	num := strings.TrimRightFunc(s, func(c rune) bool { return c >= 'A' && c <= 'z' })
	unit := strings.ToUpper(strings.TrimSpace(s[len(num):]))
	mult := int64(1)
	switch unit {
	case "", "B":
	case "K", "KB", "KIB":
		mult = 1 << 10
	case "M", "MB", "MIB":
		mult = 1 << 20
	case "G", "GB", "GIB":
		mult = 1 << 30
	default:
		return 0, fmt.Errorf("unknown unit %q", unit)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil {
		return 0, err
	}
	if n > (1<<62)/mult || n < -(1<<62)/mult {
		return 0, fmt.Errorf("size out of range")
	}
	return n * mult, nil
}

// Port reads a TCP port (1–65535).
func (r *Reader) Port(name string, def int, desc string) int {
	before := len(r.errs)
	n := r.Int(name, def, desc)
	if len(r.errs) == before && (n < 1 || n > 65535) {
		r.fail(name, strconv.Itoa(n), "must be a port between 1 and 65535")
		n = def
	}
	return n
}

// Bool reads a boolean setting (true/false, 1/0, yes/no, on/off).
func (r *Reader) Bool(name string, def bool, desc string) bool {
	v, val, set := r.raw(name, strconv.FormatBool(def), desc)
	b := def
	if set {
		switch strings.ToLower(val) {
		case "1", "true", "yes", "on":
			b = true
		case "0", "false", "no", "off":
			b = false
		default:
			r.fail(name, val, "must be true or false")
		}
	}
	r.record(v, strconv.FormatBool(b))
	return b
}

// OptionalBool reads a boolean that may be unset (nil).
func (r *Reader) OptionalBool(name, desc string) *bool {
	v, val, set := r.raw(name, "", desc)
	if !set {
		r.record(v, "")
		return nil
	}
	var b bool
	switch strings.ToLower(val) {
	case "1", "true", "yes", "on":
		b = true
	case "0", "false", "no", "off":
	default:
		r.fail(name, val, "must be true or false")
		r.record(v, "")
		return nil
	}
	r.record(v, strconv.FormatBool(b))
	return &b
}

// Duration reads a Go duration ("30s", "5m").
func (r *Reader) Duration(name string, def time.Duration, desc string) time.Duration {
	v, val, set := r.raw(name, def.String(), desc)
	d := def
	if set {
		parsed, err := time.ParseDuration(val)
		if err != nil || parsed < 0 {
			r.fail(name, val, "must be a duration such as 30s or 5m")
		} else {
			d = parsed
		}
	}
	r.record(v, d.String())
	return d
}

// List reads a comma-separated list; blank items are dropped.
func (r *Reader) List(name string, def []string, desc string) []string {
	v, val, _ := r.raw(name, strings.Join(def, ","), desc)
	var out []string
	for _, item := range strings.Split(val, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	r.record(v, strings.Join(out, ","))
	return out
}

// OneOf reads a setting restricted to allowed values (case-insensitive).
func (r *Reader) OneOf(name, def string, allowed []string, desc string) string {
	v, val, set := r.raw(name, def, desc)
	if set {
		lower := strings.ToLower(val)
		if !slices.Contains(allowed, lower) {
			r.fail(name, val, "must be one of "+strings.Join(allowed, ", "))
			val = def
		} else {
			val = lower
		}
	}
	r.record(v, val)
	return val
}

// Err returns every parse error, joined, or nil.
func (r *Reader) Err() error { return errors.Join(r.errs...) }

// Vars lists the settings read so far, in reading order.
func (r *Reader) Vars() []Var { return slices.Clone(r.vars) }

// LogAttrs returns the settings as log attributes with secrets masked.
func (r *Reader) LogAttrs() []any {
	out := make([]any, 0, len(r.vars))
	for _, v := range r.vars {
		out = append(out, slog.String(v.Name, v.Display()))
	}
	return out
}
