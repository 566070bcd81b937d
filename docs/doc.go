// Package docs holds the project's own documentation (rules.md,
// architecture.md) and the tests that keep it true: every code documented,
// every cited section present, every named test real, and the import rules
// of docs/architecture.md "Packages and imports" holding. It has no API.
package docs
