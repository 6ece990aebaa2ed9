package flint

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNormalizeLegacy checks each legacy form the editor still reads against its
// canonical form written by hand.
func TestNormalizeLegacy(t *testing.T) {
	in := `{"id":"http://ontology.tno.nl/normengineering/editor#task-x","frames":[
	 {"id":"a","typeId":"act","annotations":[{"snippets":[
	   {"documentId":"http://d/","sentenceId":"s1","characterRange":[0,4]},
	   {"documentId":"http://d/","sentenceId":"s2","characterRange":[3,3]},
	   {"documentId":"http://d/","sentenceId":"s1","characterRange":[5,9]}]}],
	  "precondition":{"operatorToJoinChildren":"not","isNegated":false,"children":[
	    {"operatorToJoinChildren":"not","isNegated":false,"children":[{"frame":"f","isNegated":false,"children":[],"operatorToJoinChildren":null}]}]}},
	 {"id":"c","typeId":"claim_duty","actorId":"f"},
	 {"id":"f","typeId":"fact","subTypeId":"agent","comments":["oud"]}]}`
	var task Task
	if err := json.Unmarshal([]byte(in), &task); err != nil {
		t.Fatal(err)
	}
	Normalize(&task)
	if task.Interpretation != NSEditor+"interpretation-x" || task.Type != "Task" {
		t.Errorf("interpretation %q type %q", task.Interpretation, task.Type)
	}
	a, c, f := task.Frames[0], task.Frames[1], task.Frames[2]
	if a.Annotations != nil {
		t.Errorf("act keeps annotations: %v", a.Annotations)
	}
	// The empty snippet (3,3) is dropped before annotations become sentences.
	if diff := cmp.Diff([]SentenceRef{{"http://d/", "s1"}}, a.SourceSentences); diff != "" {
		t.Errorf("act sourceSentences (-want +got):\n%s", diff)
	}
	// not(not f): a negated node over a negated f.
	want := &Construct{Negated: true, Children: []*Construct{{Frame: "f", Negated: true, Children: []*Construct{}}}}
	if diff := cmp.Diff(want, a.Precondition); diff != "" {
		t.Errorf("double negation (-want +got):\n%s", diff)
	}
	if c.ClaimantID != "f" || c.ActorID != "" {
		t.Errorf("claim-duty claimant %q actor %q", c.ClaimantID, c.ActorID)
	}
	if diff := cmp.Diff([]string{"agent"}, f.SubTypeIDs); diff != "" || f.SubTypeID != "" {
		t.Errorf("subTypeIds %v subTypeId %q", f.SubTypeIDs, f.SubTypeID)
	}
	if diff := cmp.Diff([]Comment{{Content: "oud"}}, f.Comments); diff != "" {
		t.Errorf("string comment (-want +got):\n%s", diff)
	}
}
