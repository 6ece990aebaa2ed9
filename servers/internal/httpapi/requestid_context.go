package httpapi

import "context"

// WithRequestID returns ctx carrying id as the request ID that RequestID
// reads, for servers that mint request IDs in their own middleware (the
// business API keeps a caller's well-formed X-Request-ID and mints the others).
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}
