package validate

import (
	"math"
	"testing"
)

// TestOrigin checks that an Origin gives back the parts it was made from,
// that two Origins of the same parts are == however their keys were
// interned, that the zero Origin is the only one IsZero reports, and that
// integers outside the int32 range are clamped (DocKey.Origin).
func TestOrigin(t *testing.T) {
	key := "file:///lib/" + string([]byte("app.ex")) // not a constant: a fresh string
	tests := []struct {
		name       string
		o          Origin
		key        string
		a, b       int
		zero       bool
		sameAsPrev bool
	}{
		{name: "zero", o: Origin{}, zero: true},
		{name: "NewOrigin of nothing", o: NewOrigin("", 0, 0), zero: true},
		{name: "empty key, offsets", o: NewOrigin("", 3, 7), a: 3, b: 7},
		{name: "NewOrigin", o: NewOrigin("file:///lib/app.ex", 10, 25), key: "file:///lib/app.ex", a: 10, b: 25},
		{name: "DocKey, another string", o: NewDocKey(key).Origin(10, 25), key: "file:///lib/app.ex", a: 10, b: 25, sameAsPrev: true},
		{name: "largest offsets", o: NewOrigin("k", math.MaxInt32, math.MaxInt32), key: "k", a: math.MaxInt32, b: math.MaxInt32},
		{name: "clamped", o: NewOrigin("k", math.MinInt32-5, math.MaxInt32+5), key: "k", a: math.MinInt32, b: math.MaxInt32},
	}
	var prev Origin
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key, a, b := tc.o.Parts()
			if key != tc.key || a != tc.a || b != tc.b {
				t.Errorf("Parts() = %q, %d, %d; want %q, %d, %d", key, a, b, tc.key, tc.a, tc.b)
			}
			if tc.o.IsZero() != tc.zero {
				t.Errorf("IsZero() = %v", !tc.zero)
			}
			if tc.sameAsPrev && tc.o != prev {
				t.Errorf("%v != %v: equal parts must give equal Origins", tc.o, prev)
			}
			if !tc.sameAsPrev && !tc.zero && tc.o == prev {
				t.Errorf("%v == the previous row's Origin", tc.o)
			}
		})
		prev = tc.o
	}
	if NewOrigin("a", 1, 2) == NewOrigin("b", 1, 2) || NewOrigin("a", 1, 2) == NewOrigin("a", 1, 3) {
		t.Error("Origins of different parts compare equal")
	}
	if k := NewDocKey("k"); k.Origin32(3, 9) != k.Origin(3, 9) || k.Origin32(3, 9) != NewOrigin("k", 3, 9) {
		t.Error("Origin32 differs from Origin for offsets in range")
	}
	if NewDocKey("").String() != "" || NewDocKey("x").String() != "x" {
		t.Error("DocKey.String does not give back the key")
	}
}
