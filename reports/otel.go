package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/compact-eval/compact-eval/internal/otlp"
	"github.com/compact-eval/compact-eval/result"
)

// OTelScope is the instrumentation scope the OTLP export names.
const OTelScope = "github.com/compact-eval/compact-eval/reports"

// WriteOTel writes r's verdicts as OpenTelemetry trace data in OTLP JSON
// (docs/formats.md, "OpenTelemetry export"): one trace for the run, its
// root span the run; a span per unit, child of the run, with the probes
// as events; a span per generation, child of its unit, with each check
// result as an event. A unit or generation with a failed or errored
// outcome has status ERROR. Ids are derived from the run id, so the same
// result writes the same trace. Units are laid one after another from the
// run's start, each as long as it took (a run's units overlap; a tracing
// tool shows their own durations this way); a unit's generations share
// its time evenly.
func WriteOTel(w io.Writer, r *result.Result) error {
	trace := otelID(r.RunID, 16)
	root := otelID(r.RunID+"/run", 8)
	start := r.Started
	if start.IsZero() {
		start = time.Unix(0, 0)
	}
	var spans []otlp.Span
	at := start
	failedUnits := 0
	for ui, u := range r.Units {
		unitID := otelID(fmt.Sprintf("%s/unit/%d", r.RunID, ui), 8)
		dur := u.Duration
		if dur <= 0 {
			dur = time.Millisecond
		}
		us := otlp.Span{TraceID: trace, SpanID: unitID, ParentSpanID: root, Kind: otlp.KindInternal,
			Name:              fmt.Sprintf("unit %s · %s · trial %d", u.Scenario.ID, u.Summarizer, u.Trial+1),
			StartTimeUnixNano: nanos(at), EndTimeUnixNano: nanos(at.Add(dur)),
			Attributes: []otlp.KeyValue{
				otlp.KV("compact_eval.scenario", otlp.Str(u.Scenario.ID)),
				otlp.KV("compact_eval.summarizer", otlp.Str(u.Summarizer)),
				otlp.KV("compact_eval.trial", otlp.IntVal(int64(u.Trial+1))),
				otlp.KV("compact_eval.unit.status", otlp.Str(u.Status)),
			}}
		if u.Skipped != "" {
			us.Attributes = append(us.Attributes, otlp.KV("compact_eval.unit.skipped", otlp.Str(u.Skipped)))
		}
		counts := map[result.Status]int64{}
		bad := u.Status != "" && u.Status != "ok"
		step := dur / time.Duration(max(len(u.Generations), 1))
		for gi, g := range u.Generations {
			gs := otlp.Span{TraceID: trace, SpanID: otelID(fmt.Sprintf("%s/unit/%d/g/%d", r.RunID, ui, gi), 8), ParentSpanID: unitID,
				Kind: otlp.KindInternal, Name: fmt.Sprintf("compaction g%d (cut %d)", g.N, g.Cut),
				StartTimeUnixNano: nanos(at.Add(time.Duration(gi) * step)), EndTimeUnixNano: nanos(at.Add(time.Duration(gi+1) * step)),
				Attributes: []otlp.KeyValue{
					otlp.KV("compact_eval.generation", otlp.IntVal(int64(g.N))),
					otlp.KV("compact_eval.cut", otlp.IntVal(int64(g.Cut))),
					otlp.KV("compact_eval.trigger", otlp.Str(g.Trigger)),
					otlp.KV("compact_eval.installed", otlp.Bool(g.Installed)),
					otlp.KV("compact_eval.summary_tokens", otlp.IntVal(int64(g.SummaryTokens))),
					otlp.KV("compact_eval.replaced_tokens", otlp.IntVal(int64(g.ReplacedTokens))),
				}}
			if g.ReplacedTokens > 0 {
				gs.Attributes = append(gs.Attributes, otlp.KV("compact_eval.compression", otlp.Float(float64(g.SummaryTokens)/float64(g.ReplacedTokens))))
			}
			if g.Recorded != nil {
				gs.Attributes = append(gs.Attributes, otlp.KV("compact_eval.recorded", otlp.Str(g.Recorded.String())))
			}
			gbad := g.Error != ""
			if g.Error != "" {
				gs.Attributes = append(gs.Attributes, otlp.KV("compact_eval.error", otlp.Str(g.Error)))
			}
			for _, c := range g.Checks {
				counts[c.Status]++
				if c.Status == result.Fail || c.Status == result.Error {
					gbad = true
				}
				attrs := []otlp.KeyValue{
					otlp.KV("compact_eval.check", otlp.Str(c.Check)),
					otlp.KV("compact_eval.check.kind", otlp.Str(c.Kind)),
					otlp.KV("compact_eval.check.status", otlp.Str(string(c.Status))),
					otlp.KV("compact_eval.check.message", otlp.Str(c.Message)),
				}
				if c.Invariant != "" {
					attrs = append(attrs, otlp.KV("compact_eval.invariant", otlp.Str(c.Invariant)))
				}
				if len(c.Evidence) > 0 {
					// the first evidence, as the CSV gives it: its place in
					// the summary and the text there
					e := c.Evidence[0]
					attrs = append(attrs, otlp.KV("compact_eval.check.pointer", otlp.Str(e.Pointer)), otlp.KV("compact_eval.check.evidence", otlp.Str(e.Text)))
				}
				gs.Events = append(gs.Events, otlp.Event{TimeUnixNano: gs.EndTimeUnixNano, Name: "compact_eval.check", Attributes: attrs})
			}
			gs.Status = spanStatus(gbad, "a check failed or errored")
			bad = bad || gbad
			spans = append(spans, gs)
		}
		var regressions int64
		for _, p := range u.Probes {
			if p.Class == result.CompactionRegression {
				regressions++
				bad = true
			}
			us.Events = append(us.Events, otlp.Event{TimeUnixNano: us.EndTimeUnixNano, Name: "compact_eval.probe", Attributes: []otlp.KeyValue{
				otlp.KV("compact_eval.probe", otlp.Str(p.ID)),
				otlp.KV("compact_eval.probe.class", otlp.Str(p.Class)),
				otlp.KV("compact_eval.probe.full", otlp.Str(firstNonEmpty(p.Full.Choice, p.Full.Answer))),
				otlp.KV("compact_eval.probe.compacted", otlp.Str(firstNonEmpty(p.Compacted.Choice, p.Compacted.Answer))),
			}})
		}
		for _, st := range []result.Status{result.Pass, result.Fail, result.Uncertain, result.Error, result.Skip} {
			us.Attributes = append(us.Attributes, otlp.KV("compact_eval.checks."+string(st), otlp.IntVal(counts[st])))
		}
		us.Attributes = append(us.Attributes, otlp.KV("compact_eval.regressions", otlp.IntVal(regressions)))
		if u.Error != "" {
			us.Attributes = append(us.Attributes, otlp.KV("compact_eval.error", otlp.Str(u.Error)))
		}
		us.Status = spanStatus(bad, "a check failed, a probe regressed or the unit errored")
		if bad {
			failedUnits++
		}
		spans = append(spans, us)
		at = at.Add(dur)
	}
	end := at
	if r.Finished.After(end) {
		end = r.Finished
	}
	rootSpan := otlp.Span{TraceID: trace, SpanID: root, Kind: otlp.KindInternal, Name: "compact-eval run " + r.RunID,
		StartTimeUnixNano: nanos(start), EndTimeUnixNano: nanos(end),
		Attributes: []otlp.KeyValue{
			otlp.KV("compact_eval.run_id", otlp.Str(r.RunID)),
			otlp.KV("compact_eval.harness", otlp.Str(r.Harness)),
			otlp.KV("compact_eval.units", otlp.IntVal(int64(len(r.Units)))),
			otlp.KV("compact_eval.units.failed", otlp.IntVal(int64(failedUnits))),
		},
		Status: spanStatus(failedUnits > 0 || r.Interrupted, strconv.Itoa(failedUnits)+" units failed"),
	}
	if r.Git != nil {
		rootSpan.Attributes = append(rootSpan.Attributes, otlp.KV("vcs.ref.head.revision", otlp.Str(r.Git.Commit)))
	}
	td := otlp.TracesData{ResourceSpans: []otlp.ResourceSpans{{
		Resource: otlp.Resource{Attributes: []otlp.KeyValue{otlp.KV("service.name", otlp.Str("compact-eval"))}},
		ScopeSpans: []otlp.ScopeSpans{{Scope: otlp.Scope{Name: OTelScope, Version: r.Harness},
			Spans: append([]otlp.Span{rootSpan}, spans...)}},
	}}}
	enc := json.NewEncoder(w)
	return enc.Encode(td)
}

// otelID is n bytes of the digest of key, in hex: ids that the same
// result always gets.
func otelID(key string, n int) string {
	s := sha256.Sum256([]byte(key))
	return hex.EncodeToString(s[:n])
}

func nanos(t time.Time) otlp.Nanos { return otlp.Nanos(t.UnixNano()) }

func spanStatus(bad bool, why string) *otlp.Status {
	if bad {
		return &otlp.Status{Code: otlp.StatusError, Message: why}
	}
	return &otlp.Status{Code: otlp.StatusOK}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
