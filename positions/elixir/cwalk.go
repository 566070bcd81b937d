package elixir

// The flattener: one C function walks a whole tree-sitter tree with a
// TSTreeCursor and writes every node into a Go-allocated array, so the rest
// of the reader never crosses into cgo per node.
//
// Why: through the smacker binding every node access is a cgo call plus an
// insert into the tree's node cache (about 1 µs per node on the reference
// machine), which makes a full walk of a 540 KB file cost more than twice
// the parse itself (docs/architecture.md "Performance targets"). Here one cgo call visits all
// nodes at the cost of the C cursor alone.
//
// How: the binding's *sitter.Node starts with the C TSNode by value
// (bindings.go: `type Node struct { c C.TSNode; t *Tree }`), and the
// tree-sitter runtime's public functions (api.h) are linked into the binary
// by the sitter package. This file re-declares the two public structs it
// needs exactly as api.h (tree-sitter 0.22, pinned by go.mod) declares
// them, and calls the public API only. checkLayout verifies the assumption
// at every Parse against the binding's own accessors, and
// TestFlattenMatchesBinding compares a whole flattened tree with a walk
// through the binding, so a binding upgrade that breaks it fails loudly
// instead of misreading memory.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// From tree-sitter api.h (the version vendored by go-tree-sitter).
typedef struct { uint32_t context[4]; const void *id; const void *tree; } wy_TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } wy_TSTreeCursor;

