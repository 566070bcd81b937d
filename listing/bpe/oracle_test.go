package bpe

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// TestCountsMatchTiktoken compares Count with OpenAI's own tiktoken
// (testdata/tiktoken.js, the npm package built from the Rust original) on
// what the figures count: compact JSON (README.md "What the LLM sees").
// The texts are JSON objects holding each file of the repository's
// testdata/ and docs/ and, with WYMCP_ELIXIR_CORPUS, of Elixir's own
// source. It needs node and WYMCP_TIKTOKEN_DIR (`.ci/tiktoken` installs
// the package there and runs this test); it skips without them.
//
// Raw text is left out on purpose: on a line of spaces between newlines
// ("\n \n") the library gives two tokens where tiktoken gives one. Compact
// JSON writes every newline as \n, so it never holds that sequence.
func TestCountsMatchTiktoken(t *testing.T) {
	dir := os.Getenv("WYMCP_TIKTOKEN_DIR")
	if dir == "" {
		t.Skip("needs WYMCP_TIKTOKEN_DIR (npm install --prefix DIR tiktoken) and node; .ci/tiktoken runs this test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("WYMCP_TIKTOKEN_DIR is set but node is not found: %v", err) // asked to compare: never pass unchecked
	}
	roots := []string{filepath.Join("..", "..", "testdata"), filepath.Join("..", "..", "docs")}
	if c := os.Getenv("WYMCP_ELIXIR_CORPUS"); c != "" {
		roots = append(roots, c)
	}
	var texts, names []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			ext := filepath.Ext(p)
			if ext != ".ex" && ext != ".exs" && ext != ".md" && ext != ".golden" && ext != ".json" {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 200_000 {
				return err
			}
			// <, > and & raw, as the listing's JSON writes them (it follows
			// Jason, listing/listing.go Compact): json.Marshal wrote them
			// as \u003c ..., so "->" or "&" was never counted as figured.
			var js bytes.Buffer
			enc := json.NewEncoder(&js)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(map[string]any{"description": string(b), "name": filepath.Base(p), "tags": strings.Fields(string(b[:min(len(b), 200)]))}); err != nil {
				return err
			}
			texts, names = append(texts, strings.TrimSuffix(js.String(), "\n")), append(names, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(texts) < 50 {
		t.Fatalf("only %d texts found", len(texts))
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join("testdata", "tiktoken.js"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("testdata/tiktoken.js: %v\n%s", err, stderr.String())
	}
	var want []int
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(texts) {
		t.Fatalf("testdata/tiktoken.js gave %d counts for %d texts: %v", len(want), len(texts), err)
	}
	c := New(tokenizer.O200kBase)
	total, bad := 0, 0
	for i, s := range texts {
		got, err := c.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		total += want[i]
		if got != want[i] {
			if bad++; bad <= 5 {
				t.Errorf("%s: %d tokens, tiktoken counts %d", names[i], got, want[i])
			}
		}
	}
	t.Logf("%d texts, %d tokens by tiktoken, %d counted differently", len(texts), total, bad)
}
