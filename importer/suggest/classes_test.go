package suggest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An idea the agent ruled out itself, on a tool's output, is a refuted
// hypothesis: refuted by that output.
func TestSelfRefutedHypothesis(t *testing.T) {
	s := scan(
		userRec("The nightly export is slow."),
		assistantRec("I suspect the connection pool is exhausted."),
		callRec("shell", `{"cmd": "pg_stat_activity.sh"}`),
		resultRec("active connections: 4 of 50"),
		assistantRec("The connection pool is not the cause: only 4 of 50 connections are busy. Let me look at the query plan."),
	)
	got := s.Refuted()
	if len(got) != 1 {
		t.Fatalf("refuted = %+v, want one", got)
	}
	r := got[0]
	if r.ClaimIdx != 1 || r.ByIdx != 3 || r.SelfIdx != 4 || r.Pattern != `connection.{0,12}pool` {
		t.Errorf("refuted = %+v, want the claim at 1, the tool output at 3, ruled out at 4, pattern connection…pool", r)
	}

	// Near misses: a ruling-out without tool output in between is a change
	// of mind, not a refutation; one about another idea refutes nothing.
	for name, events := range map[string][]Event{
		"no evidence between": {assistantRec("I suspect the connection pool is exhausted."), assistantRec("Actually the connection pool is not the cause.")},
		"another idea":        {assistantRec("I suspect the connection pool is exhausted."), callRec("shell", `{"cmd": "dig db"}`), resultRec("db -> 10.0.0.7"), assistantRec("DNS is not the problem.")},
		"a denial of nothing": {assistantRec("Tests pass."), callRec("shell", `{"cmd": "make"}`), resultRec("ok"), assistantRec("The cache is not the cause.")},
	} {
		if got := scan(events...).Refuted(); len(got) != 0 {
			t.Errorf("%s: refuted = %+v, want none", name, got)
		}
	}
}

// A value that only a tool's error reveals as wrong becomes a correction,
// its source the error.
func TestToolErrorCorrection(t *testing.T) {
	tests := []struct {
		name   string
		events []Event
		want   []Correction
	}{
		{
			name: "a path the tool could not find, retried in another folder",
			events: []Event{
				callRec("shell", `{"cmd": "cat /etc/app/config.yaml"}`),
				resultRec("cat: /etc/app/config.yaml: No such file or directory"),
				callRec("shell", `{"cmd": "cat /srv/app/config.yaml"}`),
				resultRec("port: 8080"),
			},
			want: []Correction{{Idx: 1, Old: "/etc/app/config.yaml", New: "/srv/app/config.yaml", Text: "cat: /etc/app/config.yaml: No such file or directory", ByTool: true}},
		},
		{
			name: "did you mean",
			events: []Event{
				callRec("shell", `{"cmd": "kubectl rollout restart deploy/payments-api"}`),
				resultRec(`Error from server (NotFound): deployments.apps "payments-api" not found. Did you mean "payment-api"?`),
			},
			want: []Correction{{Idx: 1, Old: "deploy/payments-api", New: "payment-api", Text: `Error from server (NotFound): deployments.apps "payments-api" not found. Did you mean "payment-api"?`, ByTool: true}},
		},
		{
			// A structured call's retries are read by their arguments
			// (retries.go): two values that failed before a third worked
			// are a refuted attempt, no chain of corrections.
			name: "a chain of a structured call's retries: an attempt, no correction",
			events: []Event{
				callRec("update", `{"payment_id": "gift_card_7480005"}`),
				statusRec(0, "ok", "Error: gift card balance is not enough"),
				callRec("update", `{"payment_id": "gift_card_6276644"}`),
				statusRec(2, "ok", "Error: gift card balance is not enough"),
				callRec("update", `{"payment_id": "gift_card_7091239"}`),
				statusRec(4, "ok", `{"payment_id": "gift_card_7091239"}`),
			},
		},
		{
			name: "a chain of a command's retries: only the last value is the correction, the ones between were superseded",
			events: []Event{
				callRec("shell", `{"cmd": "cat /etc/app/config.yaml"}`),
				resultRec("cat: /etc/app/config.yaml: No such file or directory"),
				callRec("shell", `{"cmd": "cat /etc/app/config.yml"}`),
				resultRec("cat: /etc/app/config.yml: No such file or directory"),
				callRec("shell", `{"cmd": "cat /etc/app/configs.yml"}`),
				resultRec("port: 8080"),
			},
			want: []Correction{{Idx: 3, Old: "/etc/app/config.yml", New: "/etc/app/configs.yml", Text: "cat: /etc/app/config.yml: No such file or directory", ByTool: true}},
		},
		{
			name: "near miss: the retry changes two things",
			events: []Event{
				callRec("shell", `{"cmd": "cat /etc/app/config.yaml"}`),
				resultRec("cat: /etc/app/config.yaml: No such file or directory"),
				callRec("shell", `{"cmd": "grep port /srv/app/config.yml"}`),
			},
		},
		{
			name: "near miss: no error, another call",
			events: []Event{
				callRec("shell", `{"cmd": "cat /etc/app/config.yaml"}`),
				resultRec("port: 8080"),
				callRec("shell", `{"cmd": "cat /etc/app/config.yml"}`),
			},
		},
		{
			name: "near miss: another file read after an error",
			events: []Event{
				callRec("shell", `{"cmd": "python -m pytest tests/test_export.py"}`),
				resultRec("ModuleNotFoundError: No module named 'exporter'"),
				callRec("shell", `{"cmd": "pip install -e ."}`),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, scan(tc.events...).Corrections()); diff != "" {
				t.Errorf("corrections (-want +got):\n%s", diff)
			}
		})
	}
}

