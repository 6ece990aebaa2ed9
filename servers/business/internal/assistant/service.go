package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Error codes of the chat route before the stream opens (spec §4.8).
const (
	CodeDisabled       = "MCP_DISABLED"
	CodeNotConnected   = "MCP_NOT_CONNECTED"
	CodeInvalidRequest = "INVALID_REQUEST"
)

// Bounds of one turn.
const (
	DefaultTurnTimeout = 480 * time.Second
	DefaultToolTimeout = 60 * time.Second
	DefaultKeepAlive   = 15 * time.Second
	DefaultMaxTurns    = 64
	maxRounds          = 10
	maxTokens          = 4096
	maxResultChars     = 12000
	maxMessageBytes    = 32 << 10
	maxHistoryItems    = 50
	maxHistoryBytes    = 256 << 10
)

// Source is an MCP tool provider as GET /v1/mcp/sources lists it.
type Source struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Connected   bool   `json:"connected"`
}

// Model is a language model usable as modelId.
type Model struct {
	ID                  string `json:"id"`
	DisplayName         string `json:"displayName"`
	ProviderID          string `json:"providerId"`
	ProviderDisplayName string `json:"providerDisplayName"`
}

// Catalog is the set of MCP tool providers (package mcptools implements it).
type Catalog interface {
	// Sources lists every configured provider.
	Sources() []Source
	// Open returns, for one turn of a caller of tenant, the tools of the
	// connected providers among ids (all connected ones when ids is empty);
	// ErrNotConnected when none is.
	Open(ctx context.Context, tenant string, ids []string) (Toolset, error)
}

// ErrNotConnected is Catalog.Open's answer when no selected provider is
// connected.
var ErrNotConnected = errors.New("assistant: no connected provider matches the requested sources")

// Toolset is the tools of one turn.
type Toolset interface {
	// Tools is the union of the providers' allowed tools, unique by name.
	Tools() []Tool
	// SystemPrompt is the providers' contributions to the system prompt.
	SystemPrompt() string
	// Call runs a tool. A tool's own failure is text with isError; err is a
	// broken provider transport.
	Call(ctx context.Context, name string, args json.RawMessage) (text string, isError bool, err error)
	// Close releases the turn's sessions.
	Close()
}

// Options configure the Service. Zero durations take the defaults above.
type Options struct {
	Enabled          bool
	AnthropicKey     string
	OpenAIKey        string
	AnthropicBaseURL string // default https://api.anthropic.com
	OpenAIBaseURL    string // default https://api.openai.com
	HTTPClient       *http.Client
	Catalog          Catalog
	Logger           *slog.Logger // one line per turn; never the chat text
	TurnTimeout      time.Duration
	ToolTimeout      time.Duration
	KeepAlive        time.Duration
	// MaxTurns bounds the turns in progress: each holds a model stream and
	// tool sessions for up to TurnTimeout. Default DefaultMaxTurns.
	MaxTurns int
}

// Service serves the assistant's three routes.
type Service struct {
	o      Options
	models []Model
	byID   map[string]model
	turns  chan struct{} // semaphore of the turns in progress
}

// anthropicModels and openAIModels are the models offered per key.
var (
	anthropicModels = []Model{
		{ID: "claude-sonnet-4-20250514", DisplayName: "Claude Sonnet 4"},
		{ID: "claude-opus-4-20250514", DisplayName: "Claude Opus 4"},
		{ID: "claude-haiku-4-5-20251001", DisplayName: "Claude Haiku 4.5"},
	}
	openAIModels = []Model{
		{ID: "gpt-4o", DisplayName: "GPT-4o"},
		{ID: "gpt-4o-mini", DisplayName: "GPT-4o mini"},
	}
)

// New returns the Service.
func New(o Options) *Service {
	if o.TurnTimeout == 0 {
		o.TurnTimeout = DefaultTurnTimeout
	}
	if o.ToolTimeout == 0 {
		o.ToolTimeout = DefaultToolTimeout
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = DefaultMaxTurns
	}
	if o.HTTPClient == nil {
		// No client timeout: the turn's context bounds the stream.
		o.HTTPClient = &http.Client{}
	}
	if o.AnthropicBaseURL == "" {
		o.AnthropicBaseURL = "https://api.anthropic.com"
	}
	if o.OpenAIBaseURL == "" {
		o.OpenAIBaseURL = "https://api.openai.com"
	}
	s := &Service{o: o, byID: map[string]model{}, turns: make(chan struct{}, o.MaxTurns)}
	if o.AnthropicKey != "" {
		m := &anthropic{baseURL: o.AnthropicBaseURL, key: o.AnthropicKey, client: o.HTTPClient}
		for _, md := range anthropicModels {
			md.ProviderID, md.ProviderDisplayName = "anthropic", "Anthropic"
			s.models = append(s.models, md)
			s.byID[md.ID] = m
		}
	}
	if o.OpenAIKey != "" {
		m := &openAI{baseURL: o.OpenAIBaseURL, key: o.OpenAIKey, client: o.HTTPClient}
		for _, md := range openAIModels {
			md.ProviderID, md.ProviderDisplayName = "openai", "OpenAI"
			s.models = append(s.models, md)
			s.byID[md.ID] = m
		}
	}
	return s
}

