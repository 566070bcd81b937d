package workspace

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions/elixir/oracle"
)

// TestPlantedTool: real code no one here wrote stays readable. For each
// file of a corpus, a small broken tool module is appended to the end of
// the file, and (when the file's last top-level statement is a defmodule)
// nested just before that module's `end`. The full analysis runs over all
// those files as `wymcp-ls check` runs it (one Workspace, AddFolder, All),
// and every planted offence must be reported at its exact range, with its
// code, and nothing else anywhere.
//
// Elixir's own parser (positions/elixir/testdata/oracle/dump.exs) decides
// which files take part: a file Elixir rejects is left out, and every
// planted file must be accepted by Elixir with the planted module in it.
//
// Corpus: the repository's testdata/clean and the non-tool modules of a
// 40-module project of testdata/gen by default; with
// WYMCP_ELIXIR_CORPUS=DIR (set by .ci/elixir to the extracted source of
// Debian's elixir-lang) every .ex/.exs file under DIR instead.
func TestPlantedTool(t *testing.T) {
	elixir, err := exec.LookPath("elixir")
	if err != nil {
		t.Skip("elixir not found on PATH: the planted-tool test asks Elixir's parser which files are valid (apt-get install elixir; .ci/elixir installs it in CI)")
	}
	sources := plantedCorpus(t)
	dumps := oracle.Run(t, elixir, sources)

	out := t.TempDir()
	var planted []plantedFile
	rejected := 0
	for i, src := range sources {
		d := dumps[src]
		if len(d.Facts) == 1 && strings.HasPrefix(d.Facts[0], "error ") || len(d.Facts) == 1 && d.Facts[0] == "crash" {
			rejected++
			continue
		}
		content, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
		ext := filepath.Ext(src)
		name := fmt.Sprintf("WymcpPlanted.T%d", i)
		text, at := appendTool(content, name)
		planted = append(planted, plantedFile{
			src: src, path: filepath.Join(out, fmt.Sprintf("%05d_append_%s%s", i, base, ext)),
			text: text, line: at, module: name,
		})
		if d.LastEnd > 0 {
			if text, at, ok := nestTool(content, d.LastEnd, name); ok {
				planted = append(planted, plantedFile{
					src: src, path: filepath.Join(out, fmt.Sprintf("%05d_nested_%s%s", i, base, ext)),
					text: text, line: at, module: name, nested: true,
				})
			}
		}
	}
	for _, p := range planted {
		if err := os.WriteFile(p.path, p.text, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Every planted file must be valid Elixir with the planted module in it.
	var paths []string
	for _, p := range planted {
		paths = append(paths, p.path)
	}
	pdumps := oracle.Run(t, elixir, paths)
	for _, p := range planted {
		d := pdumps[p.path]
		found := false
		for _, f := range d.Facts {
			if strings.HasPrefix(f, "module ") && strings.HasSuffix(strings.Fields(f)[1], p.module) {
				found = true
			}
		}
		if !found {
			t.Fatalf("planting into %s gave a file Elixir does not read with module %s: %v %s", p.src, p.module, d.Facts, d.Message)
		}
	}

	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), out, nil); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range ws.All(context.Background()) {
		for _, p := range r.Problems {
			l, c := r.Mapper.LineCol(p.Span.Start)
			el, ec := r.Mapper.LineCol(p.Span.End)
			got[r.Path] = append(got[r.Path], fmt.Sprintf("%d:%d-%d:%d %s", l, c, el, ec, p.Code))
		}
	}
	bad := 0
	for _, p := range planted {
		want := p.expected()
		g := got[p.path]
		sort.Strings(g)
		if strings.Join(g, "\n") != strings.Join(want, "\n") {
			bad++
			if bad <= 10 {
				t.Errorf("%s (from %s): got problems\n  %s\nwant\n  %s", filepath.Base(p.path), p.src,
					strings.Join(g, "\n  "), strings.Join(want, "\n  "))
			}
		}
		delete(got, p.path)
	}
	for path, g := range got {
		t.Errorf("problems in a file that was not planted: %s: %v", path, g)
	}
	nested := 0
	for _, p := range planted {
		if p.nested {
			nested++
		}
	}
	t.Logf("planted: %d files (%d appended, %d nested) from %d corpus files (%d rejected by Elixir); %d wrong",
		len(planted), len(planted)-nested, nested, len(sources), rejected, bad)
	if bad > 10 {
		t.Errorf("%d planted files in all are wrong", bad)
	}
}

