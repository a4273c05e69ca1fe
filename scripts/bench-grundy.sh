#!/usr/bin/env bash
# Speed of heaplab's Grundy engines against the baselines, side by side in one run on one
# machine (issues 4 and 23):
#   - take-and-break codes 0.014 0.034 0.161 0.167 0.172 .6 .16 .56 .354 to 2^20 and 2^24
#     against `ogsolve -m rc2 -n N CODE` (crate ogsolve from crates.io, installed into
#     ~/.cache/heaplab/tools when missing; single-threaded, heaplab uses every core);
#   - the same codes 0.014 0.034 0.161 0.167 0.172 against the public sparse-space record
#     solver (github rogalski-wmii-uni-lodz-pl/octal, `cargo build --release`, run as
#     `octal CODE N 0`; issue 35) when RECORD names its binary (this machine has no access
#     to GitHub: build it from a copy), rows marked `(record)`, where heaplab runs
#     `heaplab record --snapshots DIR` (the same job: value-frequency snapshots);
#   - Grundy's game to 2^20 and 2^24: ogsolve takes octal codes only, so heaplab alone;
#   - subtract-a-square to N = 1e7 against ../shared/baselines/sas_dp.c (`grundy` mode);
#   - subtract-a-prime (a dense set) by the layer engine against the blocked mex at 1e6 and
#     1e7 (values compared: equal=true), and the layer engine alone to 1e8 (issue 23 asks
#     for under ten minutes).
# Each pair runs REPEAT times (default 3), baseline and heaplab alternating, so both see the
# same machine; prints every time, the best of each, heaplab's peak memory (best run) and
# the ratio of the bests heaplab / baseline (issue 23 asks for <= 0.5). Both are wall times
# of whole processes, as a user runs them (issue 35): `ogsolve -m rc2 -n N CODE` against
# `heaplab record --game CODE --max N` (see `heaplab()` below; HEAPLAB=table for
# `heaplab table --grundy -o t.parquet`). A virtual machine's timings drift by tens of
# percent.
#
# usage: [REPEAT=k] [GAMES="0.167 .6"] [SIZES="16777216 67108864"] [BASELINE=record]
#        [RECORD=path/to/octal] scripts/bench-grundy.sh [--quick]
#        (--quick: 2^20 only, no squares; BASELINE=record: only the rows against the record
#        solver, BASELINE=ogsolve: only those against ogsolve)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
baselines=${BASELINES:-$root/../shared/baselines}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/heaplab/target}"
tools="$HOME/.cache/heaplab/tools"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sizes=(${SIZES:-1048576 16777216})
quick=0
[ "${1:-}" = "--quick" ] && { sizes=(1048576); quick=1; }
games=${GAMES:-"0.014 0.034 0.161 0.167 0.172 .6 .16 .56 .354 grundy-game"}
baseline=${BASELINE:-all}
case $baseline in
  all|ogsolve|record) ;;
  *) echo "BASELINE must be all, ogsolve or record, not '$baseline'" >&2; exit 2 ;;
esac
if [ "$baseline" = record ] && [ -z "${RECORD:-}" ]; then
  echo "BASELINE=record needs RECORD=path/to/octal (the record solver's binary)" >&2; exit 2
fi

if [ -f "$baselines/sas_dp.c" ]; then
  gcc -O3 -march=native -o "$work/sas_dp" "$baselines/sas_dp.c"
fi
if [ "$baseline" != record ] && [ ! -x "$tools/bin/ogsolve" ]; then
  echo "installing ogsolve (crates.io) into $tools ..." >&2
  CARGO_TARGET_DIR="$HOME/.cache/heaplab/ogsolve-target" cargo install -q ogsolve --root "$tools"
fi
cargo build --release -q -p heaplab-report
cargo build --release -q -p heaplab-core --example layers_bench
cli="$CARGO_TARGET_DIR/release/heaplab"
layers="$CARGO_TARGET_DIR/release/examples/layers_bench"

best() { python3 -c "import sys; print(min(float(x) for x in sys.argv[1:]))" "$@"; }
repeat=${REPEAT:-3}

