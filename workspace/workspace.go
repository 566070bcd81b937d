// Package workspace holds the set of Elixir files wymcp-ls analyses (files
// on disk plus open editor buffers, buffers winning), knows which tool
// module reads which file, and re-analyses exactly the dependents of a
// change (docs/architecture.md "Packages and imports"). It is shared by lsp and `check`.
//
// All methods are safe for concurrent use.
package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
)

// MaxFileSize is the default size, in bytes, above which a file is skipped
// with a log line (docs/architecture.md "LSP behaviour": files over 2 MiB).
const MaxFileSize = 2 << 20

// CodeSyntaxError is the problem code of a file that cannot be read or of
// a syntax error inside a tool declaration (docs/rules.md §4 "syntax-error").
const CodeSyntaxError = "syntax-error"

// skipDirs are the directory names never indexed (docs/architecture.md "LSP behaviour").
var skipDirs = map[string]bool{
	"_build": true, "deps": true, ".git": true, "node_modules": true,
	".elixir_ls": true, ".lexical": true, "cover": true,
}

// Options configures a Workspace. The zero value is usable.
type Options struct {
	// Logger receives log lines; nil means zap.NewNop().
	Logger *zap.Logger
	// MaxFileSize overrides MaxFileSize when positive.
	MaxFileSize int
	// SyntaxSeverity is the severity of syntax-error problems: Error for
	// `check` (the zero value means Error), Warning in the editor, where the
	// Elixir language server already shows the compiler's error (docs/rules.md §4 "syntax-error").
	SyntaxSeverity validate.Severity
	// Parallelism is the number of files parsed at once; 0 means GOMAXPROCS.
	Parallelism int
	// ConfigFile, when not "", is the absolute path of the one
	// .wymcp-ls.yaml every file uses (`check --config FILE`), instead of
	// the nearest one (FindConfig). A missing file is a config error.
	ConfigFile string
}

// Workspace is the analysed file set. Create one with New; Close it to
// free the parsers.
type Workspace struct {
	opts  Options
	log   *zap.Logger
	valid *validate.Validator

	parsers chan *elixir.Parser

	// diagMu serialises Diagnose calls; mu guards everything below.
	diagMu   sync.Mutex
	mu       sync.Mutex
	files    map[string]*file  // by exact URI string
	byPath   map[string]string // disk path -> URI
	lints    map[string]bool   // lint code -> disabled
	dirty    map[string]bool   // URIs whose content changed since the last Diagnose
	gone     map[string]bool   // URIs removed since the last Diagnose
	tools    map[string]*tool  // by toolKey
	last     map[string]string // URI -> fingerprint of the last reported problems
	shown    map[string]bool   // URIs reported with an overlay or problems
	owners   map[string]string // module name -> URI defining it, at the last Diagnose
	index    index             // the module index of the last Diagnose
	snaps    map[string]*cachedSnapshot
	era      int                    // bumped whenever a change may alter any snapshot
	configs  map[string]*configFile // .wymcp-ls.yaml files by URI
	roots    map[string]bool        // folder roots added (disk paths)
	rooted   bool                   // a root was added once: outside holds to roots after all go
	single   map[string]bool        // files AddFolder was given as a folder (disk paths)
	first    bool                   // Diagnose has not run yet
	closed   atomic.Bool            // Close was called: release closes parsers
	parses   atomic.Int64           // files parsed so far (a test hook for the cheap scan)
	evals    int                    // tools evaluated so far (a test hook for re-analysis scope)
	lintGen  int                    // bumped by SetLints; forces re-analysis
	lintSeen int

	// parseHook, when set (by a test), is called before each parse,
	// outside w.mu: a test edits a document there, mid-analysis.
	parseHook func(uri string)

	// configDirs caches FindConfig by directory; emptied when a config
	// file or a mix.exs appears, changes or goes.
	configDirs map[string]string
	// projectDirs caches ProjectRoot by directory; emptied when a mix.exs
	// appears, changes or goes.
	projectDirs map[string]string
	// appsDirs caches the apps_path directory of an umbrella root ("" for
	// a project that is not one); emptied with projectDirs.
	appsDirs map[string]string
	// newConfigs are config URIs first read by discovery during a
	// Diagnose, to report with it.
	newConfigs map[string]bool
	// deduped are the directory links (and directories inside them)
	// addTree skipped as read through another link, by path: read when
	// that link is deleted.
	deduped map[string]deduped

	// toolsGen is bumped whenever w.tools changes (Evaluated).
	toolsGen  int
	wrappers  map[string]bool      // tool wrapper modules at the last Diagnose (tools.go)
	wrapNames []string             // their byte-search names for the cheap scan
	global    map[string][]Problem // workspace-wide tool checks by URI (tools.go)
	mounts    []Mount              // router mounts at the last Diagnose
	hintSites []HintSite           // hints with known tool: and action:, workspace-wide
	toolNames map[string]string    // tool name (name/0) -> module name
	// hintTools and hintAll are what the last Diagnose checked hints
	// against (validate.CheckHint's tools and allNames).
	hintTools map[string]validate.HintTarget
	hintAll   bool
	facts     map[string]*fileFacts // mounts, registrations, hints by URI (tools.go)
}

