package cprmv

import (
	"strings"
	"unicode"
)

// Rule is one node of a rule set's hasPart tree.
type Rule struct {
	ID             string
	Comment        string // heading title
	Definition     string
	PostDefinition string
	Parts          []*Rule

	k string // key(ID), set by indexKeys once the tree is built
}

// RuleSet is one converted document.
type RuleSet struct {
	ID          string // the resolved official id
	Class       string // NS+"RuleSet" or NS+"DecisionModel"
	ValidFrom   string // ISO date, may be empty
	Method      string // method id (bwb, …)
	DerivedFrom string // the official repository URL
	Comment     string // citation title
	Parts       []*Rule

	size int64 // bytes of the source document, the cache's weight
}

// key reduces an id to its letters and digits, case-folded, as path
// matching compares them.
func key(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Find walks segs below the rule set: each segment is searched depth-first
// among the current node's descendants, so callers may skip levels; the
// first match wins. It returns the chain of nodes from the first child of
// the rule set down to the last match, and the matched nodes, or nil when a
// segment matches nothing.
func (rs *RuleSet) Find(segs []string) (chain, matched []*Rule) {
	parts := rs.Parts
	for _, seg := range segs {
		k := key(seg)
		sub := findDFS(parts, k)
		if sub == nil {
			return nil, nil
		}
		chain = append(chain, sub...)
		m := sub[len(sub)-1]
		matched = append(matched, m)
		parts = m.Parts
	}
	return chain, matched
}

// findDFS returns the path to the first node in depth-first order whose key
// is k. It iterates with an explicit stack: the depth follows the data.
func findDFS(roots []*Rule, k string) []*Rule {
	type frame struct {
		parts []*Rule
		next  int
	}
	stack := []frame{{parts: roots}}
	var path []*Rule
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next >= len(top.parts) {
			stack = stack[:len(stack)-1]
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			continue
		}
		n := top.parts[top.next]
		top.next++
		path = append(path, n)
		nk := n.k
		if nk == "" {
			nk = key(n.ID)
		}
		if nk == k {
			return path
		}
		stack = append(stack, frame{parts: n.Parts})
	}
	return nil
}

// indexKeys stores each rule's match key, so that traversals of a cached
// rule set compare without allocating. The tree is shared read-only after
// this.
func indexKeys(parts []*Rule) {
	stack := append([]*Rule(nil), parts...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n.k = key(n.ID)
		stack = append(stack, n.Parts...)
	}
}
