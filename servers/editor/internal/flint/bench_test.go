package flint

import (
	"context"
	"strconv"
	"testing"
)

// bigTask is an interpretation at the MaxRows bound: 20,000 facts and acts
// whose preconditions join three facts each.
func bigTask(n int) *Task {
	t := &Task{ID: NSEditor + "task-big", Type: "Task", Label: "big"}
	and := "and"
	for i := range n {
		id := "f" + strconv.Itoa(i)
		if i%2 == 0 {
			t.Frames = append(t.Frames, Frame{ID: id, TypeID: TypeFact, Label: id, Fact: id, SubTypeIDs: []string{"agent"}})
			continue
		}
		t.Frames = append(t.Frames, Frame{ID: id, TypeID: TypeAct, Label: id, ActorID: "f0",
			Precondition: &Construct{Operator: &and, Children: []*Construct{{Frame: "f0"}, {Frame: "f2"}, {Frame: "f4", Negated: true}}}})
	}
	return t
}

func BenchmarkToDataset20000(b *testing.B) {
	for b.Loop() {
		if _, err := ToDataset(context.Background(), bigTask(20000), Options{Now: fixedClock}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromDataset20000(b *testing.B) {
	ds, err := ToDataset(context.Background(), bigTask(20000), Options{Now: fixedClock})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := FromDataset(context.Background(), ds, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
