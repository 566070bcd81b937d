package authoring

import (
	"context"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
)

// TestInsertedLinesKeepCRLF: a fix that writes an entry on a line of its
// own, in a file whose lines end in "\r\n", ends the new line with
// "\r\n" too (README.md "Quick fixes (code actions)": the edit keeps the formatting
// around it). It wrote a bare "\n", leaving the file with mixed line
// endings after `check --fix` or the editor's fix.
func TestInsertedLinesKeepCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	for _, tc := range []struct {
		name, text, at, title, want string
	}{
		{"missing key, first line of a multi-line map",
			"    %{\n      run: %{\n        properties: %{}\n      }\n    }",
			"%{\n        properties", `Add description: ""`,
			"    %{\n      run: %{\n        description: \"\",\n        properties: %{}\n      }\n    }"},
		{"undeclared field, declared last in a multi-line map",
			"    %{\n      run: %{\n        description: \"R\",\n        properties: %{\n          \"a\" => %{}\n        },\n        required: [\"b\"]\n      }\n    }",
			`"b"`, `Declare "b" in :properties`,
			"    %{\n      run: %{\n        description: \"R\",\n        properties: %{\n          \"a\" => %{},\n          \"b\" => %{}\n        },\n        required: [\"b\"]\n      }\n    }"},
		{"undeclared field, declared in an empty multi-line map",
			"    %{\n      run: %{\n        description: \"R\",\n        properties: %{\n        },\n        required: [\"b\"]\n      }\n    }",
			`"b"`, `Declare "b" in :properties`,
			"    %{\n      run: %{\n        description: \"R\",\n        properties: %{\n          \"b\" => %{}\n        },\n        required: [\"b\"]\n      }\n    }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := crlf(editTool("  def actions do\n" + tc.text + "\n  end"))
			want := crlf(editTool("  def actions do\n" + tc.want + "\n  end"))
			at := crlf(tc.at)
			i := strings.Index(text, at)
			if i < 0 {
				t.Fatalf("%q not in the text", at)
			}
			snap := editSnap(t, editURI, map[string]string{editURI: text})
			var titles []string
			for _, fx := range CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + len(at)}) {
				titles = append(titles, fx.Title)
				if fx.Title != tc.title {
					continue
				}
				if got := string(Apply([]byte(text), editURI, fx.Edits)); got != want {
					t.Errorf("after %q:\n%q\nwant:\n%q", fx.Title, got, want)
				}
				return
			}
			t.Errorf("no fix %q, got %q", tc.title, titles)
		})
	}
}
