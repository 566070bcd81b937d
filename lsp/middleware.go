package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// LSP error codes missing from jsonrpc2 v0.10.0 (LSP 3.17 "ErrorCodes").
const (
	// CodeRequestFailed is LSP 3.17 RequestFailed: a well-formed request
	// that the server could not serve.
	CodeRequestFailed jsonrpc2.Code = -32803
)

// canceller is the outermost middleware: it gives every call a cancellable
// context keyed by its id and serves $/cancelRequest on the read loop.
// It replaces protocol.CancelHandler, which compares ids as int32 while
// they decode as float64, so a numeric cancel never matched
// (docs/architecture.md "Protocol library workarounds"). Replies always go out under context.WithoutCancel:
// jsonrpc2 writes nothing for a reply whose context is cancelled.
type canceller struct {
	log      *zap.Logger
	mu       sync.Mutex
	inflight map[jsonrpc2.ID]context.CancelFunc
}

func newCanceller(log *zap.Logger) *canceller {
	return &canceller{log: log, inflight: make(map[jsonrpc2.ID]context.CancelFunc)}
}

func (c *canceller) wrap(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodCancelRequest {
			if id, ok := cancelID(req.Params()); ok {
				c.cancel(id)
			} else {
				c.log.Warn("malformed $/cancelRequest", zap.ByteString("params", head(req.Params(), 200)))
			}
			// Answer a (misused) call form too; for a notification this writes nothing.
			_ = reply(context.WithoutCancel(ctx), nil, nil)
			return nil
		}
		call, ok := req.(*jsonrpc2.Call)
		if !ok {
			return next(ctx, reply, req)
		}
		id := call.ID()
		cctx, cancel := context.WithCancel(ctx)
		c.mu.Lock()
		c.inflight[id] = cancel
		c.mu.Unlock()
		return next(cctx, func(rctx context.Context, result any, err error) error {
			c.mu.Lock()
			delete(c.inflight, id)
			c.mu.Unlock()
			if err != nil && cctx.Err() != nil && errors.Is(err, context.Canceled) {
				err = jsonrpc2.NewError(protocol.CodeRequestCancelled, "request cancelled")
			}
			cancel()
			return reply(context.WithoutCancel(rctx), result, err)
		}, req)
	}
}

func (c *canceller) cancel(id jsonrpc2.ID) {
	c.mu.Lock()
	cancel, ok := c.inflight[id]
	c.mu.Unlock()
	if ok {
		cancel()
	}
}

