package assets

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

func benchStore(b *testing.B) *Store {
	db := pgtest.New(b)
	s, err := Open(context.Background(), db.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

func benchProcess(i int) Process {
	now := time.Now()
	return Process{
		ID: fmt.Sprintf("p%d", i%100), BPMNProcessID: fmt.Sprintf("P%d", i%100), Name: "Process",
		XML: "<definitions/>", ProcessRole: "standalone", Status: "wip", LinkedDMNTemplates: []string{"a"},
		CreatedAt: now, UpdatedAt: now,
	}
}

// BenchmarkUpsertProcess measures one upsert (insert or update of 100 ids)
// on the real database.
func BenchmarkUpsertProcess(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if err := s.UpsertProcess(ctx, benchProcess(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListProcesses measures listing 100 processes.
func BenchmarkListProcesses(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for i := 0; i < 100; i++ {
		if err := s.UpsertProcess(ctx, benchProcess(i)); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		ps, err := s.ListProcesses(ctx)
		if err != nil || len(ps) != 100 {
			b.Fatalf("%d processes, %v", len(ps), err)
		}
	}
}
