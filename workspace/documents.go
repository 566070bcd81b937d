package workspace

import (
	"bytes"
	"context"
	"sort"
	"sync"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
)

// Document is one Elixir document of the workspace as a Snapshot sees it:
// its URI, its parse and the content the parse's spans (byte offsets)
// refer to.
type Document struct {
	URI     string
	File    *elixir.File
	Content []byte
}

// other is a document other than the snapshot's own, as of the last
// analysis: its parse and mapper, or, for one the cheap scan left
// unparsed, its content (file nil).
type other struct {
	uri     string
	file    *elixir.File
	mapper  *positions.Mapper
	content []byte
}

// lazyMappers holds the mappers of the documents Documents parsed for a
// snapshot (shared by the requests that use it).
type lazyMappers struct {
	mu sync.Mutex
	m  map[string]*positions.Mapper
}

// othersLocked returns, in one pass over the documents but uri, the
// mappers of those that have one (Snapshot.MapperOf), and the documents
// for Documents: parsed ones with their parse and mapper, the unparsed
// ones the cheap scan ruled out with their content; unreadable and
// over-size ones are left out. The order is the map's (Documents sorts
// what it returns). w.mu must be held.
func (w *Workspace) othersLocked(uri string) (map[string]*positions.Mapper, []other) {
	mappers := map[string]*positions.Mapper{}
	var out []other
	for u, f := range w.files {
		if u == uri {
			continue
		}
		if f.mapper != nil {
			mappers[u] = f.mapper
		}
		switch {
		case f.readErr != nil || f.tooBig:
		case f.parsed != nil && f.mapper != nil:
			out = append(out, other{uri: u, file: f.parsed, mapper: f.mapper})
		case f.parsed == nil && len(f.content()) <= w.opts.MaxFileSize:
			out = append(out, other{uri: u, content: f.content()})
		}
	}
	return mappers, out
}

// Documents returns the Elixir documents of the workspace whose content
// holds the byte string word ("" for every one), for a feature that looks
// at every file (the references of a module name, README.md "Go to
// definition, find references and document highlight"): the snapshot's
// own first, at its current content, then the others by URI as of the
// last analysis. A document the cheap scan left unparsed (README.md
// "What counts as a tool module") is parsed now, without changing the analysis, and
// MapperOf answers for it from then on. A skipped document is left out.
// It stops early when ctx ends.
func (s *Snapshot) Documents(ctx context.Context, word string) []Document {
	var own, out []Document
	w := []byte(word)
	if !s.Skipped && s.File != nil && bytes.Contains(s.Content, w) {
		own = append(own, Document{URI: s.URI, File: s.File, Content: s.Content})
	}
	var p *elixir.Parser
	for _, o := range s.others {
		if ctx.Err() != nil {
			break
		}
		if o.file != nil {
			if c := o.mapper.Content(); bytes.Contains(c, w) {
				out = append(out, Document{URI: o.uri, File: o.file, Content: c})
			}
			continue
		}
		if !bytes.Contains(o.content, w) {
			continue
		}
		if p == nil {
			p = elixir.NewParser()
			defer p.Close()
		}
		if f := parseSafe(ctx, p, o.uri, o.content); f != nil {
			s.lazy.add(o.uri, o.content)
			out = append(out, Document{URI: o.uri, File: f, Content: o.content})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return append(own, out...)
}

// add keeps a mapper over content for uri unless one is kept already.
func (l *lazyMappers) add(uri string, content []byte) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]*positions.Mapper{}
	}
	if l.m[uri] == nil {
		l.m[uri] = positions.NewMapper(content)
	}
}

// get returns the mapper kept for uri, or nil.
func (l *lazyMappers) get(uri string) *positions.Mapper {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[uri]
}

// parseSafe parses src as uri, nil when the reader panics.
func parseSafe(ctx context.Context, p *elixir.Parser, uri string, src []byte) (f *elixir.File) {
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	return p.Parse(ctx, uri, src)
}
