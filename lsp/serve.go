// Package lsp is the protocol layer of wymcp-ls: the LSP lifecycle,
// incremental text sync and diagnostics publishing of docs/architecture.md
// "LSP behaviour", over go.lsp.dev/jsonrpc2 with the handler chain of
// docs/architecture.md "Protocol library workarounds". It knows nothing about Elixir: it talks to the analysis
// through Analyzer, which *workspace.Workspace satisfies.
//
// Positions on the wire are LSP positions (0-based lines, characters in
// the encoding negotiated at initialize: UTF-8 bytes when the client offers
// utf-8, else UTF-16 code units); the analysis speaks byte spans,
// converted here with positions.Mapper. Document URIs are kept exactly as the client sent them.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/listing"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Analyzer is what the protocol layer needs from the analysis.
// *workspace.Workspace satisfies it; tests use a fake. All methods must be
// safe for concurrent use: the server calls Diagnose from its diagnostics
// goroutine and AddFolder from its indexing goroutine while text-sync
// handlers call SetOverlay.
type Analyzer interface {
	// AddFolder indexes the .ex/.exs files under the disk path dir,
	// reporting progress as files done out of total.
	AddFolder(ctx context.Context, dir string, progress func(done, total int)) error
	// SetOverlay sets the open-buffer text of uri (exact client string) at
	// version. The server never modifies text afterwards.
	SetOverlay(uri string, version int32, text []byte)
	// RemoveFolder takes the folder root dir (a disk path AddFolder was
	// given) out of the analysis, forgetting the files below it that no
	// other root indexes and that are not open; it returns false, changing
	// nothing, when dir is not a folder it holds.
	RemoveFolder(dir string) bool
	// RemoveOverlay drops the open buffer of uri.
	RemoveOverlay(uri string)
	// DiskChanged re-reads the file: URI uri from disk, or forgets it.
	DiskChanged(uri string)
	// Diagnose returns one Report per document whose problems may have
	// changed since the previous call.
	Diagnose(ctx context.Context) []workspace.Report
}

var _ Analyzer = (*workspace.Workspace)(nil)

// Handler serves one custom request or notification method. params is the
// raw JSON params ("null" or empty when absent). The returned result is
// marshalled as the reply; an error that is not a *jsonrpc2.Error is sent
// as RequestFailed (-32803), context.Canceled as RequestCancelled (-32800).
// For notifications the result is discarded and an error only logged.
type Handler func(ctx context.Context, params json.RawMessage) (result any, err error)

// Options configures Serve. Only Logger, Analyzer and Tokens matter in
// production; the rest have working defaults.
type Options struct {
	// Logger receives every log line (stderr or a file, never stdout);
	// nil means zap.NewNop().
	Logger *zap.Logger
	// Analyzer is the analysis behind the server. Nil means a new
	// workspace.New with Logger.
	Analyzer Analyzer
	// Tokens counts the tokens of what the LLM is shown (README.md, "What
	// the LLM sees"): the code lens above `def actions`, wymcp.showListing
	// and the hover on name/0. cmd/wymcp-ls passes a listing/bpe counter
	// of o200k_base. Nil means no figures: the code lens request and the
	// command fail with "listing: no token counter", and the hover on
	// name/0 leaves the figures out.
	Tokens listing.Counter
	// Version is reported as serverInfo.version in the initialize result.
	Version string
	// CallTimeout bounds every outgoing request and notification to the
	// client (jsonrpc2 never fails a pending call when the connection
	// dies, docs/architecture.md "Protocol library workarounds"). Zero means 10 seconds.
	CallTimeout time.Duration
	// MaxMessageSize is the largest message body in bytes; zero means
	// DefaultMaxMessageSize.
	MaxMessageSize int64
	// Custom serves extra methods (such as "wymcp/..." extensions) before
	// the LSP dispatch, under the same lifecycle gate, panic recovery and
	// cancellation as every request. Tests use it to inject slow or
	// panicking handlers.
	Custom map[string]Handler
}

// Exit codes returned by Serve (LSP 3.17 "exit": 0 after shutdown, else 1).
const (
	ExitOK    = 0
	ExitError = 1
)

// Serve runs a language server on rwc (stdio in production, one end of a
// net.Pipe in tests) until the client sends `exit`, the stream ends or
// fails, or ctx is cancelled. It returns the process exit code: ExitOK for
// `exit` after `shutdown`, ExitError for `exit` without it, a dead or
// unframeable stream, or a cancelled ctx. rwc is closed on return.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 10 * time.Second
	}
	if opts.Analyzer == nil {
		opts.Analyzer = workspace.New(workspace.Options{Logger: log.Named("workspace")})
	}
	opts.Logger = log

	conn := jsonrpc2.NewConn(newStream(rwc, log.Named("stream"), opts.MaxMessageSize))
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := newServer(bg, conn, opts)

	// stream -> conn -> cancel -> AsyncHandler(ReplyHandler(middleware(ServerHandler)))
	// (docs/architecture.md "Protocol library workarounds", go.lsp.dev/protocol: build the chain yourself).
	h := s.middleware(protocol.ServerHandler(s, nil))
	h = jsonrpc2.AsyncHandler(jsonrpc2.ReplyHandler(h))
	h = newCanceller(log).wrap(h)

	s.start()
	conn.Go(bg, h)

	select {
	case <-conn.Done():
	case <-s.exited:
		// The read loop may be blocked on stdin; it ends with the process.
		select {
		case <-conn.Done():
		case <-time.After(100 * time.Millisecond):
		}
	case <-ctx.Done():
		log.Info("context cancelled, closing the connection", zap.Error(ctx.Err()))
		_ = conn.Close()
		<-conn.Done()
	}
	stop()
	s.wait(5 * time.Second)

	code, exited := s.exitCode()
	if !exited {
		if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) {
			log.Error("connection failed", zap.Error(err))
		} else {
			log.Info("connection closed without exit")
		}
		return ExitError
	}
	return code
}
