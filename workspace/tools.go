package workspace

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
)

// The tool as Wymcp sees it (README.md "What counts as a tool module",
// README.md "Tools, routers and hints"): which modules are tools
// (directly or behind a wrapper), what their identity callbacks return,
// where routers mount them, and the checks that need every tool at once.

// scanMarkers are the cheap scan's byte strings: a file holding none of
// them (nor `use W` for a known wrapper W) declares no tool, mounts none,
// registers none and builds no hint, so it is parsed only when a tool
// looks up a module it defines. "Wymcp.{" is `alias Wymcp.{Hint}`, after
// which `Hint.new(...)` builds a hint though no "Wymcp.Hint" is written.
var scanMarkers = [][]byte{toolMarker, []byte("Wymcp.Router"), []byte("Wymcp.Hint"), []byte("register_tool"), []byte("Wymcp.{")}

// mayMatter reports whether content passes the cheap scan: it holds a
// marker, or a `use` of one of the wrapper names (full names and their
// tails, for `alias MyApp.Tool` then `use Tool`; usesName), or an alias
// with options of one of them, of a Wymcp module or of a namespace above
// one (`alias App.Base, as: B`, after which `use B.Tool` names
// App.Base.Tool; aliasedWithOptions).
func mayMatter(content []byte, wrapperNames []string) bool {
	for _, m := range scanMarkers {
		if bytes.Contains(content, m) {
			return true
		}
	}
	for _, n := range wrapperNames {
		if usesName(content, n) {
			return true
		}
	}
	// `alias App.Base, as: B` then `use B.Tool` (or `alias Wymcp, as: W`
	// then `use W.Tool`): the name the use writes is not known, so a file
	// aliasing a wrapper, a Wymcp module or a namespace above one with
	// options is parsed.
	if !bytes.Contains(content, []byte("as:")) {
		return false
	}
	for _, names := range [][]string{wrapperNames, wymcpNames} {
		for _, n := range names {
			for p := n; p != ""; {
				if aliasedWithOptions(content, p) {
					return true
				}
				i := strings.LastIndexByte(p, '.')
				if i < 0 {
					break
				}
				p = p[:i]
			}
		}
	}
	return false
}

// wymcpNames are the Wymcp modules a file may name through an alias with
// options instead of writing a scan marker (mayMatter).
var wymcpNames = []string{"Wymcp.Tool", "Wymcp.Router", "Wymcp.Hint"}

// aliasedWithOptions reports whether content may hold `alias name, ...`
// or `require name, ...` (also `alias(name, ...)`, `alias Elixir.name,
// ...`), by bytes.
func aliasedWithOptions(content []byte, name string) bool {
	for i := 0; ; {
		j := bytes.Index(content[i:], []byte(name))
		if j < 0 {
			return false
		}
		j += i
		i = j + 1
		k := j + len(name)
		for k < len(content) && (content[k] == ' ' || content[k] == '\t') {
			k++
		}
		if k >= len(content) || content[k] != ',' {
			continue
		}
		if precededBy(content, j, "alias") || precededBy(content, j, "require") {
			return true
		}
	}
}

// precededBy reports whether the name at byte j of content follows the
// word kw: kw, then spaces, newlines or a `(`, then maybe `Elixir.`.
func precededBy(content []byte, j int, kw string) bool {
	if j >= len("Elixir.") && string(content[j-len("Elixir."):j]) == "Elixir." {
		j -= len("Elixir.")
	}
	sep := j
	for j > 0 && (content[j-1] == ' ' || content[j-1] == '\t' || content[j-1] == '\n' || content[j-1] == '\r' || content[j-1] == '(') {
		j--
	}
	n := len(kw)
	return j < sep && j >= n && string(content[j-n:j]) == kw && (j == n || !isIdent(content[j-n-1]))
}

// usesName reports whether content may hold `use name`, by bytes: name
// after `use` and spaces, newlines or a `(`, with or without `Elixir.`
// before it (`use App.Tool`, `use(App.Tool)`, `use Elixir.App.Tool`).
func usesName(content []byte, name string) bool {
	for i := 0; ; {
		j := bytes.Index(content[i:], []byte(name))
		if j < 0 {
			return false
		}
		if precededBy(content, i+j, "use") {
			return true
		}
		i += j + 1
	}
}

