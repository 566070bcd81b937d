package workspace

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProjectRoot: the nearest mix.exs, or the umbrella whose project/0
// sets apps_path to the directory holding that app (read by the Elixir
// reader: a comment or another function's apps_path does not count).
func TestProjectRoot(t *testing.T) {
	dir := t.TempDir()
	umbrella := "defmodule U.MixProject do\n  use Mix.Project\n  def project do\n    [apps_path: \"apps\", version: \"0.1.0\"]\n  end\nend\n"
	writeTree(t, dir, map[string]string{
		"plain/mix.exs":                  "defmodule P.MixProject do\n  def project, do: [app: :p]\nend\n",
		"plain/lib/p/t.ex":               "",
		"umb/mix.exs":                    umbrella,
		"umb/apps/web/mix.exs":           "defmodule Web.MixProject do\n  def project, do: [app: :web, build_path: \"../../_build\"]\nend\n",
		"umb/apps/web/lib/web/router.ex": "",
		"umb/apps/deep/x/mix.exs":        "",
		"umb/apps/deep/x/lib/t.ex":       "",
		"svc/mix.exs":                    "defmodule S.MixProject do\n  def project, do: [apps_path: \"services\"]\nend\n",
		"svc/services/a/mix.exs":         "",
		"svc/apps/b/mix.exs":             "",
		"commented/mix.exs":              "defmodule C.MixProject do\n  # apps_path: \"apps\"\n  def project, do: [app: :c]\n  def other, do: [apps_path: \"apps\"]\nend\n",
		"commented/apps/a/mix.exs":       "",
		"broken/mix.exs":                 "defmodule B.MixProject do\n  def project, do: [apps_path: \"apps\"\n",
		"broken/apps/a/lib/t.ex":         "",
		"broken/apps/a/mix.exs":          "",
		"loose/t.ex":                     "",
	})
	for _, tc := range []struct{ path, want string }{
		{"plain/lib/p/t.ex", "plain"},
		{"plain", "plain"},
		{"umb/apps/web/lib/web/router.ex", "umb"},
		{"umb/apps/web", "umb"},
		{"umb", "umb"},
		{"umb/apps/deep/x/lib/t.ex", "umb/apps/deep/x"}, // not directly in apps/
		{"svc/services/a", "svc"},
		{"svc/apps/b", "svc/apps/b"},
		{"commented/apps/a", "commented/apps/a"},
		{"broken/apps/a/lib/t.ex", "broken"}, // the tolerant reader still reads project/0
		{"loose/t.ex", ""},
	} {
		got := ProjectRoot(filepath.Join(dir, filepath.FromSlash(tc.path)))
		if got != "" {
			got, _ = filepath.Rel(dir, got)
			got = filepath.ToSlash(got)
		}
		if got != tc.want {
			t.Errorf("ProjectRoot(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestUnknownMountedModuleNeedsTheWholeProject: a mounted module that no
// file read defines is lint/unknown-tool-module only when the router's
// whole Mix project was read (the umbrella, for an app of one); reading
// one app, or one file, leaves it unchecked and names it in Mount.Unread.
func TestUnknownMountedModuleNeedsTheWholeProject(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"umb/mix.exs":                    "defmodule U.MixProject do\n  def project, do: [apps_path: \"apps\"]\nend\n",
		"umb/apps/core/mix.exs":          "",
		"umb/apps/core/lib/ping.ex":      "defmodule Core.Tools.Ping do\n  use Wymcp.Tool\n  def name, do: \"ping\"\n  def actions, do: %{}\nend\n",
		"umb/apps/web/mix.exs":           "",
		"umb/apps/web/lib/web/router.ex": "defmodule Web.Router do\n  use Wymcp.Router, tools: [Core.Tools.Ping, Core.Tools.Gone]\nend\n",
	})
	for _, tc := range []struct {
		name, folder string
		want         []string
		unread       string
	}{
		{"the umbrella", "umb", []string{"umb/apps/web/lib/web/router.ex:lint/unknown-tool-module:Core.Tools.Gone"}, ""},
		{"the umbrella's apps directory, which holds all its code", "umb/apps", []string{"umb/apps/web/lib/web/router.ex:lint/unknown-tool-module:Core.Tools.Gone"}, ""},
		{"one app", "umb/apps/web", nil, "Core.Tools.Ping Core.Tools.Gone"},
		{"one file", "umb/apps/web/lib/web/router.ex", nil, "Core.Tools.Ping Core.Tools.Gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := New(Options{})
			defer ws.Close()
			if err := ws.AddFolder(context.Background(), filepath.Join(dir, filepath.FromSlash(tc.folder)), nil); err != nil {
				t.Fatal(err)
			}
			if got := found(t, ws, dir); !slices.Equal(got, tc.want) {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
			_, mounts := ws.Tools(context.Background())
			if len(mounts) != 1 || strings.Join(mounts[0].Unread, " ") != tc.unread {
				t.Errorf("mounts %+v, want one with Unread %q", mounts, tc.unread)
			}
		})
	}
}

// TestMountedModuleOfAnotherNamespace: with the whole project read, a
// mounted module that no file read defines is lint/unknown-tool-module
// only when its first segment is one the project's own modules use
// (App.Tools.Ecoh, a typo of App.Tools.Echo); one of a namespace no file
// read uses (SharedTools.Echo) may be a dependency's tool, from deps/ or a
// path dependency, which are not read: it is not reported (docs/rules.md
// §5, certainty). Before, mounting a dependency's tool was reported as
// "not a module of this workspace; fix: list tool modules only".
func TestMountedModuleOfAnotherNamespace(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"mix.exs":                  "defmodule App.MixProject do\nend\n",
		"lib/app/tools/echo.ex":    "defmodule App.Tools.Echo do\n  use Wymcp.Tool\n  def name, do: \"echo\"\n  def actions, do: %{}\nend\n",
		"lib/app/other.ex":         "defmodule Other.Thing do\nend\n",
		"lib/app_web/router.ex":    "defmodule AppWeb.Router do\n  use Wymcp.Router, tools: [App.Tools.Echo, App.Tools.Ecoh, SharedTools.Echo, Other.Gone, AppWeb.Gone, Wymcp.Tools.Sample]\nend\n",
		"deps/shared/lib/echo.ex":  "defmodule SharedTools.Echo do\n  use Wymcp.Tool\n  def name, do: \"shared_echo\"\n  def actions, do: %{}\nend\n",
		"deps/wymcp/lib/sample.ex": "defmodule Wymcp.Tools.Sample do\nend\n",
	})
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"lib/app_web/router.ex:lint/unknown-tool-module:App.Tools.Ecoh",
		"lib/app_web/router.ex:lint/unknown-tool-module:Other.Gone",
		"lib/app_web/router.ex:lint/unknown-tool-module:AppWeb.Gone",
	}
	if got := found(t, ws, dir); !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

