package validate

import (
	"fmt"
	"sort"
	"strings"
)

// hrefID returns the id an href such as "#d1" refers to. local is false for
// a reference into another model ("other.dmn#d1"), which is not checked.
func hrefID(href string) (id string, local bool) {
	href = strings.TrimSpace(href)
	i := strings.LastIndexByte(href, '#')
	if i < 0 {
		return href, true
	}
	return href[i+1:], i == 0
}

// checkDRD runs layer 4: the decision requirements diagram.
func (v *validator) checkDRD() {
	m := v.m
	referenced := map[string]bool{}
	requires := map[*element][]*element{} // decision → decisions it requires
	reqs := m.dmn["informationRequirement"]
	for _, ir := range reqs {
		if child(ir, "requiredInput") == nil && child(ir, "requiredDecision") == nil {
			v.add(LayerInteraction, "INT-004", ir, "informationRequirement has neither a requiredInput nor a requiredDecision")
		}
	}
	// References in authority requirements must resolve as well; only
	// information requirements make an inputData used (INT-005) and build
	// the graph of required decisions.
	for _, r := range m.dmn["requiredInput"] {
		href, _ := r.attr("href")
		id, local := hrefID(href)
		if !local {
			continue
		}
		if r.parent.local == "informationRequirement" {
			referenced[id] = true
		}
		if m.inputDataByID[id] == nil {
			v.add(LayerInteraction, "INT-001", r, "requiredInput href %s refers to no inputData", excerpt(href))
		}
	}
	for _, r := range m.dmn["requiredDecision"] {
		href, _ := r.attr("href")
		id, local := hrefID(href)
		if !local {
			continue
		}
		dec := owner(r)
		target := m.decisionByID[id]
		switch {
		case target == nil:
			v.add(LayerInteraction, "INT-002", r, "requiredDecision href %s refers to no decision", excerpt(href))
		case target == dec:
			v.add(LayerInteraction, "INT-003", r, "decision %s requires itself", quoted(id, maxIDExcerpt))
		case dec != nil && dec.local == "decision" && r.parent.local == "informationRequirement":
			requires[dec] = append(requires[dec], target)
		}
	}
	v.checkCycles(requires)
	if len(m.decisions) > 1 || len(reqs) > 0 {
		for _, in := range m.inputData {
			id, _ := in.attr("id")
			if !referenced[id] {
				v.add(LayerInteraction, "INT-005", in, "inputData %s is required by no decision", describe(in))
			}
		}
	}
	for _, in := range m.dmn["inputData"] {
		vr := child(in, "variable")
		if vr == nil {
			continue
		}
		name, _ := in.attr("name")
		vname, _ := vr.attr("name")
		if name != vname {
			v.add(LayerInteraction, "INT-006", in, "inputData name %s differs from its variable name %s", excerpt(name), excerpt(vname))
		}
	}
	v.checkInputExpressionNames()
}

// checkCycles reports each cycle of required decisions longer than one
// (direct self-requirement is reported where it is written) once, at the
// cycle's first decision in document order.
func (v *validator) checkCycles(requires map[*element][]*element) {
	order := map[*element]int{}
	for i, d := range v.m.decisions {
		order[d] = i
	}
	// Tarjan's strongly connected components.
	index := map[*element]int{}
	low := map[*element]int{}
	onStack := map[*element]bool{}
	var stack []*element
	var sccs [][]*element
	next := 0
	var connect func(d *element)
	connect = func(d *element) {
		index[d], low[d] = next, next
		next++
		stack = append(stack, d)
		onStack[d] = true
		for _, t := range requires[d] {
			if _, seen := index[t]; !seen {
				connect(t)
				low[d] = min(low[d], low[t])
			} else if onStack[t] {
				low[d] = min(low[d], index[t])
			}
		}
		if low[d] == index[d] {
			var scc []*element
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				scc = append(scc, top)
				if top == d {
					break
				}
			}
			if len(scc) > 1 {
				sccs = append(sccs, scc)
			}
		}
	}
	for _, d := range v.m.decisions {
		if _, seen := index[d]; !seen {
			connect(d)
		}
	}
	for _, scc := range sccs {
		sort.Slice(scc, func(i, j int) bool { return order[scc[i]] < order[scc[j]] })
		names := make([]string, 0, min(len(scc), MaxListed))
		for _, d := range scc[:min(len(scc), MaxListed)] {
			names = append(names, describe(d))
		}
		list := strings.Join(names, ", ")
		if len(scc) > MaxListed {
			list += fmt.Sprintf(", … and %d more", len(scc)-MaxListed)
		}
		v.add(LayerInteraction, "INT-003", scc[0], "decision %s requires itself through a cycle of required decisions: %s",
			describe(scc[0]), list)
	}
}

