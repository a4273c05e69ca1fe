#!/usr/bin/env bash
# Speed of heaplab's Grundy engines against the baselines issue 4 names, side by side in one
# run on one machine:
#   - subtract-a-square to N = 1e7 against ../shared/baselines/sas_dp.c (`grundy` mode);
#   - octal .16, .56, .6 to N = 1e6 and 1e7 against `ogsolve -m rc2 -n N CODE` (crate
#     ogsolve from crates.io, installed into ~/.cache/heaplab/tools when missing).
# Each pair runs REPEAT times (default 3), baseline and heaplab alternating, so both see the
# same machine; prints every time, the best of each and the ratio of the bests (baseline /
# heaplab). A virtual machine's timings drift by tens of percent from run to run.
#
# usage: [REPEAT=k] scripts/bench-grundy.sh [--quick]   (--quick: 1e6 only)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
baselines=${BASELINES:-$root/../shared/baselines}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/heaplab/target}"
tools="$HOME/.cache/heaplab/tools"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sizes=(1e6 1e7)
[ "${1:-}" = "--quick" ] && sizes=(1e6)

gcc -O3 -march=native -o "$work/sas_dp" "$baselines/sas_dp.c"
if [ ! -x "$tools/bin/ogsolve" ]; then
  echo "installing ogsolve (crates.io) into $tools ..." >&2
  CARGO_TARGET_DIR="$HOME/.cache/heaplab/ogsolve-target" cargo install -q ogsolve --root "$tools"
fi
cargo build --release -q -p heaplab-core --example grundy_bench
bench="$CARGO_TARGET_DIR/release/examples/grundy_bench"

secs() { sed -n 's/.*seconds=\([0-9.]*\).*/\1/p'; }
ratio() { python3 -c "print(f'{$1/$2:.2f}x')"; }
best() { python3 -c "import sys; print(min(float(x) for x in sys.argv[1:]))" "$@"; }
repeat=${REPEAT:-3}

# row GAME N BASELINE_CMD...: runs the baseline (printing seconds) and heaplab alternately
row() {
  local game=$1 n=$2; shift 2
  local bs=() hs=()
  for _ in $(seq "$repeat"); do
    bs+=("$("$@")")
    hs+=("$("$bench" "$game" "$n" | secs)")
  done
  local b h
  b=$(best "${bs[@]}"); h=$(best "${hs[@]}")
  printf '%-8s %-5s %10s %10s %7s   runs: %s | %s\n' "$game" "$n" "$b" "$h" "$(ratio "$b" "$h")" \
    "${bs[*]}" "${hs[*]}"
}
sas_dp() { "$work/sas_dp" "$1" grundy | sed -n 's/.*time=\([0-9.]*\)s.*/\1/p'; }
ogsolve() { { /usr/bin/time -f '%e' "$tools/bin/ogsolve" -m rc2 -n "$2" "$1" > /dev/null; } 2>&1 | tail -1; }

printf '%-8s %-5s %10s %10s %7s   %s\n' game N baseline_s heaplab_s ratio "runs (baseline | heaplab)"
for n in "${sizes[@]}"; do
  nint=$(python3 -c "print(int(float('$n')))")
  if [ "$n" = "1e7" ] || [ ${#sizes[@]} -eq 1 ]; then
    row squares "$n" sas_dp $((nint + 1))
  fi
  for code in .16 .56 .6; do
    row "$code" "$n" ogsolve "$code" "$nint"
  done
done
