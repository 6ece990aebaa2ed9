package predict

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Labels a prediction uses.
const (
	Action    = "Action"
	Actor     = "Actor"
	Object    = "Object"
	Recipient = "Recipient"
	None      = "None"
)

// Tokenize splits text as the BERT basic tokenizer does: a
// maximal run of letters and digits, allowing an inner hyphen or apostrophe, or a
// single other non-space character. Every token is a substring of text, in
// order.
func Tokenize(text string) []string {
	var out []string
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += n
		case isWord(r):
			j := i + n
			for j < len(text) {
				r2, n2 := utf8.DecodeRuneInString(text[j:])
				if isWord(r2) {
					j += n2
					continue
				}
				if (r2 == '-' || r2 == '\'') && j+n2 < len(text) {
					if r3, _ := utf8.DecodeRuneInString(text[j+n2:]); isWord(r3) {
						j += n2
						continue
					}
				}
				break
			}
			out = append(out, text[i:j])
			i = j
		default:
			out = append(out, text[i:i+n])
			i += n
		}
	}
	return out
}

// Piece is one WordPiece token with the raw label a token classifier gave it.
type Piece struct {
	Token, Label string
}

// rawLabels renames both upstream label sets.
var rawLabels = map[string]string{
	"O": None, "V": Action, "ACTION": Action, "ACTOR": Actor,
	"OBJ": Object, "OBJECT": Object, "REC": Recipient, "RECIPIENT": Recipient,
}

// PostProcess turns a classifier's WordPiece output into the response's
// [token, label] pairs: [CLS] and [SEP] are dropped, labels renamed, and
// "##" continuations merged into the previous word, whose label they take
// even when their own differs. A leading continuation stands alone.
func PostProcess(pieces []Piece) [][2]string {
	out := [][2]string{}
	for _, p := range pieces {
		if p.Token == "[CLS]" || p.Token == "[SEP]" {
			continue
		}
		label, ok := rawLabels[strings.ToUpper(p.Label)]
		if !ok {
			label = p.Label
		}
		if rest, cont := strings.CutPrefix(p.Token, "##"); cont && len(out) > 0 {
			out[len(out)-1][0] += rest
			continue
		}
		out = append(out, [2]string{p.Token, label})
	}
	return out
}
