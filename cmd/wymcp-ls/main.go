// Command wymcp-ls is the Wymcp action-schema language server and checker.
//
// Usage:
//
//	wymcp-ls [--stdio] [--log-file FILE] [--log-level LEVEL]   serve LSP on stdin/stdout
//	wymcp-ls check [--format text|json|github] [--strict] [PATH...]
//	wymcp-ls version
//
// See README.md "Command line" and docs/architecture.md "check" for the
// contract.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usage is printed for -h and on a usage error.
const usage = `usage:
  wymcp-ls [--stdio] [--log-file FILE] [--log-level LEVEL]
      serve the Language Server Protocol on stdin/stdout
  wymcp-ls check [--format text|json|github] [--strict] [PATH...]
      print every action-schema offence under PATH (default .); flags may follow the paths;
      exit 0 clean, 1 offences (unreadable files included), 2 usage error or a missing PATH
  wymcp-ls version
      print the version
`

// logFlags are the flags every subcommand accepts.
type logFlags struct {
	file  string
	level string
}

func (l *logFlags) register(fs *flag.FlagSet, defLevel string) {
	fs.StringVar(&l.file, "log-file", "", "write logs to `FILE` instead of stderr")
	fs.StringVar(&l.level, "log-level", defLevel, "log `LEVEL`: debug, info, warn, error")
}

// logger builds the zap logger: stderr or the log file, never stdout
// (stdout is the protocol). It returns a cleanup func.
func (l *logFlags) logger(stderr io.Writer) (*zap.Logger, func(), error) {
	lvl, err := zapcore.ParseLevel(l.level)
	if err != nil {
		return nil, nil, fmt.Errorf("--log-level: %w", err)
	}
	out := zapcore.AddSync(stderr)
	closeFn := func() {}
	if l.file != "" {
		f, err := os.OpenFile(l.file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		out = zapcore.AddSync(f)
		closeFn = func() { f.Close() }
	}
	enc := zap.NewDevelopmentEncoderConfig()
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.Lock(out), lvl)
	return zap.New(core), closeFn, nil
}

// run is main without os.Exit, for tests: it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return runCheck(ctx, args[1:], stdout, stderr)
		case "version", "--version", "-version":
			fmt.Fprintf(stdout, "wymcp-ls %s\n", version())
			return 0
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	fs := flag.NewFlagSet("wymcp-ls", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	var lf logFlags
	lf.register(fs, "info")
	fs.Bool("stdio", true, "serve on stdin/stdout (the default and only transport)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wymcp-ls: unknown command %q\n%s", fs.Arg(0), usage)
		return 2
	}
	log, done, err := lf.logger(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wymcp-ls: %v\n", err)
		return 2
	}
	defer done()
	defer log.Sync() //nolint:errcheck // best effort on exit

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ws := workspace.New(workspace.Options{Logger: log, SyntaxSeverity: validate.Warning})
	defer ws.Close()
	log.Info("wymcp-ls serving on stdio", zap.String("version", version()))
	return lsp.Serve(ctx, stdio{stdin, stdout}, lsp.Options{Logger: log, Analyzer: ws, Version: version()})
}

// stdio joins stdin and stdout into the io.ReadWriteCloser jsonrpc2 wants.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes stdin and stdout when they are closable.
func (s stdio) Close() error {
	var errs []error
	if c, ok := s.Reader.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	if c, ok := s.Writer.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// version returns the module version recorded by `go install ...@v`, or
// "devel" with the VCS revision the binary was built from when Go recorded
// it ("devel (a1b2c3d4e5f6, modified)").
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return "devel (" + rev + modified + ")"
}
