package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// graph builds actions 0..n-1 named "p<i>" with the given priorities,
// dependencies and durations (seconds).
func graph(prio []int, deps [][]int, secs []float64) ([]action, map[key]float64) {
	g := make([]action, len(prio))
	d := map[key]float64{}
	for i := range prio {
		g[i] = action{ID: i, Mode: "build", Package: string(rune('a' + i)), Deps: deps[i], Priority: prio[i]}
		d[key{"build", g[i].Package}] = secs[i]
	}
	return g, d
}

// Two workers, a (3 s) and b (1 s) before c (2 s), and d (4 s) apart: in
// priority order d starts when b ends and c when a ends, so nothing
// waits; started first, d makes c wait for a worker, which leaves one idle.
func TestReplayFollowsPriority(t *testing.T) {
	deps := [][]int{nil, nil, {0, 1}, nil}
	secs := []float64{3, 1, 2, 4}
	for _, c := range []struct {
		prio       []int
		wall, idle float64
	}{
		{[]int{0, 1, 2, 3}, 5, 0},
		{[]int{0, 1, 2, -1}, 6, 2},
	} {
		g, d := graph(c.prio, deps, secs)
		wall, idle, err := replay(g, d, 2)
		if err != nil || wall != c.wall || idle != c.idle {
			t.Errorf("priorities %v: %v s, %v idle, %v; want %v s, %v idle", c.prio, wall, idle, err, c.wall, c.idle)
		}
	}
	// One worker runs everything in turn.
	g, d := graph([]int{0, 1, 2, 3}, deps, secs)
	if wall, idle, err := replay(g, d, 1); err != nil || wall != 10 || idle != 0 {
		t.Errorf("one worker: %v s, %v idle, %v", wall, idle, err)
	}
}

func TestReplayErrors(t *testing.T) {
	g, d := graph([]int{0, 1}, [][]int{{1}, {0}}, []float64{1, 1})
	if _, _, err := replay(g, d, 2); err == nil || err.Error() != "2 actions never become ready (a cycle)" {
		t.Errorf("cycle: %v", err)
	}
	g, d = graph([]int{0}, [][]int{{7}}, []float64{1})
	if _, _, err := replay(g, d, 2); err == nil || err.Error() != "action 0 depends on unknown action 7" {
		t.Errorf("unknown dependency: %v", err)
	}
}

// A graph file as the go command writes it: durations from the times.
func TestRunOnFile(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	js := `[
 {"ID":0,"Mode":"build","Package":"runtime","Priority":0,"TimeStart":"` + t0.Format(time.RFC3339Nano) + `","TimeDone":"` + t0.Add(2*time.Second).Format(time.RFC3339Nano) + `"},
 {"ID":1,"Mode":"build","Package":"fmt","Deps":[0],"Priority":1,"TimeStart":"` + t0.Add(2*time.Second).Format(time.RFC3339Nano) + `","TimeDone":"` + t0.Add(3*time.Second).Format(time.RFC3339Nano) + `"},
 {"ID":2,"Mode":"link","Package":"main","Deps":[1,0],"Priority":2}
]`
	p := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"-j", "2", p}, &out); err != nil {
		t.Fatal(err)
	}
	if want := "3.0 s on 2 workers (3.0 action-seconds, 3.0 worker-seconds idle)\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
	if err := run([]string{"-j", "0", p}, &out); err == nil || !strings.HasPrefix(err.Error(), "usage:") {
		t.Errorf("-j 0: %v", err)
	}
}
