package lsp_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
)

// TestRenameAction renames the action :create of App.Tools.Orders from
// each of its four kinds of place (its key in actions/0, a :related
// entry, its run_action/3 clause atom, and the action: string of a hint
// in another module whose tool: is "orders"): each gives the same one
// WorkspaceEdit over both documents, and applying it re-analyses clean.
// A taken name is refused with the reason.
func TestRenameAction(t *testing.T) {
	cl, docs := curOpen(t, projectFiles(t, "rename_action"))
	orders, hints := docs["lib/orders.ex"], docs["lib/hints.ex"]
	starts := map[string]*curDoc{
		"action key":   at(t, orders, "%{\n", "create:", 2),
		"related":      at(t, orders, "cancel: %{", `"create"`, 3),
		"clause atom":  at(t, orders, "def run_action(", ":create", 2),
		"hint action:": at(t, hints, "action: ", `"create"`, 1),
	}
	wantOrders := strings.NewReplacer("create:", "place:", `related: ["create"]`, `related: ["place"]`, "run_action(:create,", "run_action(:place,").Replace(orders.text)
	wantHints := strings.Replace(hints.text, `action: "create"`, `action: "place"`, 1)
	var first string
	for name, d := range starts {
		res, rerr := callRaw(t, cl, "textDocument/prepareRename", posParams(d, nil))
		if rerr != nil {
			t.Fatalf("%s: prepareRename: %v", name, rerr)
		}
		var pr struct {
			Placeholder string `json:"placeholder"`
		}
		if err := json.Unmarshal(res, &pr); err != nil || pr.Placeholder != "create" {
			t.Errorf("%s: prepareRename %s", name, res)
		}
		res, rerr = callRaw(t, cl, "textDocument/rename", posParams(d, map[string]any{"newName": "place"}))
		if rerr != nil {
			t.Fatalf("%s: rename: %v", name, rerr)
		}
		if first == "" {
			first = string(res)
		} else if string(res) != first {
			t.Errorf("%s: edit %s\ndiffers from %s", name, res, first)
		}
		var we wireEdit
		_ = json.Unmarshal(res, &we)
		after := applyEdits(t, docs, we)
		if after["lib/orders.ex"] != wantOrders || after["lib/hints.ex"] != wantHints {
			t.Errorf("%s: after\n%s\n%s", name, after["lib/orders.ex"], after["lib/hints.ex"])
		}
	}

	_, rerr := callRaw(t, cl, "textDocument/rename", posParams(starts["action key"], map[string]any{"newName": "cancel"}))
	if want := "cannot rename action :create to :cancel: App.Tools.Orders already declares :cancel"; rerr == nil || rerr.Code != -32803 || rerr.Message != want {
		t.Errorf("taken name: %+v, want %q", rerr, want)
	}

	// Apply the edit and check that both documents re-analyse clean.
	for _, d := range []*curDoc{orders, hints} {
		text := wantOrders
		if d == hints {
			text = wantHints
		}
		if err := cl.ChangeText(d.uri, 2, lsptest.Full(text)); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []*curDoc{orders, hints} {
		p, err := cl.WaitVersion(testCtx(t), d.uri, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Diagnostics) != 0 {
			t.Errorf("%s after the rename: %+v", d.uri, p.Diagnostics)
		}
	}
	// The renamed hint still names a declared action: break it to show
	// the check ran.
	if err := cl.ChangeText(hints.uri, 3, lsptest.Full(strings.Replace(wantHints, `"place"`, `"create"`, 1))); err != nil {
		t.Fatal(err)
	}
	p, err := cl.WaitVersion(testCtx(t), hints.uri, 3)
	if err != nil || len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "lint/hint-unknown-action" {
		t.Errorf("stale hint: %v %+v", err, p.Diagnostics)
	}
}

// TestActionReferences: from each of an action's four kinds of place,
// definition goes to its key in actions/0 and references list all four.
func TestActionReferences(t *testing.T) {
	cl, docs := curOpen(t, projectFiles(t, "rename_action"))
	orders, hints := docs["lib/orders.ex"], docs["lib/hints.ex"]
	starts := map[string]*curDoc{
		"action key":   at(t, orders, "%{\n", "create:", 2),
		"related":      at(t, orders, "cancel: %{", `"create"`, 3),
		"clause atom":  at(t, orders, "def run_action(", ":create", 2),
		"hint action:": at(t, hints, "action: ", `"create"`, 1),
	}
	wantDef := "orders.ex:8:6-8:12"
	wantRefs := "hints.ex:4:38-4:46 orders.ex:8:6-8:12 orders.ex:9:75-9:83 orders.ex:13:17-13:24"
	for name, d := range starts {
		var defs []lsp.Location
		res, rerr := callRaw(t, cl, "textDocument/definition", posParams(d, nil))
		if rerr != nil || json.Unmarshal(res, &defs) != nil || len(defs) != 1 || locText(defs[0]) != wantDef {
			t.Errorf("%s: definition %s %v, want %s", name, res, rerr, wantDef)
		}
		var refs []lsp.Location
		res, rerr = callRaw(t, cl, "textDocument/references", posParams(d, map[string]any{"context": map[string]any{"includeDeclaration": true}}))
		if rerr != nil || json.Unmarshal(res, &refs) != nil {
			t.Fatalf("%s: references %s %v", name, res, rerr)
		}
		var got []string
		for _, l := range refs {
			got = append(got, locText(l))
		}
		if strings.Join(got, " ") != wantRefs {
			t.Errorf("%s: references %q, want %q", name, strings.Join(got, " "), wantRefs)
		}
	}
}

// TestRenameActionInGuard: a run_action/3 clause whose variable a guard
// limits (`when action in [:create, :cancel]`, `when action == :ship`)
// names those actions: a rename from the guard's atom or from the key
// edits the guard too, references list it, and an action no guard admits
// gets lint/action-without-clause (its call raises FunctionClauseError).
func TestRenameActionInGuard(t *testing.T) {
	const src = `defmodule App.Tools.Orders do
  use Wymcp.Tool

  def name, do: "orders"
  def description, do: "Orders"

  def actions do
    %{
      create: %{description: "Create", properties: %{}},
      cancel: %{description: "Cancel", properties: %{}},
      ship: %{description: "Ship", properties: %{}},
      track: %{description: "Track", properties: %{}}
    }
  end

  def run_action(action, data, _ctx) when action in [:create, :cancel], do: {:ok, data}
  def run_action(action, data, _ctx) when action == :ship or action in ~w(none)a, do: {:ok, data}
end
`
	cl, docs := curOpen(t, map[string]string{"lib/orders.ex": src})
	d := docs["lib/orders.ex"]
	p, err := cl.WaitVersion(testCtx(t), d.uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, dg := range p.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %v %s", dg.Range.Start.Line, dg.Range.Start.Character, dg.Code, dg.Message))
	}
	want := []string{"11:6 lint/action-without-clause action :track: no run_action/3 clause matches :track: its first tools/call raises FunctionClauseError; fix: add def run_action(:track, data, ctx)",
		"16:74 lint/clause-without-action the guard admits :none, which is not a declared action: dispatch calls run_action/3 only for declared actions; fix: declare :none in actions/0 or remove it from the guard"}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	// Hover on a guard atom is the action's, as on its key.
	for _, start := range []*curDoc{at(t, d, "action ==", ":ship", 2), at(t, d, "%{\n", "ship:", 1)} {
		if h := hoverAt(t, cl, start); h == nil || !strings.Contains(h.Contents.Value, "ship: Ship") || !strings.Contains(h.Contents.Value, `help {tool: "orders", action: "ship"}`) {
			t.Errorf("hover at %v: %+v", start.pos, h)
		}
	}
	if h := hoverAt(t, cl, at(t, d, "~w(", "none", 1)); h == nil || h.Contents.Value != "Action `:none` is not declared by App.Tools.Orders.\n" {
		t.Errorf("hover on an undeclared guard atom: %+v", h)
	}
	// An atom naming no declared action cannot be renamed: prepareRename
	// says so, as rename would.
	_, rerr := callRaw(t, cl, "textDocument/prepareRename", posParams(at(t, d, "~w(", "none", 1), nil))
	if want := "cannot rename action :none: App.Tools.Orders does not declare it"; rerr == nil || rerr.Message != want {
		t.Errorf("prepareRename on an undeclared guard atom: %+v, want %q", rerr, want)
	}

	wantText := strings.NewReplacer("cancel:", "void:", "[:create, :cancel]", "[:create, :void]").Replace(src)
	for name, start := range map[string]*curDoc{
		"guard atom": at(t, d, "when action in", ":cancel", 2),
		"action key": at(t, d, "%{\n", "cancel:", 1),
	} {
		res, rerr := callRaw(t, cl, "textDocument/rename", posParams(start, map[string]any{"newName": "void"}))
		if rerr != nil {
			t.Fatalf("%s: rename: %v", name, rerr)
		}
		var we wireEdit
		_ = json.Unmarshal(res, &we)
		if after := applyEdits(t, docs, we)["lib/orders.ex"]; after != wantText {
			t.Errorf("%s: after the rename\n%s", name, after)
		}
	}
	_, rerr = callRaw(t, cl, "textDocument/rename", posParams(at(t, d, "%{\n", "track:", 1), map[string]any{"newName": "ship"}))
	if want := "cannot rename action :track to :ship: App.Tools.Orders already declares :ship"; rerr == nil || rerr.Message != want {
		t.Errorf("taken name: %+v, want %q", rerr, want)
	}

	var refs []lsp.Location
	res, rerr := callRaw(t, cl, "textDocument/references", posParams(at(t, d, "action ==", ":ship", 1), map[string]any{"context": map[string]any{"includeDeclaration": true}}))
	if rerr != nil || json.Unmarshal(res, &refs) != nil {
		t.Fatalf("references %s %v", res, rerr)
	}
	got = got[:0]
	for _, l := range refs {
		got = append(got, locText(l))
	}
	if want := []string{"orders.ex:10:6-10:10", "orders.ex:16:52-16:57"}; !slices.Equal(got, want) {
		t.Errorf("references %q, want %q", got, want)
	}
}

// TestRenameActionInCase: a catch-all run_action/3 that dispatches with
// `case action do` names each action in a pattern: renaming from the
// pattern or from the key edits both, and the lint stays silent (the
// clause takes every action).
func TestRenameActionInCase(t *testing.T) {
	const src = `defmodule App.Tools.Orders do
  use Wymcp.Tool

  def name, do: "orders"
  def description, do: "Orders"

  def actions do
    %{
      create: %{description: "Create", properties: %{}},
      cancel: %{description: "Cancel", properties: %{}}
    }
  end

  def run_action(action, data, _ctx) do
    case action do
      :create -> {:ok, data}
      other when other == :cancel -> {:ok, data}
    end
  end
end
`
	cl, docs := curOpen(t, map[string]string{"lib/orders.ex": src})
	d := docs["lib/orders.ex"]
	if p, err := cl.WaitVersion(testCtx(t), d.uri, 1); err != nil || len(p.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v %+v", err, p.Diagnostics)
	}
	for _, tc := range []struct{ name, from, newName, want string }{
		{"pattern atom", ":create ->", "place", strings.NewReplacer("create:", "place:", ":create ->", ":place ->").Replace(src)},
		{"guard in a pattern", "other ==", "void", strings.NewReplacer("cancel:", "void:", "== :cancel", "== :void").Replace(src)},
	} {
		start := at(t, d, tc.from, ":", 1)
		if tc.name == "guard in a pattern" {
			start = at(t, d, tc.from, ":cancel", 2)
		}
		res, rerr := callRaw(t, cl, "textDocument/rename", posParams(start, map[string]any{"newName": tc.newName}))
		if rerr != nil {
			t.Fatalf("%s: rename: %v", tc.name, rerr)
		}
		var we wireEdit
		_ = json.Unmarshal(res, &we)
		if after := applyEdits(t, docs, we)["lib/orders.ex"]; after != tc.want {
			t.Errorf("%s: after the rename\n%s", tc.name, after)
		}
	}
}
