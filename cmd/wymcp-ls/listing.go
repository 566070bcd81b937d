package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wymcp/wymcp-ls/listing"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// toolsListUsage and helpPreviewUsage document tools-list and
// help-preview (README.md, "What the LLM sees").
const toolsListUsage = `usage:
  wymcp-ls tools-list [flags] [PATH]
      print, for each mount, the JSON array the server answers to tools/list (the tools in
      list order, then help), and its total in bytes and o200k_base tokens; with no mount,
      every tool module under PATH (default .)
`

const helpPreviewUsage = `usage:
  wymcp-ls help-preview [flags] [PATH]
      print the help tool's answer: the index, one tool (--tool NAME: name/0's value or the
      module name), or one action of it (--action NAME)
`

// listingUsageOf returns the usage of the command whose flag set is fs
// (tools-list or help-preview) followed by every flag of fs with its
// default, as `wymcp-ls tools-list --help` prints it.
func listingUsageOf(fs *flag.FlagSet) func() string {
	usage := toolsListUsage
	if fs.Name() == "wymcp-ls help-preview" {
		usage = helpPreviewUsage
	}
	return func() string { return usage + "\nflags:\n" + flagDefaults(fs) }
}

// helpPreviewFlags returns the flag set of help-preview, for its usage
// and for `wymcp-ls help help-preview`.
func helpPreviewFlags() (*flag.FlagSet, *string, *string, *logFlags) {
	fs := newFlagSet("wymcp-ls help-preview")
	toolName := fs.String("tool", "", "the tool `NAME` (name/0's value, or the module name)")
	actionName := fs.String("action", "", "the action `NAME` (needs --tool)")
	var lf logFlags
	lf.register(fs, "warn")
	return fs, toolName, actionName, &lf
}

// toolsListFlags returns the flag set of tools-list.
func toolsListFlags() (*flag.FlagSet, *logFlags) {
	fs := newFlagSet("wymcp-ls tools-list")
	var lf logFlags
	lf.register(fs, "warn")
	return fs, &lf
}

// listingFlags parses the flags of tools-list and help-preview, which may
// come before or after the one PATH, by the conventions of parseFlags. It
// returns the PATH (default ".") and -1, or the exit code to return at
// once: 0 after --help, 2 after a usage error.
func listingFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (string, int) {
	paths, code := parseFlags(fs, fs.Name(), args, true, stdout, stderr, listingUsageOf(fs))
	if code >= 0 {
		return "", code
	}
	switch len(paths) {
	case 0:
		return ".", -1
	case 1:
		return paths[0], -1
	}
	fmt.Fprintf(stderr, "%s: one PATH at most, got %d\n%s", fs.Name(), len(paths), helpHint(fs.Name()))
	return "", 2
}

// loadListing indexes path and returns its tools and mounts.
func loadListing(ctx context.Context, name, path string, lf *logFlags, stderr io.Writer) (*workspace.Workspace, []workspace.ListedTool, []workspace.Mount, func(), bool) {
	log, done, err := lf.logger(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return nil, nil, nil, nil, false
	}
	if _, err := os.Stat(path); err != nil {
		done()
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return nil, nil, nil, nil, false
	}
	ws := workspace.New(workspace.Options{Logger: log})
	cleanup := func() { ws.Close(); done() }
	if err := ws.AddFolder(ctx, path, nil); err != nil {
		cleanup()
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return nil, nil, nil, nil, false
	}
	tools, mounts := ws.Listing(ctx)
	return ws, tools, mounts, cleanup, true
}

// servers groups the tools the way servers see them: one group per mount
// (its tools in list order; a listed module that is not a tool is left
// out), or one group of every tool when there is no mount.
type mcpServer struct {
	title string
	// notes are printed as comment lines of their own below the title:
	// listed modules left out, a tools list that could not be read.
	notes []string
	tools []workspace.ListedTool
}

