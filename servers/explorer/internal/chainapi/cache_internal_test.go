package chainapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/chain"
)

// TestEncodedListingCacheIsBounded: listings of 200 caller-named endpoints
// keep at most maxEncodedListings encodings, within maxEncodedBytes; a
// listing too large to keep is encoded but not kept, and a repeated
// listing reuses its encoding.
func TestEncodedListingCacheIsBounded(t *testing.T) {
	h := &handlers{encoded: map[string]encodedListing{}}
	models := []chain.Model{{Identifier: "A", Title: strings.Repeat("t", 1000)}}
	for i := 0; i < 200; i++ {
		if _, err := h.encodeListing(fmt.Sprintf("http://kg/%d", i), models); err != nil {
			t.Fatal(err)
		}
		if len(h.encoded) > 32 || h.encodedBytes > 64<<20 {
			t.Fatalf("after %d endpoints: %d encodings, %d bytes", i+1, len(h.encoded), h.encodedBytes)
		}
	}
	first, _ := h.encodeListing("http://kg/same", models)
	again, _ := h.encodeListing("http://kg/same", models)
	if &first[0] != &again[0] {
		t.Error("a repeated listing was encoded again")
	}
	big := []chain.Model{{Identifier: "B", Title: strings.Repeat("x", 17<<20)}}
	n := len(h.encoded)
	if _, err := h.encodeListing("http://kg/big", big); err != nil {
		t.Fatal(err)
	}
	if _, kept := h.encoded["http://kg/big"]; kept || len(h.encoded) != n {
		t.Errorf("a 17 MB listing was kept (%d encodings, %d bytes)", len(h.encoded), h.encodedBytes)
	}
	total := 0
	for _, e := range h.encoded {
		total += len(e.json)
	}
	if total != h.encodedBytes {
		t.Errorf("byte count %d, encodings hold %d", h.encodedBytes, total)
	}
}
