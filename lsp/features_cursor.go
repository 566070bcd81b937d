package lsp

// registerCursorFeatures adds the cursor features' handlers (completion,
// hover, definition, references, rename) to s.features.
func (s *server) registerCursorFeatures() {}

// cursorCapabilities announces the cursor features.
func (s *server) cursorCapabilities(c *serverCapabilities) {}
