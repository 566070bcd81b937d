package workspace

import (
	"context"
	"os"
	"path/filepath"

	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
)

// ProjectRoot returns the root of the Mix project that the file or
// directory at the disk path p belongs to: the directory whose compile
// builds it together with every module it can call. That is the nearest
// directory at or above p holding mix.exs, or, when that directory is an
// app of an umbrella project (umbrellaOf), the umbrella's root, since an
// umbrella's apps call into each other. It returns "" when no directory
// at or above p holds mix.exs; a directory that cannot be read counts as
// holding none, and a mix.exs that is not a regular file of at most 1 MiB
// as setting no apps_path.
func ProjectRoot(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	for d := abs; ; {
		if isMixProject(d) {
			if u := umbrellaOf(d); u != "" {
				return u
			}
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// ReadsProject reports whether reading the directory dir (recursively)
// reads all the code of the Mix project at root (a ProjectRoot): dir is
// root or above it, or root is an umbrella and dir is its apps_path
// directory or above it (Mix compiles an umbrella's code in its apps; the
// root holds only mix.exs and config). Both are disk paths, made absolute.
func ReadsProject(dir, root string) bool {
	dir, err1 := filepath.Abs(dir)
	root, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil {
		return false
	}
	if underRoot(root, dir) {
		return true
	}
	apps := appsDir(root)
	return apps != "" && underRoot(apps, dir)
}

// IsUmbrella reports whether the Mix project at root is an umbrella: its
// mix.exs sets apps_path (read as ProjectRoot reads it).
func IsUmbrella(root string) bool { return appsDir(root) != "" }

// appsDir returns the apps_path directory of the umbrella project at
// root, "" when root's mix.exs sets none.
func appsDir(root string) string {
	if p, ok := appsPath(filepath.Join(root, "mix.exs")); ok {
		return filepath.Join(root, filepath.FromSlash(p))
	}
	return ""
}

// isMixProject reports whether dir holds a mix.exs file.
func isMixProject(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "mix.exs"))
	return err == nil && !st.IsDir()
}

// umbrellaOf returns the root of the umbrella project that app (a
// directory holding mix.exs) is an app of: the nearest directory above app
// holding mix.exs, when the project/0 of that mix.exs sets apps_path to
// the directory that holds app (Mix.Project: an umbrella's apps are the
// directories in its apps_path). It returns "" otherwise.
func umbrellaOf(app string) string {
	for d := filepath.Dir(app); ; {
		if isMixProject(d) {
			if p, ok := appsPath(filepath.Join(d, "mix.exs")); ok && filepath.Join(d, filepath.FromSlash(p)) == filepath.Dir(app) {
				return d
			}
			return ""
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// maxMixExs bounds the mix.exs files appsPath reads: 1 MiB.
const maxMixExs = 1 << 20

// appsPath returns the apps_path: option of the project/0 a mix.exs file
// defines, read and evaluated as a tool's actions/0 is (a keyword list,
// its value a string), and false when the file cannot be read or sets no
// such string.
func appsPath(mixExs string) (string, bool) {
	// Never a named pipe (which would block the read) nor a huge file.
	src, err := readConfigFile(mixExs, maxMixExs)
	if err != nil {
		return "", false
	}
	ctx := context.Background()
	p := elixir.NewParser()
	defer p.Close()
	f := p.Parse(ctx, PathURI(mixExs), src)
	for _, m := range f.Modules {
		d := m.First("project", 0, (*elixir.Def).Public)
		if d == nil || d.Body == nil {
			continue
		}
		v := elixir.EvaluateExpr(ctx, nil, m, d.Body).Actions
		if v == nil || v.Kind != validate.List {
			continue
		}
		for _, kv := range v.Elems {
			if kv.Kind == validate.Tuple && len(kv.Elems) == 2 && kv.Elems[0].Kind == validate.Atom && kv.Elems[0].Text == "apps_path" &&
				kv.Elems[1].Kind == validate.String && !kv.Elems[1].Unknown {
				return kv.Elems[1].Text, true
			}
		}
	}
	return "", false
}
