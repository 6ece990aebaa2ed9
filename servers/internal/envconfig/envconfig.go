package envconfig

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
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
	Postgres    bool   // a PostgreSQL connection string: mask every password form
}

// Display returns the value as it may be printed.
func (v Var) Display() string {
	switch {
	case v.Secret && v.Value != "":
		return "****"
	case v.Postgres && v.Value != "":
		return MaskConnString(v.Value)
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

// PostgresURL reads an optional PostgreSQL connection string in any form
// libpq and pgx accept: postgres:// and postgresql:// URLs (also with a
// Unix-socket host, postgres:///db?host=/var/run/postgresql) and key=value
// strings (host=/var/run/postgresql dbname=app). It is checked with pgx's
// parser, which reads nothing but the string, the PG* environment and a
// password file; its password is masked in every form when printed.
func (r *Reader) PostgresURL(name, def, desc string) string {
	v, val, _ := r.raw(name, def, desc)
	v.Postgres = true
	if val != "" {
		if _, err := pgconn.ParseConfig(val); err != nil {
			// pgx's message may quote the string: name the forms instead.
			r.fail(name, MaskConnString(val), "must be a PostgreSQL connection string: postgres://…, postgresql://… or key=value pairs")
		}
	}
	r.record(v, val)
	return val
}

var (
	urlUserPassword  = regexp.MustCompile(`^(postgres(?:ql)?://[^:@/?]*:)[^@/?]*@`)
	urlPasswordParam = regexp.MustCompile(`(?i)([?&](?:ssl)?password=)[^&]*`)
)

// passwordKeys are the connection parameters that carry secrets.
var passwordKeys = map[string]bool{"password": true, "sslpassword": true}

// MaskConnString returns a PostgreSQL connection string with its passwords
// replaced by "xxxxx": the password of a URL's user information, password
// and sslpassword query parameters, and the same keys of a key=value
// string (quoted values with escaped quotes included). A string it cannot
// read is replaced as a whole.
func MaskConnString(s string) string {
	if strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") {
		u, err := url.Parse(s)
		if err != nil {
			// libpq takes URLs Go's parser refuses (a percent-encoded
			// socket directory as the host): mask by pattern.
			s = urlUserPassword.ReplaceAllString(s, "${1}xxxxx@")
			return urlPasswordParam.ReplaceAllString(s, "${1}xxxxx")
		}
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		// By pattern, not u.Query(): that drops pairs it cannot parse
		// (a ";" in the value), which libpq would still read.
		if u.RawQuery != "" {
			u.RawQuery = urlPasswordParam.ReplaceAllString("?"+u.RawQuery, "${1}xxxxx")[1:]
		}
		return u.String()
	}
	return maskKeyValues(s)
}

// maskKeyValues masks the password values of a libpq key=value string:
// keys and values separated by white space, "=" with optional white space
// around it, values bare or in single quotes with \ and \' escapes.
func maskKeyValues(s string) string {
	var out strings.Builder
	i := 0
	for i < len(s) {
		// White space between pairs is kept as is.
		if s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' {
			out.WriteByte(s[i])
			i++
			continue
		}
		start := i
		for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		key := s[start:i]
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j >= len(s) || s[j] != '=' {
			return "(unparsable connection string)"
		}
		j++
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		valStart := j
		if j < len(s) && s[j] == '\'' {
			j++
			for j < len(s) && s[j] != '\'' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return "(unparsable connection string)"
			}
			j++
		} else {
			for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
		}
		out.WriteString(s[start:valStart])
		if passwordKeys[strings.ToLower(key)] {
			out.WriteString("xxxxx")
		} else {
			out.WriteString(s[valStart:min(j, len(s))])
		}
		i = j
	}
	return out.String()
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
