package workspace

import (
	"slices"
	"sort"
)

// Stats is what the workspace has read and found, for the summary line of
// `check` (README.md, "Command line").
type Stats struct {
	// FilesRead counts the files whose content was read from disk: not the
	// unreadable ones, nor those over the size limit (skipped), nor
	// buffers never saved.
	FilesRead int
	// Tools are the tool modules found at the last Diagnose, sorted by
	// path then name: one per defmodule that uses Wymcp.Tool.
	Tools []ToolModule
	// Routers are the modules holding a mount that lists modules no file
	// read defines while the router's Mix project is only partly read
	// (Mount.Unread), sorted by path then name; Missing holds those
	// modules, in list order.
	Routers []ToolModule
}

// ToolModule names one tool module and the disk path of the file that
// defines it ("" for a buffer that is not a file).
type ToolModule struct {
	Name string
	Path string
	// Missing are the full names of the modules the tool's declaration
	// calls into (`Schemas.all()`) that no file read defines, sorted: what
	// those calls return is opaque and goes unchecked (docs/rules.md §5).
	Missing []string
}

// Stats returns the counts as of the last Diagnose (All runs one).
func (w *Workspace) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	var s Stats
	for _, f := range w.files {
		if f.onDisk && f.readErr == nil && !f.tooBig {
			s.FilesRead++
		}
	}
	for _, t := range w.tools {
		tm := ToolModule{Name: t.name, Path: URIPath(t.uri)}
		for n := range t.names {
			if w.index.lookup(n, "") == nil {
				tm.Missing = append(tm.Missing, n)
			}
		}
		sort.Strings(tm.Missing)
		s.Tools = append(s.Tools, tm)
	}
	byRouter := map[string]int{} // router name and path -> index in s.Routers
	for _, m := range w.mounts {
		if len(m.Unread) == 0 {
			continue
		}
		key := m.Module + "\x00" + m.URI
		i, ok := byRouter[key]
		if !ok {
			i = len(s.Routers)
			byRouter[key] = i
			s.Routers = append(s.Routers, ToolModule{Name: m.Module, Path: URIPath(m.URI)})
		}
		for _, u := range m.Unread {
			if !slices.Contains(s.Routers[i].Missing, u) {
				s.Routers[i].Missing = append(s.Routers[i].Missing, u)
			}
		}
	}
	for _, l := range [][]ToolModule{s.Tools, s.Routers} {
		sort.Slice(l, func(i, j int) bool {
			a, b := l[i], l[j]
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			return a.Name < b.Name
		})
	}
	return s
}
