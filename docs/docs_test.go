package docs

import (
	"errors"
	"go/build"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// repo is the repository root, relative to this package's directory.
const repo = ".."

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ---- every code is documented (docs/rules.md, "restated implies pinned") ----

// tableCode matches a code written alone in backquotes: `unknown-key`,
// `lint/unknown-type`.
var tableCode = regexp.MustCompile("`((?:lint/)?[a-z]+(?:-[a-z]+)+)`")

// firstCellCodes returns the codes written in the first cell of the
// Markdown table rows of md.
func firstCellCodes(md string) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cell, _, _ := strings.Cut(line[2:], " |")
		for _, m := range tableCode.FindAllStringSubmatch(cell, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// TestEveryCodeIsDocumented: each code validate and workspace can report,
// and each code in the README's tables, has its own row in a table of
// docs/rules.md; and each code documented there exists in the code.
func TestEveryCodeIsDocumented(t *testing.T) {
	documented := firstCellCodes(read(t, "docs/rules.md"))
	inCode := map[string]bool{workspace.CodeSyntaxError: true, workspace.CodeConfigError: true}
	for _, c := range append(validate.Codes(), validate.ToolCodes()...) {
		inCode[c] = true
	}
	for c := range validate.LintCodes() {
		inCode[c] = true
	}
	if len(inCode) < 25 {
		t.Fatalf("only %d codes in validate and workspace: %v", len(inCode), inCode)
	}
	for _, c := range slices.Sorted(maps.Keys(inCode)) {
		if !documented[c] {
			t.Errorf("code %s (in the code) has no row in docs/rules.md", c)
		}
	}
	for _, c := range slices.Sorted(maps.Keys(firstCellCodes(read(t, "README.md")))) {
		if !documented[c] {
			t.Errorf("code %s (in a README.md table) has no row in docs/rules.md", c)
		}
	}
	for _, c := range slices.Sorted(maps.Keys(documented)) {
		if !inCode[c] {
			t.Errorf("docs/rules.md documents %s, which no code reports", c)
		}
	}
}

// TestLintSeverities: the severity column of the lint table of
// docs/rules.md §7 says what validate.LintCodes says.
func TestLintSeverities(t *testing.T) {
	rows := regexp.MustCompile("(?m)^\\| `(lint/[a-z-]+)` \\| ([a-z]+) \\|").FindAllStringSubmatch(read(t, "docs/rules.md"), -1)
	got := map[string]string{}
	for _, r := range rows {
		got[r[1]] = r[2]
	}
	for code, sev := range validate.LintCodes() {
		if got[code] != sev.String() {
			t.Errorf("docs/rules.md §7: %s has severity %q, validate.LintCodes says %q", code, got[code], sev)
		}
	}
}

// ---- cited sections exist ----

// sourceExts are the files whose comments may cite the docs.
var sourceExts = []string{".go", ".ts", ".mjs", ".js", ".lua", ".sh", ".ex", ".exs", ".yaml", ".yml", ".toml", ".md"}

// skipDirs are never searched: dependencies, build output, fixtures.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "dist": true, "out": true, "bin": true, ".cache": true, "sid": true, "e2e-out": true}

// fixtures reports whether the directory rel (a slash path) holds test
// fixtures rather than code: every testdata directory but the generator
// testdata/gen, which is a program.
func fixtures(rel string) bool {
	if rel == "testdata" || rel == "testdata/gen" || strings.HasPrefix(rel, "testdata/gen/") {
		return false
	}
	return rel == "testdata" || strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata")
}

// sources returns the repository's source files (slash paths relative to
// the root) with their text.
func sources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, repo+string(filepath.Separator)))
		if d.IsDir() {
			if p != repo && (skipDirs[d.Name()] || fixtures(rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.Contains(sourceExts, filepath.Ext(p)) && !strings.HasPrefix(rel, ".ci/") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("found only %d source files", len(out))
	}
	return out
}

// headings returns the titles of the Markdown headings of md ("Data flow",
// "4. Offences", "Ranges (where each offence is shown)").
func headings(md string) []string {
	var out []string
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "#") {
			out = append(out, strings.TrimSpace(strings.TrimLeft(line, "#")))
		}
	}
	return out
}

// rulesSections splits docs/rules.md into its numbered sections, by number.
func rulesSections(md string) map[int]string {
	out := map[int]string{}
	re := regexp.MustCompile(`(?m)^## ([0-9]+)\. `)
	locs := re.FindAllStringSubmatchIndex(md, -1)
	for i, l := range locs {
		n, _ := strconv.Atoi(md[l[2]:l[3]])
		end := len(md)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out[n] = md[l[0]:end]
	}
	return out
}

