package authoring

import (
	"context"
	"sort"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// FixAll returns the preferred quick fixes of the snapshot's document (the
// fixes CodeActions marks Preferred, over the whole document) that can be
// applied together in one round, and the edits of those fixes, sorted and
// non-overlapping, ready for Apply or a WorkspaceEdit. It is the one
// function behind both `wymcp-ls check --fix` and the editor's
// source.fixAll code action (README.md, "Command line").
//
// A round never applies two fixes whose extents touch: the extent of a fix
// is its diagnostic's span together with its edits' spans (bytes into
// snap.Content, end inclusive). So a fix inside a map and a fix that
// rewrites that map (a misspelt key and the key it is missing) are never
// applied together; the narrower fix wins, and the caller re-analyses and
// calls FixAll again for what remains (the CLI does up to 10 rounds).
// Fixes are tried narrowest diagnostic span first, then in document order.
// A fix that adds a missing key (validate.CodeMissingKey) waits for a round
// in which no other fix applies: renaming a misspelt key often supplies the
// missing one, and adding it first would leave the misspelling behind.
//
// Only fixes whose edits all lie in snap.URI are returned: a fix of another
// document is found when that document is fixed. A document with a syntax
// error (snap.File.Errors), a skipped one (over the size limit) or a nil
// snapshot gives no fixes: opaque or broken source is never edited
// (docs/rules.md §5). It never fails; a cancelled ctx gives nil.
func FixAll(ctx context.Context, snap *workspace.Snapshot) ([]Fix, []Edit) {
	if snap == nil || snap.Skipped || snap.File == nil || len(snap.File.Errors) > 0 {
		return nil, nil
	}
	all := CodeActions(ctx, snap, positions.Span{Start: 0, End: len(snap.Content)})
	if ctx.Err() != nil {
		return nil, nil
	}
	var cands []Fix
	for _, fx := range all {
		if !fx.Preferred || len(fx.Edits) == 0 {
			continue
		}
		mine := true
		for _, e := range fx.Edits {
			if e.URI != snap.URI {
				mine = false
				break
			}
		}
		if mine {
			cands = append(cands, fx)
		}
	}
	adds := cands[:0:0]
	others := cands[:0:0]
	for _, fx := range cands {
		if fx.Code == validate.CodeMissingKey {
			adds = append(adds, fx)
		} else {
			others = append(others, fx)
		}
	}
	if len(others) > 0 {
		cands = others
	} else {
		cands = adds
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i].Span, cands[j].Span
		if wa, wb := a.End-a.Start, b.End-b.Start; wa != wb {
			return wa < wb
		}
		return a.Start < b.Start
	})
	var (
		chosen  []Fix
		taken   []positions.Span
		edits   []Edit
		touches = func(a, b positions.Span) bool { return a.Start <= b.End && b.Start <= a.End }
	)
	for _, fx := range cands {
		ext := append([]positions.Span{fx.Span}, editSpans(fx.Edits)...)
		clash := false
		for _, s := range ext {
			for _, t := range taken {
				if touches(s, t) {
					clash = true
				}
			}
		}
		if clash {
			continue
		}
		chosen = append(chosen, fx)
		taken = append(taken, ext...)
		edits = append(edits, fx.Edits...)
	}
	sort.SliceStable(chosen, func(i, j int) bool { return chosen[i].Span.Start < chosen[j].Span.Start })
	sortEdits(edits)
	if !disjoint(edits) {
		// Cannot happen given the extents above; never hand out a broken set.
		return nil, nil
	}
	return chosen, edits
}

// editSpans returns the spans of es.
func editSpans(es []Edit) []positions.Span {
	out := make([]positions.Span, len(es))
	for i, e := range es {
		out[i] = e.Span
	}
	return out
}