// feelWords are FEEL keywords and built-in names that are no variable
// references, compared case-insensitively.
var feelWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`and or not true false null if then else for in return some every between
		instance of function date time duration number string year month day hour minute second years months`) {
		m[w] = true
	}
	return m
}()

// phraseBudget bounds the work of finding declared phrases (names with
// spaces or other non-identifier characters) in input expressions: about
// one byte compared per unit, 32 units per search. Every expression is
// searched for every phrase, so thousands of each would take minutes; a
// real model uses a tiny fraction. Past the budget, words of declared
// phrases simply count as declared.
const phraseBudget = 20_000_000

// checkInputExpressionNames reports names in input expressions that nothing
// declares (INT-007).
func (v *validator) checkInputExpressionNames() {
	global := map[string]bool{}
	for _, in := range v.m.inputData {
		if name, _ := in.attr("name"); name != "" {
			global[name] = true
		}
	}
	local := map[*element]map[string]bool{} // per owner: names its requirements declare
	localPhrases := map[*element][]string{} // per owner: its declared phrases, after the global ones
	var phrases []string                    // declared names that are no plain identifiers, computed on first use
	var words map[string]bool               // the words of all declared phrases, computed past the budget
	budget := phraseBudget
	for _, expr := range v.m.dmn["inputExpression"] {
		text := strings.TrimSpace(textOf(expr))
		if text == "" {
			continue
		}
		own := owner(expr)
		declared, ok := local[own]
		if !ok {
			declared = v.ownerNames(own)
			local[own] = declared
		}
		if global[text] || declared[text] {
			continue
		}
		if phrases == nil {
			phrases = phraseNames(global)
		}
		ownPhrases, ok := localPhrases[own]
		if !ok {
			ownPhrases = append(append([]string(nil), phrases...), phraseNames(declared)...)
			localPhrases[own] = ownPhrases
		}
		var names []string
		if cost := len(ownPhrases) * (len(text) + 32); cost <= budget {
			budget -= cost
			names = undeclaredNames(text, ownPhrases, global, declared)
		} else {
			if words == nil {
				words = phraseWords(v.m, global)
			}
			names = undeclaredNames(text, nil, global, declared, words)
		}
		if len(names) == 0 {
			continue
		}
		// One issue per name, as the code table says, but at most
		// MaxListed per expression, each quoting an excerpt of it.
		quotedText := excerpt(text)
		for i, name := range names {
			if i == MaxListed {
				v.add(LayerInteraction, "INT-007", expr, "input expression %s uses %d further names that no inputData declares: %s",
					quotedText, len(names)-MaxListed, listNames(names[MaxListed:], MaxListed))
				break
			}
			v.add(LayerInteraction, "INT-007", expr, "input expression %s uses %s, which no inputData declares", quotedText, quoted(name, maxIDExcerpt))
		}
	}
}

// ownerNames returns the names declared for expressions inside own besides
// the inputData: the outputs of the decisions a decision requires (their
// name, variable name and decision-table output names), or the formal
// parameters of a business knowledge model.
func (v *validator) ownerNames(own *element) map[string]bool {
	names := map[string]bool{}
	if own == nil {
		return names
	}
	switch own.local {
	case "decision":
		for _, ir := range children(own, "informationRequirement") {
			for _, rd := range children(ir, "requiredDecision") {
				href, _ := rd.attr("href")
				id, _ := hrefID(href)
				target := v.m.decisionByID[id]
				if target == nil {
					continue
				}
				addName(names, target)
				if vr := child(target, "variable"); vr != nil {
					addName(names, vr)
				}
				for _, dt := range children(target, "decisionTable") {
					for _, out := range children(dt, "output") {
						addName(names, out)
					}
				}
			}
		}
	case "businessKnowledgeModel":
		for _, logic := range children(own, "encapsulatedLogic") {
			for _, p := range children(logic, "formalParameter") {
				addName(names, p)
			}
		}
	}
	return names
}