// cancelID decodes CancelParams.id (LSP 3.17 "$/cancelRequest": integer or
// string). JSON numbers decode as float64; an integral value within int32
// matches jsonrpc2's numeric ids.
func cancelID(params json.RawMessage) (jsonrpc2.ID, bool) {
	var p struct {
		ID any `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return jsonrpc2.ID{}, false
	}
	switch id := p.ID.(type) {
	case float64:
		if id != math.Trunc(id) || id < math.MinInt32 || id > math.MaxInt32 {
			return jsonrpc2.ID{}, false
		}
		return jsonrpc2.NewNumberID(int32(id)), true
	case string:
		return jsonrpc2.NewStringID(id), true
	}
	return jsonrpc2.ID{}, false
}

// callID formats a request ID as a log field does: 7 or "abc".
type callID struct{ id jsonrpc2.ID }

// String returns the ID as fmt's %v writes it.
func (c callID) String() string { return fmt.Sprintf("%v", c.id) }

// middleware wraps protocol.ServerHandler with, outermost first: logging
// and panic recovery (a panic is answered InternalError -32603 and the
// server keeps serving), error-code normalisation, the lifecycle gate, and
// the methods this package decodes itself (initialize, initialized,
// shutdown, exit, didChange, Options.Custom, unknown methods).
func (s *server) middleware(lspHandler jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (herr error) {
		start := time.Now()
		method := req.Method()
		idField := zap.Skip()
		call, isCall := req.(*jsonrpc2.Call)
		if isCall {
			// Formatted only when a message is logged (debug is usually off).
			idField = zap.Stringer("id", callID{call.ID()})
		}
		var replied atomic.Bool
		once := func(rctx context.Context, result any, err error) error {
			if !replied.CompareAndSwap(false, true) {
				s.log.Error("second reply dropped", zap.String("method", method), idField)
				return nil
			}
			err = normalizeError(err)
			if err != nil {
				lvl := zap.DebugLevel
				if !isCall {
					lvl = zap.WarnLevel
				}
				s.log.Check(lvl, "handler error").Write(zap.String("method", method), idField, zap.Error(err))
			}
			s.log.Debug("handled", zap.String("method", method), idField, zap.Duration("took", time.Since(start)))
			return reply(rctx, result, err)
		}
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panic in handler", zap.String("method", method), idField,
					zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
				herr = nil
			}
			if !replied.Load() {
				_ = once(context.WithoutCancel(ctx), nil,
					jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("internal error serving %s", method)))
			}
		}()
		s.log.Debug("received", zap.String("method", method), idField)
		return s.gate(ctx, once, req, isCall, lspHandler)
	}
}

// gate enforces the lifecycle (LSP 3.17 "Server lifecycle"): before
// initialize, calls get ServerNotInitialized (-32002) and notifications are
// dropped; after shutdown, calls get InvalidRequest (-32600) and
// notifications other than exit are dropped; exit is always served.
func (s *server) gate(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request, isCall bool, next jsonrpc2.Handler) error {
	method := req.Method()
	if method == protocol.MethodExit {
		// Answered first: exit sent as a request gets its reply before the
		// connection closes (for the notification this writes nothing).
		err := reply(ctx, nil, nil)
		s.exit()
		return err
	}
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch {
	case st == stateNew && method != protocol.MethodInitialize:
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized: send initialize first"))
		}
		s.log.Debug("notification before initialize dropped", zap.String("method", method))
		return reply(ctx, nil, nil)
	case st == stateShutdown:
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down: only exit is accepted"))
		}
		s.log.Debug("notification after shutdown dropped", zap.String("method", method))
		return reply(ctx, nil, nil)
	case st != stateNew && method == protocol.MethodInitialize:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize may only be sent once"))
	}
	return s.dispatch(ctx, reply, req, isCall, next)
}

// dispatch serves the methods decoded here and hands the rest to
// protocol.ServerHandler.
func (s *server) dispatch(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request, isCall bool, next jsonrpc2.Handler) error {
	params := req.Params()
	switch req.Method() {
	case protocol.MethodInitialize:
		res, err := s.initialize(params)
		return reply(ctx, res, err)
	case protocol.MethodInitialized:
		s.initialized() // params ignored: null or absent is tolerated
		return reply(ctx, nil, nil)
	case protocol.MethodShutdown:
		s.shutdown()
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidChange:
		return reply(ctx, nil, s.didChange(params))
	}
	if h, ok := s.features[req.Method()]; ok {
		res, err := h(ctx, params)
		if !isCall {
			res = nil
		}
		return reply(ctx, res, err)
	}
	if h, ok := s.opts.Custom[req.Method()]; ok {
		res, err := h(ctx, params)
		if !isCall {
			res = nil
		}
		return reply(ctx, res, err)
	}
	if knownMethods[req.Method()] {
		if isCall && !libraryNotifications[req.Method()] && ctx.Err() == nil {
			// A request the server does not offer: protocol.ServerHandler
			// would decode its params first and answer a bad one -32602.
			// (A cancelled one goes on: the library answers it -32800.)
			return reply(ctx, nil, methodNotFound(req.Method()))
		}
		return next(ctx, reply, req)
	}
	if isCall {
		return reply(ctx, nil, methodNotFound(req.Method()))
	}
	s.log.Debug("unknown notification ignored", zap.String("method", req.Method()))
	return reply(ctx, nil, nil)
}

// parseErrorPrefix is how protocol.ServerHandler words a params decode
// failure; it sends those with code 0 (docs/architecture.md "Protocol library workarounds").
var parseErrorPrefix = jsonrpc2.ErrParse.Message + ": "

// normalizeError gives every error reply a proper code: a params decode
// failure from protocol.ServerHandler becomes InvalidParams (-32602),
// context.Canceled RequestCancelled (-32800), any other uncoded error
// RequestFailed (-32803). A wrapped *jsonrpc2.Error keeps its code and the
// full message.
func normalizeError(err error) error {
	if err == nil {
		return nil
	}
	var je *jsonrpc2.Error
	switch {
	case errors.As(err, &je):
		if je == err {
			return err
		}
		return jsonrpc2.NewError(je.Code, err.Error())
	case errors.Is(err, context.Canceled):
		return jsonrpc2.NewError(protocol.CodeRequestCancelled, "request cancelled")
	case strings.HasPrefix(err.Error(), parseErrorPrefix):
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+strings.TrimPrefix(err.Error(), parseErrorPrefix))
	}
	return jsonrpc2.NewError(CodeRequestFailed, err.Error())
}