// HandleSources answers GET /v1/mcp/sources: [] when disabled.
func (s *Service) HandleSources(w http.ResponseWriter, r *http.Request) error {
	out := []Source{}
	if s.o.Enabled && s.o.Catalog != nil {
		out = append(out, s.o.Catalog.Sources()...)
	}
	return httpapi.WriteData(w, http.StatusOK, out)
}

// HandleModels answers GET /v1/mcp/models: the models of the providers
// whose key is set, listed even when the assistant is disabled.
func (s *Service) HandleModels(w http.ResponseWriter, r *http.Request) error {
	out := append([]Model{}, s.models...)
	return httpapi.WriteData(w, http.StatusOK, out)
}

// chatRequest is the body of POST /v1/mcp/chat.
type chatRequest struct {
	Message string            `json:"message"`
	ModelID string            `json:"modelId"`
	History []json.RawMessage `json:"history"`
	Sources []string          `json:"sources"`
}

func invalid(msg string) error {
	return httpapi.NewError(http.StatusBadRequest, CodeInvalidRequest, msg)
}

// readChat decodes and bounds the body.
func (s *Service) readChat(r *http.Request) (*chatRequest, []message, error) {
	var req chatRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		var e *httpapi.Error
		if errors.As(err, &e) && e.Status == http.StatusBadRequest {
			e.Code = CodeInvalidRequest
		}
		return nil, nil, err
	}
	if strings.TrimSpace(req.Message) == "" {
		return nil, nil, invalid("message is required and must be a non-empty string")
	}
	if len(req.Message) > maxMessageBytes {
		return nil, nil, invalid("message is longer than 32768 bytes")
	}
	if strings.TrimSpace(req.ModelID) == "" {
		return nil, nil, invalid("modelId is required and must be a non-empty string")
	}
	if _, ok := s.byID[req.ModelID]; !ok {
		return nil, nil, invalid("modelId is not one of GET /v1/mcp/models")
	}
	if len(req.History) > maxHistoryItems {
		return nil, nil, invalid("history has more than 50 items")
	}
	if len(req.Sources) > 64 {
		return nil, nil, invalid("sources has more than 64 items")
	}
	msgs := make([]message, 0, len(req.History)+1)
	size := 0
	for i, raw := range req.History {
		var h struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			return nil, nil, invalid("history[" + itoa(i) + "] must be an object {role, content}")
		}
		content, ok := h.Content.(string)
		if (h.Role != roleUser && h.Role != roleAssistant) || !ok {
			return nil, nil, invalid("history[" + itoa(i) + "] needs role user or assistant and string content")
		}
		size += len(content)
		if size > maxHistoryBytes {
			return nil, nil, invalid("history is longer than 262144 bytes")
		}
		msgs = append(msgs, message{Role: h.Role, Content: content})
	}
	msgs = append(msgs, message{Role: roleUser, Content: req.Message})
	return &req, msgs, nil
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// HandleChat answers POST /v1/mcp/chat: pre-flight failures as JSON
// errors, then one turn as server-sent events.
func (s *Service) HandleChat(w http.ResponseWriter, r *http.Request) error {
	if !s.o.Enabled || s.o.Catalog == nil {
		return httpapi.NewError(http.StatusServiceUnavailable, CodeDisabled, "The AI assistant is disabled")
	}
	req, msgs, err := s.readChat(r)
	if err != nil {
		return err
	}
	select {
	case s.turns <- struct{}{}:
		defer func() { <-s.turns }()
	default:
		return httpapi.NewError(http.StatusTooManyRequests, "RATE_LIMIT_EXCEEDED",
			"Too many assistant conversations in progress, please try again later")
	}
	p := auth.FromContext(r.Context())
	var user, tenant string
	if p != nil {
		user, tenant = p.UserID, p.Tenant
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.o.TurnTimeout)
	defer cancel()
	tools, err := s.o.Catalog.Open(ctx, tenant, req.Sources)
	if errors.Is(err, ErrNotConnected) {
		return httpapi.NewError(http.StatusServiceUnavailable, CodeNotConnected, "No connected tool provider matches the requested sources")
	}
	if err != nil {
		return err
	}
	defer tools.Close()

	// The turn may outlive the server's write timeout.
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(s.o.TurnTimeout + 10*time.Second))
	stream := openStream(w, rc, s.o.KeepAlive)
	defer stream.close()

	start := time.Now()
	t := &turn{svc: s, model: s.byID[req.ModelID], modelID: req.ModelID, tools: tools, stream: stream}
	t.run(ctx, msgs)
	if s.o.Logger != nil {
		// Never the message text (spec §6).
		s.o.Logger.InfoContext(r.Context(), "assistant turn", "user", user, "model", req.ModelID,
			"rounds", t.rounds, "tools", t.called, "outcome", t.outcome,
			"duration_ms", time.Since(start).Milliseconds(), "request_id", httpapi.RequestID(r.Context()))
	}
	return nil
}

