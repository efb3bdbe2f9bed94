package runner

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// Files in a run folder.
const (
	JournalFile = "journal.jsonl"
	RunFile     = "run.json"
	ResultFile  = "result.json"
)

// ErrInterrupted is returned (wrapped) by Run when it stopped before every
// unit finished: the context was canceled or the StopAfter failpoint fired.
// The result file is still written, marked interrupted, with the command
// that resumes the run.
var ErrInterrupted = errors.New("run interrupted")

// Summarizer is a summarizer under test and the name it has in reports.
type Summarizer struct {
	// Name is the summarizer's name in reports: its spec as written.
	Name string
	// Summarizer is the implementation. Must be safe for concurrent use.
	Summarizer summarizers.Summarizer
}

// Shard selects the units of one CI job: those whose scenario id hashes
// (FNV-1a, 32 bits) to Index-1 modulo Count. The zero value selects every
// unit.
type Shard struct {
	Index int // 1-based
	Count int
}

// ParseShard parses "i/n" with 1 ≤ i ≤ n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 1 ≤ i ≤ n, e.g. 1/4", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// String is "i/n", or "" for the zero Shard (every unit).
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Has reports whether the shard holds the scenario with the given id.
func (s Shard) Has(id string) bool {
	return result.InShard(id, s.Index, s.Count)
}

// Options configure Run. Summarizers, Agent and Out are required; every
// other zero value has the default noted.
type Options struct {
	// Summarizers are run in this order; it is also their order in results.
	Summarizers []Summarizer
	// Agent answers the probes; AgentName is its name in reports.
	Agent     agents.Agent
	AgentName string
	// Judge, when set, is asked about every invariant of every generation
	// (secrets excepted); its verdict is recorded beside the check
	// (result.CheckResult.Judge), never instead of it. JudgeName is its name in
	// reports. JudgeGate makes a contradicted verdict fail an invariant the
	// check passed.
	Judge     judges.Judge
	JudgeName string
	JudgeGate bool
	// JudgeScope is which invariants the judge is asked about:
	// result.JudgeScopeUncertain (also the meaning of "") asks only about
	// those whose check could not tell, and its verdict settles them;
	// result.JudgeScopeAll asks about every one (free-text probes are
	// judged either way).
	JudgeScope string
	// AgentSeed and AgentSamples are recorded in the result's config: how
	// the agent (an openai: agent, built with them) asks choice probes.
	AgentSeed    uint64
	AgentSamples int
	// Trials per scenario × summarizer; 0 means 1.
	Trials int
	// MaxUnits bounds the units a run plans (scenarios selected ×
	// summarizers × trials); 0 means DefaultMaxUnits. A run above it is
	// refused before anything is allocated for its units (ErrTooManyUnits).
	MaxUnits int
	// Jobs bounds the units running at once; 0 means runtime.NumCPU(). When
	// the agent is agents.Local and there is no Judge, a unit holds its job
	// slot only for its summarizer calls: its evaluation (checks, probes)
	// runs on one evaluator per CPU (GOMAXPROCS), at most Jobs units
	// waiting for one.
	Jobs int
	// Out is the run folder: journal, run header and result file.
	Out string
	// Resume continues the run already in Out: units its journal holds as
	// finished (ok or error) are not run again; abandoned ones are. When
	// false, Out must not hold a journal yet.
	Resume bool
	// Repair, with Resume, drops the journal lines that are not a unit (a
	// crash or a second writer tore them; without it Run refuses the
	// journal and names the line): their units run again.
	Repair bool
	// Shard selects a part of the units; the zero value selects all.
	Shard Shard
	// Run, when not nil, keeps the scenarios whose id it matches;
	// Scenarios, when not empty, those whose id it lists. Both are
	// recorded in the result's config (a baseline comparison leaves the
	// scenarios they did not select out).
	Run       *regexp.Regexp
	Scenarios []string
	// Tokenizer is the token encoding; "" means tokens.DefaultEncoding.
	Tokenizer string
	// Check judges a summary; nil means checks.Run.
	Check func(*checks.Input) []result.CheckResult
	// StopAfter, when > 0, schedules at most that many units and lets them
	// finish, then stops as if interrupted: exactly that many units finish,
	// whatever Jobs (the deterministic failpoint
	// COMPACT_EVAL_FAILPOINT=stop-after:N).
	StopAfter int
	// Abort, when canceled, stops in-flight units too (a second Ctrl-C):
	// they are journaled as abandoned. Nil means in-flight units always
	// finish.
	Abort context.Context
	// Paths are recorded in the result's config.
	Paths []string
	// Flags are the command-line flags the run was started with, recorded
	// in its configuration (result.RunConfig.Flags) for a later --resume.
	Flags []string
	// RunID is the run's id (NewRunID, for a folder made by NewOut); ""
	// draws a new one. A resumed run keeps the id it started with.
	RunID string
	// Git is recorded in the result: the checkout the run was started in.
	// Nil: none.
	Git *result.Git
	// ResumeCommand is the command that resumes this run, recorded in an
	// interrupted result. "" means a generic "compact-eval run --resume OUT".
	ResumeCommand string
	// Progress, if set, is called once before the first unit (nothing done
	// yet, the number to run) and after each unit with how far the run is
	// (the units finished so far in this process, the number to run, the
	// errors). It is called from one goroutine at a time.
	Progress func(Tally)
	// OnUnit, if set, is called with every unit of the result, in result
	// order, while the result file is written (it must not keep the
	// pointer or change the unit). A unit run by this call may come from
	// memory rather than from its journal line: its JSON is the line, but
	// numbers in Call.Params keep their Go types.
	OnUnit func(*result.Unit)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Recall, when set, asks every choice probe a third time, on the
	// recall arm: the compacted context plus the recall tool within these
	// limits (zero fields: agents.DefaultRecallLimits). The agent must be
	// an agents.RecallUser. Nil: two arms, as before.
	Recall *agents.RecallLimits
}

