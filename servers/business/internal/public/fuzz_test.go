package public

import (
	"os"
	"testing"
	"time"
)

// FuzzParseProducts: any input gives products or an error, never a panic;
// every product has a title and a known soort.
func FuzzParseProducts(f *testing.F) {
	for _, file := range []string{"testdata/products.xml", "../../../../examples/public/producten.xml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("<scproduct><title>&bogus;&#xD800;</title>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		products, err := parseProducts(data)
		if err != nil {
			return
		}
		for _, p := range products {
			if p.Title == "" || p.ID == "" || (p.Soort != "subsidie" && p.Soort != "bezwaar" && p.Soort != "vergunning") {
				t.Fatalf("product %+v", p)
			}
		}
	})
}

// FuzzParseFeeds: the RSS mapping never panics and never yields an
// untitled item.
func FuzzParseFeeds(f *testing.F) {
	for _, file := range []string{"testdata/news.rss", "../../../../examples/public/berichten.xml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if items, err := parseNews(data); err == nil {
			for _, it := range items {
				if it.Title == "" || it.ID == "" {
					t.Fatalf("news item %+v", it)
				}
			}
		}
		if items, err := parseBerichten(data, time.Unix(0, 0)); err == nil {
			for _, it := range items {
				if it.Subject == "" || it.ID == "" || it.PublishedAt == "" {
					t.Fatalf("bericht %+v", it)
				}
			}
		}
	})
}
