package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/servers/internal/assets"
)

// Bounds of the asset tools. A get answers at most maxAssetContent bytes
// of each large column, so that the answer stays under maxToolOutput.
const (
	maxAssetRows     = 200
	maxAssetContent  = 64 << 10
	defaultAssetRows = 50
)

// tenantNote ends every asset tool's description: the model should know
// why an id it saw elsewhere is "not found".
const tenantNote = " Only assets without an organisation and those of the caller's municipality are visible."

// addLDE registers the explorer-asset tools over o.Assets (the explorer's
// asset tables): bundles are the stored BPMN processes with their
// sub-processes and linked decision templates, forms are form-js schemas,
// documents are document templates. All read-only and tenant-filtered.
func addLDE(s *mcp.Server, o Options, caller who) {
	store := o.Assets
	// Only a server with a store offers these tools (NewServer, Catalog).
	withStore := func(_ string, h handler) handler {
		return func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			res, err := h(ctx, args)
			if err != nil {
				return nil, assetMessage(err)
			}
			return res, nil
		}
	}
	listSchema := objectSchema(map[string]any{
		"search":     str("keep assets whose id or name contains this text (case-insensitive)"),
		"maxResults": intg(fmt.Sprintf("at most this many (default %d, max %d)", defaultAssetRows, maxAssetRows)),
	})
	getSchema := func(what string) json.RawMessage { return objectSchema(map[string]any{"id": str(what + " id")}, "id") }

	add(s, caller, "bundle_list", "List the explorer's BPMN process bundles, most recently updated first: id, name, "+
		"bpmnProcessId, processRole (shell, subprocess, standalone), calledElement, linked decision templates, status, "+
		"organization, updatedAt; leftOut says how many more matched."+tenantNote, listSchema,
		withStore("bundle_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			f, res := findArgs(ctx, args)
			if res != nil {
				return res, nil
			}
			rows, total, err := store.FindProcesses(ctx, f)
			if err != nil {
				return nil, err
			}
			out := make([]bundleSummary, 0, len(rows))
			for _, p := range rows {
				out = append(out, summaryOf(p))
			}
			return assetResult(listing("bundles", out, total))
		}))
	add(s, caller, "bundle_get", "One BPMN process bundle by id: its BPMN XML (cut at 64 KiB, with a note), "+
		"its sub-processes (processes whose shellId is this id), calledElement and linked decision templates."+tenantNote,
		getSchema("bundle (process)"),
		withStore("bundle_get", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			id, err := stringArg(args, "id", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			tenant := callerFrom(ctx).Tenant
			p, sizes, err := store.ProcessByID(ctx, id, assets.Get{Organization: tenant, MaxContent: maxAssetContent})
			if errors.Is(err, assets.ErrNotFound) {
				return errorResult("bundle " + quoteArg(id) + " not found"), nil
			}
			if err != nil {
				return nil, err
			}
			// The sub-processes are the processes that name this one as
			// their shell.
			subs, _, err := store.FindProcesses(ctx, assets.Find{Organization: tenant, ShellID: p.ID, Limit: maxAssetRows})
			if err != nil {
				return nil, err
			}
			b := bundle{bundleSummary: summaryOf(p), Description: p.Description, XML: p.XML, SubProcesses: []bundleSummary{}}
			for _, sub := range subs {
				b.SubProcesses = append(b.SubProcesses, summaryOf(sub))
			}
			b.Notes = cutNotes(sizes, map[string]bool{"xml": int64(len(p.XML)) < sizes["xml"]})
			return assetResult(b)
		}))
	add(s, caller, "form_list", "List the explorer's form schemas (form-js), most recently updated first: id, name, "+
		"status, language, organization, updatedAt; leftOut says how many more matched."+tenantNote, listSchema,
		withStore("form_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			f, res := findArgs(ctx, args)
			if res != nil {
				return res, nil
			}
			rows, total, err := store.FindForms(ctx, f)
			if err != nil {
				return nil, err
			}
			out := make([]assetSummary, 0, len(rows))
			for _, r := range rows {
				out = append(out, assetSummary{ID: r.ID, Name: r.Name, Status: r.Status, Language: r.Language,
					Organization: r.Organization, ReadOnly: r.ReadOnly, UpdatedAt: stamp(r.UpdatedAt)})
			}
			return assetResult(listing("forms", out, total))
		}))
	add(s, caller, "form_get", "One form schema by id with its form-js schema (left out, with a note, above 64 KiB)."+tenantNote,
		getSchema("form"),
		withStore("form_get", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			id, err := stringArg(args, "id", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			r, sizes, err := store.FormByID(ctx, id, assets.Get{Organization: callerFrom(ctx).Tenant, MaxContent: maxAssetContent})
			if errors.Is(err, assets.ErrNotFound) {
				return errorResult("form " + quoteArg(id) + " not found"), nil
			}
			if err != nil {
				return nil, err
			}
			return assetResult(form{
				assetSummary: assetSummary{ID: r.ID, Name: r.Name, Status: r.Status, Language: r.Language,
					Organization: r.Organization, ReadOnly: r.ReadOnly, UpdatedAt: stamp(r.UpdatedAt)},
				Description: r.Description, Schema: r.Schema,
				Notes: cutNotes(sizes, map[string]bool{"schema": r.Schema == nil}),
			})
		}))
	add(s, caller, "document_list", "List the explorer's document templates, most recently updated first: id, name, "+
		"processKey, serviceId, status, organization, updatedAt; leftOut says how many more matched."+tenantNote, listSchema,
		withStore("document_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			f, res := findArgs(ctx, args)
			if res != nil {
				return res, nil
			}
			rows, total, err := store.FindDocumentTemplates(ctx, f)
			if err != nil {
				return nil, err
			}
			out := make([]documentSummary, 0, len(rows))
			for _, r := range rows {
				out = append(out, documentSummaryOf(r))
			}
			return assetResult(listing("documents", out, total))
		}))
	add(s, caller, "document_get", "One document template by id with its zones, bindings and assets (each left out, "+
		"with a note, above 64 KiB)."+tenantNote,
		getSchema("document template"),
		withStore("document_get", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			id, err := stringArg(args, "id", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			r, sizes, err := store.DocumentTemplateByID(ctx, id, assets.Get{Organization: callerFrom(ctx).Tenant, MaxContent: maxAssetContent})
			if errors.Is(err, assets.ErrNotFound) {
				return errorResult("document " + quoteArg(id) + " not found"), nil
			}
			if err != nil {
				return nil, err
			}
			return assetResult(document{
				documentSummary: documentSummaryOf(r), Description: r.Description, SchemaVersion: r.SchemaVersion,
				Zones: r.Zones, Bindings: r.Bindings, Assets: r.Assets,
				Notes: cutNotes(sizes, map[string]bool{"zones": r.Zones == nil, "bindings": r.Bindings == nil, "assets": r.Assets == nil}),
			})
		}))
}

