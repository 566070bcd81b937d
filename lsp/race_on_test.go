//go:build race

package lsp_test

// raceEnabled scales the soak test down under the race detector, which
// slows the server about tenfold; the full counts run without it.
const raceEnabled = true
