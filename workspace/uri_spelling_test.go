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

// TestURIsUnderWindowsRules pins the conversions under Windows's rules
// whatever the host: a drive path keeps its drive letter (a "file://C:/x"
// made by an earlier PathURI read "C:" as a host and lost the drive, so
// the config beside a file and the buffer of an indexed file were not
// found), a UNC path its host; a host names another machine, which has no
// local path off Windows (RFC 8089 §2 and Appendix E).
func TestURIsUnderWindowsRules(t *testing.T) {
	for _, tc := range []struct{ path, uri string }{
		{"C:/Users/a b/lib/t.ex", "file:///C:/Users/a%20b/lib/t.ex"},
		{"c:/w/t.ex", "file:///c:/w/t.ex"},
		{"//srv/share/lib/t.ex", "file://srv/share/lib/t.ex"},
	} {
		if got := pathURI(tc.path, true); got != tc.uri {
			t.Errorf("pathURI(%q, windows) = %q, want %q", tc.path, got, tc.uri)
		}
		if got, ok := uriPath(tc.uri, true); got != tc.path || !ok {
			t.Errorf("uriPath(%q, windows) = %q, %v; want %q", tc.uri, got, ok, tc.path)
		}
	}
	for _, tc := range []struct {
		uri           string
		windows, posx string // "" when there is no local path
	}{
		{"file:///c%3A/Users/t.ex", "c:/Users/t.ex", "/c:/Users/t.ex"}, // VS Code's spelling
		{"file:///C:", "C:/", "/C:"},
		{"file:///C:/w/../t.ex", "C:/t.ex", "/C:/t.ex"},
		{"file://localhost/C:/t.ex", "C:/t.ex", "/C:/t.ex"},
		{"file://localhost/w/t.ex", "/w/t.ex", "/w/t.ex"},
		{"file://srv/share/../t.ex", "//srv/t.ex", ""},
		{"file://srv/", "", ""},
		{"file://srv/w/t.ex", "//srv/w/t.ex", ""},  // not /w/t.ex, another file
		{"file:///C:/../t.ex", "C:/t.ex", "/t.ex"}, // ".." at a drive's root stays there
		{"file:///c%3A/w/../../t.ex", "c:/t.ex", "/t.ex"},
		{"file:////srv/share/t.ex", "//srv/share/t.ex", "/srv/share/t.ex"}, // RFC 8089 Appendix E.3.2
		{"file:////srv", "", "/srv"},
		{"file:///C:%5Cw%5C..%5Ct.ex", "C:/t.ex", `/C:\w\..\t.ex`}, // a backslash separates on Windows only
		{`file:///C:\w\t.ex`, "C:/w/t.ex", `/C:\w\t.ex`},
	} {
		for _, sys := range []struct {
			windows bool
			want    string
		}{{true, tc.windows}, {false, tc.posx}} {
			got, ok := uriPath(tc.uri, sys.windows)
			if got != sys.want || ok != (sys.want != "") {
				t.Errorf("uriPath(%q, windows=%v) = %q, %v; want %q", tc.uri, sys.windows, got, ok, sys.want)
			}
		}
	}
}
