// Command gen writes a realistic, deterministic Elixir mix project for the
// scale targets of docs/architecture.md "Performance targets": tool modules (about 10%), Schemas modules
// built from module attributes (about 5%), and ordinary modules with no
// schemas at all (GenServers, Ecto-like contexts and schemas,
// Phoenix-like controllers, helpers and ExUnit tests), about 150 lines per
// module on average. It plants a known set of offences (codes of
// docs/rules.md §4) and writes DIR/expected.json listing
// each one with its file, 1-based line and column.
//
// Usage:
//
//	go run ./testdata/gen -modules 2000 -out /tmp/proj [-seed 1]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args, generates the project and prints a one-line summary to
// stdout. It returns the process exit code: 0 on success, 2 on a usage or
// I/O error.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	modules := fs.Int("modules", 2000, "number of Elixir modules to write (`N` >= 1)")
	out := fs.String("out", "", "output `DIR` (created; must be empty or absent)")
	seed := fs.Uint64("seed", 1, "random `SEED`; the same seed and N give the same project")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: gen -modules N -out DIR [-seed S]")
		return 2
	}
	m, err := Generate(Config{Modules: *modules, Seed: *seed, Out: *out})
	if err != nil {
		fmt.Fprintf(stderr, "gen: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s: %d modules (%d tool, %d schemas), %d files, %d lines, %d planted offences\n",
		*out, m.Modules, m.ToolModules, m.SchemasModules, m.Files, m.Lines, m.Offences)
	return 0
}
