package brp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/regelkit/regelkit/brp"
)

// A lookup through the handler, answered by the embedded register; the
// server's Observe hook gets the queried number for its audit row.
func ExampleHandler() {
	register := &brp.Register{Now: func() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) }}
	h := brp.Handler(brp.HandlerOptions{
		Upstream: register,
		Observe: func(ctx context.Context, e brp.Event) {
			fmt.Printf("audit brp.personen.fetch bsn=%s status=%d\n", e.BSN, e.Status)
		},
	})

	body := `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":["naam.volledigeNaam","leeftijd"]}`
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/brp/personen", strings.NewReader(body)))

	var answer struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &answer)
	fmt.Println(rec.Code, answer.Success, string(answer.Data))
	// Output:
	// audit brp.personen.fetch bsn=999992235 status=200
	// 200 true {"personen":[{"leeftijd":45,"naam":{"volledigeNaam":"Wessel Kooyman"}}],"type":"RaadpleegMetBurgerservicenummer"}
}

// Validate refuses a body before anything is sent to the register.
func ExampleValidate() {
	_, err := brp.Validate([]byte(`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["12"],"fields":["naam"]}`))
	var ve *brp.ValidationError
	if errors.As(err, &ve) {
		fmt.Println(ve.Params[0].Name, ve.Params[0].Code)
	}
	// Output: burgerservicenummer[0] pattern
}