// plantedTool is the broken tool module; %s is its name. Its offences are
// plantedOffences, at lines relative to the module's first line (0) and
// 1-based columns: the module is always planted at column 1.
const plantedTool = `defmodule %s do
  use Wymcp.Tool

  def actions do
    %%{
      "op" => %%{description: "Op", properties: %%{}},
      create: %%{
        description: "Create",
        properties: %%{},
        example: 1
      },
      list: %%{properties: %%{}}
    }
  end
end
`

// plantedOffences are the problems of plantedTool: relative line, columns
// (end exclusive), code (docs/rules.md §4).
var plantedOffences = []struct {
	line, col, endCol int
	code              string
}{
	{5, 7, 11, "action-name-not-atom"},
	{9, 9, 16, "unknown-key"},
	{11, 13, 15, "missing-key"},
}

// plantedFile is one corpus file with the tool planted in it.
type plantedFile struct {
	src, path string
	text      []byte
	line      int // 1-based line of the planted defmodule
	module    string
	nested    bool
}

func (p plantedFile) expected() []string {
	var out []string
	for _, o := range plantedOffences {
		l := p.line + o.line
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s", l, o.col, l, o.endCol, o.code))
	}
	sort.Strings(out)
	return out
}

// appendTool returns content with the tool named name after it, and the
// 1-based line where the tool starts.
func appendTool(content []byte, name string) ([]byte, int) {
	var b bytes.Buffer
	b.Write(content)
	if len(content) > 0 && content[len(content)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	line := bytes.Count(b.Bytes(), []byte("\n")) + 1
	fmt.Fprintf(&b, plantedTool, name)
	return b.Bytes(), line
}

// nestTool returns content with the tool named name inserted as the lines
// before line endLine (1-based), which must hold only `end`; the tool starts
// at the returned line.
func nestTool(content []byte, endLine int, name string) ([]byte, int, bool) {
	lines := bytes.SplitAfter(content, []byte("\n"))
	if endLine < 1 || endLine > len(lines) || string(bytes.TrimSpace(lines[endLine-1])) != "end" {
		return nil, 0, false
	}
	var b bytes.Buffer
	for _, l := range lines[:endLine-1] {
		b.Write(l)
	}
	if b.Len() > 0 && b.Bytes()[b.Len()-1] != '\n' {
		return nil, 0, false
	}
	fmt.Fprintf(&b, plantedTool, name)
	for _, l := range lines[endLine-1:] {
		b.Write(l)
	}
	return b.Bytes(), endLine, true
}

// plantedCorpus returns the absolute paths of the corpus files, sorted.
func plantedCorpus(t *testing.T) []string {
	t.Helper()
	var dirs []string
	if dir := os.Getenv("WYMCP_ELIXIR_CORPUS"); dir != "" {
		dirs = []string{dir}
	} else {
		clean, err := filepath.Abs(filepath.Join("..", "testdata", "clean"))
		if err != nil {
			t.Fatal(err)
		}
		dirs = []string{clean, generatedPlain(t)}
	}
	var out []string
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			if ext := filepath.Ext(p); ext == ".ex" || ext == ".exs" {
				abs, _ := filepath.Abs(p)
				out = append(out, abs)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(out)
	return out
}

// generatedPlain writes a 40-module project of testdata/gen and returns a
// directory holding only its modules that are neither tools nor Schemas
// modules (those carry offences of their own).
func generatedPlain(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	// go test puts its own GOROOT/bin first on PATH.
	cmd := exec.Command("go", "run", "./testdata/gen", "-modules", "40", "-out", proj)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./testdata/gen: %v\n%s", err, out)
	}
	plain := filepath.Join(dir, "plain")
	err := filepath.WalkDir(proj, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(p); ext != ".ex" && ext != ".exs" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte("Wymcp")) || bytes.Contains(data, []byte(".Schemas")) {
			return nil
		}
		rel, _ := filepath.Rel(proj, p)
		dst := filepath.Join(plain, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return plain
}
