package lsp

import (
	"context"
	"encoding/json"
	"hash/maphash"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/positions"
)

// lifecycle is the server state (LSP 3.17 "Server lifecycle").
type lifecycle int

const (
	stateNew      lifecycle = iota // before initialize
	stateRunning                   // after initialize
	stateShutdown                  // after shutdown
	stateExited                    // after exit
)

// document is an open buffer as the server last saw it.
type document struct {
	version int32
	text    []byte // never modified in place; replaced on each change
}

// server is the protocol.Server behind the handler chain. One mutex guards
// its state; the analysis is called outside it.
type server struct {
	unimplemented

	log  *zap.Logger
	opts Options
	an   Analyzer
	conn jsonrpc2.Conn

	bg   context.Context // cancelled on shutdown, exit or end of stream
	stop context.CancelFunc
	wg   sync.WaitGroup
	kick chan struct{} // wakes the diagnostics runner; capacity 1 coalesces
	seed maphash.Seed  // of the hashes in published

	mu       sync.Mutex
	state    lifecycle
	exitWith int
	caps     clientCapabilities
	// enc is the negotiated position encoding, fixed by initialize
	// (docs/architecture.md, "LSP behaviour"); read through encoding().
	enc     atomic.Int32
	folders []string // disk paths of the workspace folders, no two alike
	// folderURIs holds, per entry of folders, the distinct URIs of the
	// client's workspace folders that lead to it (file:///w/a and
	// file:///w/a/ are two folders to a client comparing strings): the
	// directory leaves the analysis when the last of them is removed.
	folderURIs map[string][]string
	initDone   bool // initialized received
	docs       map[string]*document
	// published holds, by URI, a hash (under seed) of the last
	// publishDiagnostics params sent, so that an analysis that finds what
	// the client already shows sends nothing; a didOpen forgets its URI's.
	published map[string]uint64
	// touched are the documents edited (opened or changed) since the
	// last pull-mode analysis; warned the documents a skip warning was
	// shown for, by URI, with the reason ("too big", "unreadable").
	touched map[string]bool
	warned  map[string]string
	// settingsWarned is the last warning shown for the editor's
	// "wymcp.lints" settings ("" none).
	settingsWarned string

	// folderTail is closed once the last queued folder task (the initial
	// indexing, a workspace folder change) has finished: each waits for
	// the one before (queueFolderTaskLocked). indexRuns numbers the
	// indexing runs, for their progress tokens.
	folderTail chan struct{}
	indexRuns  int

	// changeSeq counts the changes that asked for an analysis
	// (kickDiagnostics); pull is the pull diagnostics state.
	changeSeq atomic.Int64
	pull      pullState
	// symbols is the workspace symbol index; symbolsBusy is set while the
	// runner's background refresh of it runs.
	symbols     symbolIndex
	symbolsBusy atomic.Bool

	// configSeq numbers the workspace/configuration requests; only the
	// answer to the newest one is applied.
	configSeq atomic.Int64

	// exited is closed by exit: Serve returns then, without waiting for a
	// read blocked on stdin, which closing the file does not interrupt.
	exited chan struct{}

	// features are the editor-feature methods (completion, hover ...),
	// decoded from raw params by their own handlers; set up at creation.
	features map[string]Handler
}

var _ protocol.Server = (*server)(nil)

func newServer(bg context.Context, conn jsonrpc2.Conn, opts Options) *server {
	bg, stop := context.WithCancel(bg)
	s := &server{
		log:       opts.Logger,
		opts:      opts,
		an:        opts.Analyzer,
		conn:      conn,
		bg:        bg,
		stop:      stop,
		kick:      make(chan struct{}, 1),
		published: map[string]uint64{},
		seed:      maphash.MakeSeed(),
		exited:    make(chan struct{}),
		exitWith:  ExitError,
		docs:      make(map[string]*document),
		touched:   map[string]bool{},
		warned:    map[string]string{},
		pull:      pullState{mu: newChanMutex(), results: map[string]*pullResult{}},
	}
	s.features = map[string]Handler{}
	s.registerCursorFeatures()
	s.registerEditFeatures()
	s.registerPullFeatures()
	s.registerSymbolFeatures()
	s.registerLensFeatures()
	s.registerFolderFeatures()
	return s
}

// start launches the diagnostics runner.
func (s *server) start() {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.runDiagnostics(s.bg)
	}()
}

// wait stops background work and waits for it up to limit.
func (s *server) wait(limit time.Duration) {
	s.stop()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		s.log.Warn("background work still running at exit", zap.Duration("waited", limit))
	}
}

// encoding returns the negotiated position encoding (UTF-16 before
// initialize).
func (s *server) encoding() positions.Encoding {
	return positions.Encoding(s.enc.Load())
}

// exitCode returns the code fixed by exit, and whether exit was received.
func (s *server) exitCode() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitWith, s.state == stateExited
}

// capabilities are the server capabilities announced in the initialize
// result (LSP 3.17 "ServerCapabilities"). Feature handlers add theirs here.
func (s *server) capabilities() serverCapabilities {
	c := serverCapabilities{
		ServerCapabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
		},
		PositionEncoding: s.encoding().String(),
	}
	s.cursorCapabilities(&c)
	s.editCapabilities(&c)
	s.pullCapabilities(&c)
	s.symbolCapabilities(&c)
	s.lensCapabilities(&c)
	s.folderCapabilities(&c)
	return c
}

