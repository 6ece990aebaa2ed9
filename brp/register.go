package brp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Register is an embedded "Personen bevragen" register for development and
// tests. It holds the fictional persons of the Haal Centraal test set:
// Wessel Kooyman (999992235), his partner Catootje
// Altena (999991450) and their triplets Stefano, Serena and Sierra
// (999991231, 999994554, 999991954). It answers only the requested fields
// (dotted sub-paths included), computes leeftijd from the date of birth on
// the request day, and answers an unknown number with a 404 problem as the
// register does. The zero value is ready to use.
type Register struct {
	// Now is the clock for leeftijd; nil uses time.Now. The day counts in
	// the Netherlands' time zone when it is available.
	Now func() time.Time
}

// Lookup answers a lookup body like the register would; it implements
// Upstream, so development needs no HTTP hop. Failures are *UpstreamError
// values carrying the register's problem body.
func (g *Register) Lookup(ctx context.Context, body []byte) ([]byte, error) {
	status, answer := g.answer(body, "/personen")
	if status != http.StatusOK {
		return nil, &UpstreamError{Status: status, Body: answer, Detail: "BRP API returned an error"}
	}
	return answer, nil
}

// ServeHTTP serves POST …/personen with Haal Centraal's answers and
// problems (application/problem+json with invalidParams for a bad body).
func (g *Register) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case !strings.HasSuffix(r.URL.Path, "/personen"):
		writeRegisterProblem(w, http.StatusNotFound, registerProblem(r.URL.Path, http.StatusNotFound, "notFound",
			"Opgevraagde resource bestaat niet.", "", nil))
		return
	case r.Method != http.MethodPost:
		w.Header().Set("Allow", http.MethodPost)
		writeRegisterProblem(w, http.StatusMethodNotAllowed, registerProblem(r.URL.Path, http.StatusMethodNotAllowed,
			"methodNotAllowed", "Gebruikte bevragingsmethode is niet toegestaan.", "", nil))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, DefaultMaxBodyBytes))
	if err != nil {
		writeRegisterProblem(w, http.StatusBadRequest, registerProblem(r.URL.Path, http.StatusBadRequest, "paramsValidation",
			"Een of meerdere parameters zijn niet correct.", "De request body is te groot of onleesbaar.", nil))
		return
	}
	status, answer := g.answer(body, r.URL.Path)
	if status != http.StatusOK {
		writeRegisterProblem(w, status, answer)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(answer)
}

