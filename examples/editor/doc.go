// Package editor holds the editor services' example data: Choppr source
// documents (sources/*.jsonld, from public-domain Dutch legislation, Auteurswet
// article 11) and editor JSON interpretations of them (tasks/*.json). The
// embedded graph store of servers/editor is seeded from FS.
//
//	data, err := fs.ReadFile(editor.FS, "tasks/participatiewet-art43.json")
package editor
