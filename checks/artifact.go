package checks

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/scenarios"
)

// ArtifactCheck checks an `artifact` invariant: a group of confusable names
// (config/db.yaml, config/db.yml, ./config/db.yaml) where the summary must
// keep the right one and say which one is live.
//
// Rule. The required paths are the live ones; every other path of the
// group is a twin that is not the one to act on. A path is "named" by an
// event that holds it as a whole token (case-sensitive), or that lists it:
// a tool result holding its base name whose call names its directory (the
// entry db.yml.example of `ls -la config/` names config/db.yml.example). A
// required path is "due" once an event the summary covers names it. On a
// structured summary: (1) every due required path equals some
// artifacts[].path exactly, and is not marked stale, superseded or deleted;
// (2) a twin listed in artifacts is not marked current, and when one is
// listed, each listed required path says current (listing both with no
// status leaves the agent to guess), and no clause of another field
// presents a twin as live (a current cue: loads, picks up, the real one)
// or retires a live path (a stale or supersession cue); (3) no path of the group that the
// covered history never names appears anywhere in the summary; (4) for each
// digest given for a due or listed path, the artifacts entry with that
// path carries exactly that digest, and no entry with another path carries
// it, unless a covered event shows that path with that digest (a copy
// verified by its hash carries its original's digest). On a text-only
// summary (internal/meaning reads the clauses): (1) every due required
// path is named, never in a clause that marks it stale, superseded or
// negated; (2) a twin named in text is in a clause that marks it not live
// (stale, ignored, replaced, not used, …), or the live path is named in a
// clause that marks it live (loads, in use, current, vigente, …), and no
// twin is marked live; (3) as above, on text; (4) each due path's digest
// appears in text. Skip while no required path is named by the covered
// history; error when a required path is named by no event at all (a
// scenario error).
type ArtifactCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Artifact
}

// Check implements Check.
func (c ArtifactCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeArtifact)
	}
	inv := c.Inv
	base := result.CheckResult{Check: inv.Type(), Kind: result.KindInvariant, Invariant: inv.ID, Pos: inv.Pos}
	if in.Scenario == nil {
		base.Status, base.Message = result.Error, msgNoScenario
		return []result.CheckResult{base}
	}
	sd := dataFor(in.Scenario)
	first := 0
	for _, p := range inv.Required {
		s := sd.firstPathSeq(p)
		if s == 0 {
			base.Status = result.Error
			base.Message = fmt.Sprintf("scenario error: required path %q is named by no event", p)
			return []result.CheckResult{base}
		}
		if first == 0 || s < first {
			first = s
		}
	}
	st, r, ok := invariant(in, inv, first)
	if !ok {
		return []result.CheckResult{r}
	}
	bound := st.bound()
	textOnly := st.sum.TextOnly()
	var due []string
	for _, p := range inv.Required {
		if sd.firstPathSeq(p) <= bound {
			due = append(due, p)
		}
	}
	if len(due) == 0 {
		r.Status, r.Message = result.Skip, fmt.Sprintf("no required path is named by events 1..%d yet", bound)
		return []result.CheckResult{r}
	}
	var twins []string
	for _, p := range inv.Paths {
		if !contains(inv.Required, p) {
			twins = append(twins, p)
		}
	}
	a := &artifactRun{st: st, inv: inv, due: due, twins: twins, bound: bound}
	if textOnly {
		a.text()
	} else {
		a.structured()
	}
	a.neverNamed(textOnly)
	a.digests(textOnly)
	a.globs()
	a.commands()
	by := result.DecidedTyped
	if textOnly {
		by = result.DecidedStatement
	}
	if len(a.msgs) > 0 {
		msg := a.msgs[0]
		if len(a.msgs) > 1 {
			msg += fmt.Sprintf(" (%s)", plural(len(a.msgs), "problem"))
		}
		return []result.CheckResult{decide(r, result.Fail, by, msg, a.evidence...)}
	}
	if a.unsure != nil {
		return []result.CheckResult{decide(r, result.Uncertain, result.DecidedJudge, a.unsure.Note, *a.unsure)}
	}
	return []result.CheckResult{decide(r, result.Pass, by, fmt.Sprintf("named exactly: %s", strings.Join(due, ", ")), a.found...)}
}

