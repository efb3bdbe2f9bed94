#!/usr/bin/env bash
# bench-suite.sh — the real command on the built-in suite × trials through an
# openai: summarizer, against the simulated OpenAI-compatible endpoint
# (internal/testkit/simserver, its own process), as issue 17 measures it.
#
# Usage: scripts/bench-suite.sh [TRIALS] [JOBS] [LATENCY] [RUNS]
#        defaults:              16       32     100ms     3
#
# With CE_BASELINE=REV (a git revision), it also builds the command at REV
# and runs the two builds alternately, run after run, so that both meet the
# same machine: on a shared host the speed moves too much between sittings
# for figures taken apart to be compared.
#
# For each of RUNS runs it prints, and then the best and the median of them:
#
#   1. at LATENCY: wall time of `compact-eval run --summarizer openai:sim
#      --trials TRIALS -j JOBS --no-cache`, the requests the endpoint got,
#      and wall ÷ floor, where floor = ceil(requests ÷ JOBS) × LATENCY: no
#      client can finish sooner (a unit's later generations wait for its
#      earlier ones, so the true floor can be higher);
#   2. at latency 0: harness CPU (user + system of the command, getrusage
#      through /usr/bin/time; the endpoint's CPU is not counted) per unit
#      and per request, and peak RSS;
#   3. start to first request: from just before exec of the command to the
#      endpoint receiving its first request (simserver -first-file).
#
# Units are scenarios × TRIALS (one summarizer); the reference agent answers
# the probes offline, so every request is a summarize call. Nothing is
# written to the repository. The load average is printed first: on a shared
# machine wall ratios move with other people's load, so compare best-of-RUNS
# figures taken at similar load.
set -euo pipefail

trials=${1:-16}
jobs=${2:-32}
latency=${3:-100ms}
runs=${4:-3}

if [[ ! -x /usr/bin/time ]]; then
	echo "bench-suite.sh: /usr/bin/time is needed (apt-get install time)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ce-bench-suite.XXXXXX")
sim_pid=""
stop_sim() {
	if [[ -n $sim_pid ]]; then
		kill "$sim_pid" 2>/dev/null || true
		wait "$sim_pid" 2>/dev/null || true
		sim_pid=""
	fi
}
trap 'stop_sim; rm -rf "$tmp"' EXIT

cd "$root"
go build -o "$tmp/compact-eval" ./cmd/compact-eval
go build -o "$tmp/simserver" ./internal/testkit/simserver
builds=(this)
if [[ -n ${CE_BASELINE:-} ]]; then
	git worktree add --quiet --detach "$tmp/baseline-src" "$CE_BASELINE"
	(cd "$tmp/baseline-src" && go build -o "$tmp/compact-eval-baseline" ./cmd/compact-eval)
	git worktree remove --force "$tmp/baseline-src"
	builds=(baseline this)
fi
# bin BUILD: the binary of a build.
bin() { if [[ $1 == baseline ]]; then echo "$tmp/compact-eval-baseline"; else echo "$tmp/compact-eval"; fi; }
scenarios=$("$tmp/compact-eval" validate | sed -n 's/^\([0-9]*\) scenarios* OK$/\1/p')
units=$((scenarios * trials))

# start_sim LATENCY: a fresh simserver; sets $base.
start_sim() {
	stop_sim
	rm -f "$tmp/addr" "$tmp/first" "$tmp/sim.log"
	"$tmp/simserver" -latency "$1" -addr-file "$tmp/addr" -first-file "$tmp/first" 2>"$tmp/sim.log" &
	sim_pid=$!
	for _ in $(seq 300); do [[ -s $tmp/addr ]] && break; sleep 0.01; done
	[[ -s $tmp/addr ]] || { echo "simserver did not start" >&2; exit 3; }
	base=$(cat "$tmp/addr")
}

# requests_seen: the requests the stopped simserver answered. Call stop_sim
# first, in this shell: a $(…) subshell cannot wait for it.
requests_seen() {
	sed -n 's/^simserver: \([0-9]*\) requests.*/\1/p' "$tmp/sim.log"
}

