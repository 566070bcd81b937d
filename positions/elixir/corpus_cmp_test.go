package elixir

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func corpusFiles(t testing.TB) []string {
	root := os.Getenv("WYMCP_ELIXIR_SRC")
	if root == "" {
		t.Skip("WYMCP_ELIXIR_SRC not set")
	}
	var files []string
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".ex") || strings.HasSuffix(p, ".exs")) {
			files = append(files, p)
		}
		return nil
	})
	return files
}

func summary(f *File) string {
	var b strings.Builder
	for _, m := range f.Modules {
		fmt.Fprintf(&b, "module %s tool=%v\n", m.Name, m.Tool)
		for _, d := range m.Defs {
			fmt.Fprintf(&b, "  def %s/%d p=%v\n", d.Name, d.Arity, d.Private)
		}
		for _, a := range m.Attrs {
			fmt.Fprintf(&b, "  @%s\n", a.Name)
		}
		for _, a := range m.Aliases {
			fmt.Fprintf(&b, "  alias %s=%s\n", a.As, a.Target)
		}
	}
	return b.String()
}

func TestCorpusCompareTS(t *testing.T) {
	files := corpusFiles(t)
	p := newTSParser()
	defer p.Close()
	diff := 0
	for _, path := range files {
		src, _ := os.ReadFile(path)
		a := summary(p.parseTS(context.Background(), path, src))
		b := summary(NewSketch(path, src, -1).File)
		if a != b {
			diff++
			if os.Getenv("V") != "" {
				t.Logf("%s differs", path)
			}
		}
	}
	t.Logf("%d of %d files differ", diff, len(files))
}

func TestCorpusCompareNew(t *testing.T) {
	files := corpusFiles(t)
	p := newTSParser()
	defer p.Close()
	diff, errs := 0, 0
	for _, path := range files {
		src, _ := os.ReadFile(path)
		a := summary(p.parseTS(context.Background(), path, src))
		f := readFile(context.Background(), path, src)
		b := summary(f)
		if len(f.Errors) > 0 {
			errs++
			t.Logf("%s: error %v %q", path, NewMapperPos(src, f.Errors[0].Span.Start), f.Errors[0].Message)
		}
		if a != b {
			diff++
			if os.Getenv("V") != "" {
				t.Logf("%s differs", path)
			}
		}
	}
	t.Logf("%d of %d files differ, %d with errors", diff, len(files), errs)
}

func NewMapperPos(src []byte, off int) string {
	line, col := 1, 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%d:%d", line, col)
}

func TestCorpusShowDiff(t *testing.T) {
	path := os.Getenv("F")
	if path == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(path)
	p := newTSParser()
	a := summary(p.parseTS(context.Background(), path, src))
	b := summary(readFile(context.Background(), path, src))
	os.WriteFile("/tmp/a.txt", []byte(a), 0o644)
	os.WriteFile("/tmp/b.txt", []byte(b), 0o644)
}

func dumpSummary(f *File) string {
	var lines []string
	for _, m := range f.Modules {
		lines = append(lines, "module "+m.Name)
		type it struct {
			at int
			s  string
		}
		var its []it
		for _, d := range m.Defs {
			its = append(its, it{d.Span.Start, fmt.Sprintf("  %s %s/%d", d.Kind, d.Name, d.Arity)})
		}
		for _, a := range m.Attrs {
			its = append(its, it{a.Span.Start, "  @" + a.Name})
		}
		sort.SliceStable(its, func(i, j int) bool { return its[i].at < its[j].at })
		for _, x := range its {
			lines = append(lines, x.s)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestCorpusCompareElixir(t *testing.T) {
	files := corpusFiles(t)
	diff := 0
	for _, path := range files {
		want, err := os.ReadFile(filepath.Join("/tmp/rdump/out", strings.ReplaceAll(path, "/", "%")))
		if err != nil {
			t.Fatal(err)
		}
		src, _ := os.ReadFile(path)
		got := dumpSummary(readFile(context.Background(), path, src))
		// Elixir joins the modules of one name.
		if got != string(want) {
			diff++
			if os.Getenv("V") != "" {
				t.Logf("%s differs", path)
			}
			if os.Getenv("F") == path {
				os.WriteFile("/tmp/a.txt", want, 0o644)
				os.WriteFile("/tmp/b.txt", []byte(got), 0o644)
			}
		}
	}
	t.Logf("%d of %d files differ from Elixir", diff, len(files))
}
