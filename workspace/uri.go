package workspace

import (
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// PathURI returns the file: URI of the absolute disk path p, with the path
// percent-encoded as RFC 8089 and LSP clients expect ("/a b.ex" ->
// "file:///a%20b.ex"). On Windows a drive path takes a slash before its
// drive letter ("C:\a.ex" -> "file:///C:/a.ex") and a UNC path names its
// host ("\\srv\share\a.ex" -> "file://srv/share/a.ex"), as RFC 8089
// Appendix E and VS Code write them.
func PathURI(p string) string {
	return pathURI(filepath.ToSlash(p), runtime.GOOS == "windows")
}

// pathURI is PathURI of the slash-separated path p, under Windows's rules
// when windows is true.
func pathURI(p string, windows bool) string {
	u := url.URL{Scheme: "file", Path: p}
	if windows {
		switch {
		case strings.HasPrefix(p, "//"): // UNC: //host/share/...
			host, rest, _ := strings.Cut(p[2:], "/")
			u.Host, u.Path = host, "/"+rest
		case hasDrive(p): // C:/...: without the slash, "C:" would read as the host
			u.Path = "/" + p
		}
	}
	return u.String()
}

// URIPath returns the disk path of a file: URI (percent-decoded and
// cleaned, so that "file:///a//b.ex" and "file:///a/./b.ex" name the file
// of "file:///a/b.ex" and a buffer under either spelling takes that file
// over), or "" for any other scheme, a URI that does not parse or one
// whose path is not absolute. A URI with a host other than "localhost"
// names a file on another machine (RFC 8089 §2): on Windows its UNC path
// ("file://srv/share/a.ex" -> "\\srv\share\a.ex"), elsewhere "", never the
// local file of the same path. The URI string itself is never rewritten
// (docs/architecture.md "Protocol library workarounds", go.lsp.dev/uri).
func URIPath(uri string) string {
	p, ok := uriPath(uri, runtime.GOOS == "windows")
	if !ok {
		return ""
	}
	return filepath.FromSlash(p)
}

// uriPath is URIPath as a slash-separated path, under Windows's rules
// when windows is true; ok is false where URIPath returns "".
func uriPath(uri string, windows bool) (string, bool) {
	if len(uri) < 5 || !strings.EqualFold(uri[:5], "file:") {
		return "", false
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" { // url.Parse lower-cases the scheme
		return "", false
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	if p == "" || p[0] != '/' {
		// "file:lib/a.ex", "file:.": no absolute path (RFC 8089), which
		// would name a path relative to the server's working directory.
		return "", false
	}
	if windows {
		// A backslash is a separator there too ("file:///C:%5Cw%5Ct.ex").
		p = strings.ReplaceAll(p, `\`, "/")
	}
	h := u.Host
	if strings.EqualFold(h, "localhost") {
		h = ""
	}
	if windows && h == "" && len(p) > 2 && p[:2] == "//" && p[2] != '/' {
		// file:////srv/share/x, the UNC spelling of RFC 8089 Appendix
		// E.3.2, is file://srv/share/x.
		h, p, _ = strings.Cut(p[2:], "/")
		p = "/" + p
	}
	if h != "" {
		if p = path.Clean(p); !windows || p == "/" {
			return "", false
		}
		return "//" + h + p, true
	}
	if windows && len(p) >= 3 && hasDrive(p[1:]) {
		// file:///C:/x -> C:/x, cleaned below the drive letter, as ".."
		// at a drive's root stays there (file:///C: -> C:/, its root).
		return p[1:3] + path.Clean("/"+p[3:]), true
	}
	return path.Clean(p), true
}

// hasDrive reports a path that starts with a Windows drive letter and a
// colon ("C:", "c:/x").
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z') && (len(p) == 2 || p[2] == '/')
}
