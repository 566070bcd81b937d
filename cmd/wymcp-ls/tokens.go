package main

import (
	"github.com/tiktoken-go/tokenizer"

	"github.com/wymcp/wymcp-ls/listing/bpe"
)

// newCounter returns the token counter of every figure the command shows
// (the server's code lens and hover, tools-list, help-preview): OpenAI's
// o200k_base, the vocabulary listing.Encoding names (README.md, "What the
// LLM sees").
//
// The command is the one place that names the vocabulary, so it is the
// one package that waits for the tokenizer to compile; as the main
// package imports the tokenizer itself, go build also starts compiling
// the vocabulary early, beside the rest (docs/architecture.md, "Packages
// and imports").
func newCounter() *bpe.Counter { return bpe.New(tokenizer.O200kBase) }
