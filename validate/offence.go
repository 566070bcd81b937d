package validate

// Severity is how serious a finding is. Wymcp offences are always Error;
// lints (docs/rules.md §7) are Warning or Hint.
type Severity int

// The severities, in LSP order (LSP 3.17 DiagnosticSeverity 1, 2, 4).
const (
	Error Severity = iota + 1
	Warning
	Information
	Hint
)

// String returns "error", "warning", "information" or "hint".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Information:
		return "information"
	case Hint:
		return "hint"
	}
	return "error"
}

// Offence is one thing wymcp would raise for (docs/rules.md §4), or one lint
// (docs/rules.md §7) when Severity is not Error.
type Offence struct {
	// Code is the stable kebab-case code ("unknown-key", "lint/unknown-type").
	Code string
	// Kind is "shape" or "defaults" (docs/rules.md §4).
	Kind string
	// Action is the action name as written, Elixir-inspected (":create",
	// "\"op\"" for a string name); "" for declaration-level offences.
	Action string
	// Location is the map holding the offence in Elixir access syntax from
	// the action-schema key (":properties[\"o\"]"), "" for the schema itself.
	Location string
	// Pointer is the Origin of the exact node at fault (docs/rules.md §4 Ranges).
	Pointer Origin
	// Related is the Origin of the first occurrence for duplicate-entry and
	// duplicate-group, of the atom key declaring the name for an
	// undeclared-field whose name :properties declares as an atom (where
	// property-name-not-string is reported), the zero Origin otherwise.
	Related Origin
	// RelatedMessage describes Related; "" means "first occurrence".
	RelatedMessage string
	// Message is the offence without its fix; Fix is the fix.
	Message string
	Fix     string
	// Suggestion is the name a quick fix writes in place of the pointer,
	// bare (no colon, no quotes), when the fix names one: the known key of
	// an unknown-key offence ("examples" for `:example`, "description" for
	// `"description" =>`), the absent key of a missing-key offence
	// ("properties"), the nearest type, keyword or action name of a lint.
	// "" when there is none.
	Suggestion string
	// Severity is Error for wymcp offences.
	Severity Severity
}