// TestHintToADependencysTool: a hint naming a tool no file read defines is
// not lint/hint-unknown-tool while a mount lists a module whose tool name
// cannot be known: one of another namespace (a dependency's) or, with
// part of the project read, one no file read defines. With every mounted
// tool known, it is. Before, a hint to a mounted dependency's tool was
// reported as naming no tool of the workspace.
func TestHintToADependencysTool(t *testing.T) {
	tool := "defmodule App.T do\n  use Wymcp.Tool\n  alias Wymcp.Hint\n  def name, do: \"t\"\n  def actions, do: %{a: %{description: \"d\", properties: %{}}}\n  def run_action(:a, _, _), do: {:ok, Hint.new(tool: \"shared_echo\", action: \"say\")}\nend\n"
	for _, tc := range []struct {
		name, tools string
		want        []string
	}{
		{"a dependency's tool mounted", "App.T, SharedTools.Echo", nil},
		{"every mounted tool known", "App.T", []string{"lib/t.ex:lint/hint-unknown-tool:\"shared_echo\""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{
				"mix.exs":       "",
				"lib/t.ex":      tool,
				"lib/router.ex": "defmodule App.Router do\n  use Wymcp.Router, tools: [" + tc.tools + "]\nend\n",
			})
			ws := New(Options{})
			defer ws.Close()
			if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
				t.Fatal(err)
			}
			if got := found(t, ws, dir); !slices.Equal(got, tc.want) {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTopLevelAliases: Elixir's aliases are lexical, so an alias written at
// the top level of a file, outside every defmodule, is in effect in the
// defmodules after it: a router mounting `Echo` after `alias
// App.Tools.Echo` mounts App.Tools.Echo, and a top-level `defmodule
// Echo.Extra` after it defines App.Tools.Echo.Extra (as `elixir` itself
// does). Before, the reader dropped top-level aliases: the router's Echo
// was lint/unknown-tool-module, and the tools lint/tool-not-mounted.
func TestTopLevelAliases(t *testing.T) {
	tool := func(mod, name string) string {
		return "defmodule " + mod + " do\n  use Wymcp.Tool\n  def name, do: \"" + name + "\"\n  def actions, do: %{}\nend\n"
	}
	got := foundInTree(t, map[string]string{
		"mix.exs":                "defmodule App.MixProject do\nend\n",
		"lib/app/tools/echo.ex":  tool("App.Tools.Echo", "echo"),
		"lib/app/tools/extra.ex": "alias App.Tools.Echo\n" + tool("Echo.Extra", "extra"),
		"lib/app_web/router.ex":  "alias App.Tools.Echo\nalias App.Tools, as: T\n\ndefmodule AppWeb.Router do\n  use Wymcp.Router, tools: [Echo, T.Echo.Extra, T.Gone]\nend\n",
	})
	want := []string{"lib/app_web/router.ex:lint/unknown-tool-module:T.Gone"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

// TestTopLevelImportAndQuotedAlias: what a file's top level writes is in
// effect in its defmodules after it: a top-level `import App.Schemas`
// provides all/0 to the tool's `def actions, do: all()`, and a top-level
// `alias App.Tools` is in effect in the quote of a wrapper's __using__
// (`alias Tools.Schemas` there names App.Tools.Schemas), as elixir has it.
// Before, both tools' actions were unknown, and their offences missed.
func TestTopLevelImportAndQuotedAlias(t *testing.T) {
	got := foundInTree(t, map[string]string{
		"mix.exs":               "defmodule App.MixProject do\nend\n",
		"lib/app/schemas.ex":    "defmodule App.Schemas do\n  def all, do: %{a: %{description: \"x\", properties: %{}, bogus: 1}}\nend\n",
		"lib/app/tools/s.ex":    "defmodule App.Tools.Schemas do\n  def all, do: %{b: %{description: \"y\", properties: %{}, stray: 2}}\nend\n",
		"lib/app/base.ex":       "alias App.Tools\ndefmodule App.Base do\n  defmacro __using__(_) do\n    quote do\n      use Wymcp.Tool\n      alias Tools.Schemas\n    end\n  end\nend\n",
		"lib/app/tools/i.ex":    "import App.Schemas\ndefmodule App.Tools.I do\n  use Wymcp.Tool\n  def name, do: \"i\"\n  def actions, do: all()\n  def run_action(:a, _, _), do: :ok\nend\n",
		"lib/app/tools/q.ex":    "defmodule App.Tools.Q do\n  use App.Base\n  def name, do: \"q\"\n  def actions, do: Schemas.all()\n  def run_action(:b, _, _), do: :ok\nend\n",
		"lib/app_web/router.ex": "defmodule AppWeb.Router do\n  use Wymcp.Router, tools: [App.Tools.I, App.Tools.Q]\nend\n",
	})
	want := []string{"lib/app/schemas.ex:unknown-key:bogus", "lib/app/tools/s.ex:unknown-key:stray"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

// TestUseSpellings: a tool file that names its wrapper App.Base.Tool in
// any of the ways Elixir takes passes the cheap scan, and its offence is
// found: through a partial alias (`alias App.Base` then `use Base.Tool`),
// with parentheses (across lines), with Elixir., or through an as: name
// the scan cannot follow, of the wrapper or of Wymcp itself (an alias or
// require with options of such a name makes the file be parsed).
// Before, the scan searched only `use App.Base.Tool` and `use Tool`, and
// these tools were silently not read: their router reported them unknown.
func TestUseSpellings(t *testing.T) {
	tool := func(mod, uses string) string {
		return "defmodule " + mod + " do\n" + uses + "\n  def name, do: \"" + strings.ToLower(mod[len(mod)-1:]) + "\"\n" +
			"  def actions, do: %{a: %{description: \"d\", properties: %{}, bogus: 1}}\nend\n"
	}
	got := foundInTree(t, map[string]string{
		"mix.exs":               "defmodule App.MixProject do\nend\n",
		"lib/app/base/tool.ex":  "defmodule App.Base.Tool do\n  defmacro __using__(_) do\n    quote do\n      use Wymcp.Tool\n    end\n  end\nend\n",
		"lib/app/tools/a.ex":    tool("App.Tools.A", "  alias App.Base\n  use Base.Tool"),
		"lib/app/tools/b.ex":    tool("App.Tools.B", "  use(App.Base.Tool)"),
		"lib/app/tools/c.ex":    tool("App.Tools.C", "  use Elixir.App.Base.Tool"),
		"lib/app/tools/d.ex":    "alias App.Base, as: B\n" + tool("App.Tools.D", "  use B.Tool"),
		"lib/app/tools/e.ex":    tool("App.Tools.E", "  alias App.Base.Tool, as: MyTool\n  use MyTool"),
		"lib/app/tools/f.ex":    tool("App.Tools.F", "  use(\n    App.Base.Tool\n  )"),
		"lib/app/tools/g.ex":    tool("App.Tools.G", "  alias(App.Base.Tool, as: T)\n  use T"),
		"lib/app/tools/h.ex":    tool("App.Tools.H", "  require App.Base.Tool , as: T\n  use T"),
		"lib/app/tools/i.ex":    tool("App.Tools.I", "  alias Elixir.App.Base.Tool, as: T\n  use T"),
		"lib/app/tools/j.ex":    tool("App.Tools.J", "  alias Wymcp, as: W\n  use W.Tool"),
		"lib/app_web/router.ex": "defmodule AppWeb.Router do\n  use Wymcp.Router, tools: [App.Tools.A, App.Tools.B, App.Tools.C, App.Tools.D, App.Tools.E, App.Tools.F, App.Tools.G, App.Tools.H, App.Tools.I, App.Tools.J]\nend\n",
	})
	var want []string
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		want = append(want, "lib/app/tools/"+f+".ex:unknown-key:bogus")
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

// foundInTree writes files under a new directory, reads it as one
// workspace folder and returns what found reports there.
func foundInTree(t *testing.T, files map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	return found(t, ws, dir)
}

// TestUnindentedToolWhileTyping: a tool module written without
// indentation (its defs at the column of its defmodule, valid Elixir) keeps
// its offence while a def is typed into it character by character, each
// prefix a broken buffer: the recovery does not end a module's body at a
// def of its own column. Before, the offence came and went with the
// keystrokes, the module ending at its first def whenever the buffer did
// not parse.
func TestUnindentedToolWhileTyping(t *testing.T) {
	head := "defmodule App.Tools.T do\nuse Wymcp.Tool\ndef name, do: \"t\"\ndef actions do\n%{a: %{description: \"d\", properties: %{}, bogus: 1}}\nend\n"
	const typed = "def x, do: [1]\n"
	for i := 0; i <= len(typed); i++ {
		got := foundInTree(t, map[string]string{"mix.exs": "", "lib/t.ex": head + typed[:i] + "end\n"})
		if !slices.Contains(got, "lib/t.ex:unknown-key:bogus") {
			t.Errorf("typed %q: problems %q, want the unknown-key of bogus among them", typed[:i], got)
		}
	}
}