// artifactRun is one run of the artifact check.
type artifactRun struct {
	st         *state
	inv        *scenarios.Artifact
	due, twins []string
	bound      int
	msgs       []string
	evidence   []result.Evidence
	found      []result.Evidence
	// unsure is the first clause the reader cannot read plainly.
	unsure *result.Evidence
}

func (a *artifactRun) fail(e result.Evidence, msg string) {
	a.evidence = append(a.evidence, e)
	a.msgs = append(a.msgs, msg)
}

func (a *artifactRun) listed(p string) int {
	for i, x := range a.st.sum.Artifacts {
		if x.Path == p {
			return i
		}
	}
	return -1
}

// structured applies rules (1) and (2) to artifacts[].
func (a *artifactRun) structured() {
	st := a.st
	for _, p := range a.due {
		seq := st.sd.firstPathSeq(p)
		i := a.listed(p)
		if i < 0 {
			msg := fmt.Sprintf("required path %s is not in artifacts", p)
			if near := nearPaths(st, p); near != "" {
				msg += "; artifacts has " + near
			}
			a.fail(result.Evidence{Pointer: "/artifacts", Seq: seq, Text: p, Note: "not listed"}, msg)
			continue
		}
		if s := st.sum.Artifacts[i].Status; s != "" && s != summary.ArtifactCurrent {
			a.fail(result.Evidence{Pointer: ptrf("artifacts", i, "status"), Seq: seq, Text: p, Note: "the live path marked " + s},
				fmt.Sprintf("%s marks the live path %s as %s", ptrf("artifacts", i, "status"), p, s))
			continue
		}
		a.found = append(a.found, result.Evidence{Pointer: ptrf("artifacts", i, "path"), Seq: seq, Text: p})
	}
	twinListed := ""
	for _, p := range a.twins {
		i := a.listed(p)
		if s := st.sd.firstPathSeq(p); i < 0 || s == 0 || s > a.bound {
			continue // a name the history never used is rule (3)'s business
		}
		twinListed = p
		if st.sum.Artifacts[i].Status == summary.ArtifactCurrent {
			a.fail(result.Evidence{Pointer: ptrf("artifacts", i, "status"), Text: p, Note: "a twin marked current"},
				fmt.Sprintf("%s marks %s as current; the live one is %s", ptrf("artifacts", i, "status"), p, strings.Join(a.inv.Required, ", ")))
		}
	}
	a.otherFields()
	if twinListed == "" {
		return
	}
	for _, p := range a.due {
		if i := a.listed(p); i >= 0 && st.sum.Artifacts[i].Status == "" {
			a.fail(result.Evidence{Pointer: ptrf("artifacts", i, "status"), Text: p, Note: "no status beside its twin " + twinListed},
				fmt.Sprintf("artifacts lists both %s and its twin %s with nothing saying which is live: mark %s current", p, twinListed, p))
		}
	}
}

// artifactSubject is the group's subject for the reader: the due paths
// as the live names, the twins as the lookalikes.
func (a *artifactRun) subject() *meaning.Subject {
	return a.st.subjectOf(artifactKey{a.inv, a.bound}, func() *meaning.Subject {
		s := &meaning.Subject{Kind: meaning.Artifact}
		base := baseNames(a.due, a.twins)
		for _, p := range a.due {
			s.Names = append(s.Names, strings.ToLower(p))
			s.Names = append(s.Names, base[p]...)
		}
		for _, p := range a.twins {
			s.Others = append(s.Others, strings.ToLower(p))
			s.Others = append(s.Others, base[p]...)
		}
		return s
	})
}

