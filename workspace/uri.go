package workspace

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
)

// PathURI returns the file: URI of the absolute disk path p, with the path
// percent-encoded as RFC 8089 and LSP clients expect ("/a b.ex" ->
// "file:///a%20b.ex").
func PathURI(p string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(p)}
	return u.String()
}

// URIPath returns the disk path of a file: URI (percent-decoded and
// cleaned, so that "file:///a//b.ex" and "file:///a/./b.ex" name the file
// of "file:///a/b.ex" and a buffer under either spelling takes that file
// over), or "" for any other scheme, a URI that does not parse or one
// whose path is not absolute. The URI
// string itself is never rewritten (docs/architecture.md "Protocol library workarounds", go.lsp.dev/uri).
func URIPath(uri string) string {
	if len(uri) < 5 || !strings.EqualFold(uri[:5], "file:") {
		return ""
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" { // url.Parse lower-cases the scheme
		return ""
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	if p == "" || p[0] != '/' {
		// "file:lib/a.ex", "file:.": no absolute path (RFC 8089), which
		// would name a path relative to the server's working directory.
		return ""
	}
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x -> C:/x
	}
	return filepath.Clean(filepath.FromSlash(p))
}