// wrapperSet returns the workspace modules that make a tool module of the
// modules that `use` them: those whose defmacro __using__/1 quotes `use
// Wymcp.Tool` or `@behaviour Wymcp.Tool`, or `use` of another wrapper, up
// to elixir.MaxWrapperDepth wrappers deep.
func wrapperSet(ix index) map[string]bool {
	quoted := map[string][]string{}
	for name, ms := range ix {
		for _, m := range ms {
			for _, r := range elixir.QuotedUses(m) {
				quoted[name] = append(quoted[name], r.Module)
			}
		}
	}
	out := map[string]bool{}
	for round := 0; round < elixir.MaxWrapperDepth; round++ {
		grew := false
		for name, uses := range quoted {
			if out[name] {
				continue
			}
			for _, u := range uses {
				if u == "Wymcp.Tool" || out[u] {
					out[name] = true
					grew = true
					break
				}
			}
		}
		if !grew {
			break
		}
	}
	return out
}

// wrapperNames returns the byte-search names of a wrapper set, sorted:
// each full name and every tail of its segments, as a `use` may write it
// after an alias (App.Base.Tool, Base.Tool after `alias App.Base`, Tool
// after `alias App.Base.Tool`).
func wrapperNames(ws map[string]bool) []string {
	seen := map[string]bool{}
	for n := range ws {
		for tail := n; tail != ""; {
			seen[tail] = true
			_, rest, ok := strings.Cut(tail, ".")
			if !ok {
				break
			}
			tail = rest
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// isTool reports whether m is a tool module: it writes `use Wymcp.Tool`
// or `@behaviour Wymcp.Tool` in its own body, or `use W` for a wrapper W
// of ws.
func isTool(m *elixir.Module, ws map[string]bool) bool {
	if m == nil {
		return false
	}
	if m.Tool {
		return true
	}
	if len(ws) == 0 {
		return false
	}
	for _, r := range elixir.Uses(m) {
		if ws[r.Module] {
			return true
		}
	}
	return false
}

// ToolInfo is what Wymcp's tools/list and help read of one tool module
// (README.md "What the LLM sees"). Values are the reader's evaluation:
// validate.Opaque where a callback cannot be evaluated (never guessed).
type ToolInfo struct {
	// Module is the tool module's full name ("App.Tools.Tasks").
	Module string
	// URI is the document defining it; NameSpan where name/0's value is
	// written (bytes; the module name when name/0 is absent or its value
	// is not written in URI).
	URI      string
	NameSpan positions.Span
	// Name is what name/0 returns; nil when the module defines no name/0.
	Name *validate.Value
	// Description is what description/0 returns (nil when undefined);
	// Title, Annotations and OutputSchema are nil when the callback is
	// absent, as Has* report.
	Description, Title, Annotations, OutputSchema               *validate.Value
	HasTitle, HasAnnotations, HasOutputSchema, HasActionContext bool
	// Actions is the evaluated actions/0 map (nil without actions/0).
	Actions *validate.Value
	// ActionsSpan is the `def actions` definition (for the code lens).
	ActionsSpan positions.Span
}

// NameText returns the tool's name when name/0 evaluates to a known
// string, and false otherwise.
func (t *ToolInfo) NameText() (string, bool) {
	if t == nil || t.Name == nil || t.Name.Kind != validate.String || t.Name.Unknown {
		return "", false
	}
	return t.Name.Text, true
}

// Mount is one router mount (`forward "/mcp", Wymcp.Router, tools: [...]`
// or `use Wymcp.Router, tools: [...]`): its tools in list order.
type Mount struct {
	// Module is the module the mount is written in (the router); URI and
	// Span locate the forward/use call (bytes).
	Module string
	URI    string
	Span   positions.Span
	// Tools are the listed module names, in list order, as resolved.
	Tools []string
	// Complete is false when part of the list could not be read.
	Complete bool
	// Unread are the listed modules that no file read defines while the
	// router's Mix project (ProjectRoot) is not wholly under the folders
	// read: they may be defined in a file left out, so they are not checked
	// (docs/rules.md §5), in list order.
	Unread []string
	// Refused are the errors Wymcp.Router.init/1 raises for this mount, in
	// list order, each its offence alone (`tool name "help" is reserved`,
	// `Wymcp.Help is listed`): with one, the server does not start.
	Refused []string
}

// toolInfo builds the ToolInfo of module m from its evaluation.
func toolInfo(m *elixir.Module, res *elixir.Result) *ToolInfo {
	t := &ToolInfo{Module: m.Name, URI: m.URI, NameSpan: m.NameSpan}
	if res == nil {
		return t
	}
	get := func(name string) (*validate.Value, bool) {
		cb, ok := res.Callbacks[name]
		return cb.Value, ok
	}
	t.Name, _ = get("name")
	if t.Name != nil {
		if l, ok := positions.LocOf(t.Name.Origin); ok && l.URI == m.URI {
			t.NameSpan = l.Span
		}
	}
	t.Description, _ = get("description")
	t.Title, t.HasTitle = get("title")
	t.Annotations, t.HasAnnotations = get("annotations")
	t.OutputSchema, t.HasOutputSchema = get("output_schema")
	t.HasActionContext = res.HasActionContext
	if res.Found {
		t.Actions = res.Actions
		if res.Def != nil {
			t.ActionsSpan = res.Def.Span
		}
	}
	return t
}

// Tools analyses the workspace (as Diagnose) and returns every tool
// module's ToolInfo, sorted by module name then URI, and every mount,
// sorted by URI then position.
func (w *Workspace) Tools(ctx context.Context) ([]*ToolInfo, []Mount) {
	w.Diagnose(ctx)
	w.mu.Lock()
	defer w.mu.Unlock()
	var infos []*ToolInfo
	for _, key := range slices.Sorted(maps.Keys(w.tools)) {
		if t := w.tools[key]; t.info != nil {
			infos = append(infos, t.info)
		}
	}
	sort.SliceStable(infos, func(i, j int) bool {
		if infos[i].Module != infos[j].Module {
			return infos[i].Module < infos[j].Module
		}
		return infos[i].URI < infos[j].URI
	})
	return infos, append([]Mount(nil), w.mounts...)
}

// shapeBad returns the actions (as written, ":create") with a shape
// offence: their payloads are not checked (README.md "Tools, routers and hints").
func shapeBad(offs []validate.Offence) map[string]bool {
	out := map[string]bool{}
	for _, o := range offs {
		if o.Kind == validate.KindShape && o.Action != "" {
			out[o.Action] = true
		}
	}
	return out
}

// toolLints returns the per-tool checks beyond the action schemas: the
// tool name rule, the :examples payloads and the run_action/3 coverage.
// It adds the modules the dispatch reading looked up to res (lazy parsing
// and re-analysis follow them).
func toolLints(r elixir.Resolver, m *elixir.Module, res *elixir.Result, offs []validate.Offence) []validate.Offence {
	var out []validate.Offence
	if cb, ok := res.Callbacks["name"]; ok {
		out = append(out, validate.ToolName(cb.Value)...)
	}
	if !res.Found || res.Actions == nil {
		return out
	}
	out = append(out, validate.Examples(res.Actions, shapeBad(offs))...)
	d := elixir.DispatchOf(r, m)
	res.Modules = append(res.Modules, d.Modules...)
	res.Deps = append(res.Deps, d.URIs...)
	var looked []string
	injected := injectsDispatch(r, m, 0, &looked)
	res.Modules = append(res.Modules, looked...)
	if d.Known && !injected {
		out = append(out, validate.Dispatch(res.Actions, validate.DispatchAtoms{Clauses: d.Atoms, Guards: d.Guarded, Cases: d.Cased, CatchAll: d.CatchAll})...)
	}
	return out
}

// injectsDispatch reports whether code m does not write itself may add
// run_action/3 clauses: an `@before_compile` hook, or a `use`d module whose
// __using__ quotes a `def run_action` (or `use`s such a module in turn).
// A `use`d module the workspace does not define (other than Wymcp.Tool)
// may too. Then the coverage of m's own clauses is unknown. The names
// looked up are added to looked.
func injectsDispatch(r elixir.Resolver, m *elixir.Module, depth int, looked *[]string) bool {
	if m == nil || depth > elixir.MaxWrapperDepth {
		return false
	}
	for _, a := range m.Attrs {
		if a.Name == "before_compile" {
			return true
		}
	}
	for _, u := range elixir.Uses(m) {
		if u.Module == "Wymcp.Tool" {
			continue
		}
		*looked = append(*looked, u.Module)
		w := r.Module(u.Module)
		if w == nil {
			return true
		}
		for _, d := range w.Defs {
			if !d.Macro() || d.Name != "__using__" || d.Body == nil {
				continue
			}
			found := false
			elixir.Walk(d.Body, func(e *elixir.Expr) bool {
				if e.Kind == elixir.ExprCall && e.Base == nil && (e.Text == "def" || e.Text == "defp") && len(e.Args) > 0 {
					h := e.Args[0]
					if h.Kind == elixir.ExprBinary && h.Text == "when" && len(h.Args) > 0 {
						h = h.Args[0]
					}
					if h.Kind == elixir.ExprCall && h.Text == "run_action" {
						found = true
					}
				}
				return !found
			})
			if found {
				return true
			}
		}
		if injectsDispatch(r, w, depth+1, looked) {
			return true
		}
	}
	return false
}

// globalLocked runs the checks that need every tool at once: the mounts
// (reserved-tool-name, duplicate-tool-name, help-listed,
// lint/unknown-tool-module), the runtime registrations, lint/tool-not-mounted,
// and the hints (hint-not-string, lint/hint-unknown-tool,
// lint/hint-unknown-action, payload lints). It stores the mounts in
// w.mounts and returns the problems by document, and the last segments of
// the module names it looked up without finding them (a tools list read
// through `Tools.all()` of a file the cheap scan left unparsed). w.mu must
// be held.
func (w *Workspace) globalLocked(ctx context.Context) (map[string][]Problem, map[string]bool) {
	out := map[string][]Problem{}
	miss := map[string]bool{}
	w.mounts, w.hintSites = nil, nil
	w.toolNames = map[string]string{}
	byModule := map[string]*tool{}
	byName := map[string]validate.HintTarget{}
	allNames := true
	// For a module or tool name defined twice, the tool of the lowest key
	// (URI) wins, as in index.lookup; no sort of every tool per Diagnose.
	nameKey := map[string]string{}
	// A mount reads its own folder root's tool of a module first (two
	// roots may hold one project twice, two worktrees whose tools differ:
	// docs/architecture.md "Workspace", multi-root), and only else the
	// tool another root defines.
	byRoot := map[string]map[string]*tool{}
	for key, t := range w.tools {
		if prev, seen := byModule[t.name]; !seen || key < prev.key {
			byModule[t.name] = t
		}
		root := w.rootOfLocked(t.uri)
		if byRoot[root] == nil {
			byRoot[root] = map[string]*tool{}
		}
		if prev, seen := byRoot[root][t.name]; !seen || key < prev.key {
			byRoot[root][t.name] = t
		}
		if t.info == nil {
			continue
		}
		if n, ok := t.info.NameText(); ok {
			if prev, dup := nameKey[n]; !dup || key < prev {
				nameKey[n] = key
				w.toolNames[n] = t.name
				byName[n] = validate.HintTarget{Actions: t.info.Actions, Skip: t.skip}
			}
		} else {
			allNames = false
		}
	}
	add := func(uri string, p Problem) {
		if p.Code != "" && strings.HasPrefix(p.Code, "lint/") && w.disabledLocked(uri)[p.Code] {
			return
		}
		out[uri] = append(out[uri], p)
	}
	nameOf := func(t *tool) (string, positions.Loc, bool) {
		if t == nil || t.info == nil {
			return "", positions.Loc{}, false
		}
		n, ok := t.info.NameText()
		if !ok {
			return "", positions.Loc{}, false
		}
		l, _ := positions.LocOf(t.info.Name.Origin)
		return n, l, ok
	}
	var ruledOut map[string]bool // last segments defined by files the cheap scan left unparsed, built on first need
	definedUnparsed := func(name string) bool {
		if ruledOut == nil {
			ruledOut = map[string]bool{}
			for _, f := range w.files {
				if f.parsed == nil {
					for _, d := range f.defines {
						ruledOut[d] = true
					}
				}
			}
		}
		return ruledOut[lastSegment(name)]
	}
	var namespaces map[string]bool
	ownNamespace := func(name string) bool {
		if namespaces == nil {
			namespaces = map[string]bool{}
			for _, f := range w.files {
				content := f.disk
				if f.open {
					content = f.text
				}
				for _, ns := range definedNamespaces(content) {
					namespaces[ns] = true
				}
			}
		}
		first, _, _ := strings.Cut(name, ".")
		return namespaces[first]
	}
	listed := map[string]bool{}     // the keys of the tools a mount or register_tool names
	mounts := map[string]int{}      // mounts by folder root
	incomplete := map[string]bool{} // roots with a mount whose list is not readable
	for uri := range w.facts {
		if f := w.files[uri]; f == nil || f.parsed == nil {
			delete(w.facts, uri)
		}
	}
	var withFacts []string // URIs with a mount, a registration or a hint
	for uri, f := range w.files {
		if f.parsed == nil {
			continue
		}
		ff := w.facts[uri]
		if ff == nil || ff.file != f.parsed {
			ff = readFacts(f.parsed)
			w.facts[uri] = ff
		}
		if len(ff.mods) > 0 {
			withFacts = append(withFacts, uri)
		}
	}
	sort.Strings(withFacts)
	var mods []*moduleFacts
	for _, uri := range withFacts {
		mods = append(mods, w.facts[uri].mods...)
	}
	toolFor := func(root, module string) *tool {
		if t := byRoot[root][module]; t != nil {
			return t
		}
		return byModule[module]
	}
	for _, mf := range mods {
		m := mf.m
		r := missRecorder{resolver{w.index, w.rootOfLocked(m.URI)}, miss}
		for _, mt := range mf.mounts {
			mounts[r.r.root]++
			refs, ok := elixir.ToolList(r, m, mt.Tools)
			if !ok {
				incomplete[r.r.root] = true
			}
			mount := Mount{Module: m.Name, URI: m.URI, Span: mt.Span, Complete: ok}
			first := map[string]elixir.Ref{}
			for _, ref := range refs {
				mount.Tools = append(mount.Tools, ref.Module)
				t := toolFor(r.r.root, ref.Module)
				if t != nil {
					listed[t.key] = true
				}
				refuse := func(p Problem) {
					what := p.Offence
					if !strings.Contains(what, ref.Module) {
						what += " (" + ref.Module + ")"
					}
					mount.Refused = append(mount.Refused, what)
					add(ref.URI, p)
				}
				if ref.Module == "Wymcp.Help" {
					refuse(Problem{Span: ref.Span, Code: validate.CodeHelpListed, Severity: validate.Error,
						Message: "Wymcp.Router.init/1 raises: Wymcp.Help is added to every server and must not be listed",
						Offence: "Wymcp.Help is listed", Fix: "remove Wymcp.Help from the list"})
					continue
				}
				if t == nil {
					msg := fmt.Sprintf("%s is not a module of this workspace", ref.Module)
					if w.index.lookup(ref.Module, r.r.root) != nil || definedUnparsed(ref.Module) {
						msg = fmt.Sprintf("%s is not a tool module (no `use Wymcp.Tool`, `@behaviour Wymcp.Tool` or tool wrapper)", ref.Module)
					} else if !w.projectReadLocked(m.URI) {
						mount.Unread = append(mount.Unread, ref.Module)
						allNames = false // a tool whose name is not known
						continue
					} else if !ownNamespace(ref.Module) {
						// Of a namespace no file read uses: it may be a
						// dependency's module (deps/ and path dependencies
						// are not read), so it is not certainly missing.
						allNames = false
						continue
					}
					add(ref.URI, Problem{Span: ref.Span, Code: validate.LintUnknownToolModule, Severity: validate.Warning,
						Message: msg, Offence: msg, Fix: "list tool modules only"})
					continue
				}
				name, nameLoc, ok := nameOf(t)
				if !ok {
					continue
				}
				if name == "help" {
					refuse(Problem{Span: ref.Span, Code: validate.CodeReservedToolName, Severity: validate.Error, Tool: t.name,
						Message: fmt.Sprintf("Wymcp.Router.init/1 raises: %s is named \"help\", the name of the built-in help tool", t.name),
						Offence: "tool name \"help\" is reserved", Fix: "rename the tool in its name/0",
						Related: []Related{{URI: nameLoc.URI, Span: nameLoc.Span, Message: "name/0 of " + t.name}}})
					continue
				}
				if prev, dup := first[name]; dup {
					refuse(Problem{Span: ref.Span, Code: validate.CodeDuplicateToolName, Severity: validate.Error, Tool: t.name,
						Message: fmt.Sprintf("Wymcp.Router.init/1 raises: %s and %s are both named %q", prev.Module, ref.Module, name),
						Offence: fmt.Sprintf("tool name %q is listed twice", name), Fix: "give each listed tool its own name/0",
						Related: []Related{{URI: prev.URI, Span: prev.Span, Message: "first tool named " + fmt.Sprintf("%q", name)}}})
					continue
				}
				first[name] = ref
			}
			w.mounts = append(w.mounts, mount)
		}
		for _, ref := range mf.regs {
			t := toolFor(r.r.root, ref.Module)
			if t != nil {
				listed[t.key] = true
			}
			if name, nameLoc, ok := nameOf(t); ok && name == "help" {
				add(ref.URI, Problem{Span: ref.Span, Code: validate.CodeReservedToolName, Severity: validate.Error, Tool: ref.Module,
					Message: fmt.Sprintf("Wymcp.Session.register_tool/2 raises: %s is named \"help\", the name of the built-in help tool", ref.Module),
					Offence: "tool name \"help\" is reserved", Fix: "rename the tool in its name/0",
					Related: []Related{{URI: nameLoc.URI, Span: nameLoc.Span, Message: "name/0 of " + ref.Module}}})
			}
		}
	}
	// The hints after every mount: a mount listing a module whose name
	// cannot be known (unread, or a dependency's) makes the tool names
	// incomplete for lint/hint-unknown-tool.
	w.hintTools, w.hintAll = byName, allNames
	for _, mf := range mods {
		m := mf.m
		r := missRecorder{resolver{w.index, w.rootOfLocked(m.URI)}, miss}
		for _, h := range mf.hints {
			tv := elixir.EvalIn(ctx, r, m, h.Tool)
			av := elixir.EvalIn(ctx, r, m, h.Action)
			data := validate.ExampleData(elixir.EvalIn(ctx, r, m, h.Example))
			if site, ok := hintSiteOf(tv, av); ok {
				w.hintSites = append(w.hintSites, site)
			}
			for _, o := range validate.CheckHint(tv, av, data, h.New, byName, allNames) {
				l, ok := positions.LocOf(o.Pointer)
				if !ok {
					l = positions.Loc{URI: m.URI, Span: h.Span}
				}
				p := Problem{Span: l.Span, Code: o.Code, Severity: o.Severity, Message: o.Message, Offence: o.Message, Fix: o.Fix, Tool: m.Name, Location: o.Location}
				if o.Action != "" {
					p.Actions = []string{o.Action}
					p.Message = Prefix(p.Actions, o.Location) + o.Message
				}
				add(l.URI, p)
			}
		}
	}
	if len(mounts) > 0 {
		for _, t := range w.tools { // reportLocked sorts the problems
			if listed[t.key] || t.module == nil {
				continue
			}
			if root := w.rootOfLocked(t.uri); mounts[root] == 0 || incomplete[root] {
				continue // no mount in this tool's project, or one we cannot read
			}
			msg := fmt.Sprintf("%s is a tool that no router mount lists and no register_tool names", t.name)
			add(t.uri, Problem{Span: t.module.NameSpan, Code: validate.LintToolNotMounted, Severity: validate.Hint, Tool: t.name,
				Message: msg, Offence: msg, Fix: "add it to a `tools:` list, or remove it"})
		}
	}
	sort.SliceStable(w.mounts, func(i, j int) bool {
		if w.mounts[i].URI != w.mounts[j].URI {
			return w.mounts[i].URI < w.mounts[j].URI
		}
		return w.mounts[i].Span.Start < w.mounts[j].Span.Start
	})
	return out, miss
}

// globalSafeLocked is globalLocked that never lets a panic escape: bad
// input never crashes the server; the workspace-wide findings are then
// empty until the next Diagnose. w.mu must be held.
func (w *Workspace) globalSafeLocked(ctx context.Context) (out map[string][]Problem, miss map[string]bool) {
	defer func() {
		if r := recover(); r != nil {
			w.log.Error("workspace-wide analysis panicked", zap.Any("panic", r), zap.Stack("stack"))
			out, miss = map[string][]Problem{}, nil
			w.mounts, w.hintSites, w.toolNames = nil, nil, map[string]string{}
			w.hintTools, w.hintAll = nil, false
		}
	}()
	return w.globalLocked(ctx)
}

// projectReadLocked reports whether the Mix project of the document uri
// (ProjectRoot, cached by directory until a mix.exs changes) lies wholly
// under a folder read, so that a module no file read defines is certainly
// not in it; also for a document in no Mix project, or with no disk path,
// where the folders are all there is. w.mu must be held.
func (w *Workspace) projectReadLocked(uri string) bool {
	p := URIPath(uri)
	if p == "" {
		return true
	}
	dir := filepath.Dir(p)
	root, ok := w.projectDirs[dir]
	if !ok {
		root = ProjectRoot(dir)
		if w.projectDirs == nil {
			w.projectDirs = map[string]string{}
		}
		w.projectDirs[dir] = root
	}
	if root == "" {
		return true
	}
	for r := range w.roots {
		if underRoot(root, r) {
			return true
		}
	}
	// An umbrella whose apps directory is read (ReadsProject).
	apps, ok := w.appsDirs[root]
	if !ok {
		apps = appsDir(root)
		if w.appsDirs == nil {
			w.appsDirs = map[string]string{}
		}
		w.appsDirs[root] = apps
	}
	for r := range w.roots {
		if apps != "" && underRoot(apps, r) {
			return true
		}
	}
	return false
}

// missRecorder is a resolver that records the last segment of each name
// it does not find.
type missRecorder struct {
	r    resolver
	miss map[string]bool
}

// Module returns the module named name, or nil (recording the miss).
func (m missRecorder) Module(name string) *elixir.Module {
	if x := m.r.Module(name); x != nil {
		return x
	}
	m.miss[lastSegment(name)] = true
	return nil
}

// HintSite is a hint whose tool: and action: are known strings, with where
// the action string is written (for renaming an action everywhere).
type HintSite struct {
	Tool, Action string
	ActionLoc    positions.Loc
}

// hintSiteOf returns the site of a hint with evaluated tool: and action:.
func hintSiteOf(tool, action *validate.Value) (HintSite, bool) {
	if tool == nil || action == nil || tool.Kind != validate.String || action.Kind != validate.String || tool.Unknown || action.Unknown {
		return HintSite{}, false
	}
	l, ok := positions.LocOf(action.Origin)
	if !ok {
		return HintSite{}, false
	}
	return HintSite{Tool: tool.Text, Action: action.Text, ActionLoc: l}, true
}

// HintSites returns the hints written in m's code whose tool: and action:
// evaluate to known strings (through r).
func HintSites(ctx context.Context, r elixir.Resolver, m *elixir.Module) []HintSite {
	var out []HintSite
	for _, h := range elixir.Hints(m) {
		if site, ok := hintSiteOf(elixir.EvalIn(ctx, r, m, h.Tool), elixir.EvalIn(ctx, r, m, h.Action)); ok {
			out = append(out, site)
		}
	}
	return out
}

// fileFacts caches what globalLocked reads of one parse (the IR is
// immutable, so the reading is valid while the parse is current).
type fileFacts struct {
	file *elixir.File
	mods []*moduleFacts // only modules with a mount, a registration or a hint
}

type moduleFacts struct {
	m      *elixir.Module
	mounts []elixir.Mount
	regs   []elixir.Ref
	hints  []elixir.Hint
}

func readFacts(f *elixir.File) *fileFacts {
	ff := &fileFacts{file: f}
	for _, m := range f.Modules {
		mf := &moduleFacts{m: m, mounts: elixir.Mounts(m)}
		mf.regs, mf.hints = elixir.RegistrationsAndHints(m)
		if len(mf.mounts)+len(mf.regs)+len(mf.hints) > 0 {
			ff.mods = append(ff.mods, mf)
		}
	}
	return ff
}