// file is one document: its disk content, its overlay, and the parse of
// whichever wins.
type file struct {
	uri     string
	path    string // disk path for file: URIs, else ""
	disk    []byte
	onDisk  bool
	readErr error
	tooBig  bool
	size    int64 // disk size in bytes when tooBig

	open    bool
	version int32
	text    []byte

	// orphan marks an open buffer kept by RemoveFolder although no folder
	// root left indexes it: closing it forgets it instead of reading disk.
	orphan bool
	// wanted marks a file ruled out by the cheap scan but parsed because a
	// tool looked up a module it defines; it is parsed eagerly from then on.
	wanted bool
	// defines are the last segments of the names after its `defmodule`s,
	// kept for a ruled-out file (see definedNames).
	defines []string

	gen    int // bumped on every content change
	parsed *elixir.File
	pgen   int // gen of parsed
	mapper *positions.Mapper
}

// content returns the winning content: the overlay when open, else disk.
func (f *file) content() []byte {
	if f.open {
		return f.text
	}
	return f.disk
}

// tool is the last analysis of one tool module.
type tool struct {
	key      string
	uri      string
	name     string
	deps     map[string]bool // URIs read, own included
	names    map[string]bool // module names looked up, found or not
	missing  map[string]bool // last segments of the names not found
	problems map[string][]Problem
	// module and res are the module and its evaluation (res may be nil
	// after a panic), for Evaluated.
	module *elixir.Module
	res    *elixir.Result
	info   *ToolInfo       // identity, actions (nil when evaluation failed)
	skip   map[string]bool // actions with a shape offence (shapeBad)
}

// New returns an empty Workspace.
func New(opts Options) *Workspace {
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = MaxFileSize
	}
	if opts.SyntaxSeverity == 0 {
		opts.SyntaxSeverity = validate.Error
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = runtime.GOMAXPROCS(0)
	}
	return &Workspace{
		opts:    opts,
		log:     log,
		valid:   validate.New(validate.DefaultCatalogue()),
		parsers: make(chan *elixir.Parser, opts.Parallelism),
		files:   map[string]*file{},
		byPath:  map[string]string{},
		lints:   map[string]bool{},
		dirty:   map[string]bool{},
		gone:    map[string]bool{},
		tools:   map[string]*tool{},
		last:    map[string]string{},
		shown:   map[string]bool{},
		first:   true,
		configs: map[string]*configFile{},
		snaps:   map[string]*cachedSnapshot{},
		roots:   map[string]bool{},
		single:  map[string]bool{},

		configDirs: map[string]string{},
		newConfigs: map[string]bool{},
		deduped:    map[string]deduped{},
		facts:      map[string]*fileFacts{},
	}
}

// Close frees the parsers' C memory. Analyses still running finish; a
// parser they release afterwards is closed rather than kept.
func (w *Workspace) Close() {
	w.closed.Store(true)
	for {
		select {
		case p := <-w.parsers:
			p.Close()
		default:
			return
		}
	}
}

