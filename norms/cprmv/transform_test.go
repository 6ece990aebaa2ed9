package cprmv

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestBWBShapes checks the two BWB shapes against what the fixtures say,
// written out by hand: meta-data skipped, inline markup flattened, CALS
// cells as text, aanhef skipped.
func TestBWBShapes(t *testing.T) {
	s := newService(t, Options{})
	reg, err := s.RuleSet(context.Background(), "BWBR0011825_2024-01-01_0")
	if err != nil {
		t.Fatal(err)
	}
	if reg.Comment != "Regeling bedragen (fixture)" {
		t.Errorf("citeertitel with meta-data: %q", reg.Comment)
	}
	var ids []string
	for _, p := range reg.Parts {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, "|") != "Hoofdstuk 1|Hoofdstuk 2|Bijlage 1" {
		t.Errorf("regeling-tekst and bijlage: %v", ids)
	}
	if got := reg.Parts[0].Parts[0].Definition; got != "In deze regeling wordt verstaan onder wet: de Participatiewet." {
		t.Errorf("nadruk and extref inline: %q", got)
	}
	if got := reg.Parts[2].Definition; got != "Situatie | Bedrag per maand\nAlleenstaande | € 1.401,25\nGehuwden | € 2.001,79" {
		t.Errorf("CALS table: %q", got)
	}
	wet, err := s.RuleSet(context.Background(), "BWBR0015703_2025-07-01_0")
	if err != nil {
		t.Fatal(err)
	}
	art21 := wet.Parts[0].Parts[1].Parts[1]
	if art21.ID != "Artikel 21" || art21.Definition != "De norm bedraagt, onverminderd artikel 22a, per maand:" || len(art21.Parts) != 2 {
		t.Errorf("jcis/jci inline, direct al and lijst: %+v", art21)
	}
	lid2 := wet.Parts[0].Parts[1].Parts[0].Parts[1]
	if lid2.PostDefinition != "De normen gelden zolang geen van beiden de pensioengerechtigde leeftijd heeft bereikt." {
		t.Errorf("postDefinition: %q", lid2.PostDefinition)
	}
	if lid3 := wet.Parts[0].Parts[1].Parts[0].Parts[2]; lid3.Definition != "De normen worden herzien overeenkomstig artikel 38 en bekendgemaakt in de Staatscourant." {
		t.Errorf("intref/extref: %q", lid3.Definition)
	}
	for _, r := range []*Rule{wet.Parts[0]} {
		if strings.Contains(r.Definition, "Beatrix") {
			t.Error("aanhef text leaked")
		}
	}
}

func TestTransformBounds(t *testing.T) {
	deep := strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300)
	err := transform(context.Background(), []byte(deep), bwbSchema, &RuleSet{}, 200)
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "nesting deeper than 200") || se.Column == 0 {
		t.Errorf("deep document: %v", err)
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Error("a broken document is the repository's failure")
	}
	if err := transformDMN(context.Background(), []byte(deep), &RuleSet{}, 200); !errors.As(err, &se) {
		t.Errorf("deep DMN: %v", err)
	}
	if err := transform(context.Background(), []byte("<toestand><al>x</toestand>"), bwbSchema, &RuleSet{}, 200); !errors.As(err, &se) || se.Line != 1 {
		t.Errorf("mismatched tags: %v", err)
	}
	if err := transform(context.Background(), []byte(`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`), bwbSchema, &RuleSet{}, 200); err == nil {
		t.Error("external entities are never loaded: the reference must fail")
	}
}

func TestDocumentSizeLimit(t *testing.T) {
	s := newService(t, Options{Limits: Limits{MaxBytes: 1000}})
	_, err := s.RuleSet(context.Background(), "BWBR0015703_2025-07-01_0")
	var le *LimitError
	if !errors.As(err, &le) || le.LimitExceeded() != "MaxBytes" || le.Max != 1000 || !errors.Is(err, ErrUnavailable) {
		t.Errorf("oversized document: %v", err)
	}
}

