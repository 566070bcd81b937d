package authoring

import "testing"

// TestHelpPointer pins the help call the action hover shows.
func TestHelpPointer(t *testing.T) {
	if got := HelpPointer("tasks", "create"); got != `help {tool: "tasks", action: "create"}` {
		t.Errorf("HelpPointer: %s", got)
	}
}
