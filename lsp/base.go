package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// unimplemented satisfies protocol.Server with every request answered
// MethodNotFound (-32601) and every notification ignored, so that the real
// server defines only the methods it supports (the buflsp pattern,
// docs/architecture.md "Protocol library workarounds"). Feature handlers override methods on *server.
type unimplemented struct{}

var _ protocol.Server = unimplemented{}

// methodNotFound returns the -32601 error for method (JSON-RPC 2.0 §5.1).
func methodNotFound(method string) error {
	return jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("method not found: %s", method))
}

// knownMethods are the methods protocol.ServerHandler decodes itself; any
// other method would reach Server.Request only after a params decode that
// fails on absent params, so the middleware answers those directly.
var knownMethods = map[string]bool{
	protocol.MethodInitialize:                         true,
	protocol.MethodInitialized:                        true,
	protocol.MethodShutdown:                           true,
	protocol.MethodExit:                               true,
	protocol.MethodWorkDoneProgressCancel:             true,
	protocol.MethodLogTrace:                           true,
	protocol.MethodSetTrace:                           true,
	protocol.MethodTextDocumentCodeAction:             true,
	protocol.MethodTextDocumentCodeLens:               true,
	protocol.MethodCodeLensResolve:                    true,
	protocol.MethodTextDocumentColorPresentation:      true,
	protocol.MethodTextDocumentCompletion:             true,
	protocol.MethodCompletionItemResolve:              true,
	protocol.MethodTextDocumentDeclaration:            true,
	protocol.MethodTextDocumentDefinition:             true,
	protocol.MethodTextDocumentDidChange:              true,
	protocol.MethodWorkspaceDidChangeConfiguration:    true,
	protocol.MethodWorkspaceDidChangeWatchedFiles:     true,
	protocol.MethodWorkspaceDidChangeWorkspaceFolders: true,
	protocol.MethodTextDocumentDidClose:               true,
	protocol.MethodTextDocumentDidOpen:                true,
	protocol.MethodTextDocumentDidSave:                true,
	protocol.MethodTextDocumentDocumentColor:          true,
	protocol.MethodTextDocumentDocumentHighlight:      true,
	protocol.MethodTextDocumentDocumentLink:           true,
	protocol.MethodDocumentLinkResolve:                true,
	protocol.MethodTextDocumentDocumentSymbol:         true,
	protocol.MethodWorkspaceExecuteCommand:            true,
	protocol.MethodTextDocumentFoldingRange:           true,
	protocol.MethodTextDocumentFormatting:             true,
	protocol.MethodTextDocumentHover:                  true,
	protocol.MethodTextDocumentImplementation:         true,
	protocol.MethodTextDocumentOnTypeFormatting:       true,
	protocol.MethodTextDocumentPrepareRename:          true,
	protocol.MethodTextDocumentRangeFormatting:        true,
	protocol.MethodTextDocumentReferences:             true,
	protocol.MethodTextDocumentRename:                 true,
	protocol.MethodTextDocumentSignatureHelp:          true,
	protocol.MethodWorkspaceSymbol:                    true,
	protocol.MethodTextDocumentTypeDefinition:         true,
	protocol.MethodTextDocumentWillSave:               true,
	protocol.MethodTextDocumentWillSaveWaitUntil:      true,
	protocol.MethodShowDocument:                       true,
	protocol.MethodWillCreateFiles:                    true,
	protocol.MethodDidCreateFiles:                     true,
	protocol.MethodWillRenameFiles:                    true,
	protocol.MethodDidRenameFiles:                     true,
	protocol.MethodWillDeleteFiles:                    true,
	protocol.MethodDidDeleteFiles:                     true,
	protocol.MethodCodeLensRefresh:                    true,
	protocol.MethodTextDocumentPrepareCallHierarchy:   true,
	protocol.MethodCallHierarchyIncomingCalls:         true,
	protocol.MethodCallHierarchyOutgoingCalls:         true,
	protocol.MethodSemanticTokensFull:                 true,
	protocol.MethodSemanticTokensFullDelta:            true,
	protocol.MethodSemanticTokensRange:                true,
	protocol.MethodSemanticTokensRefresh:              true,
	protocol.MethodLinkedEditingRange:                 true,
	protocol.MethodMoniker:                            true,
}

// libraryNotifications are the methods of knownMethods the server serves
// through protocol.ServerHandler (its own methods on *server): all
// notifications. Every other method there is answered MethodNotFound when
// it comes as a request, its params unread.
var libraryNotifications = map[string]bool{
	protocol.MethodTextDocumentDidOpen:             true,
	protocol.MethodTextDocumentDidClose:            true,
	protocol.MethodTextDocumentDidSave:             true,
	protocol.MethodWorkspaceDidChangeWatchedFiles:  true,
	protocol.MethodWorkspaceDidChangeConfiguration: true,
}

