package main

import (
	"runtime/debug"
	"strings"
	"time"
)

// stampedVersion is set by a release build:
// go build -ldflags "-X main.stampedVersion=1.2.3" (scripts/release.sh).
var stampedVersion string

// version returns the version `wymcp-ls version` prints and the server
// announces as serverInfo.version (README.md, "Command line").
func version() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi, stampedVersion)
}

// versionOf picks the version from, in order: the module version in the
// build info (`go install .../cmd/wymcp-ls@v1.2.3`, or the pseudo-version
// Go derives from the VCS, "v0.0.0-20261201063000-a1b2c3d4e5f6+dirty");
// else the VCS revision with its commit time and a dirty mark in the same
// pseudo-version form; else stamp (the release's -ldflags -X); else a
// sentence saying the build carries no version. Never a bare "devel".
func versionOf(bi *debug.BuildInfo, stamp string) string {
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		var rev, at string
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
					at = t.UTC().Format("20060102150405")
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if at == "" {
				at = "00000000000000"
			}
			v := "v0.0.0-" + at + "-" + rev
			if dirty {
				v += "+dirty"
			}
			return v
		}
	}
	if s := strings.TrimSpace(stamp); s != "" {
		return s
	}
	return "unknown (built without a module version, VCS information or -ldflags -X main.stampedVersion)"
}
