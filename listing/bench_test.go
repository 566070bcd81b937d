package listing

import (
	"strconv"
	"testing"
)

// bigTool is a tool of n actions, each with three properties, a
// description, :required and :notes: about 400 bytes of help answer per
// action.
func bigTool(n int) Tool {
	acts := m()
	for i := 0; i < n; i++ {
		name := "action_" + strconv.Itoa(i)
		acts.Entries = append(acts.Entries, m(atom(name), m(
			atom("description"), s("Does thing number "+strconv.Itoa(i)+" to the task list"),
			atom("properties"), m(
				s("id"), m(s("type"), s("integer"), s("minimum"), num("1")),
				s("title"), m(s("type"), s("string"), s("description"), s("The task's title, shown in lists")),
				s("tags"), m(s("type"), s("array"), s("items"), m(s("type"), s("string"))),
			),
			atom("required"), list(s("id")),
			atom("notes"), s("Long-form notes.\nThey span lines."),
		)).Entries...)
	}
	return Tool{Module: "App.Big", Name: s("big"), Description: s("A big tool"), Actions: acts}
}

// BenchmarkLens measures what the code lens computes for one tool of
// 1,000 actions after an edit: the entry and the help answer, rendered and
// counted (a fresh description each time, so no count is remembered).
func BenchmarkLens(b *testing.B) {
	tool := bigTool(1000)
	if _, err := testCounter.Count("warm up"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tool.Description = s("A big tool, edit " + strconv.Itoa(i))
		e, err := Measure(testCounter, Entry(tool))
		if err != nil {
			b.Fatal(err)
		}
		h, err := Measure(testCounter, HelpTool(tool))
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.ReportMetric(float64(e.Bytes+h.Bytes), "bytes/op-json")
			b.Logf("%s", Lens(e, h))
		}
	}
}

// BenchmarkRender measures rendering alone (no token count) for the same tool.
func BenchmarkRender(b *testing.B) {
	tool := bigTool(1000)
	for i := 0; i < b.N; i++ {
		_ = Entry(tool).Compact()
		_ = HelpTool(tool).Compact()
	}
}

// BenchmarkLensUnchanged is BenchmarkLens when nothing changed: rendering,
// then the remembered counts.
func BenchmarkLensUnchanged(b *testing.B) {
	tool := bigTool(1000)
	for i := 0; i < b.N; i++ {
		if _, err := Measure(testCounter, Entry(tool)); err != nil {
			b.Fatal(err)
		}
		if _, err := Measure(testCounter, HelpTool(tool)); err != nil {
			b.Fatal(err)
		}
	}
}
