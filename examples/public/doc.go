// Package public holds example feeds for the business API's public content
// routes, written for the project: a national news feed and a provincial
// announcements feed in RSS 2.0, and a products-and-services catalogue in
// the Samenwerkende Catalogi 4.0 XML format. The business server serves
// them in-process when no feed URL is configured, so the routes work with
// no network. Organisations, people and addresses are fictional.
//
//	data, _ := fs.ReadFile(public.FS, public.NewsFile)
package public