// SetLints sets the client's lint switches (LSP settings, section
// "wymcp"): disabled[code] true turns that lint off, false turns it on,
// over what the .wymcp-ls.yaml files say. Every tool is re-analysed at the
// next Diagnose.
func (w *Workspace) SetLints(disabled map[string]bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lints = map[string]bool{}
	for k, v := range disabled {
		w.lints[k] = v
	}
	w.lintGen++
}

// AddFolder indexes every .ex and .exs file under dir (a disk path),
// skipping _build, deps, .git, node_modules, .elixir_ls, .lexical, cover
// and files over the size limit. A dir that is a single file adds that
// file, whatever its extension. progress, if not nil, is called with the
// number of files read and the total. It returns an error only when dir
// cannot be read at all; unreadable files inside it become syntax-error
// problems.
func (w *Workspace) AddFolder(ctx context.Context, dir string, progress func(done, total int)) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("workspace: resolve %q: %w", dir, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	if info.IsDir() {
		w.mu.Lock()
		w.roots[abs] = true
		w.rooted = true
		for _, f := range w.files {
			if f.open && underRoot(f.path, abs) {
				// An open buffer now under this root: indexed again, and
				// its tools resolve from this root first.
				f.orphan = false
				w.dirty[f.uri] = true
			}
		}
		w.mu.Unlock()
		w.loadRootConfig(abs)
		return w.addTree(ctx, abs, "", progress)
	}
	w.mu.Lock()
	w.single[abs] = true
	if f := w.files[w.byPath[abs]]; f != nil && f.orphan {
		f.orphan = false // an open buffer of a removed folder, a folder again
		w.dirty[f.uri] = true
	}
	w.mu.Unlock()
	if w.opts.ConfigFile != "" {
		w.loadRootConfig(filepath.Dir(abs))
	}
	w.readDisk(abs, PathURI(abs))
	if progress != nil {
		progress(1, 1)
	}
	return nil
}

