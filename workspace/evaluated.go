package workspace

import "sort"

// Evaluated returns every tool module of the workspace as the last
// Diagnose evaluated it (Module and Result set; Offences nil), sorted by
// URI then module name, and a generation number that changes whenever any
// tool is evaluated again, added or removed: a caller that indexes the
// tools (workspace symbols) rebuilds only when it changes. Open buffers
// are included as of the last Diagnose. The values are immutable.
func (w *Workspace) Evaluated() (gen int, tools []*ToolView) {
	w.mu.Lock()
	defer w.mu.Unlock()
	tools = make([]*ToolView, 0, len(w.tools))
	for _, t := range w.tools {
		if t.module == nil {
			continue
		}
		tools = append(tools, &ToolView{Module: t.module, Result: t.res})
	}
	sort.Slice(tools, func(i, j int) bool {
		a, b := tools[i].Module, tools[j].Module
		if a.URI != b.URI {
			return a.URI < b.URI
		}
		return a.Name < b.Name
	})
	return w.toolsGen, tools
}
