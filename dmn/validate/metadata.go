package validate

// checkMetadata runs layer 5: metadata quality.
func (v *validator) checkMetadata() {
	for _, d := range v.m.dmn["decision"] {
		for _, a := range []string{"title", "description"} {
			if s, ok := cprmvAttr(d, a); ok && blank(s) {
				v.add(LayerContent, "CON-001", d, "decision %s has an empty cprmv:%s", describe(d), a)
			}
		}
	}
	for _, in := range v.m.dmn["inputData"] {
		if s, ok := cprmvAttr(in, "description"); ok && blank(s) {
			v.add(LayerContent, "CON-002", in, "inputData %s has an empty cprmv:description", describe(in))
		}
	}
	for _, r := range v.m.dmn["rule"] {
		if s, ok := cprmvAttr(r, "note"); ok && blank(s) {
			v.add(LayerContent, "CON-003", r, "rule %s has an empty cprmv:note", describe(r))
		}
	}
	for _, vr := range v.m.dmn["variable"] {
		if s, _ := vr.attr("typeRef"); blank(s) {
			v.add(LayerContent, "CON-004", vr, "variable %s of %s has no typeRef", describeName(vr), tag(vr.parent))
		}
	}
	for _, ta := range v.m.dmn["textAnnotation"] {
		if blank(textOf(ta)) {
			v.add(LayerContent, "CON-005", ta, "textAnnotation %s has no text", describe(ta))
		}
	}
}

// describeName names an element by its name attribute, else as describe does.
func describeName(e *element) string {
	if n, _ := e.attr("name"); n != "" {
		return quote(n)
	}
	return describe(e)
}