// baseNames returns, for each path of the group (the due paths and their
// twins) in a folder, its file name lower-cased, when no other path of the
// group shares it: a step may name "values-prod.yaml" for
// charts/svc/values-prod.yaml, and is about that file; a file name two
// paths share (config/db.yaml, deploy/config/db.yaml) tells neither apart.
func baseNames(groups ...[]string) map[string][]string {
	count := map[string]int{}
	for _, g := range groups {
		for _, p := range g {
			count[strings.ToLower(path.Base(p))]++
		}
	}
	out := map[string][]string{}
	for _, g := range groups {
		for _, p := range g {
			if b := strings.ToLower(path.Base(p)); b != strings.ToLower(p) && count[b] == 1 {
				out[p] = []string{b}
			}
		}
	}
	return out
}

// artifactKey keys an artifact's subject by its due paths' bound.
type artifactKey struct {
	inv   *scenarios.Artifact
	bound int
}

func (artifactKey) InvariantID() string  { return "" }
func (artifactKey) Type() string         { return "" }
func (artifactKey) Position() result.Pos { return result.Pos{} }

// otherFields reads the fields of a structured summary outside artifacts
// for what artifacts[] says by status (internal/meaning): a clause that
// presents a twin as the live one ("the loader reads config/db.yaml",
// "deploy config/db.yaml") or retires a live path ("config/db.yml is a
// leftover") fails; one that names a twin with no word of which one is
// live (inside a command line, beside the live one) is uncertain.
func (a *artifactRun) otherFields() {
	segs := segments(a.st.leaves, func(l leaf) bool { return strings.HasPrefix(l.ptr, "/artifacts/") || isSupersedes(l.ptr) })
	a.readings(a.st.readAcross(a.subject(), nil, segs), a.liveListedCurrent())
}

// liveListedCurrent reports whether artifacts[] marks every due path
// current: the typed record says which file is live.
func (a *artifactRun) liveListedCurrent() bool {
	for _, p := range a.due {
		if i := a.listed(p); i < 0 || a.st.sum.Artifacts[i].Status != summary.ArtifactCurrent {
			return false
		}
	}
	return true
}

// readings records what the clauses about the group say: the first
// contradiction fails the check, the first unclear clause makes it
// uncertain.
func (a *artifactRun) readings(fs []found, liveSaid bool) {
	// a lookalike named with no word either way is the summary's to
	// explain only when nothing says which file is live
	for _, f := range fs {
		liveSaid = liveSaid || f.r.Live
	}
	var kept []found
	for _, f := range fs {
		if f.r.Lookalike && liveSaid {
			continue
		}
		if f.r.Lookalike && a.st.sum.TextOnly() {
			a.fail(result.Evidence{Pointer: f.l.ptr, Text: clip.String(f.r.Text, clipLen), Note: "named with nothing saying it is not the live one"},
				fmt.Sprintf("text names %s and a lookalike (%s) with nothing saying which is live", strings.Join(a.due, ", "), clipQ(f.r.Text)))
			return
		}
		kept = append(kept, f)
	}
	fs = kept
	f, ok := strongest(fs)
	switch {
	case !ok || f.r.Verdict < meaning.Unclear:
	case f.r.Verdict == meaning.Contradicts:
		a.fail(result.Evidence{Pointer: f.l.ptr, Text: clip.String(f.r.Text, clipLen), Note: f.r.Why},
			fmt.Sprintf("%s contradicts which file is live (%s): %s; the live one is %s", f.l.ptr, f.r.Why, clipQ(f.r.Text), strings.Join(a.inv.Required, ", ")))
	case a.unsure == nil:
		a.unsure = &result.Evidence{Pointer: f.l.ptr, Text: clip.String(f.r.Text, clipLen),
			Note: fmt.Sprintf("%s touches the live file (%s) in words the reader cannot read plainly: %s (%s)", f.l.ptr, strings.Join(a.inv.Required, ", "), clipQ(f.r.Text), f.r.Why)}
	}
}