extern wy_TSTreeCursor ts_tree_cursor_new(wy_TSNode);
extern void ts_tree_cursor_delete(wy_TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(wy_TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(wy_TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(wy_TSTreeCursor *);
extern wy_TSNode ts_tree_cursor_current_node(const wy_TSTreeCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const wy_TSTreeCursor *);
extern uint16_t ts_node_symbol(wy_TSNode);
extern uint32_t ts_node_start_byte(wy_TSNode);
extern uint32_t ts_node_end_byte(wy_TSNode);
extern bool ts_node_is_named(wy_TSNode);
extern bool ts_node_is_missing(wy_TSNode);
extern bool ts_node_is_extra(wy_TSNode);
extern bool ts_node_has_error(wy_TSNode);

typedef struct {
	uint32_t start, end, next;
	uint16_t sym;
	uint8_t flags, field;
} wy_node;

enum { WY_NAMED = 1, WY_MISSING = 2, WY_EXTRA = 4, WY_HAS_ERROR = 8 };

// wy_flatten writes the nodes of the tree under root in pre-order into
// out[0..cap) and returns how many nodes there are (possibly more than
// cap: the caller then retries with a bigger array). out[i].next is the
// index just past node i's subtree. It returns -1 when out of memory.
static int64_t wy_flatten(wy_TSNode root, wy_node *out, uint32_t cap) {
	uint32_t scap = 256, depth = 0, n = 0;
	uint32_t *stack = malloc(scap * sizeof(uint32_t));
	if (!stack) return -1;
	wy_TSTreeCursor c = ts_tree_cursor_new(root);
	for (;;) {
		if (n < cap) {
			wy_TSNode nd = ts_tree_cursor_current_node(&c);
			wy_node *r = &out[n];
			r->start = ts_node_start_byte(nd);
			r->end = ts_node_end_byte(nd);
			r->next = 0;
			r->sym = ts_node_symbol(nd);
			uint8_t f = 0;
			if (ts_node_is_named(nd)) f |= WY_NAMED;
			if (ts_node_is_missing(nd)) f |= WY_MISSING;
			if (ts_node_is_extra(nd)) f |= WY_EXTRA;
			if (ts_node_has_error(nd)) f |= WY_HAS_ERROR;
			r->flags = f;
			uint16_t fid = ts_tree_cursor_current_field_id(&c);
			r->field = fid > 255 ? 0 : (uint8_t)fid;
		}
		if (depth == scap) {
			uint32_t *s2 = realloc(stack, 2 * scap * sizeof(uint32_t));
			if (!s2) { free(stack); ts_tree_cursor_delete(&c); return -1; }
			stack = s2;
			scap *= 2;
		}
		stack[depth++] = n++;
		if (ts_tree_cursor_goto_first_child(&c)) continue;
		for (;;) {
			uint32_t i = stack[--depth];
			if (i < cap) out[i].next = n;
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) {
				free(stack);
				ts_tree_cursor_delete(&c);
				return n;
			}
		}
	}
}

static void wy_node_info(wy_TSNode n, uint32_t *start, uint32_t *end, uint16_t *sym) {
	*start = ts_node_start_byte(n);
	*end = ts_node_end_byte(n);
	*sym = ts_node_symbol(n);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// rawNode is one flattened tree node; its layout matches wy_node.
type rawNode struct {
	start, end, next uint32
	sym              uint16
	flags, field     uint8
}

const (
	flagNamed   = 1
	flagMissing = 2
	flagExtra   = 4
	flagError   = 8 // the node is or contains an ERROR or missing node
)

// symError is tree-sitter's ERROR symbol (ts_builtin_sym_error).
const symErrorID = 0xFFFF

func (n *rawNode) named() bool   { return n.flags&flagNamed != 0 }
func (n *rawNode) missing() bool { return n.flags&flagMissing != 0 }
func (n *rawNode) extra() bool   { return n.flags&flagExtra != 0 }
func (n *rawNode) hasErr() bool  { return n.flags&flagError != 0 }

// Compile-time layout checks: rawNode mirrors wy_node, and the binding's
// Node starts with a TSNode (32 bytes) followed by the tree pointer.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(rawNode{})-unsafe.Sizeof(C.wy_node{})]
	_ = [1]struct{}{}[unsafe.Sizeof(C.wy_TSNode{})-32]
	_ = [1]struct{}{}[unsafe.Sizeof(sitter.Node{})-32-unsafe.Sizeof(uintptr(0))]
)

// errLayout reports that the binding's Node no longer starts with a TSNode.
var errLayout = errors.New("elixir: go-tree-sitter Node layout changed; the flattener cannot read it")

// rawTSNode reinterprets the binding's node as the C TSNode it starts with.
func rawTSNode(n *sitter.Node) C.wy_TSNode {
	return *(*C.wy_TSNode)(unsafe.Pointer(n))
}

// checkLayout compares what the C API says about n (read through the
// reinterpreted TSNode) with the binding's accessors.
func checkLayout(n *sitter.Node) error {
	var start, end C.uint32_t
	var sym C.uint16_t
	C.wy_node_info(rawTSNode(n), &start, &end, &sym)
	if uint32(start) != n.StartByte() || uint32(end) != n.EndByte() || uint16(sym) != uint16(n.Symbol()) {
		return errLayout
	}
	return nil
}

// flatten returns every node of the tree rooted at root in pre-order,
// reusing buf's storage when it is large enough (hint is the expected node
// count, for a first allocation). The tree must stay open during the call.
func flatten(root *sitter.Node, buf []rawNode, hint int) ([]rawNode, error) {
	if err := checkLayout(root); err != nil {
		return nil, err
	}
	raw := rawTSNode(root)
	for attempt := 0; attempt < 2; attempt++ {
		if cap(buf) == 0 || cap(buf) < hint {
			buf = make([]rawNode, 0, max(hint, 64))
		}
		buf = buf[:cap(buf)]
		n := C.wy_flatten(raw, (*C.wy_node)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)))
		if n < 0 {
			return nil, errors.New("elixir: flatten: out of memory")
		}
		if int(n) <= len(buf) {
			return buf[:n], nil
		}
		buf = make([]rawNode, 0, int(n)+int(n)/8)
	}
	return nil, fmt.Errorf("elixir: flatten: tree size changed between walks")
}
