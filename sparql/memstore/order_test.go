package memstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// ORDER BY under LIMIT keeps a bounded heap; its rows and their order,
// ties included (input order, as the stable sort gives), are those of
// the full sort.
func TestOrderByLimitTies(t *testing.T) {
	s := New()
	mustLoad(t, s, `@prefix : <http://ex/> .
:a :name "a" ; :k 2 .
:b :name "b" ; :k 1 .
:c :name "c" ; :k 2 .
:d :name "d" ; :k 1 .
:e :name "e" ; :k 3 .
:f :name "f" .
`)
	const p = "PREFIX : <http://ex/> SELECT ?n WHERE { ?x :name ?n OPTIONAL { ?x :k ?k } } "
	for _, tc := range []struct{ q, want string }{
		// unbound first, then by value; ties in input order
		{"ORDER BY ?k", "f b d a c e"},
		{"ORDER BY ?k LIMIT 3", "f b d"},
		{"ORDER BY ?k LIMIT 3 OFFSET 1", "b d a"},
		{"ORDER BY ?k LIMIT 1 OFFSET 4", "c"},
		{"ORDER BY ?k LIMIT 10 OFFSET 4", "c e"},
		{"ORDER BY DESC(?k)", "e a c b d f"},
		{"ORDER BY DESC(?k) LIMIT 2", "e a"},
		{"ORDER BY DESC(?k) ?n LIMIT 4", "e a c b"},
		{"ORDER BY DESC(?k) DESC(?n) LIMIT 4", "e c a d"},
		{"ORDER BY ?k LIMIT 0", ""},
	} {
		if got := column(t, s, p+tc.q, "n"); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.q, got, tc.want)
		}
	}
	// DISTINCT sits between the slice and the sort: no heap there
	if got := column(t, s, "PREFIX : <http://ex/> SELECT DISTINCT ?k WHERE { ?x :k ?k } ORDER BY ?k LIMIT 2", "k"); got != "1 2" {
		t.Errorf("DISTINCT … ORDER BY ?k LIMIT 2: got %q, want \"1 2\"", got)
	}
}

// Every LIMIT and OFFSET over rows with many ties and mixed kinds of
// terms gives the slice of the full sort.
func TestOrderByLimitMatchesFullSort(t *testing.T) {
	s := New()
	var b strings.Builder
	b.WriteString("@prefix : <http://ex/> .\n")
	for i := range 120 {
		fmt.Fprintf(&b, ":r%d :i %d .\n", i, i)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, ":r%d :v %d .\n", i, i%7)
		case 1:
			fmt.Fprintf(&b, ":r%d :v \"%d\" .\n", i, i%3)
		case 2:
			fmt.Fprintf(&b, ":r%d :v :x%d .\n", i, i%4)
		case 3:
			fmt.Fprintf(&b, ":r%d :v %d.5 .\n", i, i%6)
		}
	}
	mustLoad(t, s, b.String())
	ctx := context.Background()
	for _, order := range []string{"?v", "DESC(?v)", "?v DESC(?i)", "STR(?v)"} {
		base := "PREFIX : <http://ex/> SELECT ?i WHERE { ?r :i ?i OPTIONAL { ?r :v ?v } } ORDER BY " + order
		full := column(t, s, base, "i")
		all := strings.Fields(full)
		if len(all) != 120 {
			t.Fatalf("%s: %d rows, want 120", order, len(all))
		}
		for _, lim := range []int{1, 2, 7, 50, 119, 120, 200} {
			for _, off := range []int{0, 1, 13, 110} {
				q := fmt.Sprintf("%s LIMIT %d OFFSET %d", base, lim, off)
				want := ""
				if off < len(all) {
					want = strings.Join(all[off:min(len(all), off+lim)], " ")
				}
				res, err := s.QueryWith(ctx, q, QueryOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, sol := range res.Results.Solutions {
					got = append(got, sol["i"].Value)
				}
				if strings.Join(got, " ") != want {
					t.Errorf("%s LIMIT %d OFFSET %d:\ngot  %s\nwant %s", order, lim, off, strings.Join(got, " "), want)
				}
			}
		}
	}
}

// The heap holds LIMIT + OFFSET rows, not the input: under MaxRows 3 a
// LIMIT 2 OFFSET 1 over 100 rows answers, the full sort does not.
func TestOrderByLimitHoldsOnlyTheSlice(t *testing.T) {
	s := hostileStore(t, 100, Options{Limits: Limits{MaxRows: 3}})
	ctx := context.Background()
	res, err := s.Query(ctx, `SELECT ?o WHERE { ?s ?p ?o } ORDER BY DESC(?o) LIMIT 2 OFFSET 1`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sol := range res.Results.Solutions {
		got = append(got, sol["o"].Value)
	}
	// the strings o0 … o99 in descending order: o99, o98, o97, …
	if strings.Join(got, " ") != "o98 o97" {
		t.Errorf("got %v, want o98 o97", got)
	}
	_, err = s.Query(ctx, `SELECT ?o WHERE { ?s ?p ?o } ORDER BY DESC(?o) LIMIT 4`)
	wantLimit(t, err, "MaxRows", 3)
}
