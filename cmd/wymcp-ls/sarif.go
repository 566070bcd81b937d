package main

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// ruleDoc is one row of the README's tables (README.md, "What it checks"):
// where an offence points and when it fires. TestRulesMatchREADME keeps
// the two equal.
type ruleDoc struct {
	code, where, when string
}

// ruleDocs are the README's rows, in its order: the offences, then the
// lints (whose "where" is their severity column), then config-error (from
// README.md, "Lint switches").
var ruleDocs = []ruleDoc{
	{"actions-not-map", "the returned value", "`actions/0` certainly returns something other than a map"},
	{"action-name-not-atom", "the key", "an action key is not an atom (`\"op\" => ...`)"},
	{"action-name-newline", "the key", "an action name contains a newline (`:\"a\\nb\"`)"},
	{"schema-not-map", "the value", "an action's value is not a map"},
	{"unknown-key", "the key", "a key outside the vocabulary (`:example`; fix suggests `:examples`); string keys too"},
	{"missing-key", "the `%{` of the schema", "`:description` or `:properties` absent"},
	{"wrong-type", "the value, or each wrong element", "a key's value has the wrong type (`required: [:x]`, `'x'`, `notes: 42` ...)"},
	{"description-newline", "the value", "`:description` contains a newline (a heredoc does, unless a `\\` ends its last line and so joins it to the closing line)"},
	{"duplicate-entry", "the later entry", "a name repeats in `:required` or within one `:required_one_of` group"},
	{"undeclared-field", "the entry", "a `:required`/`:required_one_of` entry is not a key of `:properties`"},
	{"empty-group", "the group", "a `:required_one_of` group is `[]`"},
	{"duplicate-group", "the later group", "two `:required_one_of` groups are equal"},
	{"superset-group", "the group", "a group strictly contains another (it can never be the one satisfied first)"},
	{"property-name-not-string", "the key", "a key of a properties map is not a string (`name: %{...}`)"},
	{"property-schema-not-map", "the value", "a property schema is not a map (`\"name\" => \"string\"`)"},
	{"atom-schema-keyword", "the key", "`properties:`/`items:`/`additionalProperties:` written as atoms, which Wymcp never reads"},
	{"default-key-not-string", "the key", "a key in `:defaults` (or inside a default) is not a string"},
	{"undeclared-default", "the key", "a default key the object it sits in does not declare"},
	{"reserved-tool-name", "the list entry, related information at the tool's `name/0` value", "a listed tool's `name/0` is `\"help\"` (`Wymcp.Router.init/1` raises), or `Wymcp.Session.register_tool(pid, Module)` names such a tool literally"},
	{"duplicate-tool-name", "the later entry, related information at the first", "two tools listed in one mount have one name (`Wymcp.Router.init/1` raises)"},
	{"help-listed", "the entry", "`Wymcp.Help` itself is in a mount's list (`Wymcp.Router.init/1` raises)"},
	{"hint-not-string", "the value", "`Wymcp.Hint.new/1` gets a `tool:` or `action:` that is certainly not a string (it raises)"},
	{"syntax-error", "the error", "the file cannot be read, or a tool declaration has a syntax error (a Warning in the editor, where the compiler's error is already shown)"},
	{"lint/related-unknown-action", "warning", "a `:related` entry names no action of this tool"},
	{"lint/default-for-required", "warning", "a `:defaults` key is also `:required`, so the default never applies"},
	{"lint/unknown-type", "warning", "`\"type\"` names no JSON Schema type (`\"str\"`)"},
	{"lint/unknown-keyword", "hint", "a property-schema key is not a JSON Schema 2020-12 keyword"},
	{"lint/duplicate-key", "warning", "a key written twice in one map literal (the second one)"},
	{"lint/unknown-tool-module", "warning", "a mount lists a module the workspace does not define (only when the router's whole Mix project, or umbrella, was read, and the module's first segment is one of the project's own, since another namespace may be a dependency's), or defines and it is not a tool module"},
	{"lint/tool-not-mounted", "hint", "no mount lists the tool and no `register_tool` names it (only when the tool's folder root has a mount and every mount there could be read); at the module name"},
	{"lint/tool-name", "warning", "`name/0` breaks MCP's tool-name rule: 1 to 128 characters of `A-Z a-z 0-9 _ - .` (MCP specification 2025-11-25)"},
	{"lint/action-without-clause", "warning", "no `run_action/3` clause matches a declared action (at its key): its first call raises FunctionClauseError"},
	{"lint/clause-without-action", "warning", "a `run_action/3` clause's atom, an atom its guard admits or a `case action do` pattern names no declared action: dispatch never calls it"},
	{"lint/hint-unknown-tool", "warning", "a hint's `tool:` names no workspace tool (not reported while some tool's name is unknown)"},
	{"lint/hint-unknown-action", "warning", "a hint's `action:` names no action of that tool"},
	{"lint/payload-undeclared-key", "warning", "a key of an `:examples` entry's `data`, or of a hint's `example: %{data: ...}`, that the action's gate refuses (the top level closed by `:properties`, nested objects per `\"additionalProperties\"`, as for `:defaults`)"},
	{"lint/payload-missing-required", "warning", "such a `data` lacks a `:required` key, or completes no `:required_one_of` group (at the data map)"},
	{workspace.CodeConfigError, "warning", "a mistake in `.wymcp-ls.yaml`, reported at its line; that setting is ignored until it is corrected"},
}

