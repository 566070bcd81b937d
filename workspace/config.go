package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"go.uber.org/zap"
	yaml "go.yaml.in/yaml/v3"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// ConfigName is the file name of the workspace configuration. Each file
// takes its lint switches from the nearest ConfigName found by FindConfig
// (README.md, "Command line": how the config is found), unless
// Options.ConfigFile names one file for all.
const ConfigName = ".wymcp-ls.yaml"

// projectMarkers are the names whose presence makes a directory a project
// root: the config search goes no higher than it. .git may be a directory
// or, in a git worktree or submodule, a file.
var projectMarkers = []string{"mix.exs", ".git"}

// FindConfig returns the path of the .wymcp-ls.yaml that applies to files
// in the directory dir (a disk path; made absolute first): the nearest one
// at or above dir, looking no higher than the first directory that holds
// mix.exs or .git (that directory's own config counts), nor above the
// filesystem root. It returns "" when there is none. So in an umbrella
// project apps/x/.wymcp-ls.yaml applies to apps/x/lib/..., and an app with
// its own mix.exs but no config of its own uses none: the umbrella's
// config does not reach below an app's mix.exs.
func FindConfig(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; {
		if st, err := os.Stat(filepath.Join(d, ConfigName)); err == nil && !st.IsDir() {
			return filepath.Join(d, ConfigName)
		}
		if isProjectRoot(d) {
			return ""
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// isProjectRoot reports whether dir holds mix.exs or .git.
func isProjectRoot(dir string) bool {
	for _, m := range projectMarkers {
		if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
			return true
		}
	}
	return false
}

// CodeConfigError is the problem code of a bad .wymcp-ls.yaml.
const CodeConfigError = "config-error"

// Config is the content of a .wymcp-ls.yaml:
//
//	lints:
//	  lint/unknown-keyword: false   # switch one lint off
//	  lint/duplicate-key: true
//
// Lints maps a lint code (validate.LintCodes) to whether it is on; a code
// not listed keeps its default (on).
type Config struct {
	Lints map[string]bool
}

// ConfigError is one located mistake in a configuration file. Line and
// Column are 1-based; Span is the byte range of the offending node (zero
// width when the YAML parser gave only a line).
type ConfigError struct {
	Line, Column int
	Span         positions.Span
	Message      string
	// WholeFile marks a mistake that leaves the whole file unread (it does
	// not parse, or is not a mapping): every lint keeps its default. Any
	// other mistake leaves out only the key or switch it is at; the file's
	// other switches still apply (docs/rules.md, config-error).
	WholeFile bool
}

// Error returns "line:column: message".
func (e ConfigError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Message) }

// ParseConfig parses the bytes of a .wymcp-ls.yaml. It returns what it
// could read and every mistake, located: a YAML syntax error (then the
// Config is empty and the defaults apply), an unknown top-level key, an
// unknown lint code, a value that is not a boolean, or a key written
// twice (the later one). An empty file is a valid empty Config.
func ParseConfig(data []byte) (Config, []ConfigError) {
	cfg := Config{Lints: map[string]bool{}}
	m := positions.NewMapper(data)
	at := func(n *yaml.Node, msg string) ConfigError {
		off := m.Offset(n.Line-1, 0)
		// yaml.Node columns are 1-based code points; walk to the byte.
		line, _ := m.LineCol(off)
		for c := 1; c < n.Column && off < len(data) && data[off] != '\n'; c++ {
			_, size := utf8.DecodeRune(data[off:]) // an invalid byte counts as one
			off += size
		}
		end := off
		for end < len(data) && data[end] != '\n' && data[end] != '\r' && data[end] != ':' {
			end++
		}
		switch {
		case n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && off < len(data) && (data[off] == '"' || data[off] == '\''):
			// The Value of a quoted scalar is its decoded text, without the
			// quotes: select the literal as written, up to its closing quote.
			end = quotedEnd(data, off)
		case n.Kind == yaml.ScalarNode && n.Value != "" && len(n.Value) <= end-off:
			end = off + len(n.Value)
		}
		if end == off && off < len(data) {
			end = off + 1
		}
		return ConfigError{Line: line, Column: n.Column, Span: positions.Span{Start: off, End: end}, Message: msg}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 1
		msg := err.Error()
		var n int
		if _, scanErr := fmt.Sscanf(strings.TrimPrefix(msg, "yaml: "), "line %d:", &n); scanErr == nil && n > 0 {
			line = n
		}
		off := m.Offset(line-1, 0)
		end := off
		for end < len(data) && data[end] != '\n' && data[end] != '\r' {
			end++
		}
		return cfg, []ConfigError{{Line: line, Column: 1, Span: positions.Span{Start: off, End: end}, Message: msg, WholeFile: true}}
	}
	if len(doc.Content) == 0 {
		return cfg, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		e := at(root, "the configuration must be a mapping such as `lints: {lint/unknown-keyword: false}`")
		e.WholeFile = true
		return cfg, []ConfigError{e}
	}
	var errs []ConfigError
	// A key written twice: the later one is reported and ignored, so that
	// the switch in effect is the one a reader finds first (YAML itself
	// forbids duplicate keys; go-yaml's Node reading lets them through).
	lintsAt := 0
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "lints" {
			errs = append(errs, at(k, fmt.Sprintf("unknown key %q (the known key is \"lints\")", k.Value)))
			continue
		}
		if lintsAt > 0 {
			errs = append(errs, at(k, fmt.Sprintf("\"lints\" is written twice (first on line %d); only the first applies", lintsAt)))
			continue
		}
		lintsAt = k.Line
		seen := map[string]int{}
		if v.Kind != yaml.MappingNode {
			if v.Tag == "!!null" {
				continue
			}
			errs = append(errs, at(v, "lints must be a mapping of lint code to true or false"))
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			code, val := v.Content[j], v.Content[j+1]
			if msg := UnknownLint(code.Value); msg != "" {
				errs = append(errs, at(code, msg))
				continue
			}
			if line, ok := seen[code.Value]; ok {
				errs = append(errs, at(code, fmt.Sprintf("%s is switched twice (first on line %d); only the first applies", code.Value, line)))
				continue
			}
			seen[code.Value] = code.Line
			var on bool
			if val.Tag != "!!bool" || val.Decode(&on) != nil {
				msg := fmt.Sprintf("the value of %s must be true or false, got %q", code.Value, val.Value)
				if w, ok := yaml11Bool[strings.ToLower(val.Value)]; ok && val.Style == 0 {
					// YAML 1.1 read these as booleans; YAML 1.2 (yaml.v3) as strings.
					msg += fmt.Sprintf(" (a string in YAML 1.2: write %t)", w)
				}
				errs = append(errs, at(val, msg))
				continue
			}
			cfg.Lints[code.Value] = on
		}
	}
	return cfg, errs
}

