package validate

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Offence codes of docs/rules.md §4 (wymcp would raise these; Severity Error).
const (
	CodeActionsNotMap         = "actions-not-map"
	CodeActionNameNotAtom     = "action-name-not-atom"
	CodeActionNameNewline     = "action-name-newline"
	CodeSchemaNotMap          = "schema-not-map"
	CodeUnknownKey            = "unknown-key"
	CodeMissingKey            = "missing-key"
	CodeWrongType             = "wrong-type"
	CodeDescriptionNewline    = "description-newline"
	CodeDuplicateEntry        = "duplicate-entry"
	CodeUndeclaredField       = "undeclared-field"
	CodeEmptyGroup            = "empty-group"
	CodeDuplicateGroup        = "duplicate-group"
	CodeSupersetGroup         = "superset-group"
	CodePropertyNameNotString = "property-name-not-string"
	CodePropertySchemaNotMap  = "property-schema-not-map"
	CodeAtomSchemaKeyword     = "atom-schema-keyword"
	CodeDefaultKeyNotString   = "default-key-not-string"
	CodeUndeclaredDefault     = "undeclared-default"
)

// Lint codes of docs/rules.md §7 (Severity Warning or Hint).
const (
	LintRelatedUnknownAction = "lint/related-unknown-action"
	LintDefaultForRequired   = "lint/default-for-required"
	LintUnknownType          = "lint/unknown-type"
	LintUnknownKeyword       = "lint/unknown-keyword"
	LintDuplicateKey         = "lint/duplicate-key"
)

// Offence kinds (docs/rules.md §4): shape offences sort before defaults
// offences; KindLint marks the lints of docs/rules.md §7.
const (
	KindShape    = "shape"
	KindDefaults = "defaults"
	KindLint     = "lint"
)

// Codes returns every offence code of docs/rules.md §4, in the order of its
// tables.
func Codes() []string {
	return []string{
		CodeActionsNotMap, CodeActionNameNotAtom, CodeActionNameNewline, CodeSchemaNotMap,
		CodeUnknownKey, CodeMissingKey, CodeWrongType, CodeDescriptionNewline,
		CodeDuplicateEntry, CodeUndeclaredField, CodeEmptyGroup, CodeDuplicateGroup,
		CodeSupersetGroup, CodePropertyNameNotString, CodePropertySchemaNotMap,
		CodeAtomSchemaKeyword, CodeDefaultKeyNotString, CodeUndeclaredDefault,
	}
}

// LintCodes returns every lint code with its severity (docs/rules.md §7,
// README.md "What it checks"); a .wymcp-ls.yaml switch may name any of them.
func LintCodes() map[string]Severity {
	return map[string]Severity{
		LintRelatedUnknownAction: Warning,
		LintDefaultForRequired:   Warning,
		LintUnknownType:          Warning,
		LintUnknownKeyword:       Hint,
		LintDuplicateKey:         Warning,
		// The tool-level lints (validate/tool.go).
		LintUnknownToolModule:      Warning,
		LintToolNotMounted:         Hint,
		LintToolName:               Warning,
		LintActionWithoutClause:    Warning,
		LintClauseWithoutAction:    Warning,
		LintHintUnknownTool:        Warning,
		LintHintUnknownAction:      Warning,
		LintPayloadUndeclaredKey:   Warning,
		LintPayloadMissingRequired: Warning,
	}
}

// maxSuggestLen bounds the words Nearest compares, in bytes: a longer word
// is nobody's typo, and the distance is quadratic.
const maxSuggestLen = 256

// Nearest returns the candidate closest to word by Levenshtein distance
// (ties: the earlier candidate) and whether it is close enough to suggest:
// distance at most max(2, len(word)/3) runes, or word a prefix of the
// candidate of at least two characters (`"str"` -> `"string"`), or word
// less its last character a prefix of it, for a word of at least five
// characters (`:property` -> `:properties`). With always
// set, the nearest is returned whatever its distance. word itself is never
// suggested, nor is any word longer than 256 bytes.
func Nearest(word string, candidates []string, always bool) (string, bool) {
	if len(word) > maxSuggestLen {
		return "", false
	}
	best, bestD := "", -1
	for _, c := range candidates {
		if c == word {
			continue
		}
		d := levenshtein.ComputeDistance(word, c)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 {
		return "", false
	}
	if always || bestD <= max(2, len([]rune(word))/3) {
		return best, true
	}
	if len(word) >= 2 {
		for _, c := range candidates {
			if c != word && strings.HasPrefix(c, word) {
				return c, true
			}
		}
	}
	// A singular whose plural changes its last letter (`property` for
	// `properties`): all of word but its last character begins the
	// candidate, for a word of at least five characters.
	if r := []rune(word); len(r) >= 5 {
		stem := string(r[:len(r)-1])
		for _, c := range candidates {
			if c != word && strings.HasPrefix(c, stem) {
				return c, true
			}
		}
	}
	return "", false
}
