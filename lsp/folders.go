package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/workspace"
)

// Workspace folders added or removed after start-up (LSP 3.17
// "workspace/didChangeWorkspaceFolders"), as gopls follows them: the
// server announces workspace.workspaceFolders {supported, changeNotifications}
// in initialize, indexes each added folder as the initial indexing does
// (same skip rules, progress, then diagnostics) and takes each removed one
// out of the analysis, whose next run clears the diagnostics of the files
// it forgot (docs/architecture.md "LSP behaviour").

// methodDidChangeWorkspaceFolders is LSP 3.17 "workspace/didChangeWorkspaceFolders".
const methodDidChangeWorkspaceFolders = protocol.MethodWorkspaceDidChangeWorkspaceFolders

// didChangeFoldersParams is LSP 3.17 "DidChangeWorkspaceFoldersParams",
// decoded here so that a malformed notification is logged and ignored
// whole rather than half applied.
type didChangeFoldersParams struct {
	Event *struct {
		Added   []workspaceFolder `json:"added"`
		Removed []workspaceFolder `json:"removed"`
	} `json:"event"`
}

// workspaceFolder is LSP 3.17 "WorkspaceFolder".
type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// folderCapabilities announces workspace folder support and asks for
// change notifications (LSP 3.17 "ServerCapabilities", workspace.workspaceFolders).
func (s *server) folderCapabilities(c *serverCapabilities) {
	c.Workspace = &protocol.ServerCapabilitiesWorkspace{
		WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: true},
	}
}

// registerFolderFeatures adds the didChangeWorkspaceFolders handler.
func (s *server) registerFolderFeatures() {
	s.features[methodDidChangeWorkspaceFolders] = s.didChangeWorkspaceFolders
}

// folderPath returns the disk path of a workspace folder URI, or "" (with
// a log line) when it is not a file: URI with an absolute path.
func (s *server) folderPath(uri string) string {
	dir := workspace.URIPath(uri)
	if dir == "" {
		s.log.Warn("workspace folder is not a file: URI with an absolute path; ignored", zap.String("uri", uri))
	}
	return dir
}

// didChangeWorkspaceFolders applies a folder change to the folder list at
// once, in the order notifications come, removals first (a folder both
// removed and added stays), and queues the work behind any indexing still
// running: the analysis forgets each removed folder, then indexes the
// added ones. A folder removed that is not in the list, or added that
// already is, is logged and skipped; one added under another spelling of
// a folder's directory (file:///w/a/ beside file:///w/a, two folders to
// the client) is not indexed again, and the directory stays until the
// client has removed both; malformed params are logged and the
// whole notification ignored (the returned error is only logged). Before
// initialized only the list changes: the initial indexing reads it.
func (s *server) didChangeWorkspaceFolders(_ context.Context, raw json.RawMessage) (any, error) {
	var p didChangeFoldersParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.Event == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: event must be an object")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var added, removed []string
	for _, f := range p.Event.Removed {
		dir := s.folderPath(f.URI)
		if dir == "" {
			continue
		}
		uris := s.folderURIs[dir]
		if len(uris) == 0 {
			s.log.Warn("removed workspace folder was not one; ignored", zap.String("uri", f.URI))
			continue
		}
		// The folder of this URI, or else one of this directory under
		// another spelling (which the client evidently means).
		i := max(slices.Index(uris, f.URI), 0)
		if uris = slices.Delete(uris, i, i+1); len(uris) > 0 {
			s.folderURIs[dir] = uris
			s.log.Info("removed workspace folder's directory is another folder too; kept",
				zap.String("uri", f.URI), zap.Strings("others", uris))
			continue
		}
		delete(s.folderURIs, dir)
		s.folders = slices.DeleteFunc(s.folders, func(d string) bool { return d == dir })
		removed = append(removed, dir)
	}
	for _, f := range p.Event.Added {
		dir := s.folderPath(f.URI)
		if dir == "" {
			continue
		}
		uris := s.folderURIs[dir]
		if slices.Contains(uris, f.URI) {
			s.log.Info("added workspace folder already is one; ignored", zap.String("uri", f.URI))
			continue
		}
		if s.folderURIs == nil {
			s.folderURIs = map[string][]string{}
		}
		s.folderURIs[dir] = append(uris, f.URI)
		if len(uris) > 0 {
			s.log.Info("added workspace folder's directory already is one; not indexed again", zap.String("uri", f.URI))
			continue
		}
		s.folders = append(s.folders, dir)
		added = append(added, dir)
	}
	s.log.Info("workspace folders changed", zap.Strings("added", added), zap.Strings("removed", removed),
		zap.Strings("folders", s.folders))
	if !s.initDone || len(added)+len(removed) == 0 {
		return nil, nil
	}
	progress := s.caps.Window.WorkDoneProgress
	token := s.nextIndexTokenLocked()
	s.queueFolderTaskLocked(func(ctx context.Context) {
		for _, dir := range removed {
			if !s.an.RemoveFolder(dir) {
				s.log.Info("removed workspace folder was not indexed (missing)", zap.String("dir", dir))
			}
		}
		if len(removed) > 0 {
			s.kickDiagnostics()
		}
		if len(added) > 0 {
			s.index(ctx, token, added, progress)
		}
	})
	return nil, nil
}

// nextIndexTokenLocked returns the work-done progress token of the next
// indexing run: indexToken for the first, then indexToken/2, /3 ... (LSP
// 3.17 "Work Done Progress": one token per progress). s.mu must be held.
func (s *server) nextIndexTokenLocked() string {
	s.indexRuns++
	if s.indexRuns == 1 {
		return indexToken
	}
	return fmt.Sprintf("%s/%d", indexToken, s.indexRuns)
}

// queueFolderTaskLocked runs f on a background goroutine once every
// folder task queued before it has finished (or the server stops), so
// that indexing and folder changes apply in the order received. s.mu
// must be held.
func (s *server) queueFolderTaskLocked(f func(ctx context.Context)) {
	prev := s.folderTail
	done := make(chan struct{})
	s.folderTail = done
	s.goBackground(func(ctx context.Context) {
		defer close(done)
		if prev != nil {
			select {
			case <-prev:
			case <-ctx.Done():
				return
			}
		}
		f(ctx)
	})
}
