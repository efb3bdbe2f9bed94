package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// MaxAnnotations bounds the ::error annotations WriteGitHub emits; GitHub
// shows at most 10 error annotations per step and 50 per job.
const MaxAnnotations = 50

// WriteGitHub writes the GitHub Actions outputs of r: the Markdown report
// appended to stepSummaryPath ($GITHUB_STEP_SUMMARY; skipped when empty),
// and one `::error file=…,line=…,title=…::message` workflow command per
// failing invariant (scenario file, invariant line) on annotations,
// deduplicated per file, line and summarizer, at most MaxAnnotations, then a
// `::notice::` saying how many were left out. Call it when
// GITHUB_ACTIONS=true.
func WriteGitHub(r *Result, opts Options, stepSummaryPath string, annotations io.Writer) error {
	if stepSummaryPath != "" {
		var b bytes.Buffer
		if err := WriteMarkdown(&b, r, opts); err != nil {
			return err
		}
		f, err := os.OpenFile(stepSummaryPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("writing step summary: %w", err)
		}
		_, werr := f.Write(append(b.Bytes(), '\n'))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fmt.Errorf("writing step summary: %w", werr)
		}
	}
	if annotations == nil {
		return nil
	}
	seen := map[string]bool{}
	n, left := 0, 0
	for _, f := range Findings(r) {
		if f.Severity != SevInvariant || f.File == "" {
			continue
		}
		key := fmt.Sprintf("%s:%d:%s:%s", f.File, f.Line, f.Summarizer, f.Label())
		if seen[key] {
			continue
		}
		seen[key] = true
		if n == MaxAnnotations {
			left++
			continue
		}
		n++
		props := "file=" + escapeProperty(f.File)
		if f.Line > 0 {
			props += fmt.Sprintf(",line=%d", f.Line)
		}
		props += ",title=" + escapeProperty(fmt.Sprintf("%s lost by %s (g%d)", f.Label(), f.Summarizer, f.Generation))
		msg := f.Message + f.Where()
		if _, err := fmt.Fprintf(annotations, "::error %s::%s\n", props, escapeData(fmt.Sprintf("%s · %s: %s", f.Scenario, f.Summarizer, msg))); err != nil {
			return err
		}
	}
	if left > 0 {
		_, err := fmt.Fprintf(annotations, "::notice::%s\n", escapeData(fmt.Sprintf("%d more failing invariants are not annotated; see the step summary", left)))
		return err
	}
	return nil
}

// escapeData escapes a workflow command's message: % CR LF.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value: % CR LF : ,.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
