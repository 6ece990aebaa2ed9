package public

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Product is a product or service (spec §2.3) plus its soort (kind).
type Product struct {
	ID              string   `json:"id"`
	Title           string   `json:"title"`
	Description     string   `json:"description"`
	URL             string   `json:"url"`
	Audience        []string `json:"audience"`
	OnlineAanvragen bool     `json:"onlineAanvragen"`
	Modified        *string  `json:"modified"`
	Soort           string   `json:"soort"`
}

// maxXMLDepth bounds element nesting in a catalogue: SC 4.0 nests some
// eight levels; product HTML left unescaped adds a few more.
const maxXMLDepth = 256

// maxFieldBytes bounds the text kept of one field.
const maxFieldBytes = 64 << 10

// cleanProduct is clean plus the catalogue's own clean-up: upstream
// replaced every '@' by a space.
func cleanProduct(s string) string { return clean(strings.ReplaceAll(s, "@", " ")) }

// parseProducts reads a Samenwerkende Catalogi 4.0 document: one scproduct
// element per product, fields matched by local name at any depth within it.
// The decoder is non-strict with the HTML entities, so
// &nbsp; and &euro; decode; untitled products are dropped.
func parseProducts(data []byte) ([]Product, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	var (
		out     []Product
		depth   int
		inProd  bool
		index   int
		stack   []string // local names inside the current product
		fields  map[string]*field
		aud     []string
		seenAud map[string]bool
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			line, col := d.InputPos()
			return nil, fmt.Errorf("malformed catalogue XML at line %d, column %d: %w", line, col, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxXMLDepth {
				line, col := d.InputPos()
				return nil, fmt.Errorf("catalogue XML nests deeper than %d at line %d, column %d", maxXMLDepth, line, col)
			}
			switch {
			case !inProd && t.Name.Local == "scproduct":
				inProd, stack = true, stack[:0]
				fields, aud, seenAud = map[string]*field{}, nil, map[string]bool{}
			case inProd:
				stack = append(stack, t.Name.Local)
				if _, ok := productFields[t.Name.Local]; ok {
					if _, seen := fields[t.Name.Local]; !seen || t.Name.Local == "audience" {
						fields[t.Name.Local] = &field{}
					}
				}
			}
		case xml.CharData:
			if inProd && len(stack) > 0 {
				if f, ok := fields[stack[len(stack)-1]]; ok && !f.done && f.text.Len() < maxFieldBytes {
					f.text.Write(t[:min(len(t), maxFieldBytes-f.text.Len())])
				}
			}
		case xml.EndElement:
			depth--
			if !inProd {
				continue
			}
			if len(stack) == 0 { // the scproduct itself
				inProd = false
				if p, ok := product(fields, aud, index); ok {
					out = append(out, p)
				}
				index++
				continue
			}
			name := stack[len(stack)-1]
			if f, ok := fields[name]; ok {
				f.done = true // only the first occurrence counts
			}
			if name == "audience" {
				if a := strings.ToLower(clean(fields["audience"].text.String())); (a == "ondernemer" || a == "particulier") && !seenAud[a] {
					seenAud[a] = true
					aud = append(aud, a)
				}
			}
			stack = stack[:len(stack)-1]
		}
	}
	if index == 0 {
		return nil, errors.New("malformed catalogue: no scproduct element")
	}
	if len(out) == 0 {
		return nil, errNoItems
	}
	return out, nil
}

// productFields are the local names read within a product.
var productFields = map[string]struct{}{
	"productID": {}, "title": {}, "abstract": {}, "identifier": {}, "modified": {}, "onlineAanvragen": {}, "audience": {},
}

// field is the text of one matched element.
type field struct {
	text strings.Builder
	done bool
}

func product(fields map[string]*field, audience []string, index int) (Product, bool) {
	get := func(name string) string {
		if f, ok := fields[name]; ok {
			return cleanProduct(f.text.String())
		}
		return ""
	}
	p := Product{
		ID: get("productID"), Title: get("title"), Description: get("abstract"), URL: get("identifier"),
		Audience: audience, OnlineAanvragen: strings.EqualFold(get("onlineAanvragen"), "ja"), Modified: optional(get("modified")),
	}
	if p.Title == "" {
		return p, false
	}
	if p.ID == "" {
		p.ID = "product-" + strconv.Itoa(index)
	}
	if p.Audience == nil {
		p.Audience = []string{}
	}
	p.Soort = soort(p.Title)
	return p, true
}

// soort classifies a product by its title.
func soort(title string) string {
	t := strings.ToLower(title)
	switch {
	case strings.Contains(t, "subsidie"):
		return "subsidie"
	case strings.Contains(t, "bezwaar"), strings.Contains(t, "klacht"):
		return "bezwaar"
	}
	return "vergunning"
}
