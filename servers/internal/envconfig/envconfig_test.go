package envconfig

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestDefaultsAndValues(t *testing.T) {
	r := FromMap(map[string]string{
		"PORT": "9000", "ENVIRONMENT": "Production", "FLAG": "yes",
		"ORIGINS": " http://a.example , ,http://b.example", "WAIT": "90s",
	})
	if got := r.Port("PORT", 8081, ""); got != 9000 {
		t.Errorf("PORT = %d, want 9000", got)
	}
	if got := r.OneOf("ENVIRONMENT", "development", []string{"development", "acceptance", "production"}, ""); got != "production" {
		t.Errorf("ENVIRONMENT = %q, want production", got)
	}
	if got := r.Bool("FLAG", false, ""); !got {
		t.Error("FLAG = false, want true")
	}
	if got := r.List("ORIGINS", nil, ""); strings.Join(got, "|") != "http://a.example|http://b.example" {
		t.Errorf("ORIGINS = %q", got)
	}
	if got := r.Duration("WAIT", time.Second, ""); got != 90*time.Second {
		t.Errorf("WAIT = %v", got)
	}
	if got := r.String("ABSENT", "fallback", ""); got != "fallback" {
		t.Errorf("ABSENT = %q, want the default", got)
	}
	if got := r.OptionalBool("UNSET", ""); got != nil {
		t.Errorf("UNSET = %v, want nil", *got)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestErrorsAreCollected(t *testing.T) {
	r := FromMap(map[string]string{"PORT": "eighty", "ENVIRONMENT": "staging", "FLAG": "maybe", "P2": "70000"})
	r.Port("PORT", 8081, "")
	r.Port("P2", 8081, "")
	r.OneOf("ENVIRONMENT", "development", []string{"development", "production"}, "")
	r.Bool("FLAG", false, "")
	err := r.Err()
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{`PORT="eighty"`, `P2="70000"`, `ENVIRONMENT="staging"`, `FLAG="maybe"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestSecretsAreMasked(t *testing.T) {
	r := FromMap(map[string]string{
		"API_KEY":      "s3cr3t",
		"DATABASE_URL": "postgres://app:hunter2@db.example:5432/regelkit",
	})
	r.Secret("API_KEY", "", "")
	r.URL("DATABASE_URL", "", "")
	printed := fmt.Sprint(r.LogAttrs()...)
	for _, leak := range []string{"s3cr3t", "hunter2"} {
		if strings.Contains(printed, leak) {
			t.Errorf("printed settings leak %q: %s", leak, printed)
		}
	}
	if !strings.Contains(printed, "db.example:5432") {
		t.Errorf("the URL's host should stay visible: %s", printed)
	}
}

func TestBytes(t *testing.T) {
	cases := map[string]int64{"1048576": 1 << 20, "512KB": 512 << 10, "32MB": 32 << 20, "32 MiB": 32 << 20, "2g": 2 << 30, "-1": -1, "10B": 10}
	for in, want := range cases {
		r := FromMap(map[string]string{"SIZE": in})
		if got := r.Bytes("SIZE", 7, ""); got != want || r.Err() != nil {
			t.Errorf("Bytes(%q) = %d, %v; want %d", in, got, r.Err(), want)
		}
	}
	for _, in := range []string{"lots", "12XB", "99999999999GB"} {
		r := FromMap(map[string]string{"SIZE": in})
		if got := r.Bytes("SIZE", 7, ""); got != 7 || r.Err() == nil {
			t.Errorf("Bytes(%q) = %d, %v; want the default and an error", in, got, r.Err())
		}
	}
}

func TestPostgresURL(t *testing.T) {
	cases := []struct{ in, printed string }{
		{"postgres:///regelkit?host=/var/run/postgresql", "postgres:///regelkit?host=/var/run/postgresql"},
		{"postgresql://app:s3cret@db.internal:5432/regelkit?sslmode=require", "postgresql://app:xxxxx@db.internal:5432/regelkit?sslmode=require"},
		{"postgres://app@db/regelkit?password=s3cret&sslmode=disable", "postgres://app@db/regelkit?password=xxxxx&sslmode=disable"},
		{"postgres://app@%2Fvar%2Frun%2Fpostgresql/regelkit", "postgres://app@%2Fvar%2Frun%2Fpostgresql/regelkit"},
		{"host=/var/run/postgresql dbname=regelkit", "host=/var/run/postgresql dbname=regelkit"},
		{"host=db.internal user=app password=s3cret dbname=regelkit", "host=db.internal user=app password=xxxxx dbname=regelkit"},
		{"host=db user=app password = 's3 cr\\'et' sslpassword=k3y dbname=x", "host=db user=app password = xxxxx sslpassword=xxxxx dbname=x"},
		{"host=db PASSWORD=s3cret", "host=db PASSWORD=xxxxx"},
	}
	for _, tc := range cases {
		r := FromMap(map[string]string{"DATABASE_URL": tc.in})
		if got := r.PostgresURL("DATABASE_URL", "", ""); got != tc.in {
			t.Errorf("value %q, want it unchanged", got)
		}
		if err := r.Err(); err != nil {
			t.Errorf("%q refused: %v", tc.in, err)
		}
		v := r.Vars()[0]
		if got := v.Display(); got != tc.printed {
			t.Errorf("Display(%q) = %q, want %q", tc.in, got, tc.printed)
		}
		for _, attr := range r.LogAttrs() {
			if strings.Contains(fmt.Sprint(attr), "s3") || strings.Contains(fmt.Sprint(attr), "k3y") {
				t.Errorf("log attribute %v leaks the password", attr)
			}
		}
	}
	for _, bad := range []string{"mysql://app:s3cret@db/x", "host=db password='s3cret", "just words"} {
		r := FromMap(map[string]string{"DATABASE_URL": bad})
		r.PostgresURL("DATABASE_URL", "", "")
		err := r.Err()
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("error for %q leaks the password: %v", bad, err)
		}
	}
}

func TestMaskConnStringFallback(t *testing.T) {
	in := "postgres://app:s3cret@%2Fvar%2Frun%2Fpostgresql/regelkit?sslpassword=k3y&sslmode=disable"
	want := "postgres://app:xxxxx@%2Fvar%2Frun%2Fpostgresql/regelkit?sslpassword=xxxxx&sslmode=disable"
	if got := MaskConnString(in); got != want {
		t.Errorf("MaskConnString = %q, want %q", got, want)
	}
}

// FuzzMaskConnString: any string masks without panicking, and a password
// written in key=value or URL form never survives.
func FuzzMaskConnString(f *testing.F) {
	for _, s := range []string{"host=db password=s3cret", "password='a b\\' c' host=x", "postgres://u:p@h/d?password=q",
		"postgres://u:p@%2Ftmp/d", "host =  x   password =  y", "=", "password=", "'", "host='unterminated"} {
		f.Add(s, "pw")
	}
	f.Fuzz(func(t *testing.T, s, pw string) {
		_ = MaskConnString(s)
		if len(pw) < 4 || strings.ContainsAny(pw, " \t\n\r'\\=&?@/:%#") {
			return
		}
		for _, conn := range []string{"host=db " + s[:0] + "password=" + pw + " dbname=x", "postgres://u:" + pw + "@h/d", "postgres://u@h/d?password=" + pw} {
			if got := MaskConnString(conn); strings.Contains(got, pw) {
				t.Errorf("MaskConnString(%q) = %q keeps the password", conn, got)
			}
		}
	})
}