func servers(ws *workspace.Workspace, cwd string, tools []workspace.ListedTool, mounts []workspace.Mount) []mcpServer {
	if len(mounts) == 0 {
		s := mcpServer{title: fmt.Sprintf("no mount found: every tool module (%d)", len(tools)), tools: tools}
		// What Wymcp.Router.init/1 would raise for a mount listing them
		// all: a tool named help (Wymcp adds its own), a name taken twice.
		byName := map[string][]string{}
		var names []string
		for _, t := range tools {
			if n := t.Info.Name; n != nil && n.Kind == validate.String && !n.Unknown {
				if byName[n.Text] == nil {
					names = append(names, n.Text)
				}
				byName[n.Text] = append(byName[n.Text], t.Info.Module)
			}
		}
		for _, n := range names {
			switch ms := byName[n]; {
			case n == "help":
				verb := map[bool]string{true: "is", false: "are"}[len(ms) == 1]
				s.notes = append(s.notes, fmt.Sprintf("%s %s named \"help\", which Wymcp reserves for its own help tool: a mount listing it does not start (reserved-tool-name)", strings.Join(ms, ", "), verb))
			case len(ms) > 1:
				s.notes = append(s.notes, fmt.Sprintf("%s are named %q: a mount listing two of them does not start (duplicate-tool-name)", strings.Join(ms, ", "), n))
			}
		}
		return []mcpServer{s}
	}
	byModule := map[string]workspace.ListedTool{}
	for _, t := range tools {
		if _, ok := byModule[t.Tool.Module]; !ok {
			byModule[t.Tool.Module] = t
		}
	}
	var out []mcpServer
	for _, m := range mounts {
		s := mcpServer{}
		var left, unread []string
		for _, name := range m.Tools {
			if t, ok := byModule[name]; ok {
				s.tools = append(s.tools, t)
			} else if slices.Contains(m.Unread, name) {
				unread = append(unread, name)
			} else if name != "Wymcp.Help" { // Wymcp's own help tool: in Refused
				left = append(left, name)
			}
		}
		s.title = fmt.Sprintf("mount at %s: %s", where(ws, cwd, positions.Loc{URI: m.URI, Span: m.Span}), plural(len(s.tools), "tool"))
		if len(left) > 0 {
			s.notes = append(s.notes, fmt.Sprintf("left out of that mount's list, not tool modules of the workspace: %s", strings.Join(left, ", ")))
		}
		if len(unread) > 0 {
			root := workspace.ProjectRoot(filepath.Dir(workspace.URIPath(m.URI)))
			s.notes = append(s.notes, fmt.Sprintf("left out of that mount's list, defined by no file read: %s; run this on %s to read the whole project",
				strings.Join(unread, ", "), displayPath(cwd, root, "")))
		}
		if !m.Complete {
			s.notes = append(s.notes, "part of that mount's tools list could not be read")
		}
		if len(m.Refused) > 0 {
			s.notes = append(s.notes, fmt.Sprintf("Wymcp.Router.init/1 raises for that mount, so the server does not start: %s (see wymcp-ls check)", strings.Join(m.Refused, "; ")))
		}
		out = append(out, s)
	}
	return out
}

// where writes a location as path:line:col (1-based, column in characters).
func where(ws *workspace.Workspace, cwd string, l positions.Loc) string {
	p := displayPath(cwd, workspace.URIPath(l.URI), l.URI)
	m, ok := ws.Mapper(l.URI)
	if !ok {
		return p
	}
	line, col := m.LineCol(l.Span.Start)
	return fmt.Sprintf("%s:%d:%d", p, line, col)
}

// writeNotes prints one comment line per note.
func writeNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(w, "# %s\n", n)
	}
}

// noTools tells stderr, as check does, that PATH holds no tool module
// (README.md "Command line"): the answer printed holds only help.
func noTools(ws *workspace.Workspace, tools []workspace.ListedTool, path string, stderr io.Writer) {
	if len(tools) == 0 {
		writeNoTools(stderr, path, ws.Stats().FilesRead)
	}
}

// writeNoTools writes the line of README.md "Command line" that says no
// tool module was found under paths (one PATH, or several joined with
// spaces) in filesRead files.
func writeNoTools(stderr io.Writer, paths string, filesRead int) {
	fmt.Fprintf(stderr, "wymcp-ls: no Wymcp tool modules found under %s (%s read)\n", paths, plural(filesRead, "file"))
}

// writeGaps prints one comment line per gap.
func writeGaps(w io.Writer, ws *workspace.Workspace, cwd string, gaps []listing.Gap) {
	for _, g := range gaps {
		if l, ok := positions.LocOf(g.Origin); ok {
			fmt.Fprintf(w, "# not evaluated: %s (%s)\n", g.What, where(ws, cwd, l))
			continue
		}
		fmt.Fprintf(w, "# not evaluated: %s\n", g.What)
	}
}

func toolsOf(ls []workspace.ListedTool) []listing.Tool {
	out := make([]listing.Tool, len(ls))
	for i, l := range ls {
		out[i] = l.Tool
	}
	return out
}

// runToolsList is `wymcp-ls tools-list [PATH]`: exit 0, or 2 on a usage
// error, a PATH that cannot be read, or a tokenizer failure.
func runToolsList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	tokens := newCounter()
	fs, lf := toolsListFlags()
	path, code := listingFlags(fs, args, stdout, stderr)
	if code >= 0 {
		return code
	}
	ws, tools, mounts, cleanup, ok := loadListing(ctx, fs.Name(), path, lf, stderr)
	if !ok {
		return 2
	}
	defer cleanup()
	noTools(ws, tools, path, stderr)
	cwd, _ := os.Getwd()
	for i, s := range servers(ws, cwd, tools, mounts) {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		ans := listing.ToolsList(toolsOf(s.tools))
		fmt.Fprintf(stdout, "# %s, then help\n", s.title)
		writeNotes(stdout, s.notes)
		stdout.Write(ans.Pretty())
		for _, t := range s.tools {
			f, err := listing.Measure(tokens, listing.Entry(t.Tool))
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
				return 2
			}
			fmt.Fprintf(stdout, "# entry of %s: %s\n", t.Tool.Module, f.Label())
			if t.Offences > 0 {
				fmt.Fprintf(stdout, "#   %s\n", refused(t, "its entry"))
			}
		}
		f, err := listing.Measure(tokens, ans)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
			return 2
		}
		fmt.Fprintf(stdout, "# total: the tools array of the tools/list answer, help included, as the compact JSON the server sends: %s\n", f.Label())
		writeGaps(stdout, ws, cwd, ans.Gaps)
	}
	return 0
}

