package workspace

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestImportedModuleEditReanalyses: with `import App.Schemas` and a local
// call all() that App.Schemas does not define yet, adding `def all` there
// changes the call (positions/elixir ImportedDef), so the tool is
// evaluated again and the new def's offences are reported, as for a
// remote App.Schemas.all() (TestDependentsAreReanalysed).
func TestImportedModuleEditReanalyses(t *testing.T) {
	ctx := context.Background()
	tool := "defmodule App.T do\n  use Wymcp.Tool\n  import App.Schemas\n  def name, do: \"t\"\n  def actions, do: all()\nend\n"
	ws, dir := setup(t, map[string]string{"t.ex": tool, "s.ex": "defmodule App.Schemas do\n  def other, do: 1\nend\n"})
	sURI := PathURI(filepath.Join(dir, "s.ex"))
	if rs := byURI(ws.Diagnose(ctx)); len(rs[sURI].Problems) != 0 {
		t.Fatalf("first Diagnose: s.ex %v, want none", codes(rs[sURI]))
	}
	ws.SetOverlay(sURI, 2, []byte("defmodule App.Schemas do\n  def other, do: 1\n  def all, do: %{a: %{descripton: \"x\", properties: %{}}}\nend\n"))
	rs := byURI(ws.Diagnose(ctx))
	if got, want := codes(rs[sURI]), []string{"missing-key", "unknown-key"}; !slices.Equal(got, want) {
		t.Errorf("after adding all/0: s.ex %v, want %v", got, want)
	}
}
