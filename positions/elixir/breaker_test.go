package elixir

import "testing"

// TestCommentRunsToTheNewline: a comment runs to the next "\n" (or
// "\r\n"), as in Elixir's tokenizer; a lone "\r" inside it is comment
// text. The reader ended the comment at the "\r" and read what followed
// as code, so `# note\rend` closed the module early: a syntax error where
// Elixir reads the file, and the defs after it were lost.
func TestCommentRunsToTheNewline(t *testing.T) {
	src := "defmodule A do\n  use Wymcp.Tool\n  # note\rend\n  def actions, do: %{}\nend\n"
	f := parse(t, src)
	if len(f.Errors) != 0 {
		t.Errorf("syntax errors %v, want none (Elixir reads the file)", f.Errors)
	}
	if len(f.Modules) != 1 || f.Modules[0].Span.End != len(src)-1 {
		t.Fatalf("modules %+v, want A spanning to its end", f.Modules)
	}
	var names []string
	for _, d := range f.Modules[0].Defs {
		names = append(names, d.Name)
	}
	if len(names) != 1 || names[0] != "actions" {
		t.Errorf("defs %v, want [actions]", names)
	}
}