// basePrompt is the system prompt before the providers' contributions.
const basePrompt = "You are the assistant of Dutch public-service caseworkers. Answer in the language of the question. " +
	"Use the tools to look up decision models, rules, processes and norms instead of guessing; when listing, ask for at most " +
	"20 results (maxResults=20); to count, use the count tools; filter definitions to the latest version (latestVersion=true). " +
	"Never narrate tool calls; give the answer."

// turn is one run of the agentic loop.
type turn struct {
	svc     *Service
	model   model
	modelID string
	tools   Toolset
	stream  *stream
	rounds  int
	called  []string
	outcome string
}

func (t *turn) run(ctx context.Context, msgs []message) {
	tools := t.tools.Tools()
	system := basePrompt
	if extra := t.tools.SystemPrompt(); extra != "" {
		system += "\n\n" + extra
	}
	for t.rounds = 1; t.rounds <= maxRounds; t.rounds++ {
		reply, err := t.model.stream(ctx, &modelRequest{
			Model: t.modelID, System: system, MaxTokens: maxTokens, Messages: msgs, Tools: tools,
		}, func(s string) { t.stream.send(event{Type: "delta", Text: s}) })
		if err != nil {
			t.fail(ctx, err, "MODEL_ERROR")
			return
		}
		if len(reply.ToolUses) == 0 || reply.StopReason == "end_turn" || reply.StopReason == "stop" {
			t.outcome = "done"
			t.stream.send(event{Type: "done"})
			return
		}
		results := make([]toolResult, 0, len(reply.ToolUses))
		for _, u := range reply.ToolUses {
			t.called = append(t.called, u.Name)
			t.stream.send(event{Type: "status", Message: "Calling " + u.Name + "…"})
			cctx, cancel := context.WithTimeout(ctx, t.svc.o.ToolTimeout)
			text, isErr, err := t.tools.Call(cctx, u.Name, u.Input)
			slow := errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
			cancel()
			if err != nil && slow {
				// A slow tool is the model's to work around, not the end of
				// the turn.
				text, isErr, err = "The tool did not answer within "+t.svc.o.ToolTimeout.String(), true, nil
			}
			if err != nil {
				t.fail(ctx, err, "TOOL_ERROR")
				return
			}
			results = append(results, toolResult{ToolUseID: u.ID, Content: truncate(text), IsError: isErr})
		}
		msgs = append(msgs,
			message{Role: roleToolUse, Content: reply.Text, ToolUses: reply.ToolUses},
			message{Role: roleToolResults, Results: results})
	}
	t.rounds = maxRounds
	t.outcome = "max_rounds"
	t.stream.send(event{Type: "delta", Text: "Maximum tool call rounds reached. Please refine your question."})
	t.stream.send(event{Type: "done"})
}

// fail ends the stream with one error event: the turn's
// timeout is TIMEOUT whatever failed; a client that left gets nothing.
func (t *turn) fail(ctx context.Context, err error, code string) {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		t.outcome = "client_gone"
		return
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		t.outcome = "timeout"
		t.stream.send(event{Type: "error", Code: "TIMEOUT", Message: "Chat request timed out"})
		return
	}
	t.outcome = strings.ToLower(code)
	msg := "The tool provider failed"
	var me *modelError
	if errors.As(err, &me) {
		code, msg = "MODEL_ERROR", me.msg
	} else if code == "MODEL_ERROR" {
		code, msg = "INTERNAL", "The assistant failed"
	}
	t.stream.send(event{Type: "error", Code: code, Message: msg})
}

// truncate cuts a tool result at maxResultChars characters.
func truncate(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= maxResultChars {
		return s
	}
	i, c := 0, 0
	for i = range s {
		if c == maxResultChars {
			break
		}
		c++
	}
	return s[:i] + "\n[Result truncated: " + itoa(n-maxResultChars) + " characters omitted]"
}
