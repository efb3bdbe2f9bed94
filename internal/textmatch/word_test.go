package textmatch

import "testing"

func TestContainsWord(t *testing.T) {
	for _, tc := range []struct {
		s, w string
		want bool
	}{
		{"use eu-west-1 now", "eu-west-1", true},
		{"use eu-west-12 now", "eu-west-1", false},
		{"xeu-west-1", "eu-west-1", false},
		{"the prod_db and prod", "prod", true},
		{"prod_db", "prod", false},
		{"señal", "se", false},
		{"", "a", false},
		{"a", "", false},
		{"a.b a", "a", true},
	} {
		if got := ContainsWord(tc.s, tc.w); got != tc.want {
			t.Errorf("ContainsWord(%q, %q) = %v, want %v", tc.s, tc.w, got, tc.want)
		}
	}
}
