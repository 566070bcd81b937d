package elixir

import (
	"os"
	"reflect"
	"testing"
)

// sameReading reports where the two readings of checkAndParse, one after
// the other and concurrent, differ for src ("" when they do not), and
// whether the concurrent one read the file twice.
func sameReading(src []byte) (diff string, twice bool) {
	lx := lexInto(src, 0, -1, nil, newNames())
	s1, p1, e1 := checkAndParse("file:///t.ex", src, lx, false)
	s2, p2, e2 := checkAndParse("file:///t.ex", src, lx, true)
	twice = e2 == nil && p2.strict
	switch {
	case !reflect.DeepEqual(e1, e2):
		return "the syntax errors differ", twice
	case !reflect.DeepEqual(s1, s2):
		return "the sketches differ", twice
	case !reflect.DeepEqual(p1.errs, p2.errs) || !reflect.DeepEqual(p1.unclosed, p2.unclosed):
		return "the recovery points differ", twice
	}
	return "", twice
}

// TestConcurrentCheckSameReading checks that reading a file with the
// syntax check on another goroutine gives the reading made one step after
// the other, on the repository's fixtures, their prefixes (broken code,
// where the recovery decides), the generated tools and, when
// WYMCP_ELIXIR_CORPUS names it, Elixir's own source (where some valid
// files are read twice).
func TestConcurrentCheckSameReading(t *testing.T) {
	var srcs [][]byte
	for _, f := range repoCorpus(t) {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
		for n := 0; n < len(src); n += 1 + len(src)/40 {
			srcs = append(srcs, src[:n])
		}
	}
	srcs = append(srcs, elixirCorpusSources(t)...)
	twice := 0
	for _, src := range srcs {
		diff, again := sameReading(src)
		if diff != "" {
			t.Fatalf("%.80q: %s", src, diff)
		}
		if again {
			twice++
		}
	}
	// A valid file whose layout the recovery never reads is read once: the
	// generated tools are.
	for _, n := range []int{23, 1000} {
		src := GenerateTool(n)
		if diff, again := sameReading(src); diff != "" || again {
			t.Fatalf("GenerateTool(%d): %q, read twice: %v", n, diff, again)
		}
	}
	if lx := lexInto(GenerateTool(1000), 0, -1, nil, newNames()); len(lx.toks) < concurrentCheckTokens {
		t.Errorf("GenerateTool(1000) has %d tokens, fewer than the %d that Parse checks concurrently", len(lx.toks), concurrentCheckTokens)
	}
	t.Logf("%d sources, %d read twice", len(srcs), twice)
}

// FuzzConcurrentCheckSame checks that both readings of checkAndParse are
// the same on any bytes (on a file of any size: the threshold is Parse's
// choice, not checkAndParse's). Its seeds are the syntax fixtures.
func FuzzConcurrentCheckSame(f *testing.F) {
	addSyntaxSeeds(f)
	f.Add([]byte("defmodule A do\n  @x [1,\n  def f, do: 1\nend\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if diff, _ := sameReading(src); diff != "" {
			t.Fatalf("%q: %s", src, diff)
		}
	})
}
