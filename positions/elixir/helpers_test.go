package elixir

import "strings"

// stripSpace removes the blanks of a module name written across lines
// ("Foo .\n Bar"), as Elixir joins it.
func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}