// text applies rules (1) and (2) to a text-only summary: every due path
// is named, and the clauses about the group are read.
func (a *artifactRun) text() {
	st := a.st
	for _, path := range a.due {
		seq := st.sd.firstPathSeq(path)
		if findToken(st.text(), path) < 0 {
			a.fail(result.Evidence{Pointer: "/text", Seq: seq, Text: path, Note: "not named"}, fmt.Sprintf("required path %s is not named in text", path))
			continue
		}
		a.found = append(a.found, result.Evidence{Pointer: "/text", Seq: seq, Text: path})
	}
	a.readings(st.readAcross(a.subject(), nil, [][]leaf{st.textLeaves()}), false)
}

// globRe finds a glob in a text: a path-like token with a wildcard.
var globRe = regexp.MustCompile(`[\w.~/-]*[*?][\w.~/*?-]*`)

// globs makes the check uncertain when a glob of the summary selects a
// lookalike ("config/db.y*ml", "values-prod.*", "/var/log/billing/*.log"):
// a glob is no name, it stands for every file it matches, and which one
// it means is not said. A glob the session itself wrote (a command it ran,
// copied by the summary) chooses nothing.
func (a *artifactRun) globs() {
	a.firstUnclear("*?", globRe, func(ptr, g string) string {
		if !strings.ContainsAny(g, "./") || a.sessionWrote(g) {
			return "" // the session's own command ("ls values-*.yaml"), copied
		}
		if why := a.globAmbiguous(g); why != "" {
			return fmt.Sprintf("%s names %s, a glob that %s; the live one is %s", ptr, g, why, strings.Join(a.inv.Required, ", "))
		}
		return ""
	})
}

// firstUnclear makes the check uncertain at the first match of re in a
// leaf holding one of the bytes of any for which note says why (a note
// of "" passes it), unless a reading already did.
func (a *artifactRun) firstUnclear(any string, re *regexp.Regexp, note func(ptr, match string) string) {
	if a.unsure != nil {
		return
	}
	for _, l := range a.st.leaves {
		if !strings.ContainsAny(l.text, any) {
			continue
		}
		for _, m := range re.FindAllString(l.text, -1) {
			if n := note(l.ptr, m); n != "" {
				a.unsure = &result.Evidence{Pointer: l.ptr, Text: m, Note: n}
				return
			}
		}
	}
}

// sessionWrote reports whether an event up to the bound holds s as
// written.
func (a *artifactRun) sessionWrote(s string) bool {
	for i, ev := range a.st.sd.sc.Events {
		if ev.Seq <= a.bound && strings.Contains(a.st.sd.raw[i], s) {
			return true
		}
	}
	return false
}

// globAmbiguous says what makes glob g stand for no one file of the
// group: it selects a lookalike, or several of the group's files (which
// one is then said by position or not at all), or it selects files beside
// a live one (its fixed part leads to it) but not the live one; "" when
// it selects one live file.
func (a *artifactRun) globAmbiguous(g string) string {
	for _, twin := range a.twins {
		if globMatches(g, twin) {
			return "selects the lookalike " + twin
		}
	}
	n := 0
	for _, p := range a.inv.Paths {
		if globMatches(g, p) {
			n++
		}
	}
	if n > 1 {
		return fmt.Sprintf("selects %d files of the group at once", n)
	}
	if other, seq := a.sessionPathMatching(g); other != "" {
		return fmt.Sprintf("also selects %s (#%d)", other, seq)
	}
	if n == 0 {
		fixed := g[:strings.IndexAny(g, "*?")]
		for _, p := range a.due {
			if fixed != "" && strings.Contains(fixed, "/") && strings.HasPrefix(p, fixed) {
				return "selects files beside " + p + " but not it"
			}
		}
	}
	return ""
}

// codeSpanRe finds a command or code the summary quotes: `…`.
var codeSpanRe = regexp.MustCompile("`[^`\n]+`")

