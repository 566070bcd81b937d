package authoring

import (
	"context"
	"testing"

	"github.com/wymcp/wymcp-ls/workspace"
)

// editSnap opens files (URI -> text) as buffers of a fresh workspace and
// returns the snapshot of uri.
func editSnap(t *testing.T, uri string, files map[string]string) *workspace.Snapshot {
	t.Helper()
	ws := workspace.New(workspace.Options{})
	t.Cleanup(ws.Close)
	for u, text := range files {
		ws.SetOverlay(u, 1, []byte(text))
	}
	ws.Diagnose(context.Background())
	s, err := ws.Snapshot(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
