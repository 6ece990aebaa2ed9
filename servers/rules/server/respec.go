package server

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/regelkit/regelkit/norms/cprmv"
)

// respecSite is the static site: the pre-rendered page and the vocabulary,
// methods and SHACL files the server itself loads, at /respec/ and at
// /respec/0.4.1/.
func respecSite() (map[string][]byte, error) {
	site := map[string][]byte{}
	add := func(fsys fs.FS, name string) error {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		for _, dir := range []string{"", cprmv.Version + "/"} {
			site[dir+path.Base(name)] = b
		}
		return nil
	}
	if err := add(respecFiles, "respec/index.html"); err != nil {
		return nil, err
	}
	for _, name := range []string{"cprmv.ttl", "cprmvmethods.ttl", "cprmv.shacl.ttl"} {
		if err := add(cprmv.Files(), name); err != nil {
			return nil, err
		}
	}
	return site, nil
}

var respecTypes = map[string]string{".html": "text/html; charset=utf-8", ".ttl": "text/turtle; charset=utf-8"}

func (a *app) handleRespecRedirect(w http.ResponseWriter, r *http.Request) error {
	http.Redirect(w, r, "/respec/", http.StatusMovedPermanently)
	return nil
}

func (a *app) handleRespec(w http.ResponseWriter, r *http.Request) error {
	name := strings.TrimPrefix(r.URL.Path, "/respec/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	b, ok := a.respec[name]
	if !ok {
		http.NotFound(w, r)
		return nil
	}
	w.Header().Set("Content-Type", respecTypes[path.Ext(name)])
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, err := w.Write(b)
	return err
}