// addTree reads every .ex and .exs file below the directory abs, skipping
// the directories indexing skips, in path order, reporting progress. A
// symbolic link to a directory is followed, as Mix compiles what it holds
// (Path.wildcard follows links), under the link's path; one that leads to
// a directory already walked, or above the folder root or the link it is
// reached through, is not (a loop, or the same files twice), and a
// directory already walked through an earlier link is skipped inside a
// link leading above it. root is the folder root abs lies in ("" when abs
// is one): a link abs leading into or above it reads nothing, as indexing
// the root never follows it.
func (w *Workspace) addTree(ctx context.Context, abs, root string, progress func(done, total int)) error {
	folder := root
	if folder == "" {
		folder = abs
	}
	var paths, walked, via []string // walked: the real paths of the trees read; via: the path each was read under
	var chain []string              // the real paths of the root and the first link abs is reached through
	if root != "" && root != abs {
		if real, err := filepath.EvalSymlinks(root); err == nil {
			walked, via = append(walked, real), append(via, root)
			chain = append(chain, real)
		}
	}
	absReal, err := filepath.EvalSymlinks(abs)
	if err == nil {
		if len(walked) > 0 && (underRoot(absReal, walked[0]) || underRoot(walked[0], absReal)) {
			if lst, err := os.Lstat(abs); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
				w.log.Debug("skipping directory link", zap.String("path", abs), zap.String("why", "it leads into its folder, or above it"))
				return nil
			}
		} else {
			walked, via = append(walked, absReal), append(via, abs)
		}
		chain = append(chain, absReal)
	}
	var walk func(dir, real string, chain []string) error
	walk = func(dir, real string, chain []string) error {
		// Walked from dir with a trailing separator, so that a root that is
		// a symbolic link to a directory (a PATH or workspace folder reached
		// through a link, or a link below one) is followed: WalkDir does not
		// follow a root link, and read nothing below it. Paths below stay
		// under dir as given.
		root := dir
		if !strings.HasSuffix(root, string(filepath.Separator)) {
			root += string(filepath.Separator)
		}
		return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				// An unreadable directory or file inside: report it as a file.
				if d == nil || !d.IsDir() {
					paths = append(paths, p)
				} else {
					w.log.Warn("skipping unreadable directory", zap.String("path", p), zap.Error(err))
				}
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() {
				if p != root && skipDirs[d.Name()] {
					w.log.Debug("skipping directory", zap.String("path", p), zap.String("why", "a directory never indexed ("+d.Name()+")"))
					return filepath.SkipDir
				}
				if p != root && real != "" {
					// WalkDir follows no link below root: this directory's
					// real path is real joined with the rest.
					if rel, err := filepath.Rel(root, p); err == nil && slices.Contains(walked, filepath.Join(real, rel)) {
						w.log.Debug("skipping directory", zap.String("path", p), zap.String("why", "already read through another link"))
						w.dedupe(p, folder, via[slices.Index(walked, filepath.Join(real, rel))])
						return filepath.SkipDir
					}
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(p); err == nil && st.IsDir() {
					if skipDirs[d.Name()] {
						w.log.Debug("skipping directory", zap.String("path", p), zap.String("why", "a directory never indexed ("+d.Name()+")"))
						return nil
					}
					target, err := filepath.EvalSymlinks(p)
					if i := slices.IndexFunc(walked, func(t string) bool { return underRoot(target, t) }); err == nil && i >= 0 && via[i] != folder {
						w.dedupe(p, folder, via[i]) // read through another link, not the folder
					}
					if err == nil && !slices.ContainsFunc(walked, func(t string) bool { return underRoot(target, t) }) &&
						!slices.ContainsFunc(chain, func(t string) bool { return underRoot(t, target) }) {
						walked, via = append(walked, target), append(via, p)
						if err := walk(p, target, append(slices.Clip(chain), target)); err != nil && ctx.Err() == nil {
							w.log.Warn("skipping unreadable directory", zap.String("path", p), zap.Error(err))
						}
						return ctx.Err()
					}
					w.log.Debug("skipping directory link", zap.String("path", p), zap.String("why", "it leads to a directory already read, or above the folder or its link"))
					return nil
				}
			}
			if isElixirPath(p) {
				paths = append(paths, p)
				return nil
			}
			w.log.Debug("skipping file", zap.String("path", p), zap.String("why", "not Elixir (.ex or .exs)"))
			return nil
		})
	}
	if err := walk(abs, absReal, chain); err != nil {
		return fmt.Errorf("workspace: walk %q: %w", abs, err)
	}
	sort.Strings(paths)
	for i, p := range paths {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		w.readDisk(p, PathURI(p))
		if progress != nil {
			progress(i+1, len(paths))
		}
	}
	return nil
}

// readDisk (re)reads path from disk into the file keyed by uri, or by the
// URI already known for that path.
func (w *Workspace) readDisk(path, uri string) {
	var (
		data    []byte
		readErr error
		tooBig  bool
		size    int64
		exists  = true
	)
	st, err := os.Stat(path)
	lst, lerr := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && lerr == nil && lst.Mode()&fs.ModeSymlink != 0:
		// A dangling symlink: reported, never silently skipped (docs/architecture.md "check").
		readErr = fmt.Errorf("broken symbolic link: %w", err)
	case errors.Is(err, fs.ErrNotExist):
		exists = false
	case err != nil:
		readErr = err
	case !st.Mode().IsRegular():
		// A FIFO or device named *.ex would block a read forever.
		readErr = fmt.Errorf("not a regular file but %s", fileKind(st.Mode()))
	case st.Size() > int64(w.opts.MaxFileSize):
		tooBig, size = true, st.Size()
		w.log.Info("skipping large file", zap.String("path", path), zap.Int64("bytes", st.Size()), zap.Int("limit", w.opts.MaxFileSize))
	default:
		data, readErr = os.ReadFile(path)
		if errors.Is(readErr, fs.ErrNotExist) {
			exists, readErr = false, nil
		}
		if readErr == nil && exists {
			w.log.Debug("read file", zap.String("path", path), zap.Int("bytes", len(data)))
		}
	}
	if readErr != nil {
		w.log.Debug("cannot read file", zap.String("path", path), zap.Error(readErr))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if known, ok := w.byPath[path]; ok {
		uri = known
	}
	f := w.files[uri]
	if !exists {
		if f == nil {
			return
		}
		f.disk, f.onDisk, f.readErr, f.tooBig = nil, false, nil, false
		if !f.open {
			w.removeLocked(f)
			return
		}
		return
	}
	if f == nil {
		f = &file{uri: uri, path: path}
		w.files[uri] = f
		w.byPath[path] = uri
	}
	f.disk, f.onDisk, f.readErr, f.tooBig, f.size = data, true, readErr, tooBig, size
	if !f.open {
		f.gen++
		w.dirty[uri] = true
	}
}