// informationURI is the project's home, named in the SARIF tool driver.
const informationURI = "https://github.com/wymcp/wymcp-ls"

// sarifLevel maps a severity to a SARIF result level.
func sarifLevel(s validate.Severity) string {
	switch s {
	case validate.Error:
		return "error"
	case validate.Warning:
		return "warning"
	}
	return "note"
}

// plainText drops the Markdown backticks of a README cell.
func plainText(s string) string { return strings.ReplaceAll(s, "`", "") }

// buildSARIF returns the SARIF 2.1.0 log of rows, built with go-sarif:
// one rule per code (short description and help from the README's
// tables), one result per problem with its region. Paths under cwd are
// relative URIs against the base id %SRCROOT% (cwd as a file: URI); others
// are absolute file: URIs. Columns are SARIF's default: 1-based, in UTF-16
// code units; the end column is exclusive.
func buildSARIF(cwd string, rows []row) *sarif.Report {
	rep := sarif.NewReport()
	run := sarif.NewRunWithInformationURI("wymcp-ls", informationURI)
	if v := version(); !strings.HasPrefix(v, "unknown") {
		// SARIF's driver.version is a version string, optional: a build
		// that carries none gives none, not version's explanation.
		run.Tool.Driver.WithVersion(v)
	}
	if cwd != "" {
		base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(cwd) + "/"}).String()
		run.WithOriginalUriBaseIds(map[string]sarif.ArtifactLocation{"%SRCROOT%": *sarif.NewArtifactLocation().WithURI(base)})
	}
	for _, d := range ruleDocs {
		level := "error"
		help := plainText(d.when) + ". It points at " + plainText(d.where) + "."
		md := d.when + ". It points at " + d.where + "."
		if sev, ok := validate.LintCodes()[d.code]; ok {
			level = sarifLevel(sev)
			help, md = plainText(d.when)+".", d.when+"."
		} else if d.code == workspace.CodeConfigError {
			level = "warning"
			help, md = plainText(d.when)+".", d.when+"."
		}
		rule := run.AddRule(d.code).WithDescription(plainText(d.when)).
			WithHelp(sarif.NewMultiformatMessageString().WithText(help).WithMarkdown(md)).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(level))
		rule.WithName(d.code)
	}
	for _, r := range rows {
		if run.GetRuleIndex(r.p.Code) < 0 {
			run.AddRule(r.p.Code).WithDescription(r.p.Code)
		}
		res := run.CreateResultForRule(r.p.Code).
			WithRuleIndex(run.GetRuleIndex(r.p.Code)).
			WithLevel(sarifLevel(r.p.Severity)).
			WithMessage(sarif.NewTextMessage(r.p.Text())).
			AddLocation(sarifLocation(cwd, r.r.URI, r.r.Mapper, r.p.Span))
		for i, rel := range r.p.Related {
			if rel.Mapper == nil {
				continue
			}
			res.AddRelatedLocation(sarifLocation(cwd, rel.URI, rel.Mapper, rel.Span).WithID(i).WithMessage(sarif.NewTextMessage(rel.Message)))
		}
	}
	rep.AddRun(run)
	return rep
}

// sarifLocation is the SARIF location of span (bytes into m's content) in
// the document uri: a URI relative to %SRCROOT% for a file under cwd, an
// absolute file: URI for another file, the document URI as it is
// otherwise; the region in 1-based lines and UTF-16 columns.
func sarifLocation(cwd, uri string, m *positions.Mapper, span positions.Span) *sarif.Location {
	loc := sarif.NewArtifactLocation()
	path := workspace.URIPath(uri)
	switch rel := displayPath(cwd, path, uri); {
	case path == "":
		loc.WithURI(uri)
	case !filepath.IsAbs(rel):
		loc.WithURI((&url.URL{Path: filepath.ToSlash(rel)}).String()).WithURIBaseID("%SRCROOT%")
	default:
		loc.WithURI(workspace.PathURI(path))
	}
	sl, sc := m.Position(span.Start)
	el, ec := m.Position(span.End)
	region := sarif.NewRegion().WithStartLine(sl + 1).WithStartColumn(sc + 1).WithEndLine(el + 1).WithEndColumn(ec + 1)
	return sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().WithArtifactLocation(loc).WithRegion(region))
}

// writeSARIF prints the SARIF log of rows (buildSARIF), indented.
func writeSARIF(w io.Writer, cwd string, rows []row) error {
	return buildSARIF(cwd, rows).PrettyWrite(w)
}