// commands makes the check uncertain when a command the summary quotes
// acts on a file the session names beside a due path, of its folder and
// its name's stem (billing-worker.log beside billing-worker.log.1), and
// not on the due path: the scenario may not list it as a lookalike, but
// which of the two the command means is the question the invariant asks.
func (a *artifactRun) commands() {
	a.firstUnclear("`", codeSpanRe, func(ptr, span string) string {
		if other, live := a.besideDue(span); other != "" {
			return fmt.Sprintf("%s quotes a command on %s, a file beside the live %s, and not on it", ptr, other, live)
		}
		return ""
	})
}

// besideDue returns a path of span that the session names up to the bound,
// is no due path and sits beside one that span does not name, with it.
func (a *artifactRun) besideDue(span string) (string, string) {
	for _, p := range sessionPathRe.FindAllString(span, -1) {
		if contains(a.due, p) || contains(a.twins, p) {
			continue
		}
		for _, d := range a.due {
			if path.Dir(p) == path.Dir(d) && sameStem(path.Base(p), path.Base(d)) && findToken(span, d) < 0 {
				if s := a.st.sd.firstPathSeq(p); s > 0 && s <= a.bound {
					return p, d
				}
			}
		}
	}
	return "", ""
}

// sameStem reports whether two file names share what comes before their
// first dot (billing-worker.log and billing-worker.log.1).
func sameStem(a, b string) bool {
	stem := func(s string) string {
		if i := strings.Index(s, "."); i > 0 {
			return s[:i]
		}
		return s
	}
	return a != b && stem(a) == stem(b)
}

// sessionPathRe finds a path in an event: a token with a slash.
var sessionPathRe = regexp.MustCompile(`[\w.~-]*/[\w.~/-]*[\w~-]`)

// sessionPathMatching returns a file an event up to the bound names that
// glob g matches and that is no due path, with the event's seq: a path
// the event names, or its file name in a due path's folder, where a copy
// of it lands (the first copy of a dump, whose transfer never finished,
// beside the complete second one).
func (a *artifactRun) sessionPathMatching(g string) (string, int) {
	for i, ev := range a.st.sd.sc.Events {
		if ev.Seq > a.bound {
			break
		}
		for _, p := range sessionPathRe.FindAllString(a.st.sd.raw[i], -1) {
			cands := []string{p}
			for _, d := range a.due {
				cands = append(cands, path.Join(path.Dir(d), path.Base(p)))
			}
			for _, c := range cands {
				if !contains(a.due, c) && globMatches(g, c) {
					return c, ev.Seq
				}
			}
		}
	}
	return "", 0
}

// globMatches reports whether glob g matches path p, whole or, for a
// relative glob, a trailing part of it (values-prod.* matches
// charts/app/values-prod.yaml).
func globMatches(g, p string) bool {
	if ok, _ := path.Match(g, p); ok {
		return true
	}
	if strings.HasPrefix(g, "/") {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			if ok, _ := path.Match(g, p[i+1:]); ok {
				return true
			}
		}
	}
	return false
}

// neverNamed applies rule (3).
func (a *artifactRun) neverNamed(textOnly bool) {
	st := a.st
	for _, p := range a.inv.Paths {
		if s := st.sd.firstPathSeq(p); s != 0 && s <= a.bound {
			continue
		}
		for _, l := range st.leaves {
			if textOnly && l.ptr != "/text" {
				continue
			}
			if findToken(l.text, p) >= 0 {
				a.fail(result.Evidence{Pointer: l.ptr, Text: p, Note: "never named by the covered history"},
					fmt.Sprintf("%s names %s, which the covered history never names", l.ptr, p))
				break
			}
		}
	}
}