// fileKind names a non-regular file mode for a message.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}

// RemoveFolder takes the folder root dir (a disk path, made absolute as
// AddFolder does) out of the workspace, as a client removing a workspace
// folder asks (LSP 3.17 "workspace/didChangeWorkspaceFolders";
// docs/architecture.md "LSP behaviour"). Every file below dir that no other
// root indexes (below it and not inside a directory indexing skips) is
// forgotten as a file deleted on disk is, so the next Diagnose reports an
// empty problem list for each that had problems; an open buffer stays,
// analysed from the roots left, until it is closed; a .wymcp-ls.yaml below
// dir and under no other root is forgotten too. A single file AddFolder
// was given as a folder is forgotten likewise (unless a root indexes it or
// it is open). It returns false, changing nothing, when dir is not a
// folder AddFolder added (never added, already removed, or not resolvable).
func (w *Workspace) RemoveFolder(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.roots[abs] {
		if !w.single[abs] {
			return false
		}
		// A file given as a folder: its diagnostics are cleared as those
		// of a removed folder's files are (README.md "Editors").
		delete(w.single, abs)
		if f := w.files[w.byPath[abs]]; f != nil && !w.indexedLocked(abs) {
			if f.open {
				f.orphan = true
				w.dirty[f.uri] = true
			} else {
				w.removeLocked(f)
			}
		}
		return true
	}
	delete(w.roots, abs)
	for p, d := range w.deduped {
		if d.root == abs { // the folder's links are no longer read again on a deletion
			delete(w.deduped, p)
		}
	}
	for _, f := range w.files {
		if !underRoot(f.path, abs) {
			continue
		}
		if w.indexedLocked(f.path) {
			// Still in the workspace through another root, which may be
			// the one it resolves modules from now: analysed again.
			w.dirty[f.uri] = true
			continue
		}
		if f.open {
			f.orphan = true
			w.dirty[f.uri] = true
			continue
		}
		w.removeLocked(f)
	}
	for uri, cf := range w.configs {
		if underRoot(cf.path, abs) && w.rootOfPathLocked(cf.path) == "" && cf.path != w.opts.ConfigFile {
			delete(w.configs, uri)
			w.configChanged(uri)
		}
	}
	w.configDirs = map[string]string{}
	return true
}

// indexedLocked reports whether some folder root would index the disk
// path p: p lies below the root and not inside a directory indexing skips
// (skipDirs) below it. w.mu must be held.
func (w *Workspace) indexedLocked(p string) bool {
	if w.single[p] {
		return true // given as a folder itself
	}
	for r := range w.roots {
		if !underRoot(p, r) {
			continue
		}
		if !inSkippedDir(r, p) {
			return true
		}
	}
	return false
}

// readsOnDiskLocked reports whether the workspace reads the disk file p
// when no buffer holds it: a file given as a folder, or an .ex or .exs
// file some folder root indexes. w.mu must be held.
func (w *Workspace) readsOnDiskLocked(p string) bool {
	if w.single[p] {
		return true
	}
	return isElixirPath(p) && w.indexedLocked(p)
}

// inSkippedDir reports whether the disk path p, below root, lies inside a
// directory indexing skips there (skipDirs: deps, _build ...); a path that
// cannot be made relative to root counts as skipped.
func inSkippedDir(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return true
	}
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if skipDirs[part] {
			return true
		}
	}
	return false
}

