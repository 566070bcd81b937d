package lsptest

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Fake is an lsp.Analyzer that records what the server hands it. By
// default Diagnose returns, for every document set, removed or changed on
// disk since the previous call, a Report with no problems (Overlay and
// Version set for open buffers), so every edit leads to one publish.
// Set DiagnoseFunc, AddFolderFunc or RemoveFolderFunc before starting the
// server to script other behaviour. Folder paths are recorded and handed
// to those funcs with forward slashes (filepath.ToSlash), so that a test's
// "/w/a" reads the same on Windows, where the server's path is \w\a.
// Safe for concurrent use.
type Fake struct {
	// DiagnoseFunc, when set, replaces the default Diagnose. It receives
	// the documents changed since the previous call, sorted.
	DiagnoseFunc func(ctx context.Context, changed []string) []workspace.Report
	// AddFolderFunc, when set, replaces the default AddFolder (which
	// reports progress 0/1 then 1/1 and returns nil).
	AddFolderFunc func(ctx context.Context, dir string, progress func(done, total int)) error
	// RemoveFolderFunc, when set, replaces the default RemoveFolder (which
	// returns true).
	RemoveFolderFunc func(dir string) bool

	mu       sync.Mutex
	overlays map[string]Overlay
	dirty    map[string]bool
	calls    []string
	runs     int
}

// Overlay is an open buffer as the server handed it to the analysis.
type Overlay struct {
	Version int32
	Text    string
}

// NewFake returns an empty Fake.
func NewFake() *Fake {
	return &Fake{overlays: make(map[string]Overlay), dirty: make(map[string]bool)}
}

func (f *Fake) record(format string, args ...any) {
	f.calls = append(f.calls, fmt.Sprintf(format, args...))
}

// AddFolder implements lsp.Analyzer.
func (f *Fake) AddFolder(ctx context.Context, dir string, progress func(done, total int)) error {
	dir = filepath.ToSlash(dir)
	f.mu.Lock()
	f.record("AddFolder %s", dir)
	h := f.AddFolderFunc
	f.mu.Unlock()
	if h != nil {
		return h(ctx, dir, progress)
	}
	if progress != nil {
		progress(0, 1)
		progress(1, 1)
	}
	return nil
}

// RemoveFolder implements lsp.Analyzer: it records the call and returns
// RemoveFolderFunc's answer, or true.
func (f *Fake) RemoveFolder(dir string) bool {
	dir = filepath.ToSlash(dir)
	f.mu.Lock()
	f.record("RemoveFolder %s", dir)
	h := f.RemoveFolderFunc
	f.mu.Unlock()
	if h != nil {
		return h(dir)
	}
	return true
}

// SetOverlay implements lsp.Analyzer.
func (f *Fake) SetOverlay(uri string, version int32, text []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("SetOverlay %s %d", uri, version)
	f.overlays[uri] = Overlay{Version: version, Text: string(text)}
	f.dirty[uri] = true
}

// RemoveOverlay implements lsp.Analyzer.
func (f *Fake) RemoveOverlay(uri string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("RemoveOverlay %s", uri)
	delete(f.overlays, uri)
	f.dirty[uri] = true
}

// DiskChanged implements lsp.Analyzer.
func (f *Fake) DiskChanged(uri string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("DiskChanged %s", uri)
	f.dirty[uri] = true
}

// Diagnose implements lsp.Analyzer.
func (f *Fake) Diagnose(ctx context.Context) []workspace.Report {
	f.mu.Lock()
	f.runs++
	changed := make([]string, 0, len(f.dirty))
	for uri := range f.dirty {
		changed = append(changed, uri)
	}
	sort.Strings(changed)
	clear(f.dirty)
	h := f.DiagnoseFunc
	var reports []workspace.Report
	if h == nil {
		for _, uri := range changed {
			r := workspace.Report{URI: uri, Mapper: positions.NewMapper(nil)}
			if o, ok := f.overlays[uri]; ok {
				r.Overlay, r.Version, r.Mapper = true, o.Version, positions.NewMapper([]byte(o.Text))
			}
			reports = append(reports, r)
		}
	}
	f.mu.Unlock()
	if h != nil {
		return h(ctx, changed)
	}
	return reports
}

// Overlay returns the buffer last handed over for uri.
func (f *Fake) Overlay(uri string) (Overlay, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.overlays[uri]
	return o, ok
}

// Calls returns the calls received so far, one "Method args" line each
// (Diagnose excluded).
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// Runs returns how many times Diagnose was called.
func (f *Fake) Runs() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.runs
}
