package checks

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/summary"
)

// OpaqueReason is the message of every check that needs the summary's text
// when the summary is an opaque provider compaction.
const OpaqueReason = "opaque provider compaction"

// opaqueKeeps are the checks that still apply to an opaque provider
// compaction (docs/providers.md): they read the document's shape and the
// runtime's tail, not its text. Compression is judged on the provider's
// reported size; every other check skips.
var opaqueKeeps = map[string]bool{result.CheckSchema: true, result.CheckCoverage: true, result.CheckTail: true}

// OpaqueCompaction is the opaque provider compaction of a generation's
// summary raw, made by the call call, or nil. Only a summary the provider
// summarizer itself made counts: a document from any other summarizer that
// claims to be an opaque provider item (to have its text checks skipped) is
// checked like any other, and fails them.
func OpaqueCompaction(call result.Call, raw []byte) *summary.ProviderCompaction {
	pc := summary.ProviderCompactionOf(raw)
	if pc == nil || !pc.Opaque || pc.Provider != summary.ProviderResponses {
		return nil
	}
	if kind, _, _ := strings.Cut(call.Spec, ":"); kind != pc.Provider {
		return nil
	}
	return pc
}

// OpaqueResults turns the results res of an opaque summary's checks into
// what they can honestly say: the shape checks as they ran, compression by
// the provider's reported tokens, the secret check as it ran, and a skip
// with OpaqueReason for every other check that needs text. The secret check
// reads every decoded string of the document: the encrypted item cannot be
// searched, but the items the provider keeps readable (the user messages of
// /responses/compact's output) can, and a secret there is a leak like any
// other.
func OpaqueResults(in *Input, pc *summary.ProviderCompaction, res []result.CheckResult) []result.CheckResult {
	out := make([]result.CheckResult, 0, len(res))
	for _, r := range res {
		switch {
		case r.Kind == result.KindStructural && opaqueKeeps[r.Check]:
		case r.Kind == result.KindInvariant && r.Check == result.TypeSecret:
		case r.Kind == result.KindStructural && r.Check == result.CheckCompression:
			r = opaqueCompression(in, pc, r)
		default:
			r.Status, r.Message, r.Metrics, r.Evidence = result.Skip, OpaqueReason, nil, nil
		}
		out = append(out, r)
	}
	return out
}

// opaqueCompression is the compression check on the provider's reported
// size of the compacted context (ProviderCompaction.Tokens) instead of the
// document's JSON, which for an opaque item is mostly ciphertext.
func opaqueCompression(in *Input, pc *summary.ProviderCompaction, r result.CheckResult) result.CheckResult {
	replaced := in.Gen.ReplacedTokens
	if replaced <= 0 || pc.Tokens <= 0 {
		r.Status, r.Message, r.Metrics = result.Skip, OpaqueReason+": the provider reported no size to compare", nil
		return r
	}
	maxRatio := in.Scenario.Compaction.EffectiveMaxRatio()
	ratio := float64(pc.Tokens) / float64(replaced)
	r.Metrics = map[string]float64{"summary_tokens": float64(pc.Tokens), "replaced_tokens": float64(replaced), "ratio": ratio, "max_ratio": maxRatio}
	r.Message = fmt.Sprintf("provider-reported %d tokens / replaced %d tokens = %.2f (max %.2f)", pc.Tokens, replaced, ratio, maxRatio)
	r.Status = result.Pass
	if float64(pc.Tokens) > maxRatio*float64(replaced) {
		r.Status = result.Fail
	}
	return r
}
