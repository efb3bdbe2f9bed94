#!/usr/bin/env bash
# bench-openai.sh — speed of the openai: summarizer path against a local
# simulated OpenAI-compatible endpoint (internal/testkit/simserver).
#
# Usage: scripts/bench-openai.sh [CALLS] [CONCURRENCY] [LATENCY] [RUNS] [HISTORY]
#        defaults:               400     32            100ms     3      3
#
# HISTORY is the events each call summarizes: 3 makes a 6 KB request, 150
# about the built-in suite's 21 KB (compare with scripts/bench-suite.sh).
#
# It builds simserver and loadgen (internal/testkit/loadgen: the real
# summarizers.NewOpenAI path: prompt rendering, strict json_schema request,
# retries/limits machinery, reply parsing; cache off) and measures:
#
#   1. wall time of CALLS calls at CONCURRENCY against an endpoint with
#      LATENCY, as a ratio of the ideal CALLS × LATENCY ÷ CONCURRENCY. Also
#      printed: floor_ratio, the best any client can do when calls take
#      exactly LATENCY (ceil(CALLS / CONCURRENCY) rounds; 1.04 for 400/32).
#   2. harness CPU time per call with LATENCY 0: getrusage of the client
#      process only (the endpoint runs in its own process).
#   3. process start to first request: the time from just before exec of a
#      fresh client process to the endpoint receiving its first request
#      (simserver writes that instant to a file). By default the client is
#      loadgen -n 1; set CE_START_CMD to measure another command, with
#      {BASE} replaced by the endpoint URL and {OUT} by a new, not yet
#      existing folder under the script's temporary directory (one per
#      start, so that no start resumes or collides with an earlier one), e.g.
#        CE_START_CMD='./compact-eval run --summarizer openai:sim --no-cache --out {OUT}'
#      (OPENAI_BASE_URL and OPENAI_API_KEY are exported to it).
#
# Figures are printed one line per run; nothing is written to the repository.
# The machine should be otherwise idle: on a shared box, wall ratios move
# with other people's load (uptime is printed first).
set -euo pipefail

calls=${1:-400}
conc=${2:-32}
latency=${3:-100ms}
runs=${4:-3}
history=${5:-3}

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
sim_pid=""
cleanup() {
	if [[ -n $sim_pid ]]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

cd "$root"
go build -o "$tmp/simserver" ./internal/testkit/simserver
go build -o "$tmp/loadgen" ./internal/testkit/loadgen

# start_sim LATENCY: starts a fresh simserver, sets $base.
start_sim() {
	if [[ -n $sim_pid ]]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
	rm -f "$tmp/addr" "$tmp/first"
	"$tmp/simserver" -latency "$1" -addr-file "$tmp/addr" -first-file "$tmp/first" 2>>"$tmp/sim.log" &
	sim_pid=$!
	for _ in $(seq 200); do [[ -s $tmp/addr ]] && break; sleep 0.01; done
	[[ -s $tmp/addr ]] || { echo "simserver did not start" >&2; exit 3; }
	base=$(cat "$tmp/addr")
}

echo "# machine: $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"

echo "# 1. wall time: $calls calls, -j $conc, latency $latency"
start_sim "$latency"
for _ in $(seq "$runs"); do
	"$tmp/loadgen" -base "$base" -n "$calls" -j "$conc" -latency "$latency" -history "$history"
done

echo "# 2. harness CPU per call: latency 0, $((calls * 5)) calls, -j $conc"
start_sim 0
for _ in $(seq "$runs"); do
	"$tmp/loadgen" -base "$base" -n $((calls * 5)) -j "$conc" -latency 1ms -history "$history" | sed 's/ ideal=.*floor_ratio=[0-9.]*//'
done

echo "# 3. process start to first request"
cmd=${CE_START_CMD:-"$tmp/loadgen -base {BASE} -n 1 -j 1"}
for i in $(seq $((runs + 2))); do
	start_sim 0
	run=${cmd//\{BASE\}/$base}
	run=${run//\{OUT\}/$tmp/out-$i}
	t0=$(date +%s%N)
	OPENAI_BASE_URL=$base OPENAI_API_KEY=sk-bench bash -c "exec $run" >/dev/null
	for _ in $(seq 100); do [[ -s $tmp/first ]] && break; sleep 0.01; done
	if [[ -s $tmp/first ]]; then
		first=$(cat "$tmp/first")
		awk -v a="$t0" -v b="$first" 'BEGIN { printf "start_to_first_request=%.1fms\n", (b - a) / 1e6 }'
	else
		echo "start_to_first_request: no request seen"
	fi
done
