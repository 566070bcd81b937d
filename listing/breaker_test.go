package listing

import "testing"

// TestFiguresSingular: one token is "1 token", not "1 tokens" (the
// empty help index, `[]`, is 2 bytes and 1 token).
func TestFiguresSingular(t *testing.T) {
	for _, tc := range []struct {
		f    Figures
		want string
	}{
		{Figures{Bytes: 2, Tokens: 1, Exact: true}, "2 bytes, 1 token"},
		{Figures{Bytes: 1, Tokens: 1, Exact: true}, "1 byte, 1 token"},
		{Figures{Bytes: 1234, Tokens: 0, Exact: true}, "1,234 bytes, 0 tokens"},
	} {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
	if f, err := Measure(testCounter, HelpIndex(nil)); err != nil || f.Label() != "2 bytes, 1 token (o200k_base)" {
		t.Errorf("empty help index: %v %v", f.Label(), err)
	}
}
