package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sort"
	"strings"
)

// openAI streams the Chat Completions API.
type openAI struct {
	baseURL string
	key     string
	client  *http.Client
}

type openAIToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openAIMessage struct {
	Role       string           `json:"role"`
	Content    *string          `json:"content"`
	ToolCalls  []openAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

func openAIMessages(system string, ms []message) []openAIMessage {
	str := func(s string) *string { return &s }
	out := []openAIMessage{{Role: "system", Content: str(system)}}
	for _, m := range ms {
		switch m.Role {
		case roleUser, roleAssistant:
			out = append(out, openAIMessage{Role: m.Role, Content: str(m.Content)})
		case roleToolUse:
			om := openAIMessage{Role: roleAssistant}
			if m.Content != "" {
				om.Content = str(m.Content)
			}
			for _, u := range m.ToolUses {
				c := openAIToolCall{ID: u.ID, Type: "function"}
				c.Function.Name, c.Function.Arguments = u.Name, string(u.Input)
				om.ToolCalls = append(om.ToolCalls, c)
			}
			out = append(out, om)
		case roleToolResults:
			for _, r := range m.Results {
				content := r.Content
				if r.IsError {
					content = "Error: " + content
				}
				out = append(out, openAIMessage{Role: "tool", ToolCallID: r.ToolUseID, Content: str(content)})
			}
		}
	}
	return out
}

type openAIChunk struct {
	Choices []struct {
		Delta struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Error *struct {
		Type string `json:"type"`
		Code any    `json:"code"`
	} `json:"error"`
}

func (o *openAI) stream(ctx context.Context, req *modelRequest, delta func(string)) (modelReply, error) {
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	type tool struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	tools := make([]tool, 0, len(req.Tools))
	for _, t := range req.Tools {
		tools = append(tools, tool{Type: "function", Function: function{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}})
	}
	body := map[string]any{
		"model": req.Model, "max_tokens": req.MaxTokens, "messages": openAIMessages(req.System, req.Messages), "stream": true,
	}
	if len(tools) > 0 {
		body["tools"] = tools
	}
	h := http.Header{}
	h.Set("Authorization", "Bearer "+o.key)
	resp, err := post(ctx, o.client, "OpenAI", strings.TrimRight(o.baseURL, "/")+"/v1/chat/completions", h, body)
	if err != nil {
		return modelReply{}, err
	}
	defer resp.Body.Close()

	var (
		reply   modelReply
		text    strings.Builder
		calls   = map[int]*toolUse{}
		args    = map[int]*strings.Builder{}
		argSize int
	)
	sse := newSSEReader(resp.Body)
	for {
		_, data, err := sse.next()
		if errors.Is(err, io.EOF) {
			return modelReply{}, &modelError{msg: "OpenAI stream ended before [DONE]"}
		}
		if err != nil {
			return modelReply{}, streamBroken(ctx, "OpenAI", err)
		}
		if data == "" {
			continue
		}
		if data == "[DONE]" {
			break
		}
		var ch openAIChunk
		if err := json.Unmarshal([]byte(data), &ch); err != nil {
			return modelReply{}, &modelError{msg: "OpenAI sent an unreadable chunk"}
		}
		if ch.Error != nil {
			msg := "OpenAI API error"
			if ch.Error.Type != "" {
				msg += ": " + ch.Error.Type
			}
			return modelReply{}, &modelError{msg: msg}
		}
		if len(ch.Choices) == 0 {
			continue
		}
		c := ch.Choices[0]
		if c.Delta.Content != "" {
			if text.Len()+len(c.Delta.Content) > maxReplyBytes {
				return modelReply{}, &modelError{msg: "OpenAI reply too long"}
			}
			text.WriteString(c.Delta.Content)
			delta(c.Delta.Content)
		}
		for _, tc := range c.Delta.ToolCalls {
			u, ok := calls[tc.Index]
			if !ok {
				if len(calls) == maxToolUses {
					return modelReply{}, &modelError{msg: "OpenAI asked for too many tool calls"}
				}
				u = &toolUse{}
				calls[tc.Index] = u
				args[tc.Index] = &strings.Builder{}
			}
			if tc.ID != "" {
				u.ID = tc.ID
			}
			u.Name += tc.Function.Name
			argSize += len(tc.Function.Arguments)
			if argSize > maxToolArgsBytes {
				return modelReply{}, &modelError{msg: "OpenAI tool arguments too long"}
			}
			args[tc.Index].WriteString(tc.Function.Arguments)
		}
		if c.FinishReason != "" {
			reply.StopReason = c.FinishReason
		}
	}
	reply.Text = text.String()
	idx := make([]int, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		in, err := argsOrEmpty([]byte(args[i].String()))
		if err != nil {
			return modelReply{}, &modelError{msg: "OpenAI " + err.Error()}
		}
		u := calls[i]
		u.Input = in
		reply.ToolUses = append(reply.ToolUses, *u)
	}
	return reply, nil
}
