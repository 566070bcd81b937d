package authoring

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/workspace"
)

// TestCleanReadingMatchesFullReading compares, at every character offset
// of the clean fixture files, completion and hover computed the fast way
// (the snapshot's parse, reading only around the cursor), and references
// and highlights computed over the parse's own reading of the whole
// document, with the full reading the cursor uses for a document with
// syntax errors: a clean file must give the same answers both ways.
func TestCleanReadingMatchesFullReading(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, dir := range []string{"example", "clean", "authoring/cursor", "seethrough", "lints", "offences"} {
		root, _ := filepath.Abs(filepath.Join("..", "testdata", dir))
		ws := workspace.New(workspace.Options{})
		if err := ws.AddFolder(ctx, root, nil); err != nil {
			t.Fatal(err)
		}
		ws.All(ctx)
		var files []string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (filepath.Ext(p) == ".ex" || filepath.Ext(p) == ".exs") {
				files = append(files, p)
			}
			return nil
		})
		for _, path := range files {
			uri := workspace.PathURI(path)
			snap, err := ws.Snapshot(ctx, uri)
			if err != nil || snap.File == nil || len(snap.File.Errors) > 0 {
				continue
			}
			full := *snap
			f := *snap.File
			f.Errors = []elixir.SyntaxError{{URI: uri, Span: positions.Span{Start: 0, End: 1}, Message: "forced full reading"}}
			full.File = &f
			name := filepath.Join(dir, filepath.Base(path))
			for off := 0; off <= len(snap.Content); off++ {
				if off < len(snap.Content) && !utf8.RuneStart(snap.Content[off]) {
					continue
				}
				checked++
				a, b := fmt.Sprint(Complete(ctx, snap, off)), fmt.Sprint(Complete(ctx, &full, off))
				if a != b {
					t.Errorf("%s@%d completion differs:\nfast %s\nfull %s", name, off, a, b)
				}
				ha, oka := HoverAt(ctx, snap, off)
				hb, okb := HoverAt(ctx, &full, off)
				if oka != okb || fmt.Sprint(ha) != fmt.Sprint(hb) {
					t.Errorf("%s@%d hover differs:\nfast %v %+v\nfull %v %+v", name, off, oka, ha, okb, hb)
				}
				// References and highlights walk the whole document: the
				// parse's own reading (File.FullSketch) against a new one.
				if a, b := fmt.Sprint(References(ctx, snap, off, true)), fmt.Sprint(References(ctx, &full, off, true)); a != b {
					t.Errorf("%s@%d references differ:\nparse's reading %s\nnew reading    %s", name, off, a, b)
				}
				if a, b := fmt.Sprint(Highlights(ctx, snap, off)), fmt.Sprint(Highlights(ctx, &full, off)); a != b {
					t.Errorf("%s@%d highlights differ:\nparse's reading %s\nnew reading    %s", name, off, a, b)
				}
			}
		}
		ws.Close()
	}
	if checked < 5000 {
		t.Errorf("only %d offsets compared; the fixture globs found too little", checked)
	}
	t.Logf("%d offsets compared", checked)
}