func TestCacheBound(t *testing.T) {
	c := newLRU[int](3, 0, time.Now)
	for i := range 10 {
		k := string(rune('a' + i))
		if _, err := c.get(k, func() (int, error) { return i, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if c.len() != 3 {
		t.Errorf("cache holds %d entries, bound 3", c.len())
	}
	loads := 0
	v, _ := c.get("j", func() (int, error) { loads++; return -1, nil })
	if v != 9 || loads != 0 {
		t.Errorf("most recent entry evicted: %d, %d loads", v, loads)
	}
	heavy := newLRU[int](100, 0, time.Now)
	heavy.maxWeight, heavy.weigh = 10, func(v int) int64 { return int64(v) }
	for i, w := range []int{4, 4, 4, 20} {
		_, _ = heavy.get(string(rune('a'+i)), func() (int, error) { return w, nil })
		if i == 2 && (heavy.len() != 2 || heavy.weight != 8) {
			t.Errorf("weight bound 10 after 4+4+4: %d entries, weight %d", heavy.len(), heavy.weight)
		}
	}
	if heavy.len() != 1 || heavy.weight != 20 {
		t.Errorf("an entry over the bound alone is kept alone: %d entries, weight %d", heavy.len(), heavy.weight)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ttl := newLRU[int](3, time.Hour, func() time.Time { return now })
	_, _ = ttl.get("k", func() (int, error) { return 1, nil })
	now = now.Add(59 * time.Minute)
	if v, _ := ttl.get("k", func() (int, error) { return 2, nil }); v != 1 {
		t.Error("entry expired before its hour")
	}
	now = now.Add(2 * time.Minute)
	if v, _ := ttl.get("k", func() (int, error) { return 2, nil }); v != 2 {
		t.Error("entry outlived its hour")
	}
}

func FuzzTransform(f *testing.F) {
	for _, name := range []string{
		"repository/bwb/BWBR0011825/2024-01-01_0/xml/BWBR0011825_2024-01-01_0.xml",
		"repository/resource/cellar/83e4752e-f2e5-11e8-9982-01aa75ed71a1.0017.02/DOC_2",
	} {
		b, err := embedded.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("<a><lid><lijst><li><al>x</al></li></lijst><al>y</al></lid></a>"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, sc := range []*schema{bwbSchema, fmx4Schema} {
			rs := &RuleSet{}
			if err := transform(context.Background(), doc, sc, rs, 50); err == nil {
				_ = writeJSON(selection{rs: rs})
			}
		}
		_ = transformDMN(context.Background(), doc, &RuleSet{}, 50)
	})
}

func FuzzPattern(f *testing.F) {
	f.Add("{situatie:param_value}: € {norm:param_value}", "Huur: € 1.200,—")
	f.Add("{{{a}}}", "{x}")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		p, err := CompilePattern(pattern)
		if err != nil {
			return
		}
		_ = p.Match(text)
	})
}

func FuzzIdentifiers(f *testing.F) {
	for _, s := range []string{"BWBR0015703", "CVDR712517_1", "BWBR0015703_2025-07-01_latest",
		"jci1.3:c:BWBR0015703&artikel=20&o=a.", "https://x/rules/BWBR0015703/Artikel%2020", "_"} {
		f.Add(s)
	}
	s, err := New(Options{Now: march1})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if id, err := s.methods.Detect(in); err == nil && id.String() == "" {
			t.Errorf("%q detected as %s without an official id", in, id.Method)
		}
		for _, m := range []string{"", "juriconnect", "cprmvapi"} {
			if loc, err := s.Resolve(m, in); err == nil && !strings.HasPrefix(loc, "/rules/") {
				t.Errorf("%q resolved to %q", in, loc)
			}
		}
		_ = SplitPath(in, ",")
	})
}

func TestConversionHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc := largeBWB(200 << 10)
	if err := transform(ctx, doc, bwbSchema, &RuleSet{}, 200); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("cancelled conversion: %v", err)
	}
	if err := transform(context.Background(), doc, bwbSchema, &RuleSet{}, 200); err != nil {
		t.Errorf("the same document converts: %v", err)
	}
}
