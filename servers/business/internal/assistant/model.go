package assistant

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Provider-neutral message roles. toolUse and toolResults
// carry the round trips of one turn; history holds only user and
// assistant text.
const (
	roleUser        = "user"
	roleAssistant   = "assistant"
	roleToolUse     = "assistant_tool_use"
	roleToolResults = "tool_results"
)

// message is one entry of the conversation in provider-neutral form.
type message struct {
	Role     string
	Content  string
	ToolUses []toolUse
	Results  []toolResult
}

type toolUse struct {
	ID    string
	Name  string
	Input json.RawMessage
}

type toolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

// Tool is what the model is offered: a name, a description and the JSON
// Schema of its arguments.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// modelRequest is one call of the model.
type modelRequest struct {
	Model     string
	System    string
	MaxTokens int
	Messages  []message
	Tools     []Tool
}

// modelReply is what one streamed model turn asked for.
type modelReply struct {
	Text       string
	ToolUses   []toolUse
	StopReason string
}

// model streams one turn; delta receives each text fragment as it comes.
type model interface {
	stream(ctx context.Context, req *modelRequest, delta func(string)) (modelReply, error)
}

// modelError is a failure of the model API: a non-2xx answer, an error
// event, or a stream that breaks. Its message is safe to show: it names
// the provider and the status, never the key or the upstream body.
type modelError struct{ msg string }

func (e *modelError) Error() string { return e.msg }

// Bounds of a provider's stream: one event's bytes and one tool call's
// argument bytes. A model that sends more is broken or hostile.
const (
	maxEventBytes    = 1 << 20
	maxToolArgsBytes = 256 << 10
	maxReplyBytes    = 4 << 20
	maxToolUses      = 64 // tool calls of one model turn
)

// sseReader reads server-sent events, each bounded by maxEventBytes.
type sseReader struct {
	r *bufio.Reader
}

func newSSEReader(r io.Reader) *sseReader { return &sseReader{r: bufio.NewReaderSize(r, 64<<10)} }

// next returns the next event's name and data (data lines joined by \n);
// io.EOF at the end of the stream.
func (s *sseReader) next() (event, data string, err error) {
	var buf strings.Builder
	size, sawData := 0, false
	for {
		line, err := s.line()
		if err != nil {
			if errors.Is(err, io.EOF) && sawData {
				return event, buf.String(), nil
			}
			return "", "", err
		}
		size += len(line)
		if size > maxEventBytes {
			return "", "", fmt.Errorf("server-sent event larger than %d bytes", maxEventBytes)
		}
		switch {
		case len(line) == 0:
			if sawData || event != "" {
				return event, buf.String(), nil
			}
		case line[0] == ':':
			// comment (keep-alive)
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "event":
				event = string(value)
			case "data":
				if sawData {
					buf.WriteByte('\n')
				}
				buf.Write(value)
				sawData = true
			}
		}
	}
}

// line reads one line without its terminator, at most maxEventBytes long.
func (s *sseReader) line() ([]byte, error) {
	var out []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		out = append(out, chunk...)
		if len(out) > maxEventBytes {
			return nil, fmt.Errorf("server-sent event line longer than %d bytes", maxEventBytes)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if len(out) > 0 && errors.Is(err, io.EOF) {
				return bytes.TrimRight(out, "\r\n"), nil
			}
			return nil, err
		}
		return bytes.TrimRight(out, "\r\n"), nil
	}
}

// post sends a streaming request and returns the open response, or a
// modelError for a non-2xx answer.
func post(ctx context.Context, c *http.Client, provider, url string, header http.Header, body any) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	req.Header = header
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &modelError{msg: provider + " API could not be reached"}
	}
	if resp.StatusCode/100 != 2 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		return nil, &modelError{msg: fmt.Sprintf("%s API answered %d", provider, resp.StatusCode)}
	}
	return resp, nil
}

// streamBroken maps a read failure of an open stream: the context's own
// error when the turn ended, else a modelError.
func streamBroken(ctx context.Context, provider string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &modelError{msg: provider + " stream ended early"}
	}
	// The cause (addresses, sizes) stays out of the browser's message.
	return &modelError{msg: provider + " stream broke"}
}

// argsOrEmpty returns the collected tool arguments, {} when none, and an
// error when they are not one JSON value.
func argsOrEmpty(b []byte) (json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(b) {
		return nil, errors.New("tool arguments are not valid JSON")
	}
	return json.RawMessage(b), nil
}
