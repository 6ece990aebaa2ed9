package public

import "embed"

// FS holds the example feeds under the names below.
//
//go:embed *.xml
var FS embed.FS

// The example feeds in FS.
const (
	NewsFile      = "nieuws.xml"    // RSS 2.0, national news
	BerichtenFile = "berichten.xml" // RSS 2.0, provincial announcements
	ProductsFile  = "producten.xml" // Samenwerkende Catalogi 4.0 products
)