// Outcome is what Run did.
type Outcome struct {
	// ResultPath is the result file written.
	ResultPath string
	// Planned is the number of units of the run (after sharding); Ran the
	// units run by this call; Reused those taken from the journal.
	Planned, Ran, Reused int
	// Interrupted is set when some units did not finish; Resume is then
	// the command that finishes the run.
	Interrupted bool
	Resume      string
	// Header is the result without its units (config, aggregates,
	// summaries, warnings).
	Header *result.Result
}

type job struct {
	pos   int // position in the plan (result order)
	sc    int // index into the sorted scenario list
	sum   int
	trial int
	key   string
}

// unitKey identifies a unit across a run and its resumptions.
func unitKey(id, digest, summarizer string, trial int) string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d", id, digest, summarizer, trial)
}

// Run runs every unit of list × opts.Summarizers × trials (restricted to the
// shard) and writes opts.Out/result.json. When ctx is canceled, it stops
// scheduling, lets in-flight units finish (unless opts.Abort is canceled
// too), writes the result marked interrupted and returns an error wrapping
// ErrInterrupted along with the outcome. Other errors (the run folder cannot
// be written) stop the run.
func Run(ctx context.Context, list []*scenarios.Scenario, opts Options) (*Outcome, error) {
	return RunSuite(ctx, Slice(list), opts)
}

// RunSuite is Run for a Suite: each scenario is loaded when its first unit
// starts and dropped when its last unit is done. A scenario that fails to
// load gives units with status error.
//
// The stages: the plan (makePlan), the units the journal lacks (pending),
// the prepared-scenario cache (prepCache), the scheduler (schedule) feeding
// the workers (runWorkers, unitRunner: a unit's model calls hold a job slot,
// its evaluation does too unless it is local), the collector that group-commits to
// the journal (collect), and the outcome that writes the result file
// (outcome).
func RunSuite(ctx context.Context, suite Suite, opts Options) (*Outcome, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	counter, err := tokens.Get(opts.Tokenizer)
	if err != nil {
		return nil, err
	}
	check := opts.Check
	if check == nil {
		check = checks.Run
	}
	hard := opts.Abort
	if hard == nil {
		hard = context.WithoutCancel(ctx)
	}
	trials := max(opts.Trials, 1)
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}

	if err := opts.checkUnits(suite, trials); err != nil {
		return nil, err
	}
	pl := makePlan(suite, &opts, trials)
	header := newHeader(&opts, trials, counter.Name(), pl.suite(), now().UTC())
	j, err := openJournal(opts.Out, opts.Resume, opts.Repair, header)
	if err != nil {
		return nil, err
	}
	defer j.close()
	todo, reused := pl.pending(j.finished)

	ur := &unitRunner{sums: opts.Summarizers, agent: opts.Agent, judge: opts.Judge, judgeGate: opts.JudgeGate, judgeAll: opts.JudgeScope == result.JudgeScopeAll, recall: opts.recall(),
		check: check, hard: hard, now: now, cache: newPrepCache(suite, &pl, counter, todo)}
	stop := make(chan struct{})
	feed := schedule(ctx, todo, opts.StopAfter, stop)
	results := runWorkers(min(jobs, max(len(todo), 1)), runtime.GOMAXPROCS(0), jobs, feed, ur.start)
	ran, err := collect(results, j, stop, opts.Progress, len(todo))
	ur.cache.wait() // a scenario prepared ahead for units that never ran
	if err != nil {
		return nil, err
	}
	return outcome(&pl, j, header, &opts, now, ran, reused)
}

// recall returns the recall arm's limits with defaults filled, nil when the
// arm is not asked.
func (o *Options) recall() *agents.RecallLimits {
	if o.Recall == nil {
		return nil
	}
	l := o.Recall.WithDefaults()
	return &l
}

// selects reports whether the Run and Scenarios filters keep the scenario
// id.
func (o *Options) selects(id string) bool {
	if o.Run != nil && !o.Run.MatchString(id) {
		return false
	}
	return len(o.Scenarios) == 0 || slices.Contains(o.Scenarios, id)
}