// digests applies rule (4).
func (a *artifactRun) digests(textOnly bool) {
	st := a.st
	var holders map[string][]string
	if textOnly && len(a.inv.Digests) > 0 {
		holders = a.textDigestHolders()
	}
	for _, p := range sortedKeys(a.inv.Digests) {
		d := a.inv.Digests[p]
		isDue := contains(a.due, p)
		if textOnly {
			if isDue && !strings.Contains(st.text(), d) {
				a.fail(result.Evidence{Pointer: "/text", Text: p, Note: "digest missing"}, fmt.Sprintf("the digest of %s is missing from text", p))
			}
			for _, q := range holders[d] {
				// a copy may carry the same digest, where the session shows it
				if q != p && !st.sd.showsDigest(q, d, a.bound) {
					a.fail(result.Evidence{Pointer: "/text", Text: q, Note: "given the digest of " + p},
						fmt.Sprintf("text gives %s the digest of %s (%s)", q, p, clip.String(d, 24)))
					break
				}
			}
			continue
		}
		i := a.listed(p)
		if i >= 0 && st.sum.Artifacts[i].Digest != d && (isDue || st.sum.Artifacts[i].Digest != "") {
			got := st.sum.Artifacts[i].Digest
			note := fmt.Sprintf("digest %q; want %q", got, d)
			if got == "" {
				note = "digest missing"
			}
			a.fail(result.Evidence{Pointer: ptrf("artifacts", i, "digest"), Text: p, Note: note}, fmt.Sprintf("%s: %s", ptrf("artifacts", i, "digest"), note))
		}
		for j, x := range st.sum.Artifacts {
			if x.Path == p || x.Digest != d || st.sd.showsDigest(x.Path, d, a.bound) {
				continue
			}
			a.fail(result.Evidence{Pointer: ptrf("artifacts", j, "digest"), Text: x.Path, Note: "carries the digest of " + p},
				fmt.Sprintf("%s carries the digest of %s on %s", ptrf("artifacts", j, "digest"), p, x.Path))
		}
	}
}

// tokenOffsets returns the offsets of every whole-token occurrence of
// needle in hay.
// textDigestHolders returns, for each digest of the group, the paths a
// text-only summary gives it to: the path right before it in its
// sentence, when the sentence alternates paths and digests ("a has
// sha256:1; b has sha256:2"). Two paths in a row before a digest ("a and
// b have sha256:1 and sha256:2 respectively") pair nothing.
func (a *artifactRun) textDigestHolders() map[string][]string {
	text := a.st.text()
	type mark struct {
		at         int
		path, hash string // one of them is set
	}
	var marks []mark
	for _, p := range a.inv.Paths {
		for _, o := range tokenOffsets(text, p) {
			marks = append(marks, mark{at: o, path: p})
		}
	}
	for _, x := range a.inv.Digests {
		for _, o := range tokenOffsets(text, x) {
			marks = append(marks, mark{at: o, hash: x})
		}
	}
	slices.SortFunc(marks, func(x, y mark) int { return x.at - y.at })
	out := map[string][]string{}
	for k, m := range marks {
		if m.hash == "" || k == 0 {
			continue
		}
		prev := marks[k-1]
		if prev.path == "" || sentenceBreak.MatchString(text[prev.at+len(prev.path):m.at]) {
			continue
		}
		if k >= 2 && marks[k-2].path != "" && !sentenceBreak.MatchString(text[marks[k-2].at:prev.at]) {
			continue // two paths in a row: "respectively"
		}
		out[m.hash] = append(out[m.hash], prev.path)
	}
	return out
}

// sentenceBreak ends a sentence inside a text.
var sentenceBreak = regexp.MustCompile(`[.!?](\s|$)|\n`)

func tokenOffsets(hay, needle string) []int {
	var out []int
	for off := 0; off < len(hay); {
		i := findToken(hay[off:], needle)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + len(needle)
	}
	return out
}

// nearPaths lists the summary's artifact paths that share p's base name, to
// show a near miss (db.yml for db.yaml).
func nearPaths(st *state, p string) string {
	base := p[strings.LastIndex(p, "/")+1:]
	if i := strings.Index(base, "."); i > 0 {
		base = base[:i]
	}
	var out []string
	for _, a := range st.sum.Artifacts {
		if strings.Contains(a.Path, base) {
			out = append(out, a.Path)
		}
	}
	return strings.Join(out, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
