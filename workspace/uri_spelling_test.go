package workspace

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestURIPathIsClean: a file: URI whose path has an empty segment, a "."
// or a ".." segment, or a trailing slash names the same disk path as its
// clean spelling.
func TestURIPathIsClean(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("paths below are POSIX")
	}
	for _, tc := range []struct{ uri, want string }{
		{"file:///w//lib/a.ex", "/w/lib/a.ex"},
		{"file:///w/./lib/a.ex", "/w/lib/a.ex"},
		{"file:///w/x/../lib/a.ex", "/w/lib/a.ex"},
		{"file:///w/proj/", "/w/proj"},
		{"file:///", "/"},
		// No absolute path: not a disk path, which would be relative to
		// the server's working directory ("file:." indexed it whole as a
		// workspace folder).
		{"file:.", ""},
		{"file:lib/a.ex", ""},
		{"file:w/..", ""},
	} {
		if got := URIPath(tc.uri); got != tc.want {
			t.Errorf("URIPath(%q) = %q, want %q", tc.uri, got, tc.want)
		}
	}
}

// TestOverlayUnderAnotherSpellingTakesTheFileOver: a buffer opened under
// a spelling of an indexed file's URI with "//" in its path takes that
// file over, as every other spelling does (SetOverlay: one file is never
// analysed twice). It was a second document: the disk copy kept its
// offence beside the fixed buffer, and stayed after the buffer closed.
func TestOverlayUnderAnotherSpellingTakesTheFileOver(t *testing.T) {
	const bad = "defmodule App.T do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}, notes: 42}}\nend\n"
	const good = "defmodule App.T do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}}}\nend\n"
	ctx := context.Background()
	ws, dir := setup(t, map[string]string{"t.ex": bad})
	canonical := PathURI(filepath.Join(dir, "t.ex"))
	odd := PathURI(dir) + "//t.ex"
	if got := codes(byURI(ws.Diagnose(ctx))[canonical]); !slices.Equal(got, []string{"wrong-type"}) {
		t.Fatalf("on disk: %v, want [wrong-type]", got)
	}

	ws.SetOverlay(odd, 1, []byte(good))
	rs := byURI(ws.Diagnose(ctx))
	for _, uri := range []string{canonical, odd} {
		if r, ok := rs[uri]; !ok || len(r.Problems) != 0 {
			t.Errorf("after the fixed buffer %s opened: %s reported %v (present %v), want an empty report", odd, uri, codes(r), ok)
		}
	}

	ws.RemoveOverlay(odd)
	ws.Diagnose(ctx)
	var got []string
	for _, r := range ws.All(ctx) {
		got = append(got, r.URI+" "+strings.Join(codes(r), ","))
	}
	if want := []string{odd + " wrong-type"}; !slices.Equal(got, want) {
		t.Errorf("after close: %q, want %q", got, want)
	}
}