// serverCapabilities adds the LSP 3.17 fields protocol v0.12.0 lacks.
type serverCapabilities struct {
	protocol.ServerCapabilities
	// PositionEncoding is LSP 3.17 "positionEncoding": "utf-8" when the
	// client offered it, else "utf-16".
	PositionEncoding string `json:"positionEncoding,omitempty"`
	// Features are the editor-feature capabilities (completionProvider,
	// hoverProvider ...) as raw JSON, merged into the object on the wire;
	// set them with setCapability so that both feature files can add theirs.
	Features map[string]any `json:"-"`
}

type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// initialize records the client's capabilities and workspace folders
// (workspaceFolders, else rootUri, else rootPath) and returns the result.
func (s *server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if err := json.Unmarshal(raw, &p); err != nil || isNull(raw) {
		msg := "initialize params must be an object"
		if err != nil {
			msg = "invalid initialize params: " + err.Error()
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, msg)
	}
	var caps clientCapabilities
	if len(p.Capabilities) > 0 && !isNull(p.Capabilities) {
		var errs []error
		caps, errs = decodeCapabilities(p.Capabilities)
		for _, err := range errs {
			s.log.Warn("client capabilities section not understood; assuming none of it", zap.Error(err))
		}
	}
	var folders []string
	uris := map[string][]string{}
	add := func(uri string) {
		if uri == "" {
			return
		}
		dir := s.folderPath(uri)
		if dir == "" || slices.Contains(uris[dir], uri) {
			return
		}
		if len(uris[dir]) == 0 {
			folders = append(folders, dir)
		}
		uris[dir] = append(uris[dir], uri)
	}
	switch {
	case len(p.WorkspaceFolders) > 0:
		for _, f := range p.WorkspaceFolders {
			add(f.URI)
		}
	case p.RootURI != nil && *p.RootURI != "":
		add(*p.RootURI)
	case p.RootPath != nil && *p.RootPath != "":
		folders = append(folders, filepath.Clean(*p.RootPath))
		uris[folders[0]] = []string{*p.RootPath}
	}
	client := zap.Skip()
	if p.ClientInfo != nil {
		client = zap.String("client", p.ClientInfo.Name+" "+p.ClientInfo.Version)
		caps.clientName = p.ClientInfo.Name
	}
	s.log.Info("initialize", client, zap.Strings("folders", folders),
		zap.Bool("workDoneProgress", caps.Window.WorkDoneProgress),
		zap.Bool("watchRegistration", caps.Workspace.DidChangeWatchedFiles.DynamicRegistration),
		zap.Stringer("positionEncoding", caps.encoding()), zap.Bool("pullDiagnostics", caps.pullDiagnostics()))

	s.mu.Lock()
	s.state = stateRunning
	s.caps = caps
	s.folders = folders
	s.folderURIs = uris
	s.mu.Unlock()
	s.enc.Store(int32(caps.encoding()))
	return initializeResult{
		Capabilities: s.capabilities(),
		ServerInfo:   &protocol.ServerInfo{Name: "wymcp-ls", Version: s.opts.Version},
	}, nil
}

// initialized starts the background work: registering the file watcher
// and indexing the workspace folders (first in the queue of folder tasks,
// so that a folder change received meanwhile waits for it). It runs at
// most once.
func (s *server) initialized() {
	s.mu.Lock()
	caps, folders, again := s.caps, slices.Clone(s.folders), s.initDone
	s.initDone = true
	if !again && len(folders) > 0 {
		token := s.nextIndexTokenLocked()
		s.queueFolderTaskLocked(func(ctx context.Context) { s.index(ctx, token, folders, caps.Window.WorkDoneProgress) })
	}
	s.mu.Unlock()
	if again {
		s.log.Warn("initialized sent twice; ignored")
		return
	}
	if caps.Workspace.DidChangeWatchedFiles.DynamicRegistration {
		s.goBackground(s.registerWatcher)
	}
	if caps.Workspace.Configuration {
		s.goBackground(s.pullConfiguration)
	}
}

// goBackground runs f on its own goroutine with the background context,
// recovering panics.
func (s *server) goBackground(f func(ctx context.Context)) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer s.recoverLog("background task")
		f(s.bg)
	}()
}

func (s *server) recoverLog(what string) {
	if r := recover(); r != nil {
		s.log.Error("panic in "+what, zap.Any("panic", r), zap.Stack("stack"))
	}
}

// shutdown moves to the shutdown state and stops background work. It does
// not close the connection: the reply must still go out (docs/architecture.md "Protocol library workarounds").
func (s *server) shutdown() {
	s.mu.Lock()
	s.state = stateShutdown
	s.exitWith = ExitOK
	s.mu.Unlock()
	s.stop()
}

// exit fixes the exit code (0 after shutdown, else 1) and closes the
// connection, which ends Serve.
func (s *server) exit() {
	s.mu.Lock()
	if s.state != stateShutdown {
		s.exitWith = ExitError
	}
	already := s.state == stateExited
	s.state = stateExited
	s.mu.Unlock()
	s.stop()
	if !already {
		close(s.exited)
	}
	_ = s.conn.Close()
}

// notify sends a notification to the client with the call timeout.
func (s *server) notify(ctx context.Context, method string, params any) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.CallTimeout)
	defer cancel()
	return s.conn.Notify(ctx, method, params)
}

// call sends a request to the client and waits for its result, at most
// Options.CallTimeout (jsonrpc2 never fails a pending call on its own).
func (s *server) call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.CallTimeout)
	defer cancel()
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}

func isNull(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "null"
}