// Answers of the asset tools.
type (
	assetSummary struct {
		ID           string  `json:"id"`
		Name         string  `json:"name"`
		Status       string  `json:"status"`
		Language     *string `json:"language,omitempty"`
		Organization *string `json:"organization"`
		ReadOnly     bool    `json:"readonly,omitempty"`
		UpdatedAt    string  `json:"updatedAt"`
	}
	bundleSummary struct {
		assetSummary
		BPMNProcessID      string   `json:"bpmnProcessId"`
		ProcessRole        string   `json:"processRole"`
		CalledElement      *string  `json:"calledElement,omitempty"`
		ShellID            *string  `json:"shellId,omitempty"`
		LinkedDMNTemplates []string `json:"linkedDmnTemplates"`
	}
	bundle struct {
		bundleSummary
		Description  *string         `json:"description,omitempty"`
		SubProcesses []bundleSummary `json:"subProcesses"`
		XML          string          `json:"xml"`
		Notes        []string        `json:"notes,omitempty"`
	}
	form struct {
		assetSummary
		Description *string         `json:"description,omitempty"`
		Schema      json.RawMessage `json:"schema,omitempty"`
		Notes       []string        `json:"notes,omitempty"`
	}
	documentSummary struct {
		assetSummary
		ProcessKey *string `json:"processKey,omitempty"`
		ServiceID  *string `json:"serviceId,omitempty"`
	}
	document struct {
		documentSummary
		Description   *string         `json:"description,omitempty"`
		SchemaVersion int             `json:"schemaVersion"`
		Zones         json.RawMessage `json:"zones,omitempty"`
		Bindings      json.RawMessage `json:"bindings,omitempty"`
		Assets        json.RawMessage `json:"assets,omitempty"`
		Notes         []string        `json:"notes,omitempty"`
	}
)