// removeLocked forgets f entirely. w.mu must be held.
func (w *Workspace) removeLocked(f *file) {
	delete(w.files, f.uri)
	if f.path != "" && w.byPath[f.path] == f.uri {
		delete(w.byPath, f.path)
	}
	delete(w.dirty, f.uri)
	delete(w.snaps, f.uri)
	w.gone[f.uri] = true
}

// SetOverlay sets the open-buffer content of the document uri (the exact
// URI string the client sent) at version. The overlay wins over disk. A
// file: URI naming a file already indexed under another URI spelling, or
// under another path to it through a symbolic link (a folder opened as
// ~/proj that leads to /data/proj, and the buffer opened under
// /data/proj), takes that file over, so one file is never analysed twice.
func (w *Workspace) SetOverlay(uri string, version int32, text []byte) {
	path := URIPath(uri)
	w.mu.Lock()
	if w.files[uri] == nil && path != "" {
		if _, ok := w.byPath[path]; !ok {
			roots := slices.Collect(maps.Keys(w.roots))
			w.mu.Unlock()
			alias := linkedPath(path, roots) // reads the disk: not under the lock
			w.mu.Lock()
			if _, ok := w.byPath[alias]; ok && alias != "" && w.files[uri] == nil {
				path = alias
			}
		}
	}
	defer w.mu.Unlock()
	f := w.files[uri]
	if f == nil && path != "" {
		if old, ok := w.byPath[path]; ok && old != uri {
			f = w.files[old]
			delete(w.files, old)
			w.gone[old] = true
			delete(w.dirty, old)
			f.uri = uri
			w.files[uri] = f
			w.byPath[path] = uri
		}
	}
	if f == nil {
		f = &file{uri: uri, path: path}
		w.files[uri] = f
		if path != "" {
			if _, ok := w.byPath[path]; !ok {
				w.byPath[path] = uri
			}
		}
	}
	f.open, f.version, f.text = true, version, text
	f.gen++
	w.dirty[uri] = true
}

// linkedPath returns the path under one of roots of the file at path
// when path reaches it through another route of symbolic links (path
// below no root, or below a root by a route the root does not take), or
// "" when there is none: path's real path below a root's real path, and
// the root joined with the rest leading to that same file.
func linkedPath(path string, roots []string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	slices.Sort(roots)
	for _, root := range roots {
		rootReal, err := filepath.EvalSymlinks(root)
		if err != nil || !underRoot(real, rootReal) {
			continue
		}
		rel, err := filepath.Rel(rootReal, real)
		if err != nil {
			continue
		}
		cand := filepath.Join(root, rel)
		if cand == path {
			continue
		}
		if r, err := filepath.EvalSymlinks(cand); err == nil && r == real {
			return cand
		}
	}
	return ""
}

