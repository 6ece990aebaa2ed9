package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// anthropic streams the Messages API.
type anthropic struct {
	baseURL string
	key     string
	client  *http.Client
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type anthropicMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // string or []anthropicBlock
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func anthropicMessages(ms []message) []anthropicMessage {
	out := make([]anthropicMessage, 0, len(ms))
	for _, m := range ms {
		switch m.Role {
		case roleUser, roleAssistant:
			out = append(out, anthropicMessage{Role: m.Role, Content: m.Content})
		case roleToolUse:
			var blocks []anthropicBlock
			if m.Content != "" {
				blocks = append(blocks, anthropicBlock{Type: "text", Text: m.Content})
			}
			for _, u := range m.ToolUses {
				blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: u.ID, Name: u.Name, Input: u.Input})
			}
			out = append(out, anthropicMessage{Role: roleAssistant, Content: blocks})
		case roleToolResults:
			blocks := make([]anthropicBlock, 0, len(m.Results))
			for _, r := range m.Results {
				blocks = append(blocks, anthropicBlock{Type: "tool_result", ToolUseID: r.ToolUseID, Content: r.Content, IsError: r.IsError})
			}
			out = append(out, anthropicMessage{Role: roleUser, Content: blocks})
		}
	}
	return out
}

// anthropicEvent is the union of the stream's event payloads.
type anthropicEvent struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

func (a *anthropic) stream(ctx context.Context, req *modelRequest, delta func(string)) (modelReply, error) {
	tools := make([]anthropicTool, 0, len(req.Tools))
	for _, t := range req.Tools {
		tools = append(tools, anthropicTool(t))
	}
	body := map[string]any{
		"model": req.Model, "max_tokens": req.MaxTokens, "system": req.System,
		"messages": anthropicMessages(req.Messages), "stream": true,
	}
	if len(tools) > 0 {
		body["tools"] = tools
	}
	h := http.Header{}
	h.Set("x-api-key", a.key)
	h.Set("anthropic-version", "2023-06-01")
	resp, err := post(ctx, a.client, "Anthropic", strings.TrimRight(a.baseURL, "/")+"/v1/messages", h, body)
	if err != nil {
		return modelReply{}, err
	}
	defer resp.Body.Close()

	var (
		reply   modelReply
		text    strings.Builder
		uses    = map[int]*toolUse{}
		args    = map[int]*strings.Builder{}
		order   []int
		argSize int
	)
	sse := newSSEReader(resp.Body)
	for {
		_, data, err := sse.next()
		if errors.Is(err, io.EOF) {
			return modelReply{}, &modelError{msg: "Anthropic stream ended before message_stop"}
		}
		if err != nil {
			return modelReply{}, streamBroken(ctx, "Anthropic", err)
		}
		if data == "" {
			continue
		}
		var ev anthropicEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return modelReply{}, &modelError{msg: "Anthropic sent an unreadable event"}
		}
		switch ev.Type {
		case "content_block_start":
			if ev.ContentBlock.Type == "tool_use" {
				if _, dup := uses[ev.Index]; !dup {
					if len(order) == maxToolUses {
						return modelReply{}, &modelError{msg: "Anthropic asked for too many tool calls"}
					}
					order = append(order, ev.Index)
				}
				uses[ev.Index] = &toolUse{ID: ev.ContentBlock.ID, Name: ev.ContentBlock.Name}
				args[ev.Index] = &strings.Builder{}
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				if text.Len()+len(ev.Delta.Text) > maxReplyBytes {
					return modelReply{}, &modelError{msg: "Anthropic reply too long"}
				}
				text.WriteString(ev.Delta.Text)
				delta(ev.Delta.Text)
			case "input_json_delta":
				b, ok := args[ev.Index]
				if !ok {
					return modelReply{}, &modelError{msg: "Anthropic sent arguments for an unknown tool block"}
				}
				argSize += len(ev.Delta.PartialJSON)
				if argSize > maxToolArgsBytes {
					return modelReply{}, &modelError{msg: "Anthropic tool arguments too long"}
				}
				b.WriteString(ev.Delta.PartialJSON)
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				reply.StopReason = ev.Delta.StopReason
			}
		case "message_stop":
			reply.Text = text.String()
			for _, i := range order {
				in, err := argsOrEmpty([]byte(args[i].String()))
				if err != nil {
					return modelReply{}, &modelError{msg: "Anthropic " + err.Error()}
				}
				u := uses[i]
				u.Input = in
				reply.ToolUses = append(reply.ToolUses, *u)
			}
			return reply, nil
		case "error":
			msg := "Anthropic API error"
			if ev.Error.Type != "" {
				msg += ": " + ev.Error.Type
			}
			return modelReply{}, &modelError{msg: msg}
		}
	}
}