# run_cli BUILD OUT: one run of a build under /usr/bin/time -v into $tmp/time.
run_cli() {
	OPENAI_BASE_URL=$base OPENAI_API_KEY=sk-bench XDG_CACHE_HOME=$tmp/cache-$1 \
		/usr/bin/time -v -o "$tmp/time" "$(bin "$1")" run --summarizer openai:sim \
		--trials "$trials" -j "$jobs" --no-cache --out "$2" >"$tmp/stdout" 2>"$tmp/stderr" || {
		echo "compact-eval run failed:" >&2
		cat "$tmp/stdout" "$tmp/stderr" >&2
		exit 1
	}
	rm -rf "$2"
}
field() { sed -n "s/.*$1: //p" "$tmp/time"; }
# cpu_s, rss_mb: the last run's user + system seconds and peak RSS in MB.
cpu_s() { awk -v u="$(field 'User time (seconds)')" -v s="$(field 'System time (seconds)')" 'BEGIN { print u + s }'; }
rss_mb() { awk -v r="$(field 'Maximum resident set size (kbytes)')" 'BEGIN { printf "%.1f", r / 1024 }'; }
# first_ms T0: ms from T0 (ns) to the endpoint's first request, or "none".
first_ms() { awk -v a="$1" -v b="$(cat "$tmp/first" 2>/dev/null || echo 0)" 'BEGIN { if (b == 0) print "none"; else printf "%.1f", (b - a) / 1e6 }'; }
wall_s() { field 'Elapsed (wall clock) time (h:mm:ss or m:ss)' | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
lat_s=$(awk -v l="$latency" 'BEGIN { if (l ~ /ms$/) print substr(l, 1, length(l) - 2) / 1000; else if (l ~ /s$/) print substr(l, 1, length(l) - 1) + 0; else print l }')

echo "# machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# built-in suite: $scenarios scenarios × $trials trials = $units units, -j $jobs, openai:sim, cache off"

# A fresh cache: the first run derives the token table (tokens/o200k.v2.bin,
# once per machine). It is measured on its own, and the runs after it
# measure a machine that has it, as every run but a CI machine's first does.
for b in "${builds[@]}"; do
	start_sim 0
	t0=$(date +%s%N)
	run_cli "$b" "$tmp/out-cold"
	echo "$b: first run on a fresh cache (token table derived): cpu=$(cpu_s)s peak_rss=$(rss_mb)MB start_to_first_request=$(first_ms "$t0")ms"
	stop_sim
done

# The figures of each build, space-separated, by build.
declare -A ratios cpus rsss starts
# best and median of numbers: "best/median"
stats() { printf '%s\n' "$@" | sort -g | awk 'NF { v[++n] = $1 } END { if (n == 0) { print "none"; exit } m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; printf "%s/%g", v[1], m }'; }

# measure BUILD R: run R of a build, its three figures.
measure() {
	local b=$1 r=$2 wall calls line cpu rss calls0 cpu_unit cpu_call t0 start_ms
	# 1. wall at LATENCY
	start_sim "$latency"
	run_cli "$b" "$tmp/out-wall"
	wall=$(wall_s)
	stop_sim
	calls=$(requests_seen)
	[[ ${calls:-0} -gt 0 ]] || { echo "bench-suite.sh: simserver reported no request count" >&2; cat "$tmp/sim.log" >&2; exit 3; }
	line=$(awk -v w="$wall" -v c="$calls" -v j="$jobs" -v l="$lat_s" 'BEGIN {
		f = int((c + j - 1) / j) * l
		printf "wall=%.2fs requests=%d floor=%.2fs wall/floor=%.2f", w, c, f, w / f }')
	ratios[$b]+=" ${line##*wall/floor=}"

	# 2. CPU and RSS at latency 0
	start_sim 0
	run_cli "$b" "$tmp/out-cpu"
	cpu=$(cpu_s)
	rss=$(rss_mb)
	stop_sim
	calls0=$(requests_seen)
	[[ ${calls0:-0} -gt 0 ]] || { echo "bench-suite.sh: simserver reported no request count" >&2; cat "$tmp/sim.log" >&2; exit 3; }
	cpu_unit=$(awk -v c="$cpu" -v n="$units" 'BEGIN { printf "%.2f", 1000 * c / n }')
	cpu_call=$(awk -v c="$cpu" -v n="$calls0" 'BEGIN { printf "%.2f", 1000 * c / n }')
	cpus[$b]+=" $cpu_unit"
	rsss[$b]+=" $rss"

	# 3. start to first request
	start_sim 0
	t0=$(date +%s%N)
	run_cli "$b" "$tmp/out-start"
	start_ms=$(first_ms "$t0")
	stop_sim
	[[ $start_ms != none ]] && starts[$b]+=" $start_ms"

	echo "$b run $r: at $latency: $line | at 0: cpu=${cpu}s cpu/unit=${cpu_unit}ms cpu/request=${cpu_call}ms peak_rss=${rss}MB | start_to_first_request=${start_ms}ms"
}

for r in $(seq "$runs"); do
	for b in "${builds[@]}"; do
		measure "$b" "$r"
	done
done
for b in "${builds[@]}"; do
	# shellcheck disable=SC2086 # the lists are space-separated numbers
	echo "$b: best/median of $runs: wall/floor=$(stats ${ratios[$b]}) cpu/unit=$(stats ${cpus[$b]})ms peak_rss=$(stats ${rsss[$b]})MB start_to_first_request=$(stats ${starts[$b]:-})ms"
done
echo "# targets (issue 17): wall/floor ≤ 1.05, cpu/unit ≤ 0.7 ms, peak RSS ≤ 60 MB, start to first request < 30 ms"
