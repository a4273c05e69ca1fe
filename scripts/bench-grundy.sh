#!/usr/bin/env bash
# Speed of heaplab's Grundy engines against the baselines issue 4 names, side by side in one
# run on one machine:
#   - subtract-a-square to N = 1e7 against ../shared/baselines/sas_dp.c (`grundy` mode);
#   - octal .16, .56, .6 to N = 1e6 and 1e7 against `ogsolve -m rc2 -n N CODE` (crate
#     ogsolve from crates.io, installed into ~/.cache/heaplab/tools when missing).
# Prints seconds and ratios (baseline time / heaplab time).
#
# usage: scripts/bench-grundy.sh [--quick]   (--quick: 1e6 only)
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

printf '%-10s %-6s %12s %12s %8s\n' game N baseline_s heaplab_s ratio
for n in "${sizes[@]}"; do
  nint=$(python3 -c "print(int(float('$n')))")
  if [ "$n" = "1e7" ] || [ ${#sizes[@]} -eq 1 ]; then
    b=$("$work/sas_dp" $((nint + 1)) grundy | sed -n 's/.*time=\([0-9.]*\)s.*/\1/p')
    h=$("$bench" squares "$n" | secs)
    printf '%-10s %-6s %12s %12s %8s\n' squares "$n" "$b" "$h" "$(ratio "$b" "$h")"
  fi
  for code in .16 .56 .6; do
    b=$( { /usr/bin/time -f '%e' "$tools/bin/ogsolve" -m rc2 -n "$nint" "$code" > /dev/null; } 2>&1 | tail -1)
    h=$("$bench" "$code" "$n" | secs)
    printf '%-10s %-6s %12s %12s %8s\n' "$code" "$n" "$b" "$h" "$(ratio "$b" "$h")"
  done
done