func addName(names map[string]bool, e *element) {
	if n, _ := e.attr("name"); n != "" {
		names[n] = true
	}
}

// phraseNames returns the names of set that are no plain identifiers (FEEL
// allows "Leeftijd aanvrager"), longest first.
func phraseNames(set map[string]bool) []string {
	var out []string
	for name := range set {
		if !isIdentifier(name) {
			out = append(out, name)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

// phraseWords returns the identifier words of every declared phrase: of
// the inputData names and of every name a requirement declares.
func phraseWords(m *model, global map[string]bool) map[string]bool {
	words := map[string]bool{}
	add := func(name string) {
		if isIdentifier(name) {
			return
		}
		for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r >= 0x80 || !identPart(byte(r)) }) {
			words[w] = true
		}
	}
	for name := range global {
		add(name)
	}
	for _, tag := range []string{"decision", "output", "variable", "parameter"} {
		for _, e := range m.dmn[tag] {
			if name, _ := e.attr("name"); name != "" {
				add(name)
			}
		}
	}
	return words
}

// undeclaredNames extracts the identifiers of a FEEL expression text and
// returns those declared in none of sets: string
// literals are removed, FEEL words and property accesses (a name after '.')
// skipped, the result deduplicated in first-seen order. The declared phrases
// (names that are no plain identifiers) are blanked out first so their words
// are not reported one by one.
func undeclaredNames(text string, phrases []string, sets ...map[string]bool) []string {
	text = blankStrings(text)
	for _, name := range phrases {
		if strings.Contains(text, name) {
			text = strings.ReplaceAll(text, name, strings.Repeat(" ", len(name)))
		}
	}
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(text); {
		c := text[i]
		if !identStart(c) {
			// skip numbers whole, so 1e5 or 12abc never yields a name
			if c >= '0' && c <= '9' {
				for i < len(text) && (identPart(text[i]) || text[i] == '.') {
					i++
				}
				continue
			}
			i++
			continue
		}
		j := i
		for j < len(text) && identPart(text[j]) {
			j++
		}
		tok := text[i:j]
		prev := i - 1
		for prev >= 0 && (text[prev] == ' ' || text[prev] == '\t' || text[prev] == '\n' || text[prev] == '\r') {
			prev--
		}
		i = j
		if prev >= 0 && text[prev] == '.' {
			continue
		}
		if feelWords[strings.ToLower(tok)] || seen[tok] {
			continue
		}
		seen[tok] = true
		declared := false
		for _, set := range sets {
			if set[tok] {
				declared = true
				break
			}
		}
		if !declared {
			out = append(out, tok)
		}
	}
	return out
}

// blankStrings replaces single- and double-quoted literals by spaces.
func blankStrings(text string) string {
	if !strings.ContainsAny(text, `"'`) {
		return text
	}
	b := []byte(text)
	var quote byte
	for i := 0; i < len(b); i++ {
		switch {
		case quote == 0 && (b[i] == '"' || b[i] == '\''):
			quote = b[i]
			b[i] = ' '
		case quote != 0 && b[i] == '\\' && i+1 < len(b):
			b[i], b[i+1] = ' ', ' '
			i++
		case quote != 0 && b[i] == quote:
			quote = 0
			b[i] = ' '
		case quote != 0:
			b[i] = ' '
		}
	}
	return string(b)
}

// identStart and identPart follow [A-Za-z_][A-Za-z0-9_]* and also take
// every non-ASCII byte, so a FEEL name with accented letters stays one name.
func identStart(c byte) bool { return c == '_' || isLetter(c) || c >= 0x80 }
func identPart(c byte) bool  { return identStart(c) || c >= '0' && c <= '9' }

func isIdentifier(s string) bool {
	if s == "" || !identStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !identPart(s[i]) {
			return false
		}
	}
	return true
}
