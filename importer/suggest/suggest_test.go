package suggest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

func userRec(text string) Event {
	return Event{Kind: Text, Role: scenarios.RoleUser, Text: text}
}

func assistantRec(text string) Event {
	return Event{Kind: Text, Role: scenarios.RoleAssistant, Text: text}
}

func callRec(name, args string) Event {
	return Event{Kind: Call, Role: scenarios.RoleAssistant, CallName: name, Args: []byte(args)}
}

func resultRec(text string) Event {
	return Event{Kind: Result, Role: scenarios.RoleTool, Text: text}
}

// scan feeds events to a new scanner, numbering them from 0.
func scan(events ...Event) *Scanner {
	s := New()
	for i, e := range events {
		s.Add(i, e)
	}
	return s
}

func constraintPatterns(s *Scanner) []string {
	var got []string
	for _, c := range s.constraints {
		got = append(got, c.Pattern)
	}
	return got
}

func TestConstraintSuggestions(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // patterns
	}{
		{"read-only", "This investigation is READ-ONLY. Please be careful.", []string{`read[- ]?only`}},
		{"do not", "Do not restart the database.", []string{`do not restart the database`}},
		{"never", "Never deploy on Fridays!", []string{`never deploy on fridays`}},
		{"must, positive polarity", "Logging MUST remain disabled in production.", []string{`logging must remain disabled`}},
		{"always, with a code span", "Always include `status: open` in the incident template.", []string{`always include\W+status\W+open`}},
		{"only before a verb", "Only use the read API; the write endpoints are off limits.", []string{`only use the read api`, `write endpoints are off limits`}},
		{"spanish no before a verb", "No cambies nada en producción.", []string{`no cambies nada en produccion`}},
		{"spanish after a colon", "Es una investigación de solo lectura: no reinicies ningún servicio.", []string{`solo lectura`, `no reinicies ningun servicio`}},
		{"spanish siempre", "Siempre responde en español.", []string{`siempre responde en espanol`}},
		{"spanish nunca", "Nunca borres los backups.", []string{`nunca borres los backups`}},
		{"two sentences", "Only use staging. Don't touch vendor/.", []string{`only use staging`, `don't touch vendor/`}},
		{"trailing words dropped", "Never add a migration this week.", []string{`never add a migration`}},
		// Near misses: descriptions, answers, outputs, questions.
		{"near miss: only describing", "rate/1 only has an atom clause.", nil},
		{"near miss: only the", "Only the auth tests fail.", nil},
		{"near miss: bare no", "No.", nil},
		{"near miss: no as an answer", "No, that is fine.", nil},
		{"near miss: spanish description", "El disco no está lleno.", nil},
		{"near miss: tool output pasted", "cat: config/prod.yml: No such file or directory", nil},
		{"near miss: a question", "Should we never deploy on Fridays?", nil},
		{"near miss: read and only apart", "Read the docs only if needed.", nil},
		{"near miss: a must with a quantity is a quantity", "Requests must time out after 30 s.", nil},
		{"no keyword", "Please look at the logs and report back.", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := constraintPatterns(scan(userRec(tc.text)))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("patterns (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConstraintsDeduped: a rule repeated later is suggested once, at its
// first statement; a different rule in the repetition is still found.
func TestConstraintsDeduped(t *testing.T) {
	s := scan(
		userRec("Do not touch priv/static/assets; it's generated."),
		userRec("Do not touch priv/static/assets; it's generated. Never push to main."),
		Event{Kind: Text, Role: scenarios.RoleSystem, Text: "do not   touch priv/static/assets"},
	)
	want := []string{`do not touch priv/static/assets`, `never push to main`}
	if diff := cmp.Diff(want, constraintPatterns(s)); diff != "" {
		t.Errorf("patterns (-want +got):\n%s", diff)
	}
	if s.constraints[0].Idx != 0 {
		t.Errorf("the rule cites event %d, want its first statement 0", s.constraints[0].Idx)
	}
}

func TestStripANSI(t *testing.T) {
	tests := map[string]string{
		"\x1b[32m.\x1b[0m ok":            ". ok",
		`\e[22m2 tests\e[0m`:             "2 tests",
		`\u001b[1;31mred\u001b[0m`:       "red",
		`\033[0mdone`:                    "done",
		"\x1b]0;title\x07text":           "text",
		`C:\path\edit and \x1b not ansi`: `C:\path\edit and \x1b not ansi`,
		"plain":                          "plain",
	}
	for in, want := range tests {
		if got := stripANSI(in); got != want {
			t.Errorf("stripANSI(%q) = %q, want %q", in, got, want)
		}
	}
	// An escape code never reaches a pattern.
	got := constraintPatterns(scan(userRec("\x1b[1mNever\x1b[22m deploy on Fridays.")))
	if diff := cmp.Diff([]string{`never deploy on fridays`}, got); diff != "" {
		t.Errorf("patterns (-want +got):\n%s", diff)
	}
}

func TestCorrectionSuggestions(t *testing.T) {
	const task = "Fix the export."
	tests := []struct {
		name     string
		events   []Event
		old, new string
		none     bool
	}{
		{name: "not X but Y", events: []Event{userRec(task), userRec("The port is not 5432 but 6432.")}, old: "5432", new: "6432"},
		{name: "actually X, not Y", events: []Event{userRec(task), userRec("Actually, use 6432, not 5432.")}, old: "5432", new: "6432"},
		{name: "quantities with units", events: []Event{userRec(task), userRec("Correction: the timeout is 45 s, not 30 s.")}, old: "30 s", new: "45 s"},
		{name: "a version before a colon", events: []Event{userRec(task), userRec("Actually, the release is 3.2.1, not 3.2.0: 3.2.0 was a mistake.")}, old: "3.2.0", new: "3.2.1"},
		{name: "wait … instead", events: []Event{userRec(task), userRec("Wait, extract the full conversation instead, every message.")},
			old: "TODO(author): the value or plan it replaces", new: "extract the full conversation"},
		{name: "instead alone", events: []Event{userRec(task), userRec("Use the staging bucket instead.")},
			old: "TODO(author): the value or plan it replaces", new: "Use the staging bucket"},
		{name: "Y instead of X", events: []Event{userRec(task), userRec("Use gzip instead of zstd.")}, old: "zstd", new: "Use gzip"},
		{name: "actually alone", events: []Event{userRec(task), userRec("Actually the bucket is logs-eu.")},
			old: "TODO(author): the value or plan it replaces", new: "the bucket is logs-eu"},
		{name: "spanish sino", events: []Event{userRec(task), userRec("El puerto no es 5432 sino 6432.")}, old: "5432", new: "6432"},
		{name: "spanish en realidad keeps a file name whole", events: []Event{userRec(task), userRec("En realidad, el fichero es app.yaml, no app.yml")}, old: "app.yml", new: "app.yaml"},
		{name: "after an interrupt, any redirection", events: []Event{userRec(task), userRec("[Request interrupted by user for tool use]"), userRec("Use the EU region.")},
			old: "TODO(author): the value or plan it replaces", new: "Use the EU region"},
		{name: "a dash after the marker is no part of the value", events: []Event{userRec(task), userRec("hold on – compress with brotli")},
			old: "TODO(author): the value or plan it replaces", new: "compress with brotli"},
		{name: "a flag after the marker keeps its dash", events: []Event{userRec(task), userRec("Actually --dry-run first.")},
			old: "TODO(author): the value or plan it replaces", new: "--dry-run first"},
		{name: "instead closing a question after other sentences", events: []Event{userRec(task), userRec("Sorry, I gave you the other ticket number. Could you reopen the one about the billing export instead?")},
			old: "TODO(author): the value or plan it replaces", new: "Could you reopen the one about the billing export"},
		{name: "spanish en su lugar closing a question", events: []Event{userRec(task), userRec("Perdona, te di el pedido que no era. ¿Puedes revisar el pedido de Valencia en su lugar?")},
			old: "TODO(author): the value or plan it replaces", new: "Puedes revisar el pedido de Valencia"},
		// Near misses.
		{name: "near miss: instead inside a clause, not closing a question", events: []Event{userRec(task), userRec("That's fine. Let's just drop the export instead, and I'll redo it myself later.")}, none: true},
		{name: "near miss: a question that closes with no marker", events: []Event{userRec(task), userRec("Thanks. Could you reopen the one about the billing export?")}, none: true},
		{name: "near miss: the opening message", events: []Event{userRec("Actually, the bucket is logs-eu.")}, none: true},
		{name: "near miss: wait for an aside", events: []Event{userRec(task), userRec("wait, the console.log also prints process.env, ignore that.")}, none: true},
		{name: "near miss: plain follow-up", events: []Event{userRec(task), userRec("Please continue with the plan.")}, none: true},
		{name: "near miss: an interrupt marker alone", events: []Event{userRec(task), userRec("[Request interrupted by user]")}, none: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scan(tc.events...)
			if tc.none {
				if len(s.corrections) != 0 {
					t.Fatalf("got %+v, want none", s.corrections)
				}
				return
			}
			if len(s.corrections) != 1 {
				t.Fatalf("got %d corrections (%+v), want 1", len(s.corrections), s.corrections)
			}
			c := s.corrections[0]
			if diff := cmp.Diff([]string{tc.old, tc.new}, []string{c.Old, c.New}); diff != "" {
				t.Errorf("old/new (-want +got):\n%s", diff)
			}
			if c.Idx != len(tc.events)-1 {
				t.Errorf("idx = %d, want %d", c.Idx, len(tc.events)-1)
			}
		})
	}
}

// TestCorrectionWidensAFragment: "backup.env, not the .bak" names the
// touched file it means.
func TestCorrectionWidensAFragment(t *testing.T) {
	s := scan(
		userRec("Fix the backup."),
		callRec("shell", `{"cmd": "grep -n PGPASS /etc/backup/backup.env /etc/backup/backup.env.bak"}`),
		userRec("En realidad el fichero es /etc/backup/backup.env, no el .bak."),
	)
	if len(s.corrections) != 1 || s.corrections[0].Old != "/etc/backup/backup.env.bak" || s.corrections[0].New != "/etc/backup/backup.env" {
		t.Errorf("corrections %+v, want /etc/backup/backup.env.bak -> /etc/backup/backup.env", s.corrections)
	}
}

func TestRefutedHypothesisSuggestions(t *testing.T) {
	tests := []struct {
		name    string
		events  []Event
		pattern string // "" when none
		claim   int
	}{
		{"a diagnosis denied", []Event{
			userRec("CI fails on Dialyzer."),
			assistantRec("It's a Dialyzer false positive: the spec is too narrow."),
			userRec("No, that's not a false positive: rate/1 only has an atom clause."),
		}, `false.{0,12}positive`, 1},
		{"a guess on a call, denied in Spanish", []Event{
			userRec("Revisa el backup."),
			{Kind: Call, Role: scenarios.RoleAssistant, Text: "Creo que el disco está lleno.", CallName: "shell", Args: []byte(`{"cmd":"df -h"}`)},
			resultRec("/dev/sda1 60G 20G"),
			userRec("No, el disco no está lleno, tiene 40 GB libres."),
		}, `disco.{0,12}lleno`, 1},
		{"the latest matching claim", []Event{
			userRec("Why is the page slow?"),
			assistantRec("Probably the cache is stale."),
			assistantRec("I think the cache is cold after the deploy."),
			userRec("The cache isn't cold, it was warmed at 9."),
		}, `cache.{0,12}cold`, 2},
		{"near miss: a denial about something else", []Event{
			userRec("Why is the page slow?"),
			assistantRec("I think the cache is stale."),
			userRec("No, the slow part is the image resizer."),
		}, "", 0},
		{"near miss: no hedge, no claim", []Event{
			userRec("Run the tests."),
			assistantRec("Running the tests in tests/unit now."),
			userRec("No, not the unit tests."),
		}, "", 0},
		{"near miss: one short shared word", []Event{
			userRec("Check it."),
			assistantRec("I think the disk is bad."),
			userRec("It's not the disk, check it again."),
		}, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scan(tc.events...)
			if tc.pattern == "" {
				if len(s.refuted) != 0 {
					t.Fatalf("got %+v, want none", s.refuted)
				}
				return
			}
			if len(s.refuted) != 1 {
				t.Fatalf("got %d refuted hypotheses (%+v), want 1", len(s.refuted), s.refuted)
			}
			h := s.refuted[0]
			if h.Pattern != tc.pattern || h.ClaimIdx != tc.claim || h.ByIdx != len(tc.events)-1 {
				t.Errorf("got %q claim %d by %d, want %q claim %d by %d", h.Pattern, h.ClaimIdx, h.ByIdx, tc.pattern, tc.claim, len(tc.events)-1)
			}
			if len(s.corrections) != 0 {
				t.Errorf("the refutation was also suggested as a correction: %+v", s.corrections)
			}
		})
	}
}

func TestSecretSuggestions(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"openai key", "key=sk-proj-FAKEfake0123456789abcdef done", []string{"sk-proj-FAKEfake0123456789abcdef"}},
		{"anthropic key", "export ANTHROPIC_API_KEY sk-ant-api03-FAKE_fake-0123456789", []string{"sk-ant-api03-FAKE_fake-0123456789"}},
		{"github token", "token ghp_FAKE0123456789abcdefghijABCD.", []string{"ghp_FAKE0123456789abcdefghijABCD"}},
		{"stripe live key", "STRIPE=sk_live_51FAKEq8Lm2Xv9Rt4Kp7Wn3", []string{"sk_live_51FAKEq8Lm2Xv9Rt4Kp7Wn3"}},
		{"aws key id", "AKIAFAKE0123456789AB is the id", []string{"AKIAFAKE0123456789AB"}},
		{"slack token", "xoxb-0123456789-FAKEfakeFAKE", []string{"xoxb-0123456789-FAKEfakeFAKE"}},
		{"high entropy", "secret: Zq8Lm2Xv9Rt4Kp7Wn3Jb6Hd1Fs5Gc0Y", []string{"Zq8Lm2Xv9Rt4Kp7Wn3Jb6Hd1Fs5Gc0Y"}},
		// Keys in groups, as read out or pasted from a dashboard: the
		// writing of the log is kept, the secret check reads it joined.
		{"groups of four between spaces", "the key is Qx7m Pz4K vR9w Lt2N Bc8Y Hd1F, keep it safe", []string{"Qx7m Pz4K vR9w Lt2N Bc8Y Hd1F"}},
		{"groups between tabs", "key\tQx7mP\tz4KvR\t9wLt2\tNBc8Y\tHd1Fs\t5Gc\tend", []string{"Qx7mP\tz4KvR\t9wLt2\tNBc8Y\tHd1Fs\t5Gc"}},
		{"groups between no-break spaces", "key: Qx7m\u00a0Pz4K\u00a0vR9w\u00a0Lt2N\u00a0Bc8Y\u00a0Hd1F.", []string{"Qx7m\u00a0Pz4K\u00a0vR9w\u00a0Lt2N\u00a0Bc8Y\u00a0Hd1F"}},
		{"a shorter last group", "use Zq8Lm2 Xv9Rt4 Kp7Wn3 Jb6Hd1 Fs5 then", []string{"Zq8Lm2 Xv9Rt4 Kp7Wn3 Jb6Hd1 Fs5"}},
		{"one word among the groups", "with aB3d Zq8L mnop Xv9R Kp7W Jb6H done", []string{"aB3d Zq8L mnop Xv9R Kp7W Jb6H"}},
		// Near misses: ids, digests, words.
		{"hex groups are a digest", "sum 0a1b 2c3d 4e5f 6a7b 8c9d 0e1f 2a3b", nil},
		{"digit groups are a number", "card 4111 1111 1111 1111 2222 3333", nil},
		{"words of one length are prose", "Move 8080 into Prod with Dev2 next week", nil},
		{"three groups are too few", "pin Qx7m Pz4K vR9w", nil},
		{"two words among the groups", "aB3d Zq8L mnop Xv9R Kp7W late Jb6H Fs5G", nil},
		{"groups of other lengths", "Qx7m Pz4Kq vR9w Lt2N Bc8Yz Hd1F", nil},
		{"two kinds of separators", "Qx7m Pz4K\tvR9w Lt2N\tBc8Y Hd1F", nil},
		{"groups inside paths", "/srv/Qx7m Pz4K/vR9w Lt2N/Bc8Y Hd1F", nil},
		{"message id", `{"id": "msg_01HQ7ZK3V9P2W8X5RT4BNM6CJD"}`, nil},
		{"request id", "request_id req_7Gm2Xk9Lq4Vz8Tp3Wn6Bc5Hd", nil},
		{"call id", "call_Vx9KpQ2mLr7TnB4sWd8Zy3Hf answered", nil},
		{"tool use id", "toolu_01ABcdEFgh23IJklMNop45QR", nil},
		{"chat completion id", "chatcmpl-9x2Kq7LmVb4Rt8Wn3Jc6Hd1Fs5", nil},
		{"hex digest is not a secret", "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", nil},
		{"uuid is not a secret", "id 123e4567-e89b-12d3-a456-426614174000", nil},
		{"mixed-case hex is not a secret", "blob DeadBeef0123456789abcdefABCDEF00 stored", nil},
		{"low entropy is not a secret", "pattern Zz9Zz9Zz9Zz9Zz9Zz9Zz9Zz9 repeats", nil},
		{"path is not a secret", "/home/dev/Projects2024/SomeLongDirectoryName/file.go", nil},
		{"short sk- is not a key", "sk-learn is a library", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scan(resultRec(tc.text))
			if diff := cmp.Diff(tc.want, s.secrets); diff != "" {
				t.Errorf("secrets (-want +got):\n%s", diff)
			}
		})
	}
}

