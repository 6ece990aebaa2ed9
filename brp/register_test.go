package brp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // leeftijd counts days in Europe/Amsterdam on any test machine

	"github.com/google/go-cmp/cmp"
)

func lookupBody(bsn string, fields ...string) []byte {
	return []byte(fmt.Sprintf(`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":[%q],"fields":["%s"]}`,
		bsn, strings.Join(fields, `","`)))
}

func TestRegisterFullRecord(t *testing.T) {
	reg := &Register{Now: fixedClock}
	got, err := reg.Lookup(context.Background(), lookupBody("999991954",
		"burgerservicenummer", "naam", "geboorte", "leeftijd", "partners", "kinderen", "geslacht", "nationaliteiten", "verblijfplaats"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"RaadpleegMetBurgerservicenummer","personen":[{
		"burgerservicenummer":"999991954",
		"leeftijd":23,
		"naam":{"aanduidingNaamgebruik":{"code":"E","omschrijving":"eigen geslachtsnaam"},
			"voornamen":"Sierra","geslachtsnaam":"Kooyman","voorletters":"S.","volledigeNaam":"Sierra Kooyman"},
		"geboorte":{"datum":{"type":"Datum","datum":"2003-03-03","langFormaat":"3 maart 2003"},
			"plaats":{"code":"0518","omschrijving":"'s-Gravenhage"},"land":{"code":"6030","omschrijving":"Nederland"}},
		"geslacht":{"code":"V","omschrijving":"vrouw"},
		"nationaliteiten":[{"type":"Nationaliteit","nationaliteit":{"code":"0001","omschrijving":"Nederlandse"},
			"redenOpname":{"code":"001","omschrijving":"Wet op het Nederlanderschap 1892, art. 1, lid 1a"}}],
		"verblijfplaats":{"type":"Adres",
			"verblijfadres":{"officieleStraatnaam":"Voorbeeldstraat","korteStraatnaam":"Voorbeeldstr","huisnummer":1,"postcode":"2700ZZ","woonplaats":"Zoetermeer"},
			"functieAdres":{"code":"W","omschrijving":"woonadres"},
			"datumVan":{"type":"Datum","datum":"2002-02-02","langFormaat":"2 februari 2002"},
			"gemeenteVanInschrijving":{"code":"0637","omschrijving":"Zoetermeer"}}
	}]}`
	if diff := cmp.Diff(decodeJSON(t, want), decodeJSON(t, string(got))); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
}

func TestRegisterSubPaths(t *testing.T) {
	reg := &Register{Now: fixedClock}
	got, err := reg.Lookup(context.Background(), lookupBody("999991450",
		"geboorte.datum.langFormaat", "partners.aangaanHuwelijkPartnerschap.plaats", "partners.burgerservicenummer",
		"naam.voornamen", "geslacht.code", "kinderen.naam.voornamen", "naam.bestaatNiet"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"RaadpleegMetBurgerservicenummer","personen":[{
		"geboorte":{"datum":{"langFormaat":"21 september 1981"}},
		"partners":[{"burgerservicenummer":"999992235","aangaanHuwelijkPartnerschap":{"plaats":{"code":"0637","omschrijving":"Zoetermeer"}}}],
		"naam":{"voornamen":"Catootje"},
		"geslacht":{"code":"V"},
		"kinderen":[{"naam":{"voornamen":"Stefano"}},{"naam":{"voornamen":"Serena"}},{"naam":{"voornamen":"Sierra"}}]
	}]}`
	if diff := cmp.Diff(decodeJSON(t, want), decodeJSON(t, string(got))); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
}

func TestRegisterAgeOnTheRequestDay(t *testing.T) {
	tests := []struct {
		now  time.Time
		want string
	}{
		// 22:59:59 UTC on 11 December 2026 is 23:59:59 in the Netherlands: still 45.
		{time.Date(2026, time.December, 11, 22, 59, 59, 0, time.UTC), "45"},
		// An hour later it is his birthday there: 46.
		{time.Date(2026, time.December, 11, 23, 0, 0, 0, time.UTC), "46"},
		{time.Date(2027, time.January, 1, 12, 0, 0, 0, time.UTC), "46"},
	}
	for _, tt := range tests {
		reg := &Register{Now: func() time.Time { return tt.now }}
		got, err := reg.Lookup(context.Background(), lookupBody("999992235", "leeftijd"))
		if err != nil {
			t.Fatal(err)
		}
		want := `{"personen":[{"leeftijd":` + tt.want + `}],"type":"RaadpleegMetBurgerservicenummer"}`
		if string(got) != want {
			t.Errorf("at %v: %s, want %s", tt.now, got, want)
		}
	}
}

func TestRegisterUnknownNumber(t *testing.T) {
	_, err := (&Register{}).Lookup(context.Background(), lookupBody("999990019", "naam"))
	var ue *UpstreamError
	if !errors.As(err, &ue) || ue.Status != 404 {
		t.Fatalf("Lookup = %v, want a 404 UpstreamError", err)
	}
	want := `{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.5","title":"Persoon niet gevonden","status":404,` +
		`"detail":"De persoon met opgegeven burgerservicenummer is niet gevonden","instance":"/personen","code":"notFound"}` + "\n"
	if string(ue.Body) != want {
		t.Errorf("body\n%s\nwant\n%s", ue.Body, want)
	}
}

func TestRegisterOverHTTP(t *testing.T) {
	srv := httptest.NewServer(&Register{Now: fixedClock})
	defer srv.Close()
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"found", "POST", "/haalcentraal/api/brp/personen", string(lookupBody("999991231", "naam.voorletters")), 200,
			`{"personen":[{"naam":{"voorletters":"S."}}],"type":"RaadpleegMetBurgerservicenummer"}`},
		{"invalid", "POST", "/personen", string(lookupBody("1", "naam")), 400,
			`{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.1","title":"Een of meerdere parameters zijn niet correct.",` +
				`"status":400,"instance":"/personen","code":"paramsValidation","invalidParams":[{"name":"burgerservicenummer[0]","code":"pattern",` +
				`"reason":"Value does not match the pattern ^[0-9]{9}$."}]}` + "\n"},
		{"unknown", "POST", "/personen", string(lookupBody("123456782", "naam")), 404,
			`{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.5","title":"Persoon niet gevonden","status":404,` +
				`"detail":"De persoon met opgegeven burgerservicenummer is niet gevonden","instance":"/personen","code":"notFound"}` + "\n"},
		{"method", "GET", "/personen", "", 405,
			`{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.6","title":"Gebruikte bevragingsmethode is niet toegestaan.",` +
				`"status":405,"instance":"/personen","code":"methodNotAllowed"}` + "\n"},
		{"path", "POST", "/ingeschrevenpersonen", "{}", 404,
			`{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.5","title":"Opgevraagde resource bestaat niet.",` +
				`"status":404,"instance":"/ingeschrevenpersonen","code":"notFound"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || string(b) != tt.want {
				t.Errorf("%d %s\nwant %d %s", resp.StatusCode, b, tt.status, tt.want)
			}
			wantType := "application/problem+json"
			if tt.status == 200 {
				wantType = "application/json; charset=utf-8"
			}
			if resp.Header.Get("Content-Type") != wantType {
				t.Errorf("content type %q", resp.Header.Get("Content-Type"))
			}
		})
	}
}