func writeRegisterProblem(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", ProblemContentType)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// answer computes the register's status and body for a lookup body.
func (g *Register) answer(body []byte, instance string) (int, []byte) {
	req, err := Validate(body)
	if err != nil {
		var params []InvalidParam
		var ve *ValidationError
		var se *SyntaxError
		switch {
		case errors.As(err, &ve):
			params = ve.Params
		case errors.As(err, &se):
			params = []InvalidParam{{Name: "body", Code: "syntax", Reason: se.describe()}}
		}
		return http.StatusBadRequest, registerProblem(instance, http.StatusBadRequest, "paramsValidation",
			"Een of meerdere parameters zijn niet correct.", "", params)
	}
	p, ok := persons()[req.BSN]
	if !ok {
		return http.StatusNotFound, registerProblem(instance, http.StatusNotFound, "notFound",
			"Persoon niet gevonden", "De persoon met opgegeven burgerservicenummer is niet gevonden", nil)
	}
	now := time.Now
	if g.Now != nil {
		now = g.Now
	}
	out := map[string]any{}
	for _, f := range req.Fields {
		path := strings.Split(f, ".")
		if path[0] == "leeftijd" {
			if len(path) == 1 {
				out["leeftijd"] = age(p.birth, now())
			}
			continue
		}
		pick(p.data, path, out)
	}
	answer, _ := json.Marshal(map[string]any{"type": QueryType, "personen": []any{out}})
	return http.StatusOK, answer
}

// pick copies the value at path in src into dst, keeping the structure
// around it; a path through an array applies to every element.
func pick(src map[string]any, path []string, dst map[string]any) {
	v, ok := src[path[0]]
	if !ok {
		return
	}
	if len(path) == 1 {
		dst[path[0]] = v
		return
	}
	switch v := v.(type) {
	case map[string]any:
		sub, _ := dst[path[0]].(map[string]any)
		if sub == nil {
			sub = map[string]any{}
		}
		pick(v, path[1:], sub)
		if len(sub) > 0 {
			dst[path[0]] = sub
		}
	case []any:
		subs, _ := dst[path[0]].([]any)
		if len(subs) != len(v) {
			subs = make([]any, len(v))
			for i := range subs {
				subs[i] = map[string]any{}
			}
		}
		for i, el := range v {
			if m, ok := el.(map[string]any); ok {
				pick(m, path[1:], subs[i].(map[string]any))
			}
		}
		dst[path[0]] = subs
	}
}

// registerProblem is a Haal Centraal problem body.
func registerProblem(instance string, status int, code, title, detail string, params []InvalidParam) []byte {
	typ := "https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.1"
	switch status {
	case http.StatusNotFound:
		typ = "https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.5"
	case http.StatusMethodNotAllowed:
		typ = "https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.6"
	}
	members := []member{{"type", typ}, {"title", title}, {"status", status}}
	if detail != "" {
		members = append(members, member{"detail", detail})
	}
	members = append(members, member{"instance", instance}, member{"code", code})
	if len(params) > 0 {
		members = append(members, member{"invalidParams", params})
	}
	return encodeObject(members)
}

// age is the whole years between birth and the day of now.
func age(birth, now time.Time) int {
	if loc, err := time.LoadLocation("Europe/Amsterdam"); err == nil {
		now = now.In(loc)
	}
	y, m, d := now.Date()
	years := y - birth.Year()
	if m < birth.Month() || (m == birth.Month() && d < birth.Day()) {
		years--
	}
	return years
}

type person struct {
	birth time.Time
	data  map[string]any
}

var months = [...]string{"januari", "februari", "maart", "april", "mei", "juni", "juli",
	"augustus", "september", "oktober", "november", "december"}

func datum(y int, m time.Month, d int) map[string]any {
	return map[string]any{
		"type":        "Datum",
		"datum":       time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Format(time.DateOnly),
		"langFormaat": strconv.Itoa(d) + " " + months[m-1] + " " + strconv.Itoa(y),
	}
}

func waarde(code, omschrijving string) map[string]any {
	return map[string]any{"code": code, "omschrijving": omschrijving}
}

func geboorte(y int, m time.Month, d int, plaatsCode, plaats string) map[string]any {
	return map[string]any{
		"datum":  datum(y, m, d),
		"plaats": waarde(plaatsCode, plaats),
		"land":   waarde("6030", "Nederland"),
	}
}

func naam(voornamen, geslachtsnaam string) map[string]any {
	return map[string]any{
		"voornamen":     voornamen,
		"geslachtsnaam": geslachtsnaam,
		"voorletters":   voornamen[:1] + ".",
	}
}

func volledigeNaam(voornamen, geslachtsnaam string) map[string]any {
	n := naam(voornamen, geslachtsnaam)
	n["aanduidingNaamgebruik"] = waarde("E", "eigen geslachtsnaam")
	n["volledigeNaam"] = voornamen + " " + geslachtsnaam
	return n
}

func related(bsn, voornamen, geslachtsnaam string, g map[string]any) map[string]any {
	return map[string]any{"burgerservicenummer": bsn, "naam": naam(voornamen, geslachtsnaam), "geboorte": g}
}

// persons builds the fictional data set afresh for each lookup, so no
// caller can change what the next one sees.
func persons() map[string]person {
	man, vrouw := waarde("M", "man"), waarde("V", "vrouw")
	wesselBirth := geboorte(1980, time.December, 12, "0545", "Leerdam")
	catootjeBirth := geboorte(1981, time.September, 21, "0796", "'s-Hertogenbosch")
	kidBirth := func() map[string]any { return geboorte(2003, time.March, 3, "0518", "'s-Gravenhage") }
	huwelijk := map[string]any{
		"datum":  datum(2002, time.February, 2),
		"land":   waarde("6030", "Nederland"),
		"plaats": waarde("0637", "Zoetermeer"),
	}
	kids := func() []any {
		return []any{
			related("999991231", "Stefano", "Kooyman", kidBirth()),
			related("999994554", "Serena", "Kooyman", kidBirth()),
			related("999991954", "Sierra", "Kooyman", kidBirth()),
		}
	}
	partner := func(bsn, voornamen, geslachtsnaam string, g, sex map[string]any) []any {
		p := related(bsn, voornamen, geslachtsnaam, g)
		p["geslacht"] = sex
		p["soortVerbintenis"] = waarde("H", "huwelijk")
		p["aangaanHuwelijkPartnerschap"] = huwelijk
		return []any{p}
	}
	nationaliteiten := func() []any {
		return []any{map[string]any{
			"type":          "Nationaliteit",
			"nationaliteit": waarde("0001", "Nederlandse"),
			"redenOpname":   waarde("001", "Wet op het Nederlanderschap 1892, art. 1, lid 1a"),
		}}
	}
	// A made-up address: the persons are fictional and so is their home.
	verblijfplaats := func() map[string]any {
		return map[string]any{
			"type": "Adres",
			"verblijfadres": map[string]any{
				"officieleStraatnaam": "Voorbeeldstraat",
				"korteStraatnaam":     "Voorbeeldstr",
				"huisnummer":          1,
				"postcode":            "2700ZZ",
				"woonplaats":          "Zoetermeer",
			},
			"functieAdres":            waarde("W", "woonadres"),
			"datumVan":                datum(2002, time.February, 2),
			"gemeenteVanInschrijving": waarde("0637", "Zoetermeer"),
		}
	}
	record := func(bsn, voornamen, geslachtsnaam string, sex, g map[string]any, partners, kinderen []any) map[string]any {
		m := map[string]any{
			"burgerservicenummer": bsn,
			"naam":                volledigeNaam(voornamen, geslachtsnaam),
			"geboorte":            g,
			"geslacht":            sex,
			"nationaliteiten":     nationaliteiten(),
			"verblijfplaats":      verblijfplaats(),
		}
		if partners != nil {
			m["partners"] = partners
		}
		if kinderen != nil {
			m["kinderen"] = kinderen
		}
		return m
	}
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	return map[string]person{
		"999992235": {d(1980, time.December, 12), record("999992235", "Wessel", "Kooyman", man, wesselBirth,
			partner("999991450", "Catootje", "Altena", catootjeBirth, vrouw), kids())},
		"999991450": {d(1981, time.September, 21), record("999991450", "Catootje", "Altena", vrouw, geboorte(1981, time.September, 21, "0796", "'s-Hertogenbosch"),
			partner("999992235", "Wessel", "Kooyman", geboorte(1980, time.December, 12, "0545", "Leerdam"), man), kids())},
		"999991231": {d(2003, time.March, 3), record("999991231", "Stefano", "Kooyman", man, kidBirth(), nil, nil)},
		"999994554": {d(2003, time.March, 3), record("999994554", "Serena", "Kooyman", vrouw, kidBirth(), nil, nil)},
		"999991954": {d(2003, time.March, 3), record("999991954", "Sierra", "Kooyman", vrouw, kidBirth(), nil, nil)},
	}
}
