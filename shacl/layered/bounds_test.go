package layered_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/shacl/layered"
)

const ruleIRI = "https://regels.overheid.nl/rules/veel-titels"

// manyTitles is the shape of a known out-of-memory case: one rule with n
// plain-string titles, each of which fails CPSV-AP's sh:datatype
// rdf:langString. Every per-value issue used to list all n titles: 47 KB
// in, 108 MB out.
func manyTitles(n int) string {
	var b strings.Builder
	b.WriteString("@prefix cpsv: <http://purl.org/vocab/cpsv#> .\n@prefix dct: <http://purl.org/dc/terms/> .\n")
	b.WriteString("<" + ruleIRI + "> a cpsv:Rule ; dct:identifier \"r1\" ; dct:description \"d\"@nl ;\n  dct:title ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"t` + strconv.Itoa(i) + `"`)
	}
	b.WriteString(" .\n")
	return b.String()
}

func TestOutputStaysSmallForManyValues(t *testing.T) {
	in := manyTitles(5000)
	if len(in) < 40_000 {
		t.Fatalf("input %d bytes, want about 47 KB", len(in))
	}
	r, err := builtin(t).CheckTurtle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 100_000 {
		t.Fatalf("%d bytes in, %d bytes out; want under 100 KB", len(in), len(out))
	}
	t.Logf("%d bytes in, %d bytes out", len(in), len(out))
	cpsv, _ := r.Layer("cpsv-ap")
	var dt []layered.Issue
	for _, is := range cpsv.Issues {
		if is.Code == "SHACL-DATATYPE" {
			dt = append(dt, is)
		}
	}
	if len(dt) != 1 {
		t.Fatalf("%d SHACL-DATATYPE issues, want the 5,000 bad titles in one", len(dt))
	}
	is := dt[0]
	if is.Location != ruleIRI+" dct:title" || is.Truncated != 4980 {
		t.Errorf("issue %+v, want location %q and 4980 values left out", is, ruleIRI+" dct:title")
	}
	if !strings.HasPrefix(is.Message, "SHACL-DATATYPE Found 5000 values: ") || !strings.HasSuffix(is.Message, ", … and 4,980 more.") {
		t.Errorf("message %q", is.Message)
	}
	if n := strings.Count(is.Message, ", "); n != 20 {
		t.Errorf("message quotes %d values, want 20: %q", n, is.Message)
	}
	if !strings.Contains(string(out), `"truncated":4980`) {
		t.Errorf("JSON lacks the truncated count")
	}
	if r.Summary.Errors != 1 || r.Valid {
		t.Errorf("summary %+v valid %v, want one error", r.Summary, r.Valid)
	}
}

// A long value is quoted as an excerpt of 200 characters; two values need
// no truncated count, and the field is absent from the JSON.
func TestLongValuesAreExcerpted(t *testing.T) {
	long := strings.Repeat("ä", 10_000)
	in := `@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix cv: <http://data.europa.eu/m8g/> .
<https://example.org/org> a cv:PublicOrganisation ; foaf:homepage "` + long + `", <https://example.org/home> .`
	r, err := builtin(t).CheckTurtle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	custom, _ := r.Layer("custom")
	if len(custom.Issues) != 1 || custom.Issues[0].Code != "SHACL-MAXCOUNT" {
		t.Fatalf("custom issues %+v, want one MAXCOUNT", custom.Issues)
	}
	is := custom.Issues[0]
	want := strings.Repeat("ä", 199) + "…"
	if !strings.Contains(is.Message, " Found 2 values: ") || !strings.Contains(is.Message, want) ||
		strings.Contains(is.Message, want[:len(want)-len("…")]+"ä") || !strings.Contains(is.Message, "https://example.org/home") {
		t.Errorf("message %q, want the long value cut at 199 characters and an ellipsis", is.Message)
	}
	if is.Truncated != 0 {
		t.Errorf("truncated %d", is.Truncated)
	}
	out, _ := json.Marshal(is)
	if strings.Contains(string(out), "truncated") {
		t.Errorf("JSON %s has a truncated field", out)
	}
}

// Limits reach every layer's validation, and the error is the
// shacl.LimitError.
func TestLimitsReachTheValidators(t *testing.T) {
	c, err := layered.BuiltinWith(layered.Options{Limits: shacl.Limits{MaxRows: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("@prefix cpsv: <http://purl.org/vocab/cpsv#> .\n")
	for i := range 10 {
		b.WriteString("<https://example.org/r" + strconv.Itoa(i) + "> a cpsv:Rule .\n")
	}
	_, err = c.CheckTurtle(context.Background(), b.String())
	var le *shacl.LimitError
	if !errors.As(err, &le) || le.LimitExceeded() != "MaxRows" || le.Max != 3 {
		t.Fatalf("error %v, want MaxRows 3", err)
	}
	// The defaults let the same document through.
	if _, err := builtin(t).CheckTurtle(context.Background(), b.String()); err != nil {
		t.Fatal(err)
	}
	// The caller's cancellation is reported as it is.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := builtin(t).CheckTurtle(ctx, b.String()); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled check: %v", err)
	}
	c, _ = layered.BuiltinWith(layered.Options{Limits: shacl.Limits{Timeout: time.Nanosecond}})
	big := manyTitles(5000)
	if _, err := c.CheckTurtle(context.Background(), big); !errors.As(err, &le) || le.Limit != "Timeout" {
		t.Fatalf("error %v, want Timeout", err)
	}
}

// CPRMV's recursive list shape over a 250,000-member hasPart list killed
// the explorer with a stack overflow.
func TestLongHasPartList(t *testing.T) {
	// With 16 MB of stack instead of 1 GB, recursion that follows the
	// data overflows at this size; bounded validation stays far below.
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	var b strings.Builder
	b.WriteString(`@prefix cprmv: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#> .
<https://example.org/rule> a cprmv:Rule ; cprmv:id "r" .
<https://example.org/r2> a cprmv:Rule ; cprmv:id "r2" ; cprmv:hasPart (`)
	for range 250_000 {
		b.WriteString(" <https://example.org/rule>")
	}
	b.WriteString(" ) .\n")
	c, err := layered.BuiltinWith(layered.Options{Limits: shacl.Limits{Timeout: -1}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.CheckTurtle(context.Background(), b.String())
	if err != nil {
		t.Fatal(err)
	}
	if r.ParseError != nil {
		t.Fatal(*r.ParseError)
	}
	if got := codes(t, r, "cprmv"); len(got) != 0 {
		t.Errorf("cprmv issues %v, want none", got)
	}
}