# one heaplab run, the whole command: "seconds peak_kb". The command doing the baseline's
# job: `heaplab record --game CODE --max N` (every value computed, a summary printed: what
# `ogsolve -m rc2` does), with `--snapshots DIR` against the record solver (which writes
# value-frequency snapshots); HEAPLAB=table times `heaplab table --grundy -o t.parquet`
# instead (the whole table written).
heaplab() {
  if [ "${HEAPLAB:-record}" = record ]; then
    rm -rf "$work/snaps"
    local snaps=()
    [ -n "${SNAPS:-}" ] && snaps=(--snapshots "$work/snaps")
    /usr/bin/time -o "$work/time" -f '%e %M' \
      "$cli" record --game "$1" --max "$2" "${snaps[@]}" -q > /dev/null
  else
    /usr/bin/time -o "$work/time" -f '%e %M' \
      "$cli" table --grundy --game "$1" --max "$2" -o "$work/t.parquet" -q > /dev/null
  fi
  cat "$work/time"
}

# row GAME N [BASELINE_CMD...]: runs the baseline (printing seconds) and heaplab alternately
row() {
  local game=$1 n=$2; shift 2
  local bs=() hs=() best_h="" mem=""
  for _ in $(seq "$repeat"); do
    if [ $# -gt 0 ]; then bs+=("$("$@")"); fi
    local r; r=$(heaplab "$game" "$n")
    hs+=("${r% *}")
    if [ -z "$best_h" ] || python3 -c "import sys; sys.exit(0 if float('${r% *}') < float('$best_h') else 1)"; then
      best_h=${r% *}; mem=${r#* }
    fi
  done
  local b="n/a" ratio="n/a"
  if [ ${#bs[@]} -gt 0 ]; then
    b=$(best "${bs[@]}")
    ratio=$(python3 -c "print(f'{$best_h/$b:.2f}')")
  fi
  printf '%-12s %-9s %10s %10s %9s %7s   runs: %s | %s\n' "${LABEL:-$game}" "$n" "$b" "$best_h" \
    "$((mem / 1024))MB" "$ratio" "${bs[*]:-}" "${hs[*]}"
}
sas_dp() { "$work/sas_dp" "$1" grundy | sed -n 's/.*time=\([0-9.]*\)s.*/\1/p'; }
ogsolve() { { /usr/bin/time -f '%e' "$tools/bin/ogsolve" -m rc2 -n "$2" "$1" > /dev/null; } 2>&1 | tail -1; }
record() {
  (cd "$work" && /usr/bin/time -o "$work/rtime" -f '%e' "$RECORD" "$1" "$2" 0 > /dev/null 2>&1)
  cat "$work/rtime"
}

printf '%-12s %-9s %10s %10s %9s %7s   %s\n' game N baseline_s heaplab_s heap_mem "h/b" "runs (baseline | heaplab)"
for n in "${sizes[@]}"; do
  for code in $games; do
    if [ "$baseline" != record ]; then
      case $code in
        grundy-game) row "$code" "$n" ;;
        *) row "$code" "$n" ogsolve "$code" "$n" ;;
      esac
    fi
    case $code in
      0.014|0.034|0.161|0.167|0.172)
        if [ -n "${RECORD:-}" ] && [ "$baseline" != ogsolve ]; then
          LABEL="$code(record)" SNAPS=1 row "$code" "$n" record "$code" "$n"
        fi ;;
    esac
  done
done
if [ $quick = 0 ] && [ -x "$work/sas_dp" ] && [ -z "${GAMES:-}" ] && [ "$baseline" = all ]; then
  HEAPLAB=table row squares 10000000 sas_dp 10000001
fi
if [ $quick = 0 ] && [ -z "${GAMES:-}" ] && [ "$baseline" = all ]; then
  echo "dense sets: the layer engine (layer_s) against the blocked mex (blocked_s), one run each"
  for n in 1000000 10000000; do
    { /usr/bin/time -f 'mem %M' "$layers" primes "$n" check > "$work/out"; } 2> "$work/mem"
    l=$(sed -n 's/.*max_grundy.*seconds=\([0-9.]*\).*/\1/p' "$work/out")
    b=$(sed -n 's/^blocked mex: seconds=\([0-9.]*\).*/\1/p' "$work/out")
    eq=$(sed -n 's/.*equal=\(.*\)/\1/p' "$work/out")
    printf 'primes %-9s layer_s %8s blocked_s %8s equal=%s ratio %s\n' "$n" "$l" "$b" "$eq" \
      "$(python3 -c "print(f'{$l/$b:.2f}')")"
  done
  { /usr/bin/time -f 'mem %M' "$layers" primes 100000000 > "$work/out"; } 2> "$work/mem"
  printf 'primes 1e8 layer engine: %s, peak %s MB\n' "$(cat "$work/out")" \
    "$(( $(sed -n 's/^mem //p' "$work/mem") / 1024 ))"
fi
