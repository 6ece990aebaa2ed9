package validate

import "strings"

// checkStructure runs layer 1 and reports whether the other layers may run.
func (v *validator) checkStructure() bool {
	root := v.m.root
	if root.local != "definitions" {
		v.add(LayerBase, "BASE-ROOT", root, "root element is <%s>, not <definitions>", clipText(root.local, maxIDExcerpt))
		return false
	}
	ok := true
	if !isDMNNamespace(root.space) {
		ns := "no namespace"
		if root.space != "" {
			ns = "namespace " + quote(root.space)
		}
		v.add(LayerBase, "BASE-NS", root, "<definitions> has %s; accepted are %s", ns, acceptedList())
		ok = false
	}
	if name, _ := root.attr("name"); blank(name) {
		v.add(LayerBase, "BASE-NAME", root, "<definitions> needs a non-empty name attribute")
		ok = false
	}
	if ns, _ := root.attr("namespace"); blank(ns) {
		v.add(LayerBase, "BASE-NSATTR", root, "<definitions> needs a non-empty namespace attribute")
		ok = false
	}
	if len(v.m.decisions) == 0 && isDMNNamespace(root.space) {
		v.add(LayerBase, "BASE-EMPTY", root, "the model has no <decision> element")
		ok = false
	}
	return ok
}

func acceptedList() string {
	parts := make([]string, len(acceptedNamespaces))
	for i, ns := range acceptedNamespaces {
		parts[i] = ns.name + " (" + ns.iri + ")"
	}
	return strings.Join(parts, ", ")
}

// quote puts a name from the input between quotes, shortened to
// maxIDExcerpt characters (not escaped: names are printed as written).
func quote(s string) string {
	head, rest := clipRunes(s, maxIDExcerpt)
	if rest == 0 {
		return `"` + s + `"`
	}
	return `"` + head + `…" (` + itoa(rest) + " more characters)"
}