// refused is the note on a tool t with action-schema offences, which
// Wymcp.Router refuses to mount: what is shown of it (its entry, its line
// of the help index, this answer) is what it would read.
func refused(t workspace.ListedTool, shown string) string {
	return fmt.Sprintf("%s has %s: Wymcp.Router refuses to mount it; %s is shown as it would read (see wymcp-ls check)", t.Tool.Module, plural(t.Offences, "action-schema offence"), shown)
}

// runHelpPreview is `wymcp-ls help-preview [--tool NAME] [--action NAME]
// [PATH]`: exit 0, 1 when the tool or action is not found, 2 on a usage
// error or a PATH that cannot be read.
func runHelpPreview(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	tokens := newCounter()
	fs, toolName, actionName, lf := helpPreviewFlags()
	path, code := listingFlags(fs, args, stdout, stderr)
	if code >= 0 {
		return code
	}
	if *actionName != "" && *toolName == "" {
		fmt.Fprintf(stderr, "%s: --action needs --tool\n%s", fs.Name(), helpHint(fs.Name()))
		return 2
	}
	ws, tools, mounts, cleanup, ok := loadListing(ctx, fs.Name(), path, lf, stderr)
	if !ok {
		return 2
	}
	defer cleanup()
	if *toolName == "" {
		noTools(ws, tools, path, stderr)
	}
	cwd, _ := os.Getwd()

	var answers []*listing.Answer
	var titles []string
	var notes [][]string
	if *toolName == "" {
		for _, s := range servers(ws, cwd, tools, mounts) {
			titles = append(titles, "help index, "+s.title)
			n := s.notes
			for _, t := range s.tools {
				if t.Offences > 0 {
					n = append(slices.Clip(n), refused(t, "its line"))
				}
			}
			notes = append(notes, n)
			answers = append(answers, listing.HelpIndex(toolsOf(s.tools)))
		}
	} else {
		t, same, found := findTool(tools, *toolName)
		if !found {
			fmt.Fprintf(stderr, "%s: no tool named %q under %s\n", fs.Name(), *toolName, filepath.Clean(path))
			return 1
		}
		if len(same) > 1 {
			fmt.Fprintf(stderr, "%s: %d tool modules are named %q under %s (%s): give --tool a module name\n",
				fs.Name(), len(same), *toolName, filepath.Clean(path), strings.Join(same, ", "))
			return 1
		}
		if n := t.Info.Name; n != nil && n.Kind == validate.String && !n.Unknown && n.Text == "help" {
			// Wymcp answers help {tool: "help"} with its own tool, and no
			// mount of a tool named help starts.
			notes = append(notes, []string{t.Tool.Module + " is named \"help\", which Wymcp reserves for its own help tool: a mount listing it does not start (reserved-tool-name); this is the answer it would give under another name"})
		}
		if t.Offences > 0 {
			if len(notes) == 0 {
				notes = append(notes, nil)
			}
			notes[0] = append(notes[0], refused(t, "this answer"))
		}
		if *actionName == "" {
			titles = append(titles, "help answer for tool "+t.Tool.Module)
			answers = append(answers, listing.HelpTool(t.Tool))
		} else {
			a, err := listing.HelpAction(t.Tool, *actionName)
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
				return 1
			}
			titles = append(titles, "help answer for action :"+*actionName+" of tool "+t.Tool.Module)
			answers = append(answers, a)
		}
	}
	for i, a := range answers {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "# %s\n", titles[i])
		if i < len(notes) {
			writeNotes(stdout, notes[i])
		}
		stdout.Write(a.Pretty())
		f, err := listing.Measure(tokens, a)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
			return 2
		}
		fmt.Fprintf(stdout, "# size, as the compact JSON the server sends: %s\n", f.Label())
		writeGaps(stdout, ws, cwd, a.Gaps)
	}
	return 0
}

// findTool finds a tool by the string name/0 returns, else by module
// name. same lists the modules of every tool of that name/0 (in the order
// of tools) when there is more than one and no tool module is named so:
// the name does not tell which. The module name disambiguates, as the
// error message advises, even when it is also the name/0 of several.
func findTool(tools []workspace.ListedTool, name string) (t workspace.ListedTool, same []string, found bool) {
	var byName []workspace.ListedTool
	var byModule *workspace.ListedTool
	for i, c := range tools {
		if n := c.Tool.Name; n != nil && n.Kind == validate.String && n.Text == name && !n.Unknown {
			byName = append(byName, c)
			same = append(same, c.Tool.Module)
		}
		if c.Tool.Module == name && byModule == nil {
			byModule = &tools[i]
		}
	}
	switch {
	case len(byName) == 1:
		return byName[0], nil, true
	case byModule != nil:
		return *byModule, nil, true
	case len(byName) > 1:
		return byName[0], same, true
	}
	return workspace.ListedTool{}, nil, false
}