// quotedEnd returns the byte offset just past the YAML quoted scalar that
// starts at data[off], its opening quote: past the closing double quote not
// escaped by a backslash, or the closing single quote not doubled; at the
// end of the line for a scalar that goes on past it.
func quotedEnd(data []byte, off int) int {
	q := data[off]
	for i := off + 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\n' || c == '\r':
			return i
		case q == '"' && c == '\\':
			i++
		case c == q && q == '\'' && i+1 < len(data) && data[i+1] == '\'':
			i++
		case c == q:
			return i + 1
		}
	}
	return len(data)
}

// configFile is one .wymcp-ls.yaml the workspace read.
type configFile struct {
	uri    string
	path   string
	mapper *positions.Mapper
	cfg    Config
	errs   []ConfigError
}

// loadConfig reads dir/.wymcp-ls.yaml, if there is one, and records it.
// A file that cannot be read is a config error; a missing one is nothing.
func (w *Workspace) loadConfig(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.loadConfigLocked(filepath.Join(dir, ConfigName), true)
}

// loadRootConfig reads the config of a folder added as a root: its own
// dir/.wymcp-ls.yaml, or Options.ConfigFile when set (the config of every
// file, whose own .wymcp-ls.yaml then means nothing), so that a mistake
// in it is reported even before a tool needs one of its switches.
func (w *Workspace) loadRootConfig(dir string) {
	if w.opts.ConfigFile == "" {
		w.loadConfig(dir)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.configs[PathURI(w.opts.ConfigFile)]; !ok {
		w.loadConfigLocked(w.opts.ConfigFile, true)
	}
}

// loadConfigLocked (re)reads the config file at path and records it. When
// changed is true the change re-analyses every tool (a file edited or
// deleted); a config read for the first time by discovery does not, as
// the tools asking for it are being analysed. It returns the record, nil
// when the file does not exist. w.mu must be held: the read is one small
// file.
func (w *Workspace) loadConfigLocked(path string, changed bool) *configFile {
	data, err := readConfigFile(path, int64(w.opts.MaxFileSize))
	uri := PathURI(path)
	if errors.Is(err, fs.ErrNotExist) && path != w.opts.ConfigFile {
		if _, ok := w.configs[uri]; ok {
			delete(w.configs, uri)
			w.configChanged(uri)
		}
		return nil
	}
	cf := &configFile{uri: uri, path: path, mapper: positions.NewMapper(data)}
	if err != nil {
		cf.errs = []ConfigError{{Line: 1, Column: 1, Message: fmt.Sprintf("cannot read %s: %v", path, err), WholeFile: true}}
	} else {
		cf.cfg, cf.errs = ParseConfig(data)
	}
	w.log.Debug("read config", zap.String("path", path), zap.Int("errors", len(cf.errs)))
	for _, e := range cf.errs {
		w.log.Sugar().Debugf("%s:%s (using the defaults for what it sets wrongly)", path, e.Error())
	}
	w.configs[uri] = cf
	if changed {
		w.configChanged(uri)
	} else {
		w.newConfigs[uri] = true
	}
	return cf
}

// readConfigFile reads the config file at path (symlinks followed). It
// refuses, with an error and without opening it, anything but a regular
// file of at most limit bytes: a named pipe would block the read (and
// w.mu) forever, a device such as /dev/zero would never end. A missing
// file gives an error satisfying errors.Is(err, fs.ErrNotExist).
func readConfigFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("not a regular file but %s", fileKind(st.Mode()))
	case limit > 0 && st.Size() > limit:
		return nil, fmt.Errorf("%d bytes, over the %d-byte limit", st.Size(), limit)
	}
	return os.ReadFile(path)
}

