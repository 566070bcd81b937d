package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Content is the same schema content written twice: as a Wymcp tool module
// for wymcp-ls and as YAML plus an equivalent JSON Schema for
// yaml-language-server. Both carry the same actions, properties and
// offences (docs/rules.md §4 codes unknown-key, missing-key, wrong-type).
type Content struct {
	Actions, Props int // actions, and properties per action
	Offences       int // offences each side reports on the opened text

	Elixir     string // the tool module
	YAML       string // the document; its first line is the schema modeline
	JSONSchema string // the schema the modeline names

	// ElixirToggle and YAMLToggle locate, in each text, the end of the
	// `example` key (0-based line, UTF-16 column = byte column, all ASCII):
	// inserting "s" there makes it the valid `examples` and removes one
	// offence; deleting it again restores the offence.
	ElixirToggle, YAMLToggle Pos
}

// Pos is a 0-based LSP position (line, UTF-16 character).
type Pos struct{ Line, Char int }

// plantKinds are the seven offences, spread evenly over the actions:
// three unknown keys (the first is the toggled one), two missing
// descriptions, two wrong types.
var plantKinds = []string{
	"unknown-example", "missing", "wrong-type", "unknown-note", "missing", "unknown-require", "wrong-type",
}

// plant returns the offence action i of n carries, "" for none. For n >= 10
// the seven indices 1 + k*(n-1)/7 are distinct.
func plant(i, n int) string {
	for k, p := range plantKinds {
		if i == 1+k*(n-1)/len(plantKinds) {
			return p
		}
	}
	return ""
}

// NewContent builds the content for actions actions of props properties
// each. actions must be at least 10 so that the seven planted offences
// fall on distinct actions; props at least 1.
func NewContent(actions, props int) (*Content, error) {
	if actions < 10 || props < 1 {
		return nil, fmt.Errorf("need at least 10 actions and 1 property, got %d and %d", actions, props)
	}
	c := &Content{Actions: actions, Props: props}
	for i := range c.Actions {
		if plant(i, c.Actions) != "" {
			c.Offences++
		}
	}
	var ex, ym strings.Builder
	exLine, ymLine := 0, 0
	exw := func(s string) { ex.WriteString(s + "\n"); exLine++ }
	ymw := func(s string) { ym.WriteString(s + "\n"); ymLine++ }

	exw("defmodule Bench.Tools.Catalog do")
	exw(`  @moduledoc "Benchmark tool: the same schema content as catalog.yaml."`)
	exw("  use Wymcp.Tool")
	exw("")
	exw("  @impl true")
	exw("  def actions do")
	exw("    %{")
	ymw("# yaml-language-server: $schema=./actions.schema.json")

	for i := range c.Actions {
		name := fmt.Sprintf("action_%02d", i)
		p := plant(i, c.Actions)
		var exE, ymE []string // entries of the action map
		switch p {
		case "missing":
		case "wrong-type":
			exE = append(exE, "description: 42")
			ymE = append(ymE, "description: 42")
		default:
			exE = append(exE, fmt.Sprintf("description: %q", fmt.Sprintf("Run step %d of the catalog", i)))
			ymE = append(ymE, fmt.Sprintf("description: Run step %d of the catalog", i))
		}
		// properties (multi-line)
		exProps := []string{"properties: %{"}
		ymProps := []string{"properties:"}
		for j := range c.Props {
			f := fmt.Sprintf("field_%02d", j)
			typ := []string{"string", "integer", "boolean", "number"}[j%4]
			sep := ","
			if j == c.Props-1 {
				sep = ""
			}
			exProps = append(exProps, fmt.Sprintf(`  %q => %%{"type" => %q, "description" => "Field %d"}%s`, f, typ, j, sep))
			ymProps = append(ymProps, fmt.Sprintf("  %s:", f), fmt.Sprintf("    type: %s", typ), fmt.Sprintf("    description: Field %d", j))
		}
		exProps = append(exProps, "}")
		exE = append(exE, strings.Join(exProps, "\n"))
		ymE = append(ymE, strings.Join(ymProps, "\n"))
		reqKey := "required"
		if p == "unknown-require" {
			reqKey = "require"
		}
		exE = append(exE, fmt.Sprintf(`%s: ["field_00"]`, reqKey))
		ymE = append(ymE, fmt.Sprintf(`%s: [field_00]`, reqKey))
		notesKey := "notes"
		if p == "unknown-note" {
			notesKey = "note"
		}
		if i%3 == 0 || p == "unknown-note" {
			exE = append(exE, fmt.Sprintf("%s: %q", notesKey, "Runs against the primary catalog."))
			ymE = append(ymE, fmt.Sprintf("%s: Runs against the primary catalog.", notesKey))
		}
		exKey := "examples"
		if p == "unknown-example" {
			exKey = "example"
		}
		exE = append(exE, fmt.Sprintf(`%s: [%%{"field_00" => "x"}]`, exKey))
		ymE = append(ymE, fmt.Sprintf("%s:\n  - field_00: x", exKey))

		exw(fmt.Sprintf("      %s: %%{", name))
		for k, e := range exE {
			sep := ","
			if k == len(exE)-1 {
				sep = ""
			}
			for _, l := range strings.Split(e+sep, "\n") {
				if p == "unknown-example" && strings.HasPrefix(l, "example:") {
					c.ElixirToggle = Pos{exLine, 8 + len("example")}
				}
				exw("        " + l)
			}
		}
		if i == c.Actions-1 {
			exw("      }")
		} else {
			exw("      },")
		}
		ymw(name + ":")
		for _, e := range ymE {
			for _, l := range strings.Split(e, "\n") {
				if p == "unknown-example" && strings.HasPrefix(l, "example:") {
					c.YAMLToggle = Pos{ymLine, 2 + len("example")}
				}
				ymw("  " + l)
			}
		}
	}
	exw("    }")
	exw("  end")
	exw("end")
	c.Elixir = ex.String()
	c.YAML = ym.String()

	schema, err := json.MarshalIndent(actionsSchema(), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode JSON Schema: %w", err)
	}
	c.JSONSchema = string(schema) + "\n"
	return c, nil
}

