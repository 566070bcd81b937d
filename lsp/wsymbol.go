package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/wymcp/wymcp-ls/authoring"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

// methodWorkspaceSymbol is LSP 3.17 "workspace/symbol".
const methodWorkspaceSymbol = "workspace/symbol"

// maxSymbolResults is the most symbols one workspace/symbol answer holds,
// the best first (gopls answers at most 100 too).
const maxSymbolResults = 100

// SymbolSource is implemented by an Analyzer that can list its evaluated
// tools and map their documents (*workspace.Workspace does): the
// workspace symbol index is built from it.
type SymbolSource interface {
	Evaluated() (gen int, tools []*workspace.ToolView)
	Mapper(uri string) (*positions.Mapper, bool)
}

// symbolInformation is LSP 3.17 "SymbolInformation".
type symbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	Location      Location `json:"location"`
	ContainerName string   `json:"containerName,omitempty"`
}

// symbolEntry is one indexed symbol: its answer, and the text a query is
// matched against (the container, a dot, the name: "tasks.create",
// "tasks.create.title"; for a tool its name, and its module name).
type symbolEntry struct {
	info       symbolInformation
	text       string
	lower      string
	nameStart  int
	alt, altLo string // a tool's module name, matched too
}

// symbolIndex is the workspace symbol index of one analysis generation.
type symbolIndex struct {
	mu      sync.Mutex
	built   bool
	gen     int
	entries [][]symbolEntry // one slice per tool, kept while it is unchanged
	perTool map[toolKey][]symbolEntry
}

// registerSymbolFeatures adds the workspace/symbol handler.
func (s *server) registerSymbolFeatures() {
	s.features[methodWorkspaceSymbol] = s.workspaceSymbol
}

// symbolCapabilities announces workspaceSymbolProvider when the analysis
// can give symbols.
func (s *server) symbolCapabilities(c *serverCapabilities) {
	if _, ok := s.an.(SymbolSource); ok {
		c.setCapability("workspaceSymbolProvider", true)
	}
}

// refreshSymbols brings the index up to date when the analysis has
// evaluated tools since it was built: the entries of a tool whose
// evaluation is unchanged are kept, the others are built again (ranges
// converted once, here, in the negotiated encoding; requests only match).
// Called by the diagnostics runner once edits pause, and before answering
// a request, which thus pays only for an analysis the runner has not
// indexed yet.
func (s *server) refreshSymbols(ctx context.Context) *symbolIndex {
	src, ok := s.an.(SymbolSource)
	if !ok {
		return nil
	}
	ix := &s.symbols
	ix.mu.Lock()
	defer ix.mu.Unlock()
	gen, tools := src.Evaluated()
	if ix.built && gen == ix.gen {
		return ix
	}
	mappers := map[string]*positions.Mapper{}
	mapper := func(uri string) *positions.Mapper {
		if m, ok := mappers[uri]; ok {
			return m
		}
		m, ok := src.Mapper(uri)
		if !ok {
			m = positions.NewMapper(nil)
		}
		mappers[uri] = m
		return m
	}
	perTool := make(map[toolKey][]symbolEntry, len(tools))
	entries := make([][]symbolEntry, 0, len(tools))
	for _, tv := range tools {
		if ctx.Err() != nil {
			return ix // keep the old index; the next call builds
		}
		k := toolKey{tv.Module, tv.Result}
		es, ok := ix.perTool[k]
		if !ok {
			es = s.symbolEntries(authoring.WorkspaceSymbols(ctx, []*workspace.ToolView{tv}), mapper)
		}
		perTool[k] = es
		entries = append(entries, es)
	}
	ix.entries, ix.perTool, ix.gen, ix.built = entries, perTool, gen, true
	return ix
}

// toolKey identifies one evaluation of one tool module: the analysis
// replaces both when it evaluates the tool again. They are compared by
// identity only, as interface values, so that lsp names no type of the
// Elixir reader (docs/architecture.md "Packages and imports").
type toolKey struct {
	m   any // *elixir.Module
	res any // *elixir.Result
}

// symbolEntries converts a tool's symbols to index entries.
func (s *server) symbolEntries(syms []authoring.WorkspaceSymbol, mapper func(string) *positions.Mapper) []symbolEntry {
	entries := make([]symbolEntry, 0, len(syms))
	for _, sy := range syms {
		e := symbolEntry{info: symbolInformation{
			Name: sy.Name, Kind: symbolKind(sy.Kind), ContainerName: sy.Container,
			Location: Location{URI: sy.URI, Range: s.toRange(mapper(sy.URI), sy.Span)},
		}}
		if sy.Kind == authoring.SymbolModule {
			e.text = sy.Name
			e.alt, e.altLo = sy.Container, foldLower(sy.Container)
		} else {
			e.text = sy.Container + "." + sy.Name
			e.nameStart = len(sy.Container) + 1
		}
		e.lower = foldLower(e.text)
		entries = append(entries, e)
	}
	return entries
}

// symbolKind maps an authoring symbol kind to LSP 3.17 SymbolKind.
func symbolKind(k authoring.SymbolKind) int {
	switch k {
	case authoring.SymbolModule:
		return symbolKindModule
	case authoring.SymbolAction:
		return symbolKindMethod
	}
	return symbolKindProperty
}

// workspaceSymbolParams is LSP 3.17 "WorkspaceSymbolParams".
type workspaceSymbolParams struct {
	Query string `json:"query"`
}

// workspaceSymbol answers workspace/symbol with the tools (Module), actions
// (Method, container the tool's name) and properties (Property, container
// "tool.action") of the whole workspace, open buffers included, whose
// text fuzzily matches the query (fuzzyMatcher: a case-insensitive
// subsequence, best matches first), at most maxSymbolResults. An action
// is matched as "tool.action" (so "tasks.create" and "create" both find
// it), a property as "container.property", a tool by its name or its
// module name. The answer comes from the index: no parsing per request.
func (s *server) workspaceSymbol(ctx context.Context, raw json.RawMessage) (any, error) {
	var p workspaceSymbolParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	out := []symbolInformation{}
	ix := s.refreshSymbols(ctx)
	if ix == nil {
		return out, nil
	}
	ix.mu.Lock()
	entries := ix.entries
	ix.mu.Unlock()
	type hit struct {
		score int
		e     *symbolEntry
	}
	var hits []hit
	f := newFuzzyMatcher(p.Query)
	for t, tool := range entries {
		if t%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for i := range tool {
			e := &tool[i]
			sc, ok := f.score(e.text, e.lower, e.nameStart)
			if e.alt != "" {
				if sc2, ok2 := f.score(e.alt, e.altLo, strings.LastIndexByte(e.alt, '.')+1); ok2 && (!ok || sc2 > sc) {
					sc, ok = sc2, true
				}
			}
			if ok {
				hits = append(hits, hit{sc, e})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		a, b := hits[i].e, hits[j].e
		if a.text != b.text {
			return a.text < b.text
		}
		return a.info.Location.URI < b.info.Location.URI
	})
	for i := 0; i < len(hits) && i < maxSymbolResults; i++ {
		out = append(out, hits[i].e.info)
	}
	return out, nil
}