func TestArtifactGroups(t *testing.T) {
	tests := []struct {
		name     string
		events   []Event
		want     [][]string
		required []string
	}{
		{"touched by calls, the edited one required", []Event{
			callRec("shell", `{"cmd": "cat config/db.yml config/db.yaml"}`),
			callRec("apply_patch", `{"input": "*** Begin Patch\n*** Update File: config/db.yaml\n"}`),
		}, [][]string{{"config/db.yml", "config/db.yaml"}}, []string{"config/db.yaml"}},
		{"edited first, read last: still the edited one", []Event{
			callRec("Edit", `{"file_path": "src/handler.go", "old_string": "a", "new_string": "b"}`),
			callRec("Read", `{"file_path": "src/handlers.go"}`),
		}, [][]string{{"src/handler.go", "src/handlers.go"}}, []string{"src/handler.go"}},
		{"a backup copy the user named", []Event{
			userRec("Check /etc/backup/backup.env."),
			callRec("shell", `{"cmd": "grep -n X /etc/backup/backup.env /etc/backup/backup.env.bak"}`),
		}, [][]string{{"/etc/backup/backup.env", "/etc/backup/backup.env.bak"}}, []string{"/etc/backup/backup.env"}},
		{"sed -i writes", []Event{
			callRec("bash", `{"command": "cat config/prod.yaml config/prod.yml"}`),
			callRec("bash", `{"command": "sed -i 's/a/b/' config/prod.yaml"}`),
		}, [][]string{{"config/prod.yaml", "config/prod.yml"}}, []string{"config/prod.yaml"}},
		{"whole tokens: root.html.heex is not root.html", []Event{
			callRec("Read", `{"file_path": "lib/layouts/root.html.heex"}`),
			callRec("Edit", `{"file_path": "lib/layouts/root.html.eex", "old_string": "a"}`),
		}, [][]string{{"lib/layouts/root.html.heex", "lib/layouts/root.html.eex"}}, []string{"lib/layouts/root.html.eex"}},
		// Near misses.
		{"near miss: one listing in a tool output", []Event{
			callRec("Bash", `{"command": "ls lib/layouts"}`),
			resultRec("app.html.heex\napp.html.eex\nroot.html.heex\nroot.html.eex\nadmin.html.heex\nadmin.html.eex"),
		}, nil, nil},
		{"near miss: twins read, none edited or named", []Event{
			callRec("shell", `{"cmd": "grep -c slow /var/log/nginx/access.log /var/log/nginx/access.log.1"}`),
		}, nil, nil},
		{"near miss: a diff's a/ and b/ prefixes", []Event{
			callRec("shell", `{"cmd": "git diff a/src/main.go b/src/main.go > /tmp/x.patch"}`),
		}, nil, nil},
		{"near miss: member accesses are not files", []Event{
			callRec("node", `{"code": "console.log(process.env.NODE_ENV); console.log(x)", "path": "src/console.go"}`),
			callRec("Edit", `{"file_path": "src/console.go", "old_string": "a"}`),
		}, nil, nil},
		{"near miss: far apart", []Event{
			callRec("Edit", `{"file_path": "src/main.go", "old_string": "a"}`),
			callRec("Read", `{"file_path": "docs/README.md"}`),
		}, nil, nil},
		{"near miss: urls are not paths", []Event{
			callRec("fetch", `{"a": "https://example.com/a.json", "b": "https://example.com/b.json", "content": "x"}`),
		}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scan(tc.events...)
			groups := s.ArtifactGroups()
			if diff := cmp.Diff(tc.want, groups); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			var req []string
			for _, g := range groups {
				r, _, _ := s.Required(g)
				req = append(req, r)
			}
			if diff := cmp.Diff(tc.required, req); diff != "" {
				t.Errorf("required (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsPath(t *testing.T) {
	for tok, want := range map[string]bool{
		"root.html.heex": true, "lib/a/root.html.heex": true, "app.log.1": true, "/var/log/app": true,
		"config.prod.yaml": true, "go.mod": true, "console.log": false, "process.env": false,
		"process.env.NODE_ENV": false, "v1.2.3": false, "foo.bar": false, "https://x.io/a.json": false,
	} {
		if got := isPath(tok); got != want {
			t.Errorf("isPath(%q) = %v, want %v", tok, got, want)
		}
	}
}

func TestQuantitySuggestions(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Quantity
	}{
		{"ms", "Keep p99 under 200 ms.", []Quantity{{Value: 200, Unit: "ms", Raw: "200 ms", Subject: "p99"}}},
		{"percent and thousands", "Compact at 80% or 50,000 tokens.", []Quantity{{Value: 80, Unit: "%", Raw: "80%", Subject: "compact"}, {Value: 50000, Unit: "tokens", Raw: "50,000 tokens", Subject: "compact"}}},
		{"spanish decimal", "El límite es 1,5 GB.", []Quantity{{Value: 1.5, Unit: "gb", Raw: "1,5 GB", Subject: "limite"}}},
		// Figures carry their subject: two words before, else one after.
		{"subject of two words", "Keep the error budget under 0.5%.", []Quantity{{Value: 0.5, Unit: "%", Raw: "0.5%", Subject: `error\W+budget`}}},
		{"subject after the figure", "We need 98% coverage on the parser.", []Quantity{{Value: 98, Unit: "%", Raw: "98%", Subject: "coverage"}}},
		{"subject in its own clause only", "Logs are big, 5 MB per file.", []Quantity{{Value: 5, Unit: "mb", Raw: "5 MB", Subject: "file"}}},
		// A share of nothing is not suggested; a unit that says what it
		// measures is, without a subject.
		{"near miss: a bare percentage", "Done: 95%.", nil},
		{"near miss: a share of nothing", "I'm 98% sure.", nil},
		{"rate", "Do not go above 1,200 req/s.", []Quantity{{Value: 1200, Unit: "req/s", Raw: "1,200 req/s"}}},
		// Near misses: shell syntax.
		{"near miss: a sed range", "Run sed -i '1,10s/foo/bar/' on it.", nil},
		{"near miss: a sed range unquoted", "then 1,10s/x/y/ fixes it", nil},
		{"near miss: a code span", "Then run `sleep 30s && retry`.", nil},
		{"near miss: a fenced block", "Run:\n```\ntimeout 5s make test\n```\nthanks", nil},
		{"near miss: a command line", "$ timeout 600s ./deploy.sh", nil},
		{"no unit", "There are 3 files.", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scan(userRec(tc.text))
			if diff := cmp.Diff(tc.want, s.quantities, cmp.AllowUnexported(Quantity{})); diff != "" {
				t.Errorf("quantities (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCorrectedQuantityNotSuggested: a value the user later corrected is
// not one a summary must keep; the new value is.
func TestCorrectedQuantityNotSuggested(t *testing.T) {
	s := scan(userRec("Requests time out after 30 s."), userRec("Correction: the timeout is 45 s, not 30 s."))
	var got []string
	for _, q := range s.Quantities() {
		got = append(got, q.Raw)
	}
	if diff := cmp.Diff([]string{"45 s"}, got); diff != "" {
		t.Errorf("quantities (-want +got):\n%s", diff)
	}
}

func TestRepairPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{`never use todowrite taskcreate`, []string{`never\W+use\W+todowrite\W+taskcreate`, `never.{0,60}use.{0,60}todowrite.{0,60}taskcreate`}},
		{`never wait more than 30 seconds`, []string{`never\W+wait\W+more\W+than\W+30\W+seconds`, `never\W+wait\W+more\W+than`, `never.{0,60}wait.{0,60}more.{0,60}than.{0,60}30.{0,60}seconds`}},
		{`cache.{0,12}cold`, []string{`cache\W+cold`, `cache.{0,60}cold`}},
		{`read[- ]?only`, nil},
	} {
		got := RepairPatterns(tc.pattern)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("RepairPatterns(%q) (-want +got):\n%s", tc.pattern, diff)
		}
	}
}
