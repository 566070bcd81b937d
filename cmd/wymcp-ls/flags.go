package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// newFlagSet returns a flag set that reports nothing itself: parseFlags
// prints help and errors by the conventions of README.md, "Command line".
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// helpHint is the one line printed after a usage error.
func helpHint(cmd string) string {
	return fmt.Sprintf("Run '%s --help' for usage.\n", cmd)
}

// parseFlags parses args with fs. When interleaved is true, flags may
// follow the positional arguments (`check lib --format json`); "--" ends
// the flags. It returns the positional arguments and -1, or an exit code
// to return at once: 0 after printing usage() to stdout for -h, -help or
// --help; 2 after printing, to stderr, "cmd: unknown flag --frmat" (the
// flag as typed, without its value) or the parse error, then helpHint.
func parseFlags(fs *flag.FlagSet, cmd string, args []string, interleaved bool, stdout, stderr io.Writer, usage func() string) ([]string, int) {
	var rest []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage())
			return nil, 0
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s\n%s", cmd, flagError(err, args), helpHint(cmd))
			return nil, 2
		}
		left := fs.Args()
		if len(left) == 0 {
			return rest, -1
		}
		if consumed := len(args) - len(left); consumed > 0 && args[consumed-1] == "--" || !interleaved {
			return append(rest, left...), -1
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -(.*)$`)
	singleDash    = regexp.MustCompile(`(^|[ :])-([a-z][a-z0-9-]*)`)
)

// flagError rewrites a flag package error in the double-dash form the
// usage shows: an unknown flag is named as typed in args.
func flagError(err error, args []string) string {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		typed := "--" + m[1]
		for _, a := range args {
			if a == "--" {
				break
			}
			name, _, _ := strings.Cut(a, "=")
			if strings.HasPrefix(name, "-") && strings.TrimLeft(name, "-") == m[1] {
				typed = name
				break
			}
		}
		return "unknown flag " + typed
	}
	return singleDash.ReplaceAllString(msg, "$1--$2")
}

// flagDefaults lists every flag of fs, one a line, with its argument name,
// its usage and its default, always shown (false and "" included).
func flagDefaults(fs *flag.FlagSet) string {
	var b strings.Builder
	type line struct{ head, text string }
	var lines []line
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		head := "--" + f.Name
		if arg != "" && !isBool(f) {
			head += " " + arg
		}
		def := f.DefValue
		switch {
		case def == "" && f.Name == "log-file":
			def = "stderr"
		case def == "" && f.Name == "config":
			def = "the nearest " + ".wymcp-ls.yaml"
		case def == "":
			def = `""`
		}
		lines = append(lines, line{head, fmt.Sprintf("%s (default %s)", text, def)})
		width = max(width, len(head))
	})
	for _, l := range lines {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, l.head, l.text)
	}
	return b.String()
}

// isBool reports whether f is a boolean flag (given without a value).
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
