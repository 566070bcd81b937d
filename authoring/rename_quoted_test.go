package authoring

import (
	"context"
	"strings"
	"testing"
)

// TestRenameQuotedAction: an action whose name is written as a quoted
// atom (`:"b-c" =>`, `run_action(:"b-c", ...)`, a quoted keyword key
// `"my act":`) is renamed to a plain atom everywhere it is written, as
// prepareRename promises. The quoted atoms were refused with "cannot
// rename action :"b-c" where it is written as :"b-c"".
func TestRenameQuotedAction(t *testing.T) {
	src := editTool(`  def name, do: "t"
  def actions, do: %{:"b-c" => %{description: "y", properties: %{}, related: ["my act"]}, "my act": %{description: "x", properties: %{}, related: ["b-c"]}}
  def run_action(:"my act", _, _), do: :ok
  def run_action(:"b-c", _, _), do: :ok`)
	for _, tc := range []struct{ at, newName, want string }{
		{`:"b-c" =>`, "bc", editTool(`  def name, do: "t"
  def actions, do: %{:bc => %{description: "y", properties: %{}, related: ["my act"]}, "my act": %{description: "x", properties: %{}, related: ["bc"]}}
  def run_action(:"my act", _, _), do: :ok
  def run_action(:bc, _, _), do: :ok`)},
		{`"my act":`, "mine", editTool(`  def name, do: "t"
  def actions, do: %{:"b-c" => %{description: "y", properties: %{}, related: ["mine"]}, "mine": %{description: "x", properties: %{}, related: ["b-c"]}}
  def run_action(:mine, _, _), do: :ok
  def run_action(:"b-c", _, _), do: :ok`)},
	} {
		t.Run(tc.at, func(t *testing.T) {
			snap := editSnap(t, editURI, map[string]string{editURI: src})
			off := strings.Index(src, tc.at) + 2
			edits, err := Rename(context.Background(), snap, off, tc.newName)
			if err != nil {
				t.Fatalf("rename to %s: %v", tc.newName, err)
			}
			if got := string(Apply([]byte(src), editURI, edits)); got != tc.want {
				t.Errorf("after:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
