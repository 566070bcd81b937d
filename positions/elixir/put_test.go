package elixir

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

// TestPutEntryInPlace: putEntry, which updates its own copy of the entries
// in place, gives what a fresh copy per update gives (the first entry with
// the key replaced, later ones with the key dropped, or the entry
// appended), over random maps with repeated and uncomparable keys.
func TestPutEntryInPlace(t *testing.T) {
	fresh := func(entries []validate.Entry, en validate.Entry) []validate.Entry {
		var out []validate.Entry
		put := false
		for _, x := range entries {
			if sameKey(x.Key, en.Key) {
				if !put {
					out, put = append(out, en), true
				}
				continue
			}
			out = append(out, x)
		}
		if !put {
			out = append(out, en)
		}
		return out
	}
	keys := []*validate.Value{
		{Kind: validate.Atom, Text: "a"}, {Kind: validate.Atom, Text: "b"}, {Kind: validate.String, Text: "a"},
		{Kind: validate.Opaque}, {Kind: validate.String, Text: "x", Unknown: true},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var entries []validate.Entry
		for range rng.IntN(6) {
			entries = append(entries, validate.Entry{Key: keys[rng.IntN(len(keys))], Value: &validate.Value{Kind: validate.Integer}})
		}
		want := append([]validate.Entry(nil), entries...)
		got := append(make([]validate.Entry, 0, rng.IntN(8)), entries...)
		for range 1 + rng.IntN(4) {
			en := validate.Entry{Key: keys[rng.IntN(len(keys))], Value: &validate.Value{Kind: validate.Atom}}
			want, got = fresh(want, en), putEntry(got, en)
		}
		if len(want) != len(got) || len(want) > 0 && !reflect.DeepEqual(want, got) {
			t.Fatalf("putEntry gave %v, want %v", got, want)
		}
		for i := range want {
			if want[i].Key != got[i].Key || want[i].Value != got[i].Value {
				t.Fatalf("entry %d differs", i)
			}
		}
	}
}
