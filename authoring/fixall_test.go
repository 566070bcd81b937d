package authoring

import (
	"context"
	"reflect"
	"testing"
)

// TestFixAll: the preferred fixes of one document that apply together in
// one round, the text after them, and what one round leaves for the next.
func TestFixAll(t *testing.T) {
	for _, tc := range []struct {
		name   string
		text   string
		titles []string
		after  string
	}{
		{"two misspelt keys in two actions are fixed in one round",
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, example: []}, b: %{description: "B", properties: %{}, requird: []}}`),
			[]string{"Rename example to :examples", "Rename requird to :required"},
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, examples: []}, b: %{description: "B", properties: %{}, required: []}}`)},
		{"a rename inside a map wins over adding the key the map misses",
			editTool(`  def actions, do: %{a: %{:descripton => "A", :properties => %{}}}`),
			[]string{"Rename :descripton to :description"},
			editTool(`  def actions, do: %{a: %{:description => "A", :properties => %{}}}`)},
		{"a fix that is not preferred is not applied",
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, require: "x"}}`),
			nil, ""},
		{"a file with a syntax error is never edited",
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, example: []}}` + "\n  def broken(, do: 1"),
			nil, ""},
		{"a clean file has nothing to fix",
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{}}}`),
			nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := editSnap(t, editURI, map[string]string{editURI: tc.text})
			fixes, edits := FixAll(context.Background(), snap)
			var titles []string
			for _, fx := range fixes {
				titles = append(titles, fx.Title)
				if !fx.Preferred {
					t.Errorf("fix %q is not preferred", fx.Title)
				}
			}
			if !reflect.DeepEqual(titles, tc.titles) {
				t.Errorf("fixes %q, want %q", titles, tc.titles)
			}
			if tc.after == "" {
				if len(edits) != 0 {
					t.Errorf("edits %+v, want none", edits)
				}
				return
			}
			got := string(Apply([]byte(tc.text), editURI, edits))
			if got != tc.after {
				t.Errorf("after the fixes:\n%s\nwant:\n%s", got, tc.after)
			}
			// The next round over the fixed text finds nothing more.
			again := editSnap(t, editURI, map[string]string{editURI: got})
			if fs, es := FixAll(context.Background(), again); len(fs) != 0 || len(es) != 0 {
				t.Errorf("second round still fixes %+v", fs)
			}
		})
	}
	if fs, es := FixAll(context.Background(), nil); fs != nil || es != nil {
		t.Errorf("nil snapshot: %v %v", fs, es)
	}
}

// TestFixAllAddsMissingKeysLast: a missing key is added in a round of its
// own, once nothing else applies.
func TestFixAllAddsMissingKeysLast(t *testing.T) {
	text := editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, example: []}, b: %{properties: %{}}}`)
	var titles [][]string
	for round := 0; round < 4; round++ {
		snap := editSnap(t, editURI, map[string]string{editURI: text})
		fixes, edits := FixAll(context.Background(), snap)
		if len(fixes) == 0 {
			break
		}
		var ts []string
		for _, fx := range fixes {
			ts = append(ts, fx.Title)
		}
		titles = append(titles, ts)
		text = string(Apply([]byte(text), editURI, edits))
	}
	want := [][]string{{"Rename example to :examples"}, {`Add description: ""`}}
	if !reflect.DeepEqual(titles, want) {
		t.Errorf("rounds %q, want %q", titles, want)
	}
	if w := editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, examples: []}, b: %{description: "", properties: %{}}}`); text != w {
		t.Errorf("after:\n%s\nwant:\n%s", text, w)
	}
}