// TestCitedSectionsExist: every `docs/rules.md §N` cited anywhere names a
// section 1-8 that exists (and a quoted title after it is found in that
// section), and every docs/architecture.md or README.md citation followed
// by a quoted title names a heading of that file.
func TestCitedSectionsExist(t *testing.T) {
	rules := rulesSections(read(t, "docs/rules.md"))
	for n := 1; n <= 8; n++ {
		if rules[n] == "" {
			t.Errorf("docs/rules.md has no section §%d", n)
		}
	}
	arch := headings(read(t, "docs/architecture.md"))
	readme := headings(read(t, "README.md"))
	ruleRef := regexp.MustCompile(`docs/rules\.md §([0-9]+)(?:-§?([0-9]+))?(?:,? "([^"]+)")?`)
	// A README.md may be named with its directory (bench/README.md).
	titled := regexp.MustCompile(`((?:[a-z]+/)*)(docs/architecture\.md|README\.md),? "([^"]+)"`)
	// Comment continuations are joined into one line (a newline, its
	// indentation and a leading "//", "#", "--" or "*" become one space),
	// so a citation wrapped over two comment lines reads whole.
	join := regexp.MustCompile(`\n[ \t]*(?://|#|--|\*)?[ \t]*`)
	citations := 0
	srcs := sources(t)
	for _, rel := range slices.Sorted(maps.Keys(srcs)) {
		text := join.ReplaceAllString(srcs[rel], " ")
		for _, m := range ruleRef.FindAllStringSubmatch(text, -1) {
			citations++
			n, _ := strconv.Atoi(m[1])
			sec := rules[n]
			if sec == "" {
				t.Errorf("%s cites %q: docs/rules.md has no §%d", rel, m[0], n)
				continue
			}
			if m[2] != "" {
				if to, _ := strconv.Atoi(m[2]); rules[to] == "" {
					t.Errorf("%s cites %q: docs/rules.md has no §%s", rel, m[0], m[2])
				}
			}
			if m[3] != "" && !strings.Contains(strings.ToLower(sec), strings.ToLower(m[3])) {
				t.Errorf("%s cites %q: §%d does not mention %q", rel, m[0], n, m[3])
			}
		}
		for _, m := range titled.FindAllStringSubmatch(text, -1) {
			citations++
			dir, file, title := m[1], m[2], m[3]
			hs := arch
			switch {
			case file == "README.md" && dir != "":
				hs = headings(read(t, dir+"README.md"))
			case file == "README.md":
				hs = readme
				// A README.md beside the citing file may be the one meant.
				if local, err := os.ReadFile(filepath.Join(repo, filepath.Dir(rel), "README.md")); err == nil && filepath.Dir(rel) != "." {
					hs = append(slices.Clone(readme), headings(string(local))...)
				}
			}
			if !slices.Contains(hs, title) {
				t.Errorf("%s cites %q: %s%s has no heading %q", rel, m[0], dir, file, title)
			}
		}
	}
	if citations < 50 {
		t.Errorf("found only %d citations; is the pattern still right?", citations)
	}
}

// TestNamedTestsExist: every Test, Fuzz or Benchmark function named in
// backquotes in docs/ exists in a _test.go file of the repository.
func TestNamedTestsExist(t *testing.T) {
	funcs := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)\w+)\(`)
	for rel, text := range sources(t) {
		if strings.HasSuffix(rel, "_test.go") {
			for _, m := range decl.FindAllStringSubmatch(text, -1) {
				funcs[m[1]] = true
			}
		}
	}
	named := regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Z]\\w*)`")
	n := 0
	for _, doc := range []string{"docs/rules.md", "docs/architecture.md"} {
		for _, m := range named.FindAllStringSubmatch(read(t, doc), -1) {
			n++
			if !funcs[m[1]] {
				t.Errorf("%s names %s, which no _test.go file defines", doc, m[1])
			}
		}
	}
	if n < 30 {
		t.Errorf("found only %d test names in docs/", n)
	}
}

// ---- the import rules of docs/architecture.md "Packages and imports" ----

// importRule says what the packages at and below root may import from
// this module: their own component, and the roots in may ("*": anything).
// pure packages must not depend, even indirectly, on the protocol library
// or the logger.
type importRule struct {
	root string
	may  []string
	pure bool
}

var importRules = []importRule{
	{root: "validate", pure: true},
	{root: "positions", may: []string{"validate"}, pure: true},
	{root: "positions/elixir", may: []string{"positions", "validate"}, pure: true},
	{root: "listing", may: []string{"validate"}, pure: true},
	{root: "listing/bpe", pure: true},
	{root: "workspace", may: []string{"positions", "positions/elixir", "validate", "listing"}},
	{root: "authoring", may: []string{"workspace", "positions", "positions/elixir", "validate", "listing"}},
	{root: "lsp", may: []string{"authoring", "workspace", "positions", "validate", "listing"}},
	{root: "lsp/lsptest", may: []string{"lsp", "workspace", "positions", "validate"}},
	{root: "cmd", may: []string{"*"}},
	{root: "bench"},
	{root: "testdata/gen"},
	{root: "docs"},
}

