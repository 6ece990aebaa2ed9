// Package ratelimit limits requests per client with fixed windows, answers
// with the IETF RateLimit-* headers, and finds the client IP behind an
// optional trusted proxy. Its table of windows is bounded: an attacker who
// rotates source addresses evicts old windows instead of growing memory.
//
// The one call a newcomer needs:
//
//	l := ratelimit.New(ratelimit.Options{Max: 1000, Window: time.Minute})
//	h = ratelimit.Middleware(l, h, ratelimit.MiddlewareOptions{Key: clientIP, Refuse: write429})
package ratelimit