// DefaultMaxUnits is Options.MaxUnits when zero: far above a useful run
// (the built-in suite with four summarizers and ten trials is about 1,000
// units), far below what exhausts memory.
const DefaultMaxUnits = 100_000

// ErrTooManyUnits: the run plans more units than Options.MaxUnits.
var ErrTooManyUnits = errors.New("too many units")

// checkUnits refuses a run that plans more than MaxUnits units, counting
// without building the plan.
func (o *Options) checkUnits(suite Suite, trials int) error {
	limit := o.MaxUnits
	if limit <= 0 {
		limit = DefaultMaxUnits
	}
	n := 0
	for _, r := range suite.Refs() {
		if o.Shard.Has(r.ID) && o.selects(r.ID) {
			n++
		}
	}
	// Each factor is bounded by the limit before multiplying: no overflow.
	if n == 0 || len(o.Summarizers) == 0 {
		return nil
	}
	if trials > limit || len(o.Summarizers) > limit || n*len(o.Summarizers) > limit || n*len(o.Summarizers)*trials > limit {
		return fmt.Errorf("%w: this run plans %d scenarios × %d summarizers × %d trials, above the limit of %d units; select fewer (--run, --shard) or raise it with --max-units",
			ErrTooManyUnits, n, len(o.Summarizers), trials, limit)
	}
	return nil
}

func (o *Options) validate() error {
	var errs []error
	if len(o.Summarizers) == 0 {
		errs = append(errs, errors.New("no summarizer"))
	}
	seen := map[string]bool{}
	for i, s := range o.Summarizers {
		switch {
		case s.Summarizer == nil:
			errs = append(errs, fmt.Errorf("summarizer %d (%q): nil", i+1, s.Name))
		case s.Name == "":
			errs = append(errs, fmt.Errorf("summarizer %d: no name", i+1))
		case seen[s.Name]:
			errs = append(errs, fmt.Errorf("summarizer %q given twice", s.Name))
		}
		seen[s.Name] = true
	}
	if o.Agent == nil {
		errs = append(errs, errors.New("no agent"))
	}
	if o.Out == "" {
		errs = append(errs, errors.New("no output folder"))
	}
	if o.Repair && !o.Resume {
		errs = append(errs, errors.New("repair without resume: only a resumed run's journal is repaired"))
	}
	if o.Recall != nil {
		if _, ok := o.Agent.(agents.RecallUser); !ok && o.Agent != nil {
			errs = append(errs, fmt.Errorf("recall: the agent %s has no recall tool", o.AgentName))
		}
	}
	if o.JudgeGate && o.Judge == nil {
		errs = append(errs, errors.New("judge gate without a judge"))
	}
	if o.Judge != nil && o.JudgeName == "" {
		errs = append(errs, errors.New("a judge without a name"))
	}
	switch o.JudgeScope {
	case "", result.JudgeScopeUncertain, result.JudgeScopeAll:
	default:
		errs = append(errs, fmt.Errorf("judge scope %q: want %s or %s", o.JudgeScope, result.JudgeScopeUncertain, result.JudgeScopeAll))
	}
	if o.Trials < 0 {
		errs = append(errs, fmt.Errorf("trials %d: want ≥ 1", o.Trials))
	}
	if o.Shard.Count != 0 && (o.Shard.Index < 1 || o.Shard.Index > o.Shard.Count) {
		errs = append(errs, fmt.Errorf("shard %d/%d: want 1 ≤ i ≤ n", o.Shard.Index, o.Shard.Count))
	}
	return errors.Join(errs...)
}

// NewRunID is a new id for a run started at t: its UTC timestamp and 8
// random hexadecimal digits, 20261129T233417Z-4f9a01c3, so that two runs
// started in the same second never share one. A resumed run keeps the id
// it started with.
func NewRunID(t time.Time) string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on the systems Go supports; the clock's
		// nanoseconds still tell two runs of one second apart.
		binary.BigEndian.PutUint32(b[:], uint32(t.Nanosecond()))
	}
	return t.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// drawRunID is NewRunID; a test replaces it to make names collide.
var drawRunID = NewRunID

// OutRoot is the folder the default run folders are made in.
const OutRoot = "compact-eval-out"

// NewOut makes the folder of a run started at t in parent (OutRoot by
// default) and returns it with the run's id: parent/<run id>. The folder
// is created exclusively, so two runs started at once never share it: a
// name already taken (by another run started in the same second that
// drew the same suffix) draws another id.
func NewOut(parent string, t time.Time) (dir, id string, err error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", "", fmt.Errorf("creating run folder: %w", err)
	}
	for range 100 {
		id = drawRunID(t)
		dir = filepath.Join(parent, id)
		switch err := os.Mkdir(dir, 0o755); {
		case err == nil:
			return dir, id, nil
		case !errors.Is(err, os.ErrExist):
			return "", "", fmt.Errorf("creating run folder: %w", err)
		}
	}
	return "", "", fmt.Errorf("creating run folder: no free name under %s after 100 tries", parent)
}

// ensureDir creates dir.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating run folder: %w", err)
	}
	return nil
}
