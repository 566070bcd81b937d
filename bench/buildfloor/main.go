// Command buildfloor imports the libraries the stack pins (docs/architecture.md,
// "Performance targets"), go.lsp.dev/protocol, go.lsp.dev/jsonrpc2, go.uber.org/zap
// and go.yaml.in/yaml/v3, and nothing of wymcp-ls: `bench/fresh-build.sh --floor`
// times its build from an empty build cache, the least any build of the
// server can take on the machine. zap alone brings in net/http, crypto/tls
// and crypto/x509 (zap.AtomicLevel serves HTTP).
package main

import (
	"os"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
	"go.yaml.in/yaml/v3"
)

func main() {
	log := zap.NewNop()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(os.Stdin))
	_ = protocol.ClientDispatcher(conn, log)
	var v any
	_ = yaml.Unmarshal([]byte("a: 1"), &v)
}
