package lsp

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/workspace"
)

// WatchGlob is the pattern registered for workspace/didChangeWatchedFiles;
// ConfigGlob watches the workspace configuration files.
const (
	WatchGlob  = "**/*.{ex,exs}"
	ConfigGlob = "**/.wymcp-ls.yaml"
)

// indexToken is the work-done progress token of the initial indexing;
// later ones (folders added after start-up) append "/2", "/3" ...
const indexToken = "wymcp-ls/index"

// registerWatcher registers workspace/didChangeWatchedFiles for WatchGlob
// (LSP 3.17 "client/registerCapability"); called only when the client
// supports dynamic registration for it.
func (s *server) registerWatcher(ctx context.Context) {
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:     "wymcp-ls/watch",
		Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{
			Watchers: []protocol.FileSystemWatcher{{GlobPattern: WatchGlob}, {GlobPattern: ConfigGlob}},
		},
	}}}
	if err := s.call(ctx, "client/registerCapability", params, nil); err != nil {
		s.log.Warn("registering the file watcher failed", zap.Error(err))
	}
}

// index adds each folder to the analysis in turn, reporting work-done
// progress under token (create, begin, percentage reports, end; LSP 3.17
// "Work Done Progress") when the client supports it, then asks for
// diagnostics. Requests are served meanwhile: this runs on its own goroutine.
func (s *server) index(ctx context.Context, token string, folders []string, progress bool) {
	p := &indexProgress{s: s, ctx: ctx, token: token}
	if progress {
		if err := s.call(ctx, "window/workDoneProgress/create", map[string]string{"token": token}, nil); err != nil {
			s.log.Warn("window/workDoneProgress/create failed; indexing without progress", zap.Error(err))
		} else {
			p.on = true
		}
	}
	zero := 0
	p.send(progressBegin{Kind: "begin", Title: "wymcp-ls: indexing", Message: "Elixir files", Percentage: &zero})
	for i, dir := range folders {
		if ctx.Err() != nil {
			break
		}
		err := s.an.AddFolder(ctx, dir, func(done, total int) { p.report(i, len(folders), done, total) })
		if err != nil {
			s.log.Error("indexing folder failed", zap.String("dir", dir), zap.Error(err))
		}
	}
	msg := fmt.Sprintf("indexed %d folder(s)", len(folders))
	if ctx.Err() != nil {
		msg = "indexing cancelled"
	}
	p.send(progressEnd{Kind: "end", Message: msg})
	s.log.Info(msg)
	s.noteProjects(ctx, folders)
	s.kickDiagnostics()
}

// messageTypeInfo is LSP 3.17 MessageType.Info.
const messageTypeInfo = 3

// noteProjects shows one window/showMessage note for each of folders that
// holds only part of its Mix project (workspace.ProjectRoot: one app of
// an umbrella, or a folder below mix.exs) while no workspace folder holds
// the rest: modules defined outside it are not read, so the values a tool
// takes from them are not checked and a mount listing them is not known,
// which the diagnostics cannot show (docs/architecture.md "LSP
// behaviour": never a silent gap). check says the same on stderr.
func (s *server) noteProjects(ctx context.Context, folders []string) {
	s.mu.Lock()
	all := slices.Clone(s.folders)
	s.mu.Unlock()
	for _, dir := range folders {
		root := workspace.ProjectRoot(dir)
		if root == "" || slices.ContainsFunc(all, func(f string) bool { return workspace.ReadsProject(f, root) }) {
			continue
		}
		what := "the Mix project"
		if workspace.IsUmbrella(root) {
			what = "the umbrella project" // whose apps call into each other
		}
		msg := fmt.Sprintf("wymcp-ls: the folder %s is part of %s at %s; modules defined outside the folder are not read, so values a tool takes from them are not checked. Open %s as the workspace folder to check them.", dir, what, root, root)
		s.log.Info("folder is part of a larger project", zap.String("dir", dir), zap.String("root", root))
		s.showMessage(ctx, messageTypeInfo, msg)
	}
}

// indexProgress turns AddFolder progress callbacks, which may come from
// several goroutines, into $/progress reports sent only when the overall
// percentage changes.
type indexProgress struct {
	s     *server
	ctx   context.Context
	token string
	on    bool

	mu   sync.Mutex
	last int
}

func (p *indexProgress) report(folder, folders, done, total int) {
	if !p.on || folders == 0 {
		return
	}
	frac := 1.0
	if total > 0 {
		frac = float64(min(max(done, 0), total)) / float64(total)
	}
	pct := int((float64(folder) + frac) / float64(folders) * 100)
	p.mu.Lock()
	defer p.mu.Unlock()
	if pct <= p.last {
		return
	}
	p.last = pct
	p.sendLocked(progressReport{Kind: "report", Message: fmt.Sprintf("%d/%d files", done, total), Percentage: &pct})
}

func (p *indexProgress) send(v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sendLocked(v)
}

func (p *indexProgress) sendLocked(v any) {
	if !p.on {
		return
	}
	if err := p.s.notify(p.ctx, "$/progress", progressParams{Token: p.token, Value: v}); err != nil {
		p.s.log.Warn("sending progress failed", zap.Error(err))
	}
}