func summaryOf(p assets.Process) bundleSummary {
	linked := p.LinkedDMNTemplates
	if linked == nil {
		linked = []string{}
	}
	return bundleSummary{
		assetSummary: assetSummary{ID: p.ID, Name: p.Name, Status: p.Status, Language: p.Language,
			Organization: p.Organization, ReadOnly: p.ReadOnly, UpdatedAt: stamp(p.UpdatedAt)},
		BPMNProcessID: p.BPMNProcessID, ProcessRole: p.ProcessRole, CalledElement: p.CalledElement, ShellID: p.ShellID,
		LinkedDMNTemplates: linked,
	}
}

func documentSummaryOf(d assets.DocumentTemplate) documentSummary {
	return documentSummary{
		assetSummary: assetSummary{ID: d.ID, Name: d.Name, Status: d.Status, Language: d.Language,
			Organization: d.Organization, ReadOnly: d.ReadOnly, UpdatedAt: stamp(d.UpdatedAt)},
		ProcessKey: d.ProcessKey, ServiceID: d.ServiceID,
	}
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// listing is a list tool's answer: the rows under their kind's name, the
// number that matched and how many of those were left out.
func listing[T any](kind string, rows []T, total int) map[string]any {
	return map[string]any{kind: rows, "count": total, "leftOut": max(total-len(rows), 0)}
}

// findArgs reads search and maxResults; a bad argument is the result.
func findArgs(ctx context.Context, args map[string]any) (assets.Find, *mcp.CallToolResult) {
	search, err := stringArg(args, "search", false)
	if err != nil {
		return assets.Find{}, errorResult(err.Error())
	}
	if len(search) > 200 {
		return assets.Find{}, errorResult("search is longer than 200 bytes")
	}
	n, err := intArg(args, "maxResults", defaultAssetRows, maxAssetRows)
	if err != nil {
		return assets.Find{}, errorResult(err.Error())
	}
	return assets.Find{Organization: callerFrom(ctx).Tenant, Search: search, Limit: n}, nil
}

// cutNotes says which columns a get shortened or left out, in a fixed
// order.
func cutNotes(sizes assets.Sizes, cut map[string]bool) []string {
	var notes []string
	for _, col := range []string{"xml", "schema", "zones", "bindings", "assets"} {
		if !cut[col] {
			continue
		}
		if col == "xml" {
			notes = append(notes, fmt.Sprintf("xml is %d bytes; only the first %d are shown", sizes[col], maxAssetContent))
		} else {
			notes = append(notes, fmt.Sprintf("%s is %d bytes, more than the %d this tool returns; left out", col, sizes[col], maxAssetContent))
		}
	}
	return notes
}

// quoteArg quotes an id for a message, bounded: it comes from the model.
func quoteArg(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// assetResult encodes an asset answer without escaping <, > and & (BPMN
// XML would grow six-fold) and, when indenting makes it too large,
// compactly.
func assetResult(v any) (*mcp.CallToolResult, error) {
	for _, indent := range []string{" ", ""} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", indent)
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		if buf.Len() <= maxToolOutput {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))}}}, nil
		}
	}
	return errorResult(fmt.Sprintf("the answer is larger than %d bytes; narrow the request", maxToolOutput)), nil
}

// assetMessage is the model-facing text of a store failure: causes stay
// out of it, but the two set-up mistakes an operator meets first are named.
func assetMessage(err error) error {
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "42P01": // undefined_table
		return errors.New("the explorer's asset tables do not exist in the database of LDE_DATABASE_URL (the explorer creates them at its start)")
	case errors.As(err, &pgErr) && pgErr.Code == "42501": // insufficient_privilege
		return errors.New("the role of LDE_DATABASE_URL may not read the explorer's asset tables (it needs SELECT)")
	case errors.Is(err, assets.ErrUnavailable):
		return errors.New("the explorer's asset database could not be reached; try again later")
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return errors.New("the explorer's asset database did not answer in time")
	}
	return errors.New("reading the explorer's assets failed")
}