// ruleOf returns the rule with the longest root at or above pkg (a path
// relative to the module), or nil.
func ruleOf(pkg string) *importRule {
	var best *importRule
	for i := range importRules {
		r := &importRules[i]
		if (pkg == r.root || strings.HasPrefix(pkg, r.root+"/")) && (best == nil || len(r.root) > len(best.root)) {
			best = r
		}
	}
	return best
}

// impure says whether an outside import is one a pure package must not
// depend on.
func impure(path string) bool {
	return strings.HasPrefix(path, "go.lsp.dev/") || strings.HasPrefix(path, "go.uber.org/zap")
}

// TestImportRules reads every package's non-test imports (go/build, so
// build constraints apply) and checks them against importRules.
func TestImportRules(t *testing.T) {
	mod := ""
	for _, line := range strings.Split(read(t, "go.mod"), "\n") {
		if m, ok := strings.CutPrefix(line, "module "); ok {
			mod = strings.TrimSpace(m)
		}
	}
	if mod == "" {
		t.Fatal("no module line in go.mod")
	}
	imports := map[string][]string{} // package (relative) -> imports (module-relative, or full outside)
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, repo+string(filepath.Separator)))
		if p != repo && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".") || rel == "editors" || fixtures(rel)) {
			return filepath.SkipDir
		}
		bp, err := build.Default.ImportDir(p, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil
		}
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		var imps []string
		for _, imp := range bp.Imports {
			if r, ok := strings.CutPrefix(imp, mod+"/"); ok {
				imp = r
			}
			imps = append(imps, imp)
		}
		imports[rel] = imps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) < 8 {
		t.Fatalf("found only %d packages: %v", len(imports), imports)
	}
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		r := ruleOf(pkg)
		if r == nil {
			t.Errorf("package %s has no import rule: add it to docs/architecture.md \"Packages and imports\" and to importRules", pkg)
			continue
		}
		for _, imp := range imports[pkg] {
			if _, inModule := imports[imp]; inModule {
				ir := ruleOf(imp)
				if ir == nil || ir.root == r.root || slices.Contains(r.may, "*") || slices.Contains(r.may, ir.root) {
					continue
				}
				t.Errorf("%s imports %s (docs/architecture.md \"Packages and imports\": %s may import only %v)", pkg, imp, r.root, r.may)
				continue
			}
			// bench/buildfloor imports the pinned libraries to time their build alone.
			if strings.HasPrefix(imp, "go.lsp.dev/") && r.root != "lsp" && !strings.HasPrefix(r.root, "lsp/") && pkg != "bench/buildfloor" {
				t.Errorf("%s imports %s: only lsp speaks the protocol", pkg, imp)
			}
			if strings.HasPrefix(imp, "github.com/tiktoken-go/") && r.root != "listing/bpe" && r.root != "cmd" {
				t.Errorf("%s imports %s: only listing/bpe and the command know the vocabularies", pkg, imp)
			}
			if imp == "listing/bpe" && r.root != "cmd" {
				t.Errorf("%s imports %s: only the command wires the token counter in", pkg, imp)
			}
		}
		if !r.pure {
			continue
		}
		// The dependency closure within the module, and the outside
		// packages it imports directly.
		seen := map[string]bool{pkg: true}
		queue := []string{pkg}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, imp := range imports[p] {
				if _, inModule := imports[imp]; inModule {
					if !seen[imp] {
						seen[imp] = true
						queue = append(queue, imp)
					}
				} else if impure(imp) {
					t.Errorf("%s depends on %s (through %s), which a package that knows nothing of the protocol or logging must not", pkg, imp, p)
				}
			}
		}
	}
}

// TestImportRulesCatchABreak: the rule check is not vacuous.
func TestImportRulesCatchABreak(t *testing.T) {
	tests := []struct {
		pkg, imp string
		allowed  bool
	}{
		{"validate", "positions", false},
		{"positions", "positions/elixir", false},
		{"positions/elixir", "validate", true},
		{"lsp", "positions/elixir", false},
		{"lsp", "workspace", true},
		{"workspace", "lsp", false},
		{"authoring", "lsp", false},
		{"cmd/wymcp-ls", "lsp", true},
		{"testdata/gen", "validate", false},
		{"listing", "positions", false},
		{"lsp", "listing", true},
	}
	for _, tt := range tests {
		r, ir := ruleOf(tt.pkg), ruleOf(tt.imp)
		got := ir.root == r.root || slices.Contains(r.may, "*") || slices.Contains(r.may, ir.root)
		if got != tt.allowed {
			t.Errorf("%s importing %s: allowed %v, want %v", tt.pkg, tt.imp, got, tt.allowed)
		}
	}
}
