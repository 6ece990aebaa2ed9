package assets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// TestReaderNeverMigrates: a Reader store on an empty database creates
// nothing (a role with SELECT rights suffices); its calls fail until the
// owning server has migrated, then read.
func TestReaderNeverMigrates(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t).URL
	r, err := Open(ctx, db, Options{Timeout: 10 * time.Second, Reader: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var tables int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE tablename IN ('schema_migrations', 'form_schemas')`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Fatalf("a reader created %d tables", tables)
	}
	if _, _, err := r.FindForms(ctx, Find{}); err == nil {
		t.Fatal("FindForms before the migrations succeeded")
	}
	w, err := Open(ctx, db, Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if rows, total, err := r.FindForms(ctx, Find{}); err != nil || len(rows) != 0 || total != 0 {
		t.Errorf("FindForms after the migrations = %v %d %v", rows, total, err)
	}
}

// TestFindAndGetBounds: Find clamps its limit and counts every match; Get
// leaves out a JSON column over MaxContent and reports its size; the
// organisation filter holds for look-ups.
func TestFindAndGetBounds(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range MaxFind + 5 {
		if err := s.UpsertForm(ctx, Form{ID: fmt.Sprintf("f%04d", i), Name: "Form", Schema: json.RawMessage(`{"a":1}`),
			Status: "wip", CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	rows, total, err := s.FindForms(ctx, Find{Limit: 1 << 30})
	if err != nil || len(rows) != MaxFind || total != MaxFind+5 {
		t.Errorf("Find over MaxFind: %d rows, total %d, %v; want %d of %d", len(rows), total, err, MaxFind, MaxFind+5)
	}
	if rows, total, _ := s.FindForms(ctx, Find{}); len(rows) != 50 || total != MaxFind+5 {
		t.Errorf("default Find: %d rows of %d, want 50", len(rows), total)
	}
	if rows, total, _ := s.FindForms(ctx, Find{Search: "F0007"}); len(rows) != 1 || rows[0].ID != "f0007" || total != 1 {
		t.Errorf("search: %v %d", rows, total)
	}

	// jsonb answers {"text": "x…"}: 212 bytes, a space after the colon.
	big := `{"text":"` + strings.Repeat("x", 200) + `"}`
	stored := `{"text": "` + strings.Repeat("x", 200) + `"}`
	org := "utrecht"
	if err := s.UpsertForm(ctx, Form{ID: "big", Name: "Big", Schema: json.RawMessage(big), Status: "wip",
		Organization: &org, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	f, sizes, err := s.FormByID(ctx, "big", Get{Organization: "utrecht", MaxContent: 100})
	if err != nil || f.Schema != nil || sizes["schema"] != 212 || f.Name != "Big" {
		t.Errorf("FormByID over MaxContent = %s %v %v", f.Schema, sizes, err)
	}
	f, _, err = s.FormByID(ctx, "big", Get{Organization: "utrecht", MaxContent: 212})
	if err != nil || string(f.Schema) != stored {
		t.Errorf("FormByID at MaxContent = %s %v", f.Schema, err)
	}
	for _, other := range []string{"", "heusden"} {
		if _, _, err := s.FormByID(ctx, "big", Get{Organization: other}); !errors.Is(err, ErrNotFound) {
			t.Errorf("organisation %q reads utrecht's form: %v", other, err)
		}
	}
}