func (unimplemented) Initialize(_ context.Context, _ *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	return nil, methodNotFound(protocol.MethodInitialize)
}

func (unimplemented) Initialized(_ context.Context, _ *protocol.InitializedParams) error {
	return nil
}

func (unimplemented) Shutdown(_ context.Context) error {
	return nil
}

func (unimplemented) Exit(_ context.Context) error {
	return nil
}

func (unimplemented) WorkDoneProgressCancel(_ context.Context, _ *protocol.WorkDoneProgressCancelParams) error {
	return nil
}

func (unimplemented) LogTrace(_ context.Context, _ *protocol.LogTraceParams) error {
	return nil
}

func (unimplemented) SetTrace(_ context.Context, _ *protocol.SetTraceParams) error {
	return nil
}

func (unimplemented) CodeAction(_ context.Context, _ *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentCodeAction)
}

func (unimplemented) CodeLens(_ context.Context, _ *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentCodeLens)
}

func (unimplemented) CodeLensResolve(_ context.Context, _ *protocol.CodeLens) (*protocol.CodeLens, error) {
	return nil, methodNotFound(protocol.MethodCodeLensResolve)
}

func (unimplemented) ColorPresentation(_ context.Context, _ *protocol.ColorPresentationParams) ([]protocol.ColorPresentation, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentColorPresentation)
}

func (unimplemented) Completion(_ context.Context, _ *protocol.CompletionParams) (*protocol.CompletionList, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentCompletion)
}

func (unimplemented) CompletionResolve(_ context.Context, _ *protocol.CompletionItem) (*protocol.CompletionItem, error) {
	return nil, methodNotFound(protocol.MethodCompletionItemResolve)
}

func (unimplemented) Declaration(_ context.Context, _ *protocol.DeclarationParams) ([]protocol.Location, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentDeclaration)
}

func (unimplemented) Definition(_ context.Context, _ *protocol.DefinitionParams) ([]protocol.Location, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentDefinition)
}

func (unimplemented) DidChange(_ context.Context, _ *protocol.DidChangeTextDocumentParams) error {
	return nil
}

func (unimplemented) DidChangeConfiguration(_ context.Context, _ *protocol.DidChangeConfigurationParams) error {
	return nil
}

func (unimplemented) DidChangeWatchedFiles(_ context.Context, _ *protocol.DidChangeWatchedFilesParams) error {
	return nil
}

func (unimplemented) DidChangeWorkspaceFolders(_ context.Context, _ *protocol.DidChangeWorkspaceFoldersParams) error {
	return nil
}

func (unimplemented) DidClose(_ context.Context, _ *protocol.DidCloseTextDocumentParams) error {
	return nil
}

func (unimplemented) DidOpen(_ context.Context, _ *protocol.DidOpenTextDocumentParams) error {
	return nil
}

func (unimplemented) DidSave(_ context.Context, _ *protocol.DidSaveTextDocumentParams) error {
	return nil
}

func (unimplemented) DocumentColor(_ context.Context, _ *protocol.DocumentColorParams) ([]protocol.ColorInformation, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentDocumentColor)
}

func (unimplemented) DocumentHighlight(_ context.Context, _ *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentDocumentHighlight)
}

func (unimplemented) DocumentLink(_ context.Context, _ *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentDocumentLink)
}

func (unimplemented) DocumentLinkResolve(_ context.Context, _ *protocol.DocumentLink) (*protocol.DocumentLink, error) {
	return nil, methodNotFound(protocol.MethodDocumentLinkResolve)
}

func (unimplemented) DocumentSymbol(_ context.Context, _ *protocol.DocumentSymbolParams) ([]interface{}, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentDocumentSymbol)
}

func (unimplemented) ExecuteCommand(_ context.Context, _ *protocol.ExecuteCommandParams) (interface{}, error) {
	return nil, methodNotFound(protocol.MethodWorkspaceExecuteCommand)
}

func (unimplemented) FoldingRanges(_ context.Context, _ *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentFoldingRange)
}

func (unimplemented) Formatting(_ context.Context, _ *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentFormatting)
}

func (unimplemented) Hover(_ context.Context, _ *protocol.HoverParams) (*protocol.Hover, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentHover)
}

func (unimplemented) Implementation(_ context.Context, _ *protocol.ImplementationParams) ([]protocol.Location, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentImplementation)
}

