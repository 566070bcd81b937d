package lsp

// registerEditFeatures adds the edit features' handlers (code actions,
// document symbols) to s.features.
func (s *server) registerEditFeatures() {}

// editCapabilities announces the edit features.
func (s *server) editCapabilities(c *serverCapabilities) {}
