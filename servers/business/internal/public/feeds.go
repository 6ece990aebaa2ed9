package public

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/mmcdole/gofeed/rss"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Ref names a source or sender: {id, name}.
type Ref struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// NewsItem is a news item (spec §2.3).
type NewsItem struct {
	ID          string  `json:"id"`
	Title       string  `json:"title"`
	Summary     string  `json:"summary"`
	Category    *string `json:"category"`
	PublishedAt *string `json:"publishedAt"`
	URL         *string `json:"url"`
	Source      Ref     `json:"source"`
}

// Action is an announcement's link.
type Action struct {
	Label string `json:"label"`
	URL   string `json:"url"`
}

// Bericht is an announcement (spec §2.3).
type Bericht struct {
	ID          string  `json:"id"`
	Subject     string  `json:"subject"`
	Preview     string  `json:"preview"`
	Content     *string `json:"content"`
	Type        string  `json:"type"`
	Status      string  `json:"status"`
	Audience    string  `json:"audience"`
	Sender      Ref     `json:"sender"`
	PublishedAt string  `json:"publishedAt"`
	ExpiresAt   *string `json:"expiresAt"`
	Priority    string  `json:"priority"`
	IsRead      bool    `json:"isRead"`
	Action      *Action `json:"action"`
}

var (
	newsSource = Ref{ID: "government", Name: "Rijksoverheid"}
	sender     = Ref{ID: "flevoland", Name: "Provincie Flevoland"}
)

// clean decodes HTML entities left by the XML layer (a non-strict decoder
// keeps &nbsp; and friends as text, and feeds double-encode), collapses
// white space and trims.
func clean(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

// parseRSS parses an RSS 2.0 document with gofeed's RSS parser, after a
// nesting check: gofeed reads extension elements recursively, one call per
// level, so a deep document must not reach it.
func parseRSS(data []byte) ([]*rss.Item, error) {
	if err := checkDepth(data); err != nil {
		return nil, err
	}
	feed, err := (&rss.Parser{}).Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("malformed RSS: %w", err)
	}
	return feed.Items, nil
}

// checkDepth refuses XML nested deeper than maxXMLDepth, naming where. A
// syntax error is left to the parser that follows, which reports it.
func checkDepth(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	depth := 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			return nil
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxXMLDepth {
				line, col := d.InputPos()
				return fmt.Errorf("XML nests deeper than %d at line %d, column %d", maxXMLDepth, line, col)
			}
		case xml.EndElement:
			depth--
		}
	}
}

func guid(it *rss.Item) string {
	if it.GUID != nil {
		return strings.TrimSpace(it.GUID.Value)
	}
	return ""
}

// isoDate is pubDate (RFC 1123, with or without a zone; gofeed's date
// parser) in the envelope's timestamp format, or "" when unparsable.
func isoDate(it *rss.Item) string {
	if it.PubDateParsed == nil {
		return ""
	}
	return httpapi.Timestamp(*it.PubDateParsed)
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// parseNews maps an RSS feed to news items: untitled items are
// dropped, feed order is kept.
func parseNews(data []byte) ([]NewsItem, error) {
	items, err := parseRSS(data)
	if err != nil {
		return nil, err
	}
	out := make([]NewsItem, 0, len(items))
	for i, it := range items {
		title := clean(it.Title)
		if title == "" {
			continue
		}
		id := guid(it)
		if id == "" {
			id = "gov-news-" + strconv.Itoa(i)
		}
		out = append(out, NewsItem{
			ID: id, Title: title, Summary: clean(it.Description),
			PublishedAt: optional(isoDate(it)), URL: optional(strings.TrimSpace(it.Link)), Source: newsSource,
		})
	}
	if len(out) == 0 {
		return nil, errNoItems
	}
	return out, nil
}

// parseBerichten maps an RSS feed to announcements; an item
// without a date takes the refresh time.
func parseBerichten(data []byte, refreshed time.Time) ([]Bericht, error) {
	items, err := parseRSS(data)
	if err != nil {
		return nil, err
	}
	out := make([]Bericht, 0, len(items))
	for i, it := range items {
		subject := clean(it.Title)
		if subject == "" {
			continue
		}
		id := guid(it)
		if id == "" {
			id = "flevoland-" + strconv.Itoa(i)
		}
		preview := clean(it.Description)
		b := Bericht{
			ID: id, Subject: subject, Preview: preview, Type: "announcement", Status: "published", Audience: "all",
			Sender: sender, PublishedAt: isoDate(it), Priority: "normal",
		}
		if preview != "" {
			// The preview is text: escaped, it cannot inject markup.
			content := "<p>" + html.EscapeString(preview) + "</p>"
			b.Content = &content
		}
		if b.PublishedAt == "" {
			b.PublishedAt = httpapi.Timestamp(refreshed)
		}
		if link := strings.TrimSpace(it.Link); link != "" {
			b.Action = &Action{Label: "Lees meer", URL: link}
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, errNoItems
	}
	return out, nil
}
