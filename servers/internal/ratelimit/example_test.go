package ratelimit_test

import (
	"fmt"
	"time"

	"github.com/regelkit/regelkit/servers/internal/ratelimit"
)

func ExampleLimiter_Allow() {
	l := ratelimit.New(ratelimit.Options{Max: 2, Window: time.Minute})
	for range 3 {
		d := l.Allow("203.0.113.7")
		fmt.Println(d.Allowed, d.Remaining)
	}
	// Output:
	// true 1
	// true 0
	// false 0
}
