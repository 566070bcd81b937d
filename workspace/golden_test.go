package workspace

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// render prints every problem of reports as one line each: the path
// relative to root, the 1-based range, the code, severity, actions,
// location, the exact source text the range selects, and the message.
func render(t *testing.T, root string, reports []Report) string {
	t.Helper()
	var b strings.Builder
	for _, r := range reports {
		rel, err := filepath.Rel(root, r.Path)
		if err != nil {
			rel = r.URI
		}
		src := r.Mapper.Content()
		for _, p := range r.Problems {
			l, c := r.Mapper.LineCol(p.Span.Start)
			el, ec := r.Mapper.LineCol(p.Span.End)
			text := ""
			if p.Span.Start >= 0 && p.Span.End <= len(src) && p.Span.Start <= p.Span.End {
				text = string(src[p.Span.Start:p.Span.End])
			}
			fmt.Fprintf(&b, "%s:%d:%d-%d:%d [%s] %s tool=%s actions=%s location=%q\n  range: %q\n  message: %s\n",
				filepath.ToSlash(rel), l, c, el, ec, p.Code, p.Severity, p.Tool, strings.Join(p.Actions, ","), p.Location, text, p.Text())
			for _, rel := range p.Related {
				rl, rc := rel.Mapper.LineCol(rel.Span.Start)
				fmt.Fprintf(&b, "  related: %s:%d:%d %s\n", filepath.Base(URIPath(rel.URI)), rl, rc, rel.Message)
			}
		}
	}
	return b.String()
}

// TestGolden checks every fixture directory under testdata against its
// golden file: exact ranges (with the source text they select), codes,
// actions, locations and messages.
func TestGolden(t *testing.T) {
	for _, dir := range []string{"offences", "seethrough", "example", "clean", "lints", "tools", "toolsclean"} {
		t.Run(dir, func(t *testing.T) {
			root, err := filepath.Abs(filepath.Join("..", "testdata", dir))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(root); err != nil {
				t.Skipf("no fixture dir %s", root)
			}
			ws := New(Options{})
			defer ws.Close()
			if err := ws.AddFolder(context.Background(), root, nil); err != nil {
				t.Fatal(err)
			}
			got := render(t, root, ws.All(context.Background()))
			golden := filepath.Join("..", "testdata", "golden", dir+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if got != string(want) {
				t.Errorf("problems differ from %s (rerun with -update after checking):\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
			if (dir == "clean" || dir == "toolsclean") && got != "" {
				t.Errorf("clean fixtures raised problems:\n%s", got)
			}
		})
	}
}

// TestEveryCodeHasAFixture asserts that every offence code of docs/rules.md §4
// appears in the offences golden file, so each has a fixture and an exact
// range under test.
func TestEveryCodeHasAFixture(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "offences.golden"))
	if err != nil {
		t.Fatal(err)
	}
	rules, err := os.ReadFile(filepath.FromSlash("../docs/rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Codes are the backquoted kebab-case words in the first column of the
	// tables of §4 (from its heading to the next "## " heading).
	sec := string(rules)
	start := strings.Index(sec, "\n## 4. ")
	if start < 0 {
		t.Fatal("docs/rules.md has no \"## 4. \" heading")
	}
	sec = sec[start+1:]
	if end := strings.Index(sec, "\n## "); end >= 0 {
		sec = sec[:end]
	}
	re := regexp.MustCompile("(?m)^\\| `([a-z]+(?:-[a-z]+)+)` \\|")
	seen := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(sec, -1) {
		seen[m[1]] = true
	}
	if len(seen) < 15 {
		t.Fatalf("found only %d codes in docs/rules.md §4: %v", len(seen), seen)
	}
	var codes []string
	for c := range seen {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		if !strings.Contains(string(golden), "["+c+"]") {
			t.Errorf("offence code %s has no fixture in testdata/offences", c)
		}
	}
	for _, c := range []string{CodeSyntaxError} {
		if !strings.Contains(string(golden), "["+c+"]") {
			t.Errorf("code %s has no fixture", c)
		}
	}
	// The tool-level codes of §8 (errors and lints) have theirs in
	// testdata/tools.
	tools, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "tools.golden"))
	if err != nil {
		t.Fatal(err)
	}
	sec8 := string(rules)
	start = strings.Index(sec8, "\n## 8. ")
	if start < 0 {
		t.Fatal("docs/rules.md has no \"## 8. \" heading")
	}
	sec8 = sec8[start+1:]
	n := 0
	for _, m := range regexp.MustCompile("(?m)^\\| `((?:lint/)?[a-z]+(?:-[a-z]+)+)` \\|").FindAllStringSubmatch(sec8, -1) {
		n++
		if !strings.Contains(string(tools), "["+m[1]+"]") {
			t.Errorf("tool-level code %s has no fixture in testdata/tools", m[1])
		}
	}
	if n < 10 {
		t.Errorf("found only %d codes in docs/rules.md §8", n)
	}
}
