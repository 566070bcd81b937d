// Command wymcp-ls is the Wymcp action-schema language server and checker.
//
// Usage:
//
//	wymcp-ls [--stdio] [--log-file FILE] [--log-level LEVEL]   serve LSP on stdin/stdout
//	wymcp-ls check [flags] [PATH...]                           print every offence under PATH
//	wymcp-ls tools-list [flags] [PATH]                          print each mount's tools/list answer
//	wymcp-ls help-preview [flags] [PATH]                        print the help tool's answer
//	wymcp-ls version                                           print the version
//	wymcp-ls help [COMMAND]                                    print the usage
//
// README.md, "Command line", is the contract: flags, output formats, exit
// status, how the config is found.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
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

// serverLogLevel is the server's default log level: warn, so that editors
// that show a server's stderr as errors (Neovim's lsp.log) stay quiet;
// --log-level info restores the start-up and indexing lines.
const serverLogLevel = "warn"

// logFlags are the flags every subcommand accepts.
type logFlags struct {
	file  string
	level string
}

func (l *logFlags) register(fs *flag.FlagSet, defLevel string) {
	fs.StringVar(&l.file, "log-file", "", "append logs to `FILE` instead of stderr")
	fs.StringVar(&l.level, "log-level", defLevel, "log `LEVEL`: debug, info, warn or error")
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

// serverFlags returns the flag set of the server command (no subcommand).
func serverFlags() (*flag.FlagSet, *logFlags) {
	fs := newFlagSet("wymcp-ls")
	var lf logFlags
	fs.Bool("stdio", true, "serve on stdin/stdout (the only transport)")
	lf.register(fs, serverLogLevel)
	return fs, &lf
}

// topUsage returns the usage of `wymcp-ls --help`: the commands, then the
// server's flags with their defaults.
func topUsage() string {
	fs, _ := serverFlags()
	return `usage:
  wymcp-ls [flags]                  serve the Language Server Protocol on stdin/stdout
  wymcp-ls check [flags] [PATH...]  print every action-schema offence under each PATH (default .)
  wymcp-ls tools-list [flags] [PATH]
                                    print each mount's tools/list answer and its size
  wymcp-ls help-preview [flags] [PATH]
                                    print the help tool's answer (index, --tool, --action)
  wymcp-ls version                  print the version
  wymcp-ls help [COMMAND]           print this help, or COMMAND's

flags (serving):
` + flagDefaults(fs) + `
Run 'wymcp-ls COMMAND --help' for a command's flags.
`
}

// versionUsage is `wymcp-ls version --help` (README.md, "Command line").
const versionUsage = `usage:
  wymcp-ls version                  print the version (git describe for a release build)
`

// isHelpFlag reports whether arg asks for a command's usage: -h, -help
// or --help, as the flag package takes them.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

// run is main without os.Exit, for tests: it returns the exit code. A
// command whose output cannot be written to stdout (a full disk, a pipe
// whose reader left while SIGPIPE is ignored) says so on stderr and exits
// 2, whatever it found (README.md
// "Command line"); serving leaves stdout to the protocol, whose failures
// end the session.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || !commands[args[0]] {
		return dispatch(ctx, args, stdin, stdout, stderr)
	}
	out := &outputWriter{w: stdout}
	code := dispatch(ctx, args, stdin, out, stderr)
	if out.err != nil && code != 2 {
		fmt.Fprintf(stderr, "wymcp-ls: cannot write the output: %v\n", out.err)
		return 2
	}
	return code
}

// commands are the first arguments that name a command rather than serve.
var commands = map[string]bool{
	"check": true, "tools-list": true, "help-preview": true,
	"version": true, "--version": true, "-version": true,
	"help": true, "-h": true, "-help": true, "--help": true,
}

// outputWriter is a command's stdout that remembers the first write error.
type outputWriter struct {
	w   io.Writer
	err error
}

// Write writes p, remembering the first error.
func (o *outputWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// dispatch runs the command args name, or serves.
func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return runCheck(ctx, args[1:], stdout, stderr)
		case "tools-list":
			return runToolsList(ctx, args[1:], stdout, stderr)
		case "help-preview":
			return runHelpPreview(ctx, args[1:], stdout, stderr)
		case "version", "--version", "-version":
			if len(args) > 1 && isHelpFlag(args[1]) {
				fmt.Fprint(stdout, versionUsage)
				return 0
			}
			if len(args) > 1 {
				// `version` takes nothing: a flag or word after it is a
				// mistake to show, not to ignore.
				what := fmt.Sprintf("unexpected argument %q", args[1])
				if strings.HasPrefix(args[1], "-") {
					name, _, _ := strings.Cut(args[1], "=")
					what = "unknown flag " + name
				}
				fmt.Fprintf(stderr, "wymcp-ls version: %s\n%s", what, helpHint("wymcp-ls"))
				return 2
			}
			fmt.Fprintf(stdout, "wymcp-ls %s\n", version())
			return 0
		case "help", "-h", "-help", "--help":
			if len(args) > 1 {
				switch args[1] {
				case "check":
					fmt.Fprint(stdout, checkUsage())
					return 0
				case "tools-list", "help-preview":
					fs, _, _, _ := helpPreviewFlags()
					if args[1] == "tools-list" {
						fs, _ = toolsListFlags()
					}
					fmt.Fprint(stdout, listingUsageOf(fs)())
					return 0
				case "version":
					fmt.Fprint(stdout, versionUsage)
					return 0
				case "help":
				default:
					fmt.Fprintf(stderr, "wymcp-ls help: unknown command %q\n%s", args[1], helpHint("wymcp-ls"))
					return 2
				}
			}
			fmt.Fprint(stdout, topUsage())
			return 0
		}
	}
	fs, lf := serverFlags()
	rest, code := parseFlags(fs, "wymcp-ls", args, false, stdout, stderr, topUsage)
	if code >= 0 {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "wymcp-ls: unknown command %q\n%s", rest[0], helpHint("wymcp-ls"))
		return 2
	}
	log, done, err := lf.logger(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wymcp-ls: %v\n%s", err, helpHint("wymcp-ls"))
		return 2
	}
	defer done()
	defer log.Sync() //nolint:errcheck // best effort on exit

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ws := workspace.New(workspace.Options{Logger: log, SyntaxSeverity: validate.Warning})
	defer ws.Close()
	log.Info("wymcp-ls serving on stdio", zap.String("version", version()))
	return lsp.Serve(ctx, stdio{stdin, stdout}, lsp.Options{Logger: log, Analyzer: ws, Tokens: newCounter(), Version: version()})
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