// configChanged marks every tool for re-analysis (lint switches changed)
// and the config file for a report. w.mu must be held.
func (w *Workspace) configChanged(uri string) {
	w.lintGen++
	w.dirty[uri] = true
}

// configForLocked returns the config that applies to the document uri:
// Options.ConfigFile when set, else the one FindConfig finds from the
// document's directory (cached per directory until a config file changes),
// read on first use; nil when none applies or uri is not a file: URI.
// w.mu must be held.
func (w *Workspace) configForLocked(uri string) *configFile {
	path := ""
	if w.opts.ConfigFile != "" {
		path = w.opts.ConfigFile
	} else {
		p := URIPath(uri)
		if p == "" {
			return nil
		}
		dir := filepath.Dir(p)
		found, ok := w.configDirs[dir]
		if !ok {
			found = FindConfig(dir)
			w.configDirs[dir] = found
		}
		path = found
	}
	if path == "" {
		return nil
	}
	if cf, ok := w.configs[PathURI(path)]; ok {
		return cf
	}
	return w.loadConfigLocked(path, false)
}

// disabledLocked returns the lints switched off for a tool written in the
// document uri: its config (configForLocked), then the client's settings
// (SetLints) over it. w.mu must be held.
func (w *Workspace) disabledLocked(uri string) map[string]bool {
	out := map[string]bool{}
	if cf := w.configForLocked(uri); cf != nil {
		for code, on := range cf.cfg.Lints {
			out[code] = !on
		}
	}
	for code, off := range w.lints {
		out[code] = off
	}
	return out
}

// configProblems returns the problems of the config file at uri, with the
// mapper of the text they are located in: an open buffer's, read as it
// stands (the mistakes show as the author types; the switches still come
// from the file on disk until it is saved), else the file's. w.mu must be
// held.
func (w *Workspace) configProblems(uri string) ([]Problem, *positions.Mapper, string, bool) {
	cf, ok := w.configs[uri]
	if !ok {
		return nil, nil, "", false
	}
	errs, mapper := cf.errs, cf.mapper
	if f := w.files[uri]; f != nil && f.open {
		content := f.content()
		_, errs = ParseConfig(content)
		mapper = positions.NewMapper(content)
	}
	var ps []Problem
	for _, e := range errs {
		fix := "correct it; until then this setting is ignored and the file's other settings apply"
		if e.WholeFile {
			fix = "correct it; until then the file is ignored and every lint keeps its default"
		}
		ps = append(ps, Problem{Span: e.Span, Code: CodeConfigError, Severity: validate.Warning,
			Message: "bad " + filepath.Base(cf.path) + ": " + e.Message, Offence: e.Message, Fix: fix})
	}
	return ps, mapper, cf.path, true
}

// UnknownLint returns "" when code is a lint code a switch may name, else
// why not, for a .wymcp-ls.yaml or editor-settings switch: the code meant
// when it lacks its "lint/" prefix or is a near miss of one
// (validate.Nearest), that an error code cannot be switched off (README.md
// "What it checks": errors are where Wymcp itself raises), else the list.
func UnknownLint(code string) string {
	known := validate.LintCodes()
	if _, ok := known[code]; ok {
		return ""
	}
	codes := slices.Sorted(maps.Keys(known))
	if _, ok := known["lint/"+code]; ok {
		return fmt.Sprintf("unknown lint %q (did you mean lint/%s? every lint code starts with lint/)", code, code)
	}
	if slices.Contains(validate.Codes(), code) || slices.Contains(validate.ToolCodes(), code) {
		return fmt.Sprintf("%q is an error, where Wymcp itself raises, not a lint: it cannot be switched off", code)
	}
	if near, ok := validate.Nearest(code, codes, false); ok {
		return fmt.Sprintf("unknown lint %q (did you mean %s?)", code, near)
	}
	return fmt.Sprintf("unknown lint %q (known: %s)", code, strings.Join(codes, ", "))
}

// yaml11Bool are the plain words YAML 1.1 read as booleans, which YAML 1.2
// (the .wymcp-ls.yaml reader) reads as strings.
var yaml11Bool = map[string]bool{"yes": true, "y": true, "on": true, "no": false, "n": false, "off": false}
