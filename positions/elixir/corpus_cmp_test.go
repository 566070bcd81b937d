package elixir

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	p := NewParser()
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
	p := NewParser()
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
