package workspace

import (
	"net/url"
	"path/filepath"
	"strings"
)

// PathURI returns the file: URI of the absolute disk path p, with the path
// percent-encoded as RFC 8089 and LSP clients expect ("/a b.ex" ->
// "file:///a%20b.ex").
func PathURI(p string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(p)}
	return u.String()
}

// URIPath returns the disk path of a file: URI (percent-decoded), or ""
// for any other scheme or a URI that does not parse. The URI string itself
// is never rewritten (stack-notes.md, go.lsp.dev/uri).
func URIPath(uri string) string {
	if !strings.HasPrefix(uri, "file:") {
		return ""
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	if p == "" {
		return ""
	}
	return filepath.FromSlash(p)
}
