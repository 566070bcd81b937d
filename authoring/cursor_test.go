package authoring

import "testing"

// TestSnakeCase pins the derived tool name (the module's last segment as
// Macro.underscore writes it), shown by the action hover's help pointer.
func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"Tasks": "tasks", "TaskList": "task_list", "HTTPClient": "http_client", "V2Tools": "v2_tools", "A": "a", "": "",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	if got := HelpPointer("tasks", "create"); got != `help {tool: "tasks", action: "create"}` {
		t.Errorf("HelpPointer: %s", got)
	}
}