// A command the session ran is not a corrected value; two commands are
// ("use pnpm, not npm").
func TestCommandNameIsNoCorrectedValue(t *testing.T) {
	run := callRec("shell", `{"cmd": "kubectl get pods -n web"}`)
	s := scan(userRec("Check the pods."), run, resultRec("ok"), userRec("Actually, look at the ingress-v2, not kubectl."))
	if got := s.Corrections(); len(got) != 0 {
		t.Errorf("corrections = %+v, want none: kubectl is the command the session ran", got)
	}
	s = scan(userRec("Install it."), callRec("shell", `{"cmd": "npm install"}`), resultRec("ok"), userRec("Use pnpm instead of npm."))
	if got := s.Corrections(); len(got) != 1 || got[0].Old != "npm" {
		t.Errorf("corrections = %+v, want npm replaced", got)
	}
}

// "No, I mean X" redirects the agent.
func TestNoIMeanIsACorrection(t *testing.T) {
	s := scan(userRec("What is 1+1?"), assistantRec("2."), userRec("No, I mean in binary!"))
	got := s.Corrections()
	if len(got) != 1 || got[0].New != "in binary" {
		t.Errorf("corrections = %+v, want new \"in binary\"", got)
	}
	if got := scan(userRec("Fix it."), userRec("I mean, it works on my machine.")).Corrections(); len(got) != 0 {
		t.Errorf("a filler \"I mean\" made corrections %+v", got)
	}
}

// A file the session moved is one artifact under two names; the new name
// is the one a summary must give.
func TestRenamedFileIsAnArtifact(t *testing.T) {
	s := scan(
		userRec("Rename the game."),
		callRec("read", `{"path": "/workspace"}`),
		resultRec("/workspace/game_2048.py"),
		callRec("shell", `{"command": "mv /workspace/game_2048.py /workspace/2048.py"}`),
		resultRec(""),
	)
	groups := s.ArtifactGroups()
	if len(groups) != 1 {
		t.Fatalf("groups = %q, want the renamed file", groups)
	}
	if req, _, _ := s.Required(groups[0]); req != "/workspace/2048.py" || !s.Moved(groups[0]) {
		t.Errorf("required = %q, moved = %v, want the new name of a moved file", req, s.Moved(groups[0]))
	}
	// Near miss: a copy is two files, not one moved.
	s = scan(callRec("shell", `{"command": "cp config/app.yaml config/app.yaml.bak"}`), resultRec(""))
	if g := s.ArtifactGroups(); len(g) != 1 || s.Moved(g[0]) {
		t.Errorf("groups = %q, want the copy pair, not moved", g)
	}
}

// A folder named with and without its trailing slash is one path.
func TestTrailingSlashTwinsAreOnePath(t *testing.T) {
	s := scan(
		callRec("read", `{"path": "/workspace/app/"}`),
		resultRec("a.py"),
		callRec("shell", `{"cmd": "touch /workspace/app"}`),
		resultRec(""),
	)
	if g := s.ArtifactGroups(); len(g) != 0 {
		t.Errorf("groups = %q, want none: /workspace/app/ is /workspace/app", g)
	}
}

// A file edited among same-named files in other folders is an artifact,
// each path with its status.
func TestSameNamedSiblingsAreAnArtifact(t *testing.T) {
	s := scan(
		callRec("find_file", `{"name": "validators.py"}`),
		resultRec("/repo/django/core/validators.py\n/repo/django/contrib/auth/validators.py"),
		callRec("edit", `{"path": "/repo/django/contrib/auth/validators.py", "old_str": "a", "new_str": "b"}`),
		resultRec("ok"),
	)
	want := []Sibling{{Paths: []string{"/repo/django/contrib/auth/validators.py", "/repo/django/core/validators.py"}, Status: []string{"edited", "listed by a tool"}, Idx: 2}}
	if diff := cmp.Diff(want, s.Siblings()); diff != "" {
		t.Errorf("siblings (-want +got):\n%s", diff)
	}
	// Near misses: the same file written relative and absolute; two copies
	// both edited (both live).
	s = scan(callRec("edit", `{"path": "tests/missing_colon.py", "new_str": "x"}`), resultRec("ok"), callRec("shell", `{"cmd": "python /repo/tests/missing_colon.py"}`))
	if got := s.Siblings(); len(got) != 0 {
		t.Errorf("siblings = %+v, want none: one file, two spellings", got)
	}
	s = scan(callRec("edit", `{"path": "data/raw/sales.csv", "new_str": "x"}`), callRec("edit", `{"path": "data/clean/sales.csv", "new_str": "y"}`))
	if got := s.Siblings(); len(got) != 0 {
		t.Errorf("siblings = %+v, want none: both copies were edited", got)
	}
}

// A rule's phrase ends at a comma before a word that opens another clause
// ("…, not even in tests"), and keeps a list the comma joins ("TodoWrite,
// TaskCreate").
func TestPhraseEndsAtAClauseComma(t *testing.T) {
	for in, want := range map[string]string{
		"never disable signature verification, not even in tests": "never disable signature verification",
		"never use TodoWrite, TaskCreate or any tracker":          `never use TodoWrite\W+TaskCreate or any tracker`,
		"do not push to main, but open a pr":                      "do not push to main",
		"nunca borres la tabla, ni siquiera en staging":           "nunca borres la tabla",
	} {
		if got := phrase(strings.Fields(in), 8); got != want {
			t.Errorf("phrase(%q) = %q; want %q", in, got, want)
		}
	}
}
