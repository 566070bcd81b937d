// Command buildsched replays a `go build -debug-actiongraph` file on N
// workers, the way the go command schedules it, to tell a build's
// structure from the machine's noise (bench/README.md, "Fresh-clone build
// time").
//
// The go command starts, among the actions whose dependencies are done,
// the one earliest in a depth-first post-order walk of the graph (its
// Priority). Replaying that rule with each action's measured duration gives
// the wall time the build takes on a machine where the workers are never
// taken away, and the worker-seconds spent idle; replaying one build's
// durations on another build's graph compares two module structures with
// the same compile times.
//
// Usage:
//
//	buildsched [-j 2] [-durations other.json] graph.json
//
// graph.json comes from `go build -debug-actiongraph=graph.json` (with or
// without -n: priorities and dependencies are written either way); the
// durations, in seconds, come from the graph itself or from -durations, a
// graph of a build that ran, matched by mode and package.
package main

import (
	"container/heap"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// action is one node of the go command's action graph, as
// -debug-actiongraph writes it.
type action struct {
	ID        int
	Mode      string
	Package   string
	Deps      []int
	Priority  int
	TimeStart time.Time
	TimeDone  time.Time
}

// key names an action across two builds of the same packages.
type key struct{ mode, pkg string }

// durations returns each action's measured duration in seconds, by mode
// and package; actions that did not run (cached or no work) are absent.
func durations(g []action) map[key]float64 {
	d := map[key]float64{}
	for _, a := range g {
		if !a.TimeStart.IsZero() && !a.TimeDone.IsZero() {
			d[key{a.Mode, a.Package}] = a.TimeDone.Sub(a.TimeStart).Seconds()
		}
	}
	return d
}

// ready is the go command's ready queue: lowest Priority first.
type ready struct {
	g   []action
	ids []int
}

func (r *ready) Len() int           { return len(r.ids) }
func (r *ready) Less(i, j int) bool { return r.g[r.ids[i]].Priority < r.g[r.ids[j]].Priority }
func (r *ready) Swap(i, j int)      { r.ids[i], r.ids[j] = r.ids[j], r.ids[i] }
func (r *ready) Push(x any)         { r.ids = append(r.ids, x.(int)) }
func (r *ready) Pop() any {
	x := r.ids[len(r.ids)-1]
	r.ids = r.ids[:len(r.ids)-1]
	return x
}

// replay schedules g on workers workers with durations dur (seconds; an
// action without one takes no time) and returns the wall time and the
// worker-seconds left idle, both in seconds. Action IDs must be indexes
// into g, as the go command writes them; an error reports one that is not,
// or a cycle.
func replay(g []action, dur map[key]float64, workers int) (wall, idle float64, err error) {
	pending := make([]int, len(g))
	users := make([][]int, len(g))
	for i, a := range g {
		if a.ID != i {
			return 0, 0, fmt.Errorf("action %d has ID %d", i, a.ID)
		}
		seen := map[int]bool{}
		for _, d := range a.Deps {
			if d < 0 || d >= len(g) {
				return 0, 0, fmt.Errorf("action %d depends on unknown action %d", i, d)
			}
			if !seen[d] {
				seen[d] = true
				pending[i]++
				users[d] = append(users[d], i)
			}
		}
	}
	q := &ready{g: g}
	for i := range g {
		if pending[i] == 0 {
			q.ids = append(q.ids, i)
		}
	}
	heap.Init(q)
	type running struct {
		id  int
		end float64
	}
	var run []running
	now, done := 0.0, 0
	finish := func(id int) {
		done++
		for _, u := range users[id] {
			if pending[u]--; pending[u] == 0 {
				heap.Push(q, u)
			}
		}
	}
	for done < len(g) {
		for q.Len() > 0 && len(run) < workers {
			id := heap.Pop(q).(int)
			d := dur[key{g[id].Mode, g[id].Package}]
			if d <= 0 {
				finish(id)
				continue
			}
			run = append(run, running{id, now + d})
		}
		if len(run) == 0 {
			if done < len(g) {
				return 0, 0, fmt.Errorf("%d actions never become ready (a cycle)", len(g)-done)
			}
			break
		}
		first := 0
		for i, r := range run {
			if r.end < run[first].end {
				first = i
			}
		}
		r := run[first]
		idle += (r.end - now) * float64(workers-len(run))
		now = r.end
		run = append(run[:first], run[first+1:]...)
		finish(r.id)
	}
	return now, idle, nil
}

// load reads an action graph file.
func load(path string) ([]action, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var g []action
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("buildsched", flag.ContinueOnError)
	workers := fs.Int("j", 2, "number of workers (the go command's -p, GOMAXPROCS by default)")
	other := fs.String("durations", "", "take the durations from this action graph instead")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *workers < 1 {
		return fmt.Errorf("usage: buildsched [-j N] [-durations other.json] graph.json")
	}
	g, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	src := g
	if *other != "" {
		if src, err = load(*other); err != nil {
			return err
		}
	}
	dur := durations(src)
	total := 0.0
	for _, d := range dur {
		total += d
	}
	wall, idle, err := replay(g, dur, *workers)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%.1f s on %d workers (%.1f action-seconds, %.1f worker-seconds idle)\n", wall, *workers, total, idle)
	return nil
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "buildsched:", err)
		os.Exit(2)
	}
}
