package checks

import "testing"

// A glob selects every file it matches, whole or, relative, by its
// trailing parts.
func TestGlobMatches(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"config/db.y*ml", "config/db.yaml", true},
		{"config/db.y*ml", "config/db.yml", true},
		{"values-prod.*", "charts/app/values-prod.yaml", true},
		{"values-prod.*", "charts/app/values-production.yaml", false},
		{"/var/log/billing/*.log", "/var/log/billing/billing-worker.log.1", false},
		{"/var/log/billing/*.log", "/var/log/billing/billing-worker.log", true},
		{"/var/*.log", "x/var/a.log", false}, // an absolute glob matches whole paths only
		{"dist/*.tar.gz", "dist/relay-linux-arm64.tar.gz", true},
	}
	for _, c := range cases {
		if got := globMatches(c.glob, c.path); got != c.want {
			t.Errorf("globMatches(%q, %q) = %v; want %v", c.glob, c.path, got, c.want)
		}
	}
}
