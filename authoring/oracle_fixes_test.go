package authoring

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir/oracle"
	"github.com/wymcp/wymcp-ls/workspace"
)

// mapUpdateTool holds map updates (`%{base | k => v}`), whose keys no fix
// may edit (codeaction.go updateKey): removing the lone pair of an update
// leaves `%{@d | }`, which Elixir refuses.
const mapUpdateTool = `defmodule Oracle.MapUpdate do
  use Wymcp.Tool

  @rest ["b"]
  @d %{"zz" => 0, "a" => 1, loud: true}
  @p %{"a" => %{"type" => "strng"}, b: %{}}

  def actions do
    %{
      a: %{description: "A", properties: %{"a" => %{}, "b" => %{}}, required: ["x" | @rest]},
      b: %{description: "B", properties: %{"a" => %{}}, defaults: %{@d | "zz" => 1}},
      c: %{description: "C", properties: %{"b" => %{}}, required: ["b", "b" | @rest]},
      d: %{description: "D", properties: %{"a" => %{}}, defaults: %{@d | "zz" => 2, loud: false}},
      e: %{description: "E", properties: %{@p | b: %{"type" => "integer"}}}
    }
  end
end
`

// layoutTool puts offences in the layouts edits must keep: `=>` keys,
// trailing commas, comments between entries, heredocs, sigils, charlists,
// quoted atoms, tabs and non-ASCII text before the edits; it is also read
// with CRLF line ends.
const layoutTool = `defmodule Oracle.Layout do
  use Wymcp.Tool

  @help """
  Create a "task"
  in two lines
  """

  def actions do
    %{
      :create => %{
        :descripton => "é Create",
        :properties => %{"a" => %{"type" => "strin"}, "foo bar": %{}},
        :required => ["a", "b",],
        :example => [%{"a" => "x"},],
      },
      list: %{
        # a comment
        properties: %{
          "a" => %{}, # the a
          b: %{"type" => "intger"}
        },
        required: [
          "a", # first
          "zz", # undeclared
          "a" # again
        ],
        defaults: %{
		  "a" => 1, # required
		  "q" => 2 # undeclared
        }
      },
      other: %{"description" => 'it\'s', properties: %{}, notes: ~C(lit #{x}), related: ~w(create)a},
      more: %{description: ~S"""
      raw \n #{here}
      """, properties: %{}, required_one_of: [[], ["x"], ~w(y x)]},
      last: %{description: @help, properties: %{}, related: [:list, :"with space"]}
    }
  end
end
`

// TestEveryFixParses applies every quick fix offered on the repository's
// fixtures (testdata/*/ and the inputs of testdata/authoring/fixes), one at
// a time, and the fix-all rounds `check --fix` applies, and asks Elixir's
// parser (positions/elixir/testdata/oracle/dump.exs) whether each result
// is still Elixir: a fix must never turn a file Elixir reads into one it
// refuses (README.md "Quick fixes (code actions)").
func TestEveryFixParses(t *testing.T) {
	elixir := oracle.NeedElixir(t)
	groups := map[string]map[string]string{} // group -> URI -> text
	add := func(group, path, text string) {
		if groups[group] == nil {
			groups[group] = map[string]string{}
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			t.Fatal(err)
		}
		groups[group][workspace.PathURI(abs)] = text
	}
	for _, dir := range []string{"clean", "example", "lints", "listing", "offences", "seethrough", "tools", "toolsclean"} {
		root := filepath.Join("..", "testdata", dir)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || (filepath.Ext(p) != ".ex" && filepath.Ext(p) != ".exs") {
				return err
			}
			b, err := os.ReadFile(p)
			add(dir, p, string(b))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	cases, _ := filepath.Glob(filepath.Join("..", "testdata", "authoring", "fixes", "*.txt"))
	if len(cases) == 0 {
		t.Fatal("no fixtures in testdata/authoring/fixes")
	}
	sect := regexp.MustCompile(`(?m)^-- (\S+) --\n`)
	for _, c := range cases {
		b, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		parts := sect.Split(string(b), -1)
		names := sect.FindAllStringSubmatch(string(b), -1)
		for i, n := range names {
			if !strings.HasPrefix(n[1], "want/") {
				add(c, filepath.Join(strings.TrimSuffix(c, ".txt"), n[1]), parts[i+1])
			}
		}
	}
	add("map update", "oracle/map_update.ex", mapUpdateTool)
	add("layout", "oracle/layout.ex", layoutTool)
	add("layout crlf", "oracle/layout_crlf.ex", strings.ReplaceAll(layoutTool, "\n", "\r\n"))

	out := t.TempDir()
	type result struct{ orig, path, what string }
	var results []result
	origs := map[string]string{} // URI -> path of its text on disk
	var paths []string
	write := func(uri string, text []byte) string {
		p := filepath.Join(out, fmt.Sprintf("%05d_%s", len(paths), filepath.Base(uri)))
		if err := os.WriteFile(p, text, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		return p
	}
	var gnames []string
	for g := range groups {
		gnames = append(gnames, g)
	}
	sort.Strings(gnames)
	fixes := 0
	for _, g := range gnames {
		files := groups[g]
		var uris []string
		for u := range files {
			uris = append(uris, u)
			origs[u] = write(u, []byte(files[u]))
		}
		sort.Strings(uris)
		for _, u := range uris {
			snap := editSnap(t, u, files)
			for _, fx := range CodeActions(context.Background(), snap, positions.Span{Start: 0, End: len(files[u])}) {
				fixes++
				for _, eu := range uris {
					for _, e := range fx.Edits {
						if e.URI == eu {
							results = append(results, result{origs[eu], write(eu, Apply([]byte(files[eu]), eu, fx.Edits)), fmt.Sprintf("quick fix %q [%s] offered in %s", fx.Title, fx.Code, u)})
							break
						}
					}
				}
			}
			// The rounds of check --fix (cmd/wymcp-ls/fix.go), on this document alone.
			text := files[u]
			for round := 0; round < 10; round++ {
				cur := map[string]string{}
				for k, v := range files {
					cur[k] = v
				}
				cur[u] = text
				_, es := FixAll(context.Background(), editSnap(t, u, cur))
				if len(es) == 0 {
					break
				}
				text = string(Apply([]byte(text), u, es))
			}
			if text != files[u] {
				results = append(results, result{origs[u], write(u, []byte(text)), "the fix-all rounds of " + u})
			}
		}
	}
	if fixes < 60 {
		t.Fatalf("only %d quick fixes offered on the fixtures", fixes)
	}
	dumps := oracle.Run(t, elixir, paths)
	refused := func(p string) bool {
		d := dumps[p]
		return len(d.Facts) == 1 && (strings.HasPrefix(d.Facts[0], "error ") || d.Facts[0] == "crash")
	}
	for u, p := range origs {
		if strings.Contains(u, "/oracle/") && refused(p) {
			t.Errorf("the test's own tool %s is not Elixir: %s", u, dumps[p].Message)
		}
	}
	for _, r := range results {
		if !refused(r.orig) && refused(r.path) {
			b, _ := os.ReadFile(r.path)
			t.Errorf("%s gives code Elixir refuses (%s):\n%s", r.what, dumps[r.path].Message, b)
		}
	}
	t.Logf("%d quick fixes, %d results checked", fixes, len(results))
}