// RemoveOverlay drops the open buffer of uri; a file: URI falls back to
// its disk content if the file exists.
func (w *Workspace) RemoveOverlay(uri string) {
	w.mu.Lock()
	f := w.files[uri]
	if f == nil || !f.open {
		w.mu.Unlock()
		return
	}
	f.open, f.text, f.version = false, nil, 0
	path := f.path
	onDisk := f.onDisk
	f.gen++
	w.dirty[uri] = true
	if f.orphan || path != "" && !w.readsOnDiskLocked(path) {
		// Its folder was removed (RemoveFolder), or no folder indexes it
		// (outside every folder, under deps/, not an .ex file): no root
		// reads it from disk, so closed it leaves the analysis.
		w.removeLocked(f)
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	if path != "" {
		// The buffer may have been saved or deleted since we last read it.
		w.readDisk(path, uri)
		return
	}
	if !onDisk {
		w.mu.Lock()
		if f := w.files[uri]; f != nil && !f.open {
			w.removeLocked(f)
		}
		w.mu.Unlock()
	}
}

// DiskChanged re-reads the file: URI uri from disk (created or changed),
// or forgets it when it no longer exists. An open overlay still wins.
// Non-file URIs are ignored.
func (w *Workspace) DiskChanged(uri string) {
	path := URIPath(uri)
	if path == "" {
		return
	}
	if filepath.Base(path) == ConfigName || path == w.opts.ConfigFile {
		if w.opts.ConfigFile != "" && path != w.opts.ConfigFile {
			return // Options.ConfigFile is the config of every file
		}
		// Any config file created, changed or deleted may change which one
		// applies where: forget the discovery cache and re-read this one
		// (every tool is analysed again at the next Diagnose).
		w.mu.Lock()
		w.configDirs = map[string]string{}
		_, known := w.configs[PathURI(path)]
		_, err := os.Stat(path)
		if known || err == nil || w.roots[filepath.Dir(path)] {
			w.loadConfigLocked(path, true)
		}
		w.lintGen++
		w.mu.Unlock()
		return
	}
	if filepath.Base(path) == "mix.exs" {
		// A project root appeared or went: the config search stops there.
		w.mu.Lock()
		w.configDirs = map[string]string{}
		w.projectDirs, w.appsDirs = nil, nil
		w.lintGen++
		w.mu.Unlock()
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Deleted: the file, or every file below a deleted folder. A link
		// skipped as leading where a deleted one led is read now.
		w.forgetUnder(path)
		if w.elixirOrKnown(path) { // a dangling link named x.ex is reported
			w.readDisk(path, uri)
		}
		var again []string
		w.mu.Lock()
		for p, d := range w.deduped {
			if underRoot(d.cover, path) {
				again = append(again, p)
			}
		}
		w.mu.Unlock()
		slices.Sort(again)
		var read, readVia []string // the real paths read again, and the paths they were read under
		for _, p := range again {
			w.mu.Lock()
			d, ok := w.deduped[p]
			delete(w.deduped, p)
			w.mu.Unlock()
			if st, err := os.Stat(p); !ok || err != nil || !st.IsDir() || underRoot(p, path) || w.outside(p) {
				continue
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				continue
			}
			if i := slices.IndexFunc(read, func(t string) bool { return underRoot(real, t) }); i >= 0 {
				w.dedupe(p, d.root, readVia[i]) // two links to where the deleted one led: one is read
				continue
			}
			read, readVia = append(read, real), append(readVia, p)
			_ = w.addTree(context.Background(), p, d.root, nil)
		}
	case err == nil && st.IsDir():
		// A folder created (or moved in): read its files as indexing does,
		// which skips a directory named deps (...) and a link leading into
		// or above its folder. A file known at this path (x.ex replaced by
		// a directory x.ex) is gone, as if deleted.
		w.mu.Lock()
		if f := w.files[w.byPath[path]]; f != nil && f.onDisk {
			f.disk, f.onDisk, f.readErr, f.tooBig = nil, false, nil, false
			if !f.open {
				w.removeLocked(f)
			}
		}
		root := w.rootOfPathLocked(path)
		w.mu.Unlock()
		if !w.outside(path) && (path == root || !skipDirs[filepath.Base(path)]) {
			_ = w.addTree(context.Background(), path, root, nil)
		}
	default:
		// A file (or a path that cannot be read): the files read below a
		// directory this path was (a directory x.ex replaced by a file
		// x.ex) are gone.
		w.forgetUnder(path)
		if !w.outside(path) && w.elixirOrKnown(path) {
			w.readDisk(path, uri)
		}
	}
}

// isElixirPath reports whether the file path p has an extension indexing
// reads: .ex or .exs.
func isElixirPath(p string) bool {
	ext := filepath.Ext(p)
	return ext == ".ex" || ext == ".exs"
}

// elixirOrKnown reports whether a watched path that is not a directory is
// one indexing reads (an .ex or .exs file) or one the workspace already
// holds (a file given as a folder). Any other path is not Elixir, whatever
// it holds or however it fails to be read (a README.md, a dangling link, a
// named pipe), and a watched event for it is ignored, as indexing skips it.
func (w *Workspace) elixirOrKnown(path string) bool {
	if isElixirPath(path) {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.byPath[path]
	return ok
}

// dedupe records the directory (link) p of the folder root, skipped as
// read through the link cover (addTree).
func (w *Workspace) dedupe(p, root, cover string) {
	w.mu.Lock()
	w.deduped[strings.TrimSuffix(p, string(filepath.Separator))] = deduped{root, strings.TrimSuffix(cover, string(filepath.Separator))}
	w.mu.Unlock()
}

// deduped is a directory addTree skipped: its folder root, and the link
// it was read through instead.
type deduped struct{ root, cover string }

// outside reports whether a disk path is one indexing would not read: below
// a skipped directory (deps, _build ...) of its root, or outside every root
// once a root was added (even if RemoveFolder took them all out since).
// Whether it is an Elixir file is elixirOrKnown's question.
func (w *Workspace) outside(path string) bool {
	w.mu.Lock()
	root := w.rootOfPathLocked(path)
	haveRoots := w.rooted
	w.mu.Unlock()
	if root == "" {
		return haveRoots
	}
	return inSkippedDir(root, path)
}

// forgetUnder drops every file not open in a buffer whose disk path lies
// below dir (a folder deleted on disk).
func (w *Workspace) forgetUnder(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, f := range w.files {
		if f.path != "" && f.path != dir && underRoot(f.path, dir) {
			f.disk, f.onDisk, f.readErr, f.tooBig = nil, false, nil, false
			if f.open {
				continue
			}
			w.removeLocked(f)
		}
	}
}

// Mapper returns a position mapper over the current content of uri, and
// false when the workspace does not know uri.
func (w *Workspace) Mapper(uri string) (*positions.Mapper, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f := w.files[uri]
	if f == nil {
		return nil, false
	}
	if f.mapper != nil && f.pgen == f.gen {
		return f.mapper, true
	}
	return positions.NewMapper(f.content()), true
}

// Report is the full problem list of one document.
type Report struct {
	// URI is the document's exact URI string.
	URI string
	// Path is the disk path of a file: URI, "" otherwise.
	Path string
	// Version is the overlay version analysed; 0 with Overlay false for disk content.
	Version int32
	Overlay bool
	// Mapper converts the Problems' spans (bytes into the analysed content).
	Mapper *positions.Mapper
	// Problems are sorted by span start, then code.
	Problems []Problem
}

// Problem is one offence (or lint, or syntax error) located in a document.
type Problem struct {
	// Span is the tight byte range of the offence pointer (docs/rules.md §4 Ranges).
	Span positions.Span
	// Code is the offence code ("unknown-key", "syntax-error", "lint/...").
	Code     string
	Severity validate.Severity
	// Message names the actions affected and the offence, without the fix
	// ("action :create: unknown key :example").
	Message string
	// Offence is the offence alone, without the action and location head
	// ("unknown key :example"), for renderings that name one action at a time.
	Offence string
	// Fix is the offence's fix, "" when there is none.
	Fix string
	// Tool is the tool module's name, several joined by ", " when tools
	// reading one module share the offence (ToolModules); Actions the
	// action names as written (":create"), several when the offending value
	// is shared; Location the access-syntax location ("" for the schema
	// itself).
	Tool     string
	Actions  []string
	Location string
	// Related points at the tool module (offence in another file) and at the
	// first occurrence (duplicates).
	Related []Related
}

// ToolModules returns the tool modules Tool names, in order; none when it
// is "". Each has every action of Actions: the tools share the offence
// because its message, which names the actions, is the same.
func (p Problem) ToolModules() []string {
	if p.Tool == "" {
		return nil
	}
	return strings.Split(p.Tool, ", ")
}

// Text returns the diagnostic message: Message, then "; fix: " and Fix when
// there is a fix (docs/rules.md §6: each offence with its fix).
func (p Problem) Text() string {
	if p.Fix == "" {
		return p.Message
	}
	return p.Message + "; fix: " + p.Fix
}

// Related is a secondary location of a Problem.
type Related struct {
	URI     string
	Span    positions.Span
	Mapper  *positions.Mapper
	Message string
}
