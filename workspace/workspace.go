// Package workspace holds the set of Elixir files wymcp-ls analyses (files
// on disk plus open editor buffers, buffers winning), knows which tool
// module reads which file, and re-analyses exactly the dependents of a
// change (design.md, "workspace"). It is shared by lsp and `check`.
//
// All methods are safe for concurrent use.
package workspace

import (
	"context"
	"sync"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// MaxFileSize is the default size, in bytes, above which a file is skipped
// with a log line (design.md, "LSP behaviour": files over 2 MiB).
const MaxFileSize = 2 << 20

// Options configures a Workspace. The zero value is usable.
type Options struct {
	// Logger receives log lines; nil means zap.NewNop().
	Logger *zap.Logger
	// MaxFileSize overrides MaxFileSize when positive.
	MaxFileSize int
}

// Workspace is the analysed file set. Create one with New.
type Workspace struct {
	mu   sync.Mutex
	opts Options
	log  *zap.Logger
}

// New returns an empty Workspace.
func New(opts Options) *Workspace {
	panic("TODO")
}

// AddFolder indexes every .ex and .exs file under dir (a disk path),
// skipping _build, deps, .git, node_modules, .elixir_ls, .lexical, cover
// and files over the size limit. A dir that is a single file adds that
// file. progress, if not nil, is called with the number of files done and
// the total. It returns an error only when dir cannot be read at all.
func (w *Workspace) AddFolder(ctx context.Context, dir string, progress func(done, total int)) error {
	panic("TODO")
}

// SetOverlay sets the open-buffer content of the document uri (the exact
// URI string the client sent) at version. The overlay wins over disk.
func (w *Workspace) SetOverlay(uri string, version int32, text []byte) { panic("TODO") }

// RemoveOverlay drops the open buffer of uri; a file: URI falls back to
// its disk content if the file exists.
func (w *Workspace) RemoveOverlay(uri string) { panic("TODO") }

// DiskChanged re-reads the file: URI uri from disk (created or changed),
// or forgets it when it no longer exists. An open overlay still wins.
func (w *Workspace) DiskChanged(uri string) { panic("TODO") }

// Mapper returns a position mapper over the current content of uri, and
// false when the workspace does not know uri.
func (w *Workspace) Mapper(uri string) (*positions.Mapper, bool) { panic("TODO") }

// Diagnose analyses every tool affected by changes since the previous call
// and returns one Report per document whose problem list may have changed,
// including documents whose problems have all gone (empty Problems).
// The first call analyses everything.
func (w *Workspace) Diagnose(ctx context.Context) []Report { panic("TODO") }

// Report is the full problem list of one document.
type Report struct {
	// URI is the document's exact URI string.
	URI string
	// Version is the overlay version analysed; 0 with Overlay false for disk content.
	Version int32
	Overlay bool
	// Mapper converts the Problems' spans (bytes into the analysed content).
	Mapper *positions.Mapper
	// Problems are sorted by span start.
	Problems []Problem
}

// Problem is one offence (or lint, or syntax error) located in a document.
type Problem struct {
	// Span is the tight byte range of the offence pointer (rules.md §4 Ranges).
	Span positions.Span
	// Code is the offence code ("unknown-key", "syntax-error", "lint/...").
	Code     string
	Severity validate.Severity
	// Message names the actions affected and the offence, without the fix.
	Message string
	// Fix is the offence's fix, "" when there is none.
	Fix string
	// Tool is the tool module's name; Actions the action names as written
	// (":create"), several when the offending value is shared; Location the
	// access-syntax location ("" for the schema itself).
	Tool     string
	Actions  []string
	Location string
	// Related points at the tool module (offence in another file) and at the
	// first occurrence (duplicates).
	Related []Related
}

// Text returns the diagnostic message: Message, then "; fix: " and Fix when
// there is a fix (issue: "the message ending with the fix").
func (p Problem) Text() string {
	if p.Fix == "" {
		return p.Message
	}
	return p.Message + "; fix: " + p.Fix
}

// Related is a secondary location of a Problem.
type Related struct {
	URI     string
	Span    positions.Span
	Mapper  *positions.Mapper
	Message string
}
