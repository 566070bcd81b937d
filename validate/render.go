package validate

import (
	"fmt"
	"slices"
	"strings"
)

// RenderLimit is how many offences Render lists before counting the rest
// (docs/rules.md §6: "the first ten").
const RenderLimit = 10

// Render returns the ArgumentError-style message wymcp raises for one tool
// (docs/rules.md §6): a header line "<module>: <n> action-schema offence(s)",
// then the first RenderLimit offences sorted by SortOffences, one per line
// and indented by two spaces ("action :create :properties[\"o\"]: <message>;
// fix: <fix>", "actions/0: <message>" for declaration-level ones), then
// "  ... and <n> more offence(s)" when there are more. Lints (severity other
// than Error) are left out, as wymcp never raises them; with no offence
// left, Render returns "". The input slice is not modified. The result has
// no trailing newline.
func Render(module string, offences []Offence) string {
	offs := make([]Offence, 0, len(offences))
	for _, o := range offences {
		if o.Severity == Error || o.Severity == 0 {
			offs = append(offs, o)
		}
	}
	if len(offs) == 0 {
		return ""
	}
	offs = slices.Clone(offs)
	SortOffences(offs)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d action-schema %s", module, len(offs), plural(len(offs)))
	for i, o := range offs {
		if i == RenderLimit {
			rest := len(offs) - RenderLimit
			fmt.Fprintf(&b, "\n  ... and %d more %s", rest, plural(rest))
			break
		}
		b.WriteString("\n  ")
		b.WriteString(Line(o))
	}
	return b.String()
}

// Line renders one offence as Render lists it, without indentation:
// "action <action>[ <location>]: <message>[; fix: <fix>]", or
// "actions/0: <message>..." when the offence has no action.
func Line(o Offence) string {
	var b strings.Builder
	if o.Action == "" {
		b.WriteString("actions/0")
	} else {
		b.WriteString("action " + o.Action)
	}
	if o.Location != "" {
		b.WriteString(" " + o.Location)
	}
	b.WriteString(": " + o.Message)
	if o.Fix != "" {
		b.WriteString("; fix: " + o.Fix)
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return "offence"
	}
	return "offences"
}
