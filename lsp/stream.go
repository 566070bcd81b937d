package lsp

import (
	"bufio"
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// DefaultMaxMessageSize is the largest message body, in bytes, the server
// reads when Options.MaxMessageSize is not set. A larger body is skipped
// and answered with an InvalidRequest error; the stream stays usable.
const DefaultMaxMessageSize = 256 << 20

// maxHeaderLine bounds one header line, in bytes, so that a stream of
// garbage without newlines cannot grow memory without limit.
const maxHeaderLine = 4 << 10

// maxNesting bounds how deep the JSON of one message may nest (arrays and
// objects), as encoding/json bounds what it decodes: jsonrpc2 decodes
// every message recursively with no bound of its own, so a body of a few
// megabytes of "[" overflowed the goroutine stack and killed the process.
const maxNesting = 10000

// errFraming marks a stream error after which message boundaries are lost
// (bad or missing Content-Length, a header line without a colon): the
// connection cannot continue.
var errFraming = errors.New("lsp framing error")

// stream is a jsonrpc2.Stream speaking the LSP base protocol
// (Content-Length framing, LSP 3.17 "Base Protocol"). Unlike
// jsonrpc2.NewStream it survives undecodable bodies: a body that is not
// JSON is answered with ParseError (-32700, id null), a JSON request that
// jsonrpc2 cannot decode (an id above int32, a wrong "jsonrpc" tag) with
// InvalidRequest (-32600) carrying the id as sent, and reading goes on
// (docs/architecture.md "Protocol library workarounds": one undecodable message would otherwise end the
// connection). Only a framing error ends it.
type stream struct {
	rwc     io.ReadWriteCloser
	in      *bufio.Reader
	log     *zap.Logger
	maxBody int64

	writeMu sync.Mutex
}

func newStream(rwc io.ReadWriteCloser, log *zap.Logger, maxBody int64) *stream {
	if maxBody <= 0 {
		maxBody = DefaultMaxMessageSize
	}
	return &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), log: log, maxBody: maxBody}
}

// Read implements jsonrpc2.Stream. It returns the next decodable message;
// undecodable ones are answered (or logged) and skipped.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		body, n, err := s.readFrame()
		total += n
		if err != nil {
			return nil, total, err
		}
		if body == nil {
			continue // oversized body, already answered
		}
		if nestedDeeper(body, maxNesting) {
			s.log.Error("message nested too deeply, skipped", zap.Int("bytes", len(body)), zap.Int("limit", maxNesting))
			s.writeError(nil, jsonrpc2.InvalidRequest, fmt.Sprintf("message nested more than %d levels deep", maxNesting))
			continue
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			if s.misread(msg, body) {
				continue
			}
			return msg, total, nil
		}
		s.reject(body, err)
	}
}

// readFrame reads one header block and its body. A nil body with a nil
// error means the body was too large and has been skipped.
func (s *stream) readFrame() (body []byte, n int64, err error) {
	length := int64(-1)
	sawHeader := false
	for {
		line, err := s.readLine()
		n += int64(len(line))
		if err != nil {
			if !sawHeader && strings.TrimSpace(line) == "" && errors.Is(err, io.EOF) {
				return nil, n, io.EOF
			}
			return nil, n, fmt.Errorf("reading header: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if !sawHeader {
				continue // tolerate stray blank lines between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, n, fmt.Errorf("%w: header line %q has no colon", errFraming, truncate(line, 80))
		}
		if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue // Content-Type and unknown headers are ignored
		}
		v, perr := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if perr != nil || v < 0 {
			return nil, n, fmt.Errorf("%w: bad Content-Length %q", errFraming, truncate(value, 80))
		}
		length = v
	}
	if length < 0 {
		return nil, n, fmt.Errorf("%w: missing Content-Length header", errFraming)
	}
	if length > s.maxBody {
		if _, err := io.CopyN(io.Discard, s.in, length); err != nil {
			return nil, n, fmt.Errorf("skipping %d-byte body: %w", length, err)
		}
		n += length
		s.log.Error("message too large, skipped", zap.Int64("bytes", length), zap.Int64("limit", s.maxBody))
		s.writeError(nil, jsonrpc2.InvalidRequest, fmt.Sprintf("message of %d bytes exceeds the %d-byte limit", length, s.maxBody))
		return nil, n, nil
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, n, fmt.Errorf("reading %d-byte body: %w", length, err)
	}
	return body, n + length, nil
}

