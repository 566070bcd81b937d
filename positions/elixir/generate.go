package elixir

import (
	"fmt"
	"strconv"
	"strings"
)

// GenerateTool returns the source of a valid Wymcp tool module,
// App.Tools.Generated, whose actions/0 declares the given number of actions
// (at least one) in plain map-literal syntax, about 13 lines and 540 bytes
// per action. It exists for benchmarks (docs/architecture.md "Performance targets": 1,000
// actions give about 13,000 lines and 540 KB) and for tests of the
// workspace and the LSP layer; the output is deterministic.
func GenerateTool(actions int) []byte {
	if actions < 1 {
		actions = 1
	}
	var b strings.Builder
	b.Grow(actions*560 + 256)
	b.WriteString("defmodule App.Tools.Generated do\n")
	b.WriteString("  @moduledoc \"A generated tool module for benchmarks.\"\n")
	b.WriteString("  use Wymcp.Tool\n\n")
	b.WriteString("  @impl true\n")
	b.WriteString("  def actions do\n")
	b.WriteString("    %{\n")
	for i := 1; i <= actions; i++ {
		n := fmt.Sprintf("%04d", i)
		next := fmt.Sprintf("%04d", i%actions+1)
		b.WriteString("      action_" + n + ": %{\n")
		b.WriteString("        description: \"Create task " + strconv.Itoa(i) + "\",\n")
		b.WriteString("        properties: %{\n")
		b.WriteString("          \"name\" => %{\"type\" => \"string\"},\n")
		b.WriteString("          \"count\" => %{\"type\" => \"integer\", \"minimum\" => 0},\n")
		b.WriteString("          \"opts\" => %{\"type\" => \"object\", \"properties\" => %{\"notify\" => %{\"type\" => \"boolean\"}}}\n")
		b.WriteString("        },\n")
		b.WriteString("        required: [\"name\"],\n")
		b.WriteString("        defaults: %{\"count\" => 1, \"opts\" => %{\"notify\" => false}},\n")
		b.WriteString("        notes: \"Notes for action " + n + ".\\n\\nMore lines.\",\n")
		b.WriteString("        related: [\"action_" + next + "\"],\n")
		b.WriteString("        examples: [%{\"name\" => \"buy milk\"}]\n")
		if i == actions {
			b.WriteString("      }\n")
		} else {
			b.WriteString("      },\n")
		}
	}
	b.WriteString("    }\n")
	b.WriteString("  end\n")
	b.WriteString("end\n")
	return []byte(b.String())
}
