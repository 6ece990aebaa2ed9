package flint

import (
	"bytes"
	"encoding/json"
)

// Task is the editor's JSON interpretation.
type Task struct {
	ID             string      `json:"id"`
	Type           string      `json:"type"`
	Label          string      `json:"label"`
	Description    string      `json:"description"`
	HasEditor      string      `json:"hasEditor"`
	Interpretation string      `json:"interpretation"`
	SourceDocs     []SourceDoc `json:"sourceDocs"`
	Frames         []Frame     `json:"frames"`
}

// SourceDoc is one source document loaded in the task: its Choppr JSON-LD
// and the editor state of its sentences.
type SourceDoc struct {
	JSONLD                json.RawMessage `json:"jsonLd"`
	SelectedSentencesIDs  []string        `json:"selectedSentencesIds"`
	CollapsedSentencesIDs []string        `json:"collapsedSentencesIds"`
}

// Frame is a fact, act or claim-duty; the fields of the other two types stay
// empty. Frame marshals only the fields of its own type.
type Frame struct {
	ID       string    `json:"id"`
	TypeID   string    `json:"typeId"`
	Label    string    `json:"label"`
	Comments []Comment `json:"comments"`
	Position []float64 `json:"position,omitempty"`

	Fact        string       `json:"fact,omitempty"`
	SubTypeIDs  []string     `json:"subTypeIds,omitempty"`
	SubTypeID   string       `json:"subTypeId,omitempty"` // legacy input only
	IsComplex   bool         `json:"isComplex,omitempty"`
	Subdivision *Construct   `json:"subdivision,omitempty"`
	Annotations []Annotation `json:"annotations,omitempty"`

	Act             string        `json:"act,omitempty"`
	ActionID        string        `json:"actionId,omitempty"`
	ActorID         string        `json:"actorId,omitempty"`
	ObjectID        string        `json:"objectId,omitempty"`
	RecipientID     string        `json:"recipientId,omitempty"`
	Precondition    *Construct    `json:"precondition,omitempty"`
	Creates         []string      `json:"creates,omitempty"`
	Terminates      []string      `json:"terminates,omitempty"`
	SourceSentences []SentenceRef `json:"sourceSentences,omitempty"`

	ClaimDuty  string `json:"claimduty,omitempty"`
	DutyID     string `json:"dutyId,omitempty"`
	ClaimantID string `json:"claimantId,omitempty"`
	HolderID   string `json:"holderId,omitempty"`
}

// Frame types.
const (
	TypeFact      = "fact"
	TypeAct       = "act"
	TypeClaimDuty = "claim_duty"
)

// MarshalJSON writes the canonical form: every field of the frame's own type,
// empty collections as [] and empty constructs spelled out, so that the GUI
// never meets a missing field.
func (f Frame) MarshalJSON() ([]byte, error) {
	m := map[string]any{
		"id": f.ID, "typeId": f.TypeID, "label": f.Label, "comments": nonNil(f.Comments),
	}
	if f.Position != nil {
		m["position"] = f.Position
	}
	switch f.TypeID {
	case TypeFact:
		m["fact"] = f.Fact
		m["subTypeIds"] = nonNil(f.SubTypeIDs)
		m["isComplex"] = f.IsComplex
		m["subdivision"] = orEmpty(f.Subdivision)
		m["annotations"] = nonNil(f.Annotations)
	case TypeAct:
		m["act"] = f.Act
		for k, v := range map[string]string{"actionId": f.ActionID, "actorId": f.ActorID, "objectId": f.ObjectID, "recipientId": f.RecipientID} {
			if v != "" {
				m[k] = v
			}
		}
		m["precondition"] = orEmpty(f.Precondition)
		m["creates"] = nonNil(f.Creates)
		m["terminates"] = nonNil(f.Terminates)
		m["sourceSentences"] = nonNil(f.SourceSentences)
	case TypeClaimDuty:
		m["claimduty"] = f.ClaimDuty
		for k, v := range map[string]string{"dutyId": f.DutyID, "claimantId": f.ClaimantID, "actorId": f.ClaimantID, "holderId": f.HolderID} {
			if v != "" {
				m[k] = v
			}
		}
		m["sourceSentences"] = nonNil(f.SourceSentences)
	}
	return json.Marshal(m)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func orEmpty(c *Construct) *Construct {
	if c == nil {
		return &Construct{Children: []*Construct{}}
	}
	return c
}

// Construct is a node of a boolean precondition or subdivision.
type Construct struct {
	Frame    string       `json:"frame,omitempty"`
	Negated  bool         `json:"isNegated"`
	Children []*Construct `json:"children"`
	Operator *string      `json:"operatorToJoinChildren"`
}

// MarshalJSON writes children as [] rather than null.
func (c Construct) MarshalJSON() ([]byte, error) {
	type plain Construct
	p := plain(c)
	p.Children = nonNil(p.Children)
	return json.Marshal(p)
}

func (c *Construct) empty() bool { return c == nil || (c.Frame == "" && len(c.Children) == 0) }

// Annotation anchors a fact in source text: one or more snippets.
type Annotation struct {
	Snippets []Snippet `json:"snippets"`
}

// Snippet is a character range of one sentence.
type Snippet struct {
	DocumentID     string `json:"documentId"`
	SentenceID     string `json:"sentenceId"`
	SentenceIRI    string `json:"sentenceIri"`
	CharacterRange [2]int `json:"characterRange"`
	Text           string `json:"text"`
}

// SentenceRef names a sentence an act or claim-duty comes from.
type SentenceRef struct {
	DocumentID string `json:"documentId"`
	SentenceID string `json:"sentenceId"`
}

// Comment is a remark on a frame. Legacy input may give it as a bare string.
type Comment struct {
	Content      string  `json:"content"`
	Author       *string `json:"author"`
	CreatedAt    *string `json:"createdAt"`
	LastEditedAt *string `json:"lastEditedAt"`
}

// UnmarshalJSON accepts the legacy string form.
func (c *Comment) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		*c = Comment{}
		return json.Unmarshal(data, &c.Content)
	}
	type plain Comment
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*c = Comment(p)
	return nil
}