// nestedDeeper reports whether the JSON text b opens more than limit
// arrays or objects at once; brackets inside strings do not count.
func nestedDeeper(b []byte, limit int) bool {
	if len(b) <= limit {
		return false // too short to open limit+1 brackets
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			// Skip the string: to its closing quote, past escaped ones.
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			if depth++; depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// readLine reads one header line, failing on lines over maxHeaderLine.
func (s *stream) readLine() (string, error) {
	var buf []byte
	for {
		chunk, err := s.in.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxHeaderLine {
			return string(buf), fmt.Errorf("%w: header line longer than %d bytes", errFraming, maxHeaderLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return string(buf), err
	}
}

// reject answers a body jsonrpc2 could not decode: ParseError for bytes
// that are not JSON, InvalidRequest (with the id as sent) for a request
// object it could not accept; responses and notifications are only logged.
func (s *stream) reject(body []byte, decodeErr error) {
	var probe struct {
		ID     stdjson.RawMessage `json:"id"`
		Method *string            `json:"method"`
		Result stdjson.RawMessage `json:"result"`
		Error  stdjson.RawMessage `json:"error"`
	}
	if !stdjson.Valid(body) {
		s.log.Error("message body is not JSON", zap.Error(decodeErr), zap.ByteString("body", head(body, 200)))
		s.writeError(nil, jsonrpc2.ParseError, "message body is not valid JSON")
		return
	}
	if err := stdjson.Unmarshal(body, &probe); err != nil {
		s.log.Error("message is not a JSON-RPC object", zap.Error(decodeErr), zap.ByteString("body", head(body, 200)))
		s.writeError(nil, jsonrpc2.InvalidRequest, "message is not a JSON-RPC request object")
		return
	}
	id := probe.ID
	if bytes.Equal(bytes.TrimSpace(id), []byte("null")) {
		id = nil
	}
	if probe.Method == nil && probe.Result == nil && probe.Error == nil {
		// Neither a request nor a response ({"foo": "boo"}, {}, null):
		// JSON-RPC 2.0 answers it InvalidRequest, id null.
		s.log.Error("message is neither a request nor a response", zap.Error(decodeErr), zap.ByteString("body", head(body, 200)))
		s.writeError(nil, jsonrpc2.InvalidRequest, "message is not a JSON-RPC request object")
		return
	}
	if probe.Method == nil || id == nil {
		s.log.Error("undecodable message ignored", zap.Error(decodeErr), zap.ByteString("body", head(body, 200)))
		return
	}
	s.log.Error("invalid request", zap.String("method", *probe.Method), zap.ByteString("id", id), zap.Error(decodeErr))
	s.writeError(id, jsonrpc2.InvalidRequest, `invalid request: "jsonrpc" must be "2.0" and "id" a 32-bit integer or a string`)
}

// misread answers the two requests jsonrpc2 decodes as something else,
// and reports whether msg was one: a request whose "method" is "" (read as
// a response, so it was never answered) gets MethodNotFound, and one whose
// id is the string "" (read as the number 0, so the answer carried
// "id":0) InvalidRequest, each with the id as sent. Only a response, or a
// call whose id reads as 0, is looked at again.
func (s *stream) misread(msg jsonrpc2.Message, body []byte) bool {
	switch m := msg.(type) {
	case *jsonrpc2.Response:
		if !bytes.Contains(body, []byte(`"method"`)) {
			return false
		}
	case *jsonrpc2.Call:
		if m.ID() != jsonrpc2.NewNumberID(0) {
			return false
		}
	default:
		return false
	}
	var probe struct {
		ID     stdjson.RawMessage `json:"id"`
		Method *string            `json:"method"`
	}
	if stdjson.Unmarshal(body, &probe) != nil {
		return false
	}
	id := bytes.TrimSpace(probe.ID)
	if len(id) == 0 || bytes.Equal(id, []byte("null")) {
		return false
	}
	switch _, isCall := msg.(*jsonrpc2.Call); {
	case !isCall && probe.Method != nil && *probe.Method == "":
		s.log.Error("request with an empty method", zap.ByteString("id", id))
		s.writeError(id, jsonrpc2.MethodNotFound, "method not found: ")
		return true
	case isCall && probe.Method != nil && bytes.Equal(id, []byte(`""`)):
		s.log.Error("request with an empty string id", zap.String("method", *probe.Method))
		s.writeError(id, jsonrpc2.InvalidRequest, "invalid request: an empty string id is not supported")
		return true
	}
	return false
}

// writeError writes an error response with the raw id (nil for null).
func (s *stream) writeError(id stdjson.RawMessage, code jsonrpc2.Code, msg string) {
	if id == nil {
		id = stdjson.RawMessage("null")
	}
	resp := struct {
		JSONRPC string             `json:"jsonrpc"`
		ID      stdjson.RawMessage `json:"id"`
		Error   jsonrpc2.Error     `json:"error"`
	}{"2.0", id, jsonrpc2.Error{Code: code, Message: msg}}
	data, err := stdjson.Marshal(resp)
	if err != nil {
		s.log.Error("marshalling error response", zap.Error(err))
		return
	}
	if err := s.writeFrame(data); err != nil {
		s.log.Error("writing error response", zap.Error(err))
	}
}

// Write implements jsonrpc2.Stream. Unlike jsonrpc2's stream it writes even
// when ctx is cancelled: a reply that was asked for is never dropped
// silently (docs/architecture.md "Protocol library workarounds").
func (s *stream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshalling message: %w", err)
	}
	if err := s.writeFrame(data); err != nil {
		return 0, err
	}
	return int64(len(data)), nil
}

func (s *stream) writeFrame(data []byte) error {
	frame := make([]byte, 0, len(data)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(data)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, data...)
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.rwc.Write(frame); err != nil {
		return fmt.Errorf("writing %d-byte message: %w", len(data), err)
	}
	return nil
}

// Close implements jsonrpc2.Stream.
func (s *stream) Close() error { return s.rwc.Close() }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func head(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[:n]
}
