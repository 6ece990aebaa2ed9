package predict

import "strings"

// verbs is the closed list of finite verbs and auxiliaries the baseline and
// the features recognise as the head of an act.
var verbs = setOf("kan", "kunnen", "moet", "moeten", "mag", "mogen", "zal", "zullen", "wordt", "worden",
	"verleent", "verlenen", "beslist", "beslissen", "stelt", "stellen", "verstrekt", "verstrekken",
	"verzamelt", "verzamelen", "informeert", "informeren", "neemt", "nemen", "geeft", "geven",
	"trekt", "intrekken", "herziet", "herzien", "weigert", "weigeren", "betaalt", "betalen",
	"verklaart", "legt", "leggen", "doet", "dienen", "dient", "meldt", "melden", "verhaalt",
	"vordert", "vorderen", "toekent", "kent", "verwerkt", "verwerken", "aanvraagt", "vraagt")

var determiners = setOf("de", "het", "een", "die", "dat", "deze", "dit", "zijn", "haar", "hun")
var prepositions = setOf("op", "in", "van", "aan", "voor", "met", "bij", "over", "door", "tot", "om", "naar", "uit", "onder", "binnen")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// RuleTagger labels tokens with position heuristics: the first verb of the
// closed list is the Action; the noun phrase just before it the Actor; the
// words after it up to a preposition or punctuation the Object; the phrase
// after "aan" the Recipient. It is the baseline a learned model must beat.
func RuleTagger(tokens []string) []string {
	labels := make([]string, len(tokens))
	for i := range labels {
		labels[i] = None
	}
	verb := -1
	for i, t := range tokens {
		if verbs[strings.ToLower(t)] {
			verb = i
			break
		}
	}
	if verb < 0 {
		return labels
	}
	labels[verb] = Action
	isWord := func(t string) bool { return len(t) > 0 && !strings.ContainsAny(t[:1], ".,;:()!?\"'") }
	// Actor: words before the verb back to a determiner, preposition or punctuation.
	for i := verb - 1; i >= 0; i-- {
		l := strings.ToLower(tokens[i])
		if !isWord(tokens[i]) || determiners[l] || prepositions[l] {
			break
		}
		labels[i] = Actor
	}
	// Object (or Recipient after "aan") after the verb.
	role := Object
	for i := verb + 1; i < len(tokens); i++ {
		l := strings.ToLower(tokens[i])
		switch {
		case !isWord(tokens[i]):
			return labels
		case verbs[l]:
			labels[i] = Action
		case l == "aan":
			role = Recipient
		case prepositions[l]:
			if role == Recipient {
				return labels
			}
			role = ""
		case determiners[l]:
		case role != "":
			labels[i] = role
		}
	}
	return labels
}
