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

// TestDelegatedModuleEditReanalyses: a run_action/3 that hands its action
// on to a function of another module (imported, or called remotely) that
// the module does not define yet reads nothing certain; adding the
// clauses there makes the dispatch known, so the tool is evaluated again
// and lint/action-without-clause reports the action no clause matches.
func TestDelegatedModuleEditReanalyses(t *testing.T) {
	ctx := context.Background()
	for _, call := range []string{"run(action, data, ctx)", "App.Acts.run(action, data, ctx)"} {
		t.Run(call, func(t *testing.T) {
			tool := "defmodule App.T do\n  use Wymcp.Tool\n  import App.Acts\n  def name, do: \"t\"\n" +
				"  def actions, do: %{a: %{description: \"A\", properties: %{}}, b: %{description: \"B\", properties: %{}}}\n" +
				"  def run_action(action, data, ctx), do: " + call + "\nend\n"
			ws, dir := setup(t, map[string]string{"t.ex": tool, "s.ex": "defmodule App.Acts do\n  def other, do: 1\nend\n"})
			sURI, tURI := PathURI(filepath.Join(dir, "s.ex")), PathURI(filepath.Join(dir, "t.ex"))
			if rs := byURI(ws.Diagnose(ctx)); len(rs[tURI].Problems) != 0 {
				t.Fatalf("first Diagnose: t.ex %v, want none", codes(rs[tURI]))
			}
			ws.SetOverlay(sURI, 2, []byte("defmodule App.Acts do\n  def other, do: 1\n  def run(:a, _, _), do: 1\nend\n"))
			r := byURI(ws.Diagnose(ctx))[tURI]
			if got, want := codes(r), []string{"lint/action-without-clause"}; !slices.Equal(got, want) {
				t.Fatalf("after adding run/3: t.ex %v, want %v", got, want)
			}
			if p := r.Problems[0]; string(r.Mapper.Content()[p.Span.Start:p.Span.End]) != "b" {
				t.Errorf("range selects %q, want b", r.Mapper.Content()[p.Span.Start:p.Span.End])
			}
		})
	}
}
