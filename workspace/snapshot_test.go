package workspace

import (
	"context"
	"path/filepath"
	"testing"
)

func TestSnapshotSeesTheCurrentBufferAndItsReaders(t *testing.T) {
	ctx := context.Background()
	ws, dir := setup(t, map[string]string{"run.ex": toolSrc, "schemas.ex": schemasBad})
	ws.Diagnose(ctx)
	schemas := PathURI(filepath.Join(dir, "schemas.ex"))
	// Change the buffer without a Diagnose: the snapshot parses it.
	ws.SetOverlay(schemas, 4, []byte(schemasGood))
	s, err := ws.Snapshot(ctx, schemas)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 4 || string(s.Content) != schemasGood {
		t.Errorf("snapshot version %d content %q", s.Version, s.Content)
	}
	if len(s.Tools) != 1 || s.Tools[0].Module.Name != "App.Tools.Run" {
		t.Fatalf("tools reading schemas.ex: %+v", s.Tools)
	}
	if n := len(s.Tools[0].Offences); n != 0 {
		t.Errorf("with the fixed buffer the reader has %d offences, want 0", n)
	}
	if got := s.MapperOf(PathURI(filepath.Join(dir, "run.ex"))).Content(); string(got) != toolSrc {
		t.Errorf("MapperOf(run.ex) content %q", got)
	}
	// The next Diagnose reuses the parse and publishes the fix with version 4.
	rs := byURI(ws.Diagnose(ctx))
	if r := rs[schemas]; r.Version != 4 || len(r.Problems) != 0 {
		t.Errorf("schemas.ex report %+v", r)
	}
	if _, err := ws.Snapshot(ctx, "untitled:none"); err == nil {
		t.Errorf("snapshot of an unknown document: no error")
	}
}

// TestSnapshotCacheFollowsOtherDocuments: a cached snapshot of the tool is
// not served after the Schemas module it reads has changed and been analysed.
func TestSnapshotCacheFollowsOtherDocuments(t *testing.T) {
	ctx := context.Background()
	ws, dir := setup(t, map[string]string{"run.ex": toolSrc, "schemas.ex": schemasBad})
	ws.Diagnose(ctx)
	run := PathURI(filepath.Join(dir, "run.ex"))
	s1, err := ws.Snapshot(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	if s2, _ := ws.Snapshot(ctx, run); s2 != s1 {
		t.Errorf("an unchanged workspace did not reuse the snapshot")
	}
	if n := len(s1.Tools[0].Offences); n != 1 {
		t.Fatalf("want 1 offence before the fix, got %d", n)
	}
	ws.SetOverlay(PathURI(filepath.Join(dir, "schemas.ex")), 2, []byte(schemasGood))
	ws.Diagnose(ctx)
	s3, err := ws.Snapshot(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	if s3 == s1 || len(s3.Tools[0].Offences) != 0 {
		t.Errorf("after fixing schemas.ex the tool snapshot still has %d offences", len(s3.Tools[0].Offences))
	}
}