// actionsSchema is the JSON Schema (draft-07) equivalent of docs/rules.md §2
// and the nested walk of §4: the document maps action names to action
// schemas; an action schema allows exactly the eight vocabulary keys
// (additionalProperties false: unknown-key), requires description and
// properties (missing-key) and types every key (wrong-type,
// description-newline via a pattern, duplicate-entry via uniqueItems,
// empty-group via minItems).
func actionsSchema() map[string]any {
	obj := map[string]any{"type": "object"}
	strs := map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
	propSchema := map[string]any{"$ref": "#/definitions/propertySchema"}
	return map[string]any{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"title":                "Wymcp tool actions",
		"type":                 "object",
		"additionalProperties": map[string]any{"$ref": "#/definitions/action"},
		"definitions": map[string]any{
			"action": map[string]any{
				"type":                 "object",
				"required":             []string{"description", "properties"},
				"additionalProperties": false,
				"properties": map[string]any{
					"description": map[string]any{"type": "string", "pattern": "^[^\\n]*$"},
					"properties":  map[string]any{"type": "object", "additionalProperties": propSchema},
					"required":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "uniqueItems": true},
					"required_one_of": map[string]any{"type": "array", "items": map[string]any{
						"type": "array", "minItems": 1, "uniqueItems": true, "items": map[string]any{"type": "string"},
					}},
					"defaults": obj,
					"notes":    map[string]any{"type": "string"},
					"related":  strs,
					"examples": map[string]any{"type": "array", "items": obj},
				},
			},
			"propertySchema": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"properties": map[string]any{"type": "object", "additionalProperties": propSchema},
					"items": map[string]any{"anyOf": []any{
						propSchema,
						map[string]any{"type": "array", "items": propSchema},
						map[string]any{"type": "boolean"},
					}},
					"additionalProperties": map[string]any{"anyOf": []any{map[string]any{"type": "boolean"}, propSchema}},
				},
			},
		},
	}
}
