package httpapi

import "context"

// WithRequestID returns ctx carrying id as the request ID that RequestID
// reads, for servers that mint request IDs in their own middleware (the
// business API keeps incoming IDs by its own rule, notes §2.5).
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}