func (unimplemented) OnTypeFormatting(_ context.Context, _ *protocol.DocumentOnTypeFormattingParams) ([]protocol.TextEdit, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentOnTypeFormatting)
}

func (unimplemented) PrepareRename(_ context.Context, _ *protocol.PrepareRenameParams) (*protocol.Range, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentPrepareRename)
}

func (unimplemented) RangeFormatting(_ context.Context, _ *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentRangeFormatting)
}

func (unimplemented) References(_ context.Context, _ *protocol.ReferenceParams) ([]protocol.Location, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentReferences)
}

func (unimplemented) Rename(_ context.Context, _ *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentRename)
}

func (unimplemented) SignatureHelp(_ context.Context, _ *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentSignatureHelp)
}

func (unimplemented) Symbols(_ context.Context, _ *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	return nil, methodNotFound(protocol.MethodWorkspaceSymbol)
}

func (unimplemented) TypeDefinition(_ context.Context, _ *protocol.TypeDefinitionParams) ([]protocol.Location, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentTypeDefinition)
}

func (unimplemented) WillSave(_ context.Context, _ *protocol.WillSaveTextDocumentParams) error {
	return nil
}

func (unimplemented) WillSaveWaitUntil(_ context.Context, _ *protocol.WillSaveTextDocumentParams) ([]protocol.TextEdit, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentWillSaveWaitUntil)
}

func (unimplemented) ShowDocument(_ context.Context, _ *protocol.ShowDocumentParams) (*protocol.ShowDocumentResult, error) {
	return nil, methodNotFound(protocol.MethodShowDocument)
}

func (unimplemented) WillCreateFiles(_ context.Context, _ *protocol.CreateFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, methodNotFound(protocol.MethodWillCreateFiles)
}

func (unimplemented) DidCreateFiles(_ context.Context, _ *protocol.CreateFilesParams) error {
	return nil
}

func (unimplemented) WillRenameFiles(_ context.Context, _ *protocol.RenameFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, methodNotFound(protocol.MethodWillRenameFiles)
}

func (unimplemented) DidRenameFiles(_ context.Context, _ *protocol.RenameFilesParams) error {
	return nil
}

func (unimplemented) WillDeleteFiles(_ context.Context, _ *protocol.DeleteFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, methodNotFound(protocol.MethodWillDeleteFiles)
}

func (unimplemented) DidDeleteFiles(_ context.Context, _ *protocol.DeleteFilesParams) error {
	return nil
}

func (unimplemented) CodeLensRefresh(_ context.Context) error {
	return nil
}

func (unimplemented) PrepareCallHierarchy(_ context.Context, _ *protocol.CallHierarchyPrepareParams) ([]protocol.CallHierarchyItem, error) {
	return nil, methodNotFound(protocol.MethodTextDocumentPrepareCallHierarchy)
}

func (unimplemented) IncomingCalls(_ context.Context, _ *protocol.CallHierarchyIncomingCallsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	return nil, methodNotFound(protocol.MethodCallHierarchyIncomingCalls)
}

func (unimplemented) OutgoingCalls(_ context.Context, _ *protocol.CallHierarchyOutgoingCallsParams) ([]protocol.CallHierarchyOutgoingCall, error) {
	return nil, methodNotFound(protocol.MethodCallHierarchyOutgoingCalls)
}

func (unimplemented) SemanticTokensFull(_ context.Context, _ *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	return nil, methodNotFound(protocol.MethodSemanticTokensFull)
}

func (unimplemented) SemanticTokensFullDelta(_ context.Context, _ *protocol.SemanticTokensDeltaParams) (interface{}, error) {
	return nil, methodNotFound(protocol.MethodSemanticTokensFullDelta)
}

func (unimplemented) SemanticTokensRange(_ context.Context, _ *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	return nil, methodNotFound(protocol.MethodSemanticTokensRange)
}

func (unimplemented) SemanticTokensRefresh(_ context.Context) error {
	return nil
}

func (unimplemented) LinkedEditingRange(_ context.Context, _ *protocol.LinkedEditingRangeParams) (*protocol.LinkedEditingRanges, error) {
	return nil, methodNotFound(protocol.MethodLinkedEditingRange)
}

func (unimplemented) Moniker(_ context.Context, _ *protocol.MonikerParams) ([]protocol.Moniker, error) {
	return nil, methodNotFound(protocol.MethodMoniker)
}

func (unimplemented) Request(_ context.Context, method string, _ interface{}) (interface{}, error) {
	return nil, methodNotFound(method)
}
