package agents

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

// Unsure is the choice of a vote (Sampling.Samples > 1) that ends in a
// tie: no option has a majority. It is never an option key the agent
// chose, so a tie never counts as the expected choice.
const Unsure = "unsure"

// DefaultSeed is the seed of the option orders when none is given: reruns
// show the same orders (and hit the response cache).
const DefaultSeed = 1

// MaxSamples bounds Sampling.Samples.
const MaxSamples = 99

// Sampling is how a model agent asks a choice probe, against position bias
// and sampling noise: each sample shows the options in an order drawn from
// Seed, the scenario, the probe, the trial and the sample (never the arm:
// both arms of a trial see the same orders), labelled A, B, C… so that no
// key hints at its position or meaning; the label chosen is mapped back to
// the option's key before anything is compared. With Samples > 1 the probe
// is asked that many times and the majority wins (a tie is Unsure).
type Sampling struct {
	Seed    uint64
	Samples int
	// Keep shows the options in file order, keyed as written (no shuffle).
	Keep bool
}

// SampleRecord is what a decision records of its sampling: the seed, the
// option keys in the order each sample showed them, and the votes.
type SampleRecord struct {
	Seed   uint64         `json:"seed"`
	Orders [][]string     `json:"orders,omitempty"`
	Votes  map[string]int `json:"votes,omitempty"`
}

// Order returns the option keys of probe in the order sample shows them
// for a trial of scenario (a permutation drawn from seed; file order when
// keep).
func (s Sampling) Order(scenario, probe string, trial, sample int, opts scenarios.Options) []string {
	keys := make([]string, len(opts))
	for i, o := range opts {
		keys[i] = o.Key
	}
	if s.Keep {
		return keys
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%d", scenario, probe, trial, sample)
	r := rand.New(rand.NewPCG(s.Seed, h.Sum64()))
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys
}

// Label is the label of the i-th option shown: A…Z, then A1…Z1, ….
func Label(i int) string {
	l := string(rune('A' + i%26))
	if i >= 26 {
		l += strconv.Itoa(i / 26)
	}
	return l
}

// sampleTrial keys the response cache of one sample: sample 0 keeps the
// trial's key, so that a run with one sample is cached as before.
func sampleTrial(trial, sample int) int { return trial + sample*1_000_000 }

// sampled asks req's choice probe s.Samples times through once, each time
// with the options in the sample's order and relabelled, maps every label
// back to its key and takes the majority.
func (s Sampling) sampled(ctx context.Context, req *Request, once func(context.Context, *Request) (*Decision, error)) (*Decision, error) {
	n := min(max(s.Samples, 1), MaxSamples)
	rec := &SampleRecord{Seed: s.Seed}
	votes := map[string]int{}
	reasons := map[string]string{}
	var total result.Call
	var recalls []result.RecallCall
	for k := range n {
		order := s.Order(req.ScenarioID, req.Probe.ID, req.Trial, k, req.Probe.Options)
		rec.Orders = append(rec.Orders, order)
		shown := make(scenarios.Options, len(order))
		back := map[string]string{}
		for i, key := range order {
			j := slices.IndexFunc(req.Probe.Options, func(o scenarios.Option) bool { return o.Key == key })
			label := key
			if !s.Keep {
				label = Label(i)
			}
			shown[i] = scenarios.Option{Key: label, Description: req.Probe.Options[j].Description}
			back[label] = key
		}
		r := *req
		r.Probe.Options = shown
		r.Trial = sampleTrial(req.Trial, k)
		d, err := once(ctx, &r)
		if d != nil {
			addCall(&total, d.Call, k == 0)
			recalls = append(recalls, d.RecallCalls...)
		}
		if err != nil {
			out := &Decision{Call: total, Sampling: rec, RecallCalls: recalls}
			if n > 1 {
				err = fmt.Errorf("sample %d of %d: %w", k+1, n, err)
			}
			return out, err
		}
		key := back[d.Choice]
		votes[key]++
		if _, ok := reasons[key]; !ok {
			reasons[key] = d.Reason
		}
	}
	out := &Decision{Call: total, Sampling: rec, RecallCalls: recalls}
	best, tie := "", false
	for _, o := range req.Probe.Options { // file order: deterministic
		switch c := votes[o.Key]; {
		case c == 0:
		case best == "" || c > votes[best]:
			best, tie = o.Key, false
		case c == votes[best]:
			tie = true
		}
	}
	if n > 1 {
		rec.Votes = votes
	}
	if tie {
		out.Choice, out.Reason = Unsure, fmt.Sprintf("tie: no option has a majority of the %d samples", n)
		return out, nil
	}
	out.Choice, out.Reason = best, reasons[best]
	return out, nil
}

// addCall adds c to the provenance of a sampled decision: the first
// sample's spec, model and parameters; latency, usage and retries summed;
// a cache hit only when every sample was one.
func addCall(total *result.Call, c result.Call, first bool) {
	if first {
		*total = c
		return
	}
	total.Latency += c.Latency
	total.Usage.PromptTokens += c.Usage.PromptTokens
	total.Usage.CompletionTokens += c.Usage.CompletionTokens
	total.Retries += c.Retries
	total.CacheHit = total.CacheHit && c.CacheHit
	for k, v := range c.Extra {
		if total.Extra == nil {
			total.Extra = map[string]string{}
		}
		if _, ok := total.Extra[k]; !ok {
			total.Extra[k] = v
		}
	}
}
