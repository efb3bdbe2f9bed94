package checks

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// ArtifactCheck checks an `artifact` invariant: a group of confusable names
// (config/db.yaml, config/db.yml, ./config/db.yaml) where the summary must
// keep the right one.
//
// Rule. A required path is "due" once an event the summary covers names it
// (as a whole token, case-sensitive). On a structured summary: (1) every
// due required path equals some artifacts[].path exactly; (2) no path of the
// group that the covered history never names appears anywhere in the
// summary (artifacts or any text field, as a whole token); (3) for each
// digest given for a due or listed path, the artifacts entry with that path
// carries exactly that digest, and no entry with another path carries it.
// On a text-only summary: (1) and (2) read text, and (3) only asks that each
// due path's digest appears in text. Skip while no required path is named
// by the covered history; error when a required path is named by no event
// at all (a scenario error).
type ArtifactCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Artifact
}

// Check implements Check.
func (c ArtifactCheck) Check(in *Input) []Result {
	if c.Inv == nil {
		return nilInvariant(scenarios.TypeArtifact)
	}
	inv := c.Inv
	base := Result{Check: inv.Type(), Kind: KindInvariant, Invariant: inv.ID, Pos: inv.Pos}
	if in.Scenario == nil {
		base.Status, base.Message = Error, msgNoScenario
		return []Result{base}
	}
	sd := dataFor(in.Scenario)
	first := 0
	for _, p := range inv.Required {
		s := sd.firstPathSeq(p)
		if s == 0 {
			base.Status = Error
			base.Message = fmt.Sprintf("scenario error: required path %q is named by no event", p)
			return []Result{base}
		}
		if first == 0 || s < first {
			first = s
		}
	}
	st, r, ok := invariant(in, inv, first)
	if !ok {
		return []Result{r}
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
		r.Status, r.Message = Skip, fmt.Sprintf("no required path is named by events 1..%d yet", bound)
		return []Result{r}
	}
	var msgs []string
	fail := func(e Evidence, msg string) {
		r.Evidence = append(r.Evidence, e)
		msgs = append(msgs, msg)
	}
	listed := func(p string) int {
		for i, a := range st.sum.Artifacts {
			if a.Path == p {
				return i
			}
		}
		return -1
	}
	var found []Evidence
	// (1) every due path named exactly.
	for _, p := range due {
		seq := sd.firstPathSeq(p)
		if textOnly {
			if findToken(st.text(), p) >= 0 {
				found = append(found, Evidence{Pointer: "/text", Seq: seq, Text: p})
				continue
			}
			fail(Evidence{Pointer: "/text", Seq: seq, Text: p, Note: "not named"}, fmt.Sprintf("required path %s is not named in text", p))
			continue
		}
		if i := listed(p); i >= 0 {
			found = append(found, Evidence{Pointer: ptrf("artifacts", i, "path"), Seq: seq, Text: p})
			continue
		}
		msg := fmt.Sprintf("required path %s is not in artifacts", p)
		if near := nearPaths(st, p); near != "" {
			msg += "; artifacts has " + near
		}
		fail(Evidence{Pointer: "/artifacts", Seq: seq, Text: p, Note: "not listed"}, msg)
	}
	// (2) no confusable the covered history never used.
	for _, p := range inv.Paths {
		if s := sd.firstPathSeq(p); s != 0 && s <= bound {
			continue
		}
		for _, l := range st.leaves {
			if textOnly && l.ptr != "/text" {
				continue
			}
			if findToken(l.text, p) >= 0 {
				fail(Evidence{Pointer: l.ptr, Text: p, Note: "never named by the covered history"},
					fmt.Sprintf("%s names %s, which the covered history never names", l.ptr, p))
				break
			}
		}
	}
	// (3) digests stay with their paths.
	for _, p := range sortedKeys(inv.Digests) {
		d := inv.Digests[p]
		isDue := contains(due, p)
		if textOnly {
			if isDue && !strings.Contains(st.text(), d) {
				fail(Evidence{Pointer: "/text", Text: p, Note: "digest missing"}, fmt.Sprintf("the digest of %s is missing from text", p))
			}
			continue
		}
		i := listed(p)
		if i >= 0 && st.sum.Artifacts[i].Digest != d && (isDue || st.sum.Artifacts[i].Digest != "") {
			got := st.sum.Artifacts[i].Digest
			note := fmt.Sprintf("digest %q; want %q", got, d)
			if got == "" {
				note = "digest missing"
			}
			fail(Evidence{Pointer: ptrf("artifacts", i, "digest"), Text: p, Note: note}, fmt.Sprintf("%s: %s", ptrf("artifacts", i, "digest"), note))
		}
		for j, a := range st.sum.Artifacts {
			if a.Path != p && a.Digest == d {
				fail(Evidence{Pointer: ptrf("artifacts", j, "digest"), Text: a.Path, Note: "carries the digest of " + p},
					fmt.Sprintf("%s carries the digest of %s on %s", ptrf("artifacts", j, "digest"), p, a.Path))
			}
		}
	}
	if len(msgs) > 0 {
		r.Status, r.Message = Fail, msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []Result{r}
	}
	r.Status = Pass
	r.Message = fmt.Sprintf("named exactly: %s", strings.Join(due, ", "))
	r.Evidence = found
	return []Result{r}
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
