package workspace

import (
	"context"

	"github.com/wymcp/wymcp-ls/listing"
	"github.com/wymcp/wymcp-ls/validate"
)

// ListedTool is one tool module as the listing reads it (README.md, "What
// the LLM sees"): its ToolInfo, the same values as a listing.Tool, and
// whether Wymcp would mount it.
type ListedTool struct {
	Info *ToolInfo
	// Tool is what package listing renders, built from Info.
	Tool listing.Tool
	// Offences counts the action-schema offences of actions/0 (wymcp's,
	// severity Error; one for a value several actions share): with one,
	// Wymcp.Router refuses to mount the tool, so its entry is what it would
	// read once fixed.
	Offences int
}

// ListingTool converts t for package listing: a callback that is not
// defined is nil there.
func ListingTool(t *ToolInfo) listing.Tool {
	lt := listing.Tool{
		Module: t.Module, Name: t.Name, Description: t.Description, Actions: t.Actions,
		HasActionContext: t.HasActionContext,
	}
	if t.HasTitle {
		lt.Title = t.Title
	}
	if t.HasAnnotations {
		lt.Annotations = t.Annotations
	}
	if t.HasOutputSchema {
		lt.OutputSchema = t.OutputSchema
	}
	return lt
}

// Listing analyses the workspace (as Diagnose) and returns every tool
// module, sorted by module name then URI, and every mount (as Tools).
func (w *Workspace) Listing(ctx context.Context) ([]ListedTool, []Mount) {
	infos, mounts := w.Tools(ctx)
	out := make([]ListedTool, 0, len(infos))
	for _, t := range infos {
		lt := ListedTool{Info: t, Tool: ListingTool(t)}
		if t.Actions != nil {
			lt.Offences = distinct(w.valid.Declaration(t.Actions))
		}
		out = append(out, lt)
	}
	return out, mounts
}

// Listed returns what the listing reads of tv, a tool of the snapshot.
func (s *Snapshot) Listed(tv *ToolView) ListedTool {
	t := toolInfo(tv.Module, tv.Result)
	return ListedTool{Info: t, Tool: ListingTool(t), Offences: distinct(tv.Offences)}
}

// distinct counts the action-schema offences (kind shape or defaults,
// docs/rules.md §4), one for an offence in a value that
// several actions share (same code, pointer and message), as check does.
func distinct(offs []validate.Offence) int {
	type id struct {
		code, msg string
		ptr       validate.Origin
	}
	seen := map[id]bool{}
	for _, o := range offs {
		if o.Severity == validate.Error && (o.Kind == validate.KindShape || o.Kind == validate.KindDefaults) {
			seen[id{o.Code, o.Message, o.Pointer}] = true
		}
	}
	return len(seen)
}
